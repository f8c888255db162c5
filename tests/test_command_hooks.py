"""The commands about one game (play, cards, strategies, components, train) reach a game's
own command code through its spec's hooks (``GameSpec``'s commands block), never by its
name: a game that declares a hook gets its command, one that declares None gets the path
every game has."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cdsim import games
from cdsim.games import GAMES, game_spec
from cdsim.games.features import ComponentFiles, PlayedGame, PlayRequest
from tests.commands import run_cli

HOOKS = ("component_files", "play", "score", "card_list", "strategy_lines", "training")


def test_carpe_diem_declares_every_command_hook_and_the_others_none() -> None:
    carpe = game_spec("carpe-diem")
    assert all(getattr(carpe, hook) is not None for hook in HOOKS)
    for name in ("castles", "mediterranean"):
        spec = game_spec(name)
        assert all(getattr(spec, hook) is None for hook in HOOKS), name
    # every game's weights file holds its name
    assert {s.weights_file.name for s in GAMES.values()} == {
        "carpe_diem-learned.json", "castles-learned.json", "mediterranean-learned.json"}


@pytest.fixture
def castles_with_hooks(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The Castles of Tuscany's spec with every command hook a recording fake: what each
    command hands its hook, in order."""
    seen: list[object] = []

    def play(request: PlayRequest) -> PlayedGame:
        seen.append(request)
        return PlayedGame(json={"fake": True}, lines=("fake table",), replay=None)

    def lines(*args: object) -> list[str]:
        seen.append(args)
        return ["fake lines"]

    files = ComponentFiles(check=lines, sheet=lambda p, s: ({}, "fake"),
                           export=lambda p: ({"fake.toml": b"x"}, "0" * 64), diff=lines)
    fake = dataclasses.replace(GAMES["castles"], play=play, card_list=lines,
                               strategy_lines=lines, component_files=files,
                               load_components=lambda path: None, entries=None)
    monkeypatch.setitem(games.GAMES, "castles", fake)
    return seen


def test_play_calls_the_games_own_table(castles_with_hooks: list[object],
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["play", "--game", "castles", "--players", "3", "--seed", "4",
                              "--strategies", "a,b,c", "--start-vp", "1,2,3", "--trace"],
                             monkeypatch, capsys)
    assert code == 0, err
    assert out == "fake table\n"
    request, = castles_with_hooks
    assert request == PlayRequest(3, 4, None, (1, 2, 3), ("a", "b", "c"), None, None, True,
                                  False)


def test_cards_strategies_and_components_call_its_hooks(
        castles_with_hooks: list[object], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for args in (["cards", "--game", "castles", "--json"], ["strategies", "--game", "castles"],
                 ["components", "check", "--game", "castles", str(tmp_path)]):
        code, out, err = run_cli(args, monkeypatch, capsys)
        assert code == 0 and out.startswith("fake lines\n"), (args, out, err)
    assert castles_with_hooks[:3] == [(None, True), (), (str(tmp_path),)]
    code, out, err = run_cli(["components", "export", "--game", "castles", str(tmp_path / "x")],
                             monkeypatch, capsys)
    assert code == 0 and (tmp_path / "x" / "fake.toml").read_bytes() == b"x", err
    # a set of files loads from its folder: the export names the folder
    assert out.endswith(f"--game castles --components {tmp_path / 'x'}\n"), out


def test_a_game_without_the_hooks_takes_every_games_path(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Carpe Diem's spec without its hooks: its cards are refused as a game without cards
    is, its strategies are its names."""
    bare = dataclasses.replace(GAMES["carpe-diem"], card_list=None, strategy_lines=None,
                               player_words={"greedy": "fake words"})
    monkeypatch.setitem(games.GAMES, "carpe-diem", bare)
    code, _, err = run_cli(["cards"], monkeypatch, capsys)
    assert code == 2 and "Carpe Diem has no objective or fountain cards" in err
    code, out, err = run_cli(["strategies"], monkeypatch, capsys)
    assert code == 0 and "greedy            fake words\n" in out, err
