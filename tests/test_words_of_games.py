"""What cdsim says of each game is in words and true for that game (audit of issue 60, the
wording defects): no code name in a sentence a designer reads (``shared_win``), and the
help and report lines that count players, name a game or promise a kind of strategy hold
for every game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cdsim.games import GAMES
from tests.conftest import core_or_skip

CODE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")  # a column's or a key's code name


@pytest.mark.parametrize("name", list(GAMES))
def test_each_game_s_tie_break_is_said_in_words(name: str) -> None:
    said = GAMES[name].tiebreak_rule
    assert not CODE_WORD.search(said), said


PHRASE = re.compile(r"\b[2-9](?:, [2-9])* (?:and|or) [2-9]\b|\b[2-9]-[2-9] players\b")


@pytest.mark.parametrize("command", [["study"], ["study", "run"], ["whatif"], ["ladder"],
                                     ["balance"], ["power"], ["play"], ["simulate"]])
def test_help_counts_no_players_a_game_does_not_take(
        command: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A help text names player counts from the registry (every game's, as --players says
    them) or words them per game: "2, 3 and 4 players", "3 or 4", "3-4 players" were false
    for a game played by 3 to 5."""
    from cdsim.games import PLAYER_COUNTS, counts_said
    from tests.commands import run_cli

    code, out, err = run_cli([*command, "--help"], monkeypatch, capsys)
    assert code == 0, err
    text = " ".join(out.split())  # the help's own line breaks undone
    found = [m.group(0) for m in PHRASE.finditer(text) if m.group(0) != counts_said(PLAYER_COUNTS)]
    assert not found, found
    if command == ["whatif"]:  # strong play only where a game has a learned player
        assert "strong (the learned player, in a game that has one)" in text
    if command == ["play"]:  # a seam game's play seats built-in players only
        assert "in the default game your own Python strategies (module:Class)" in text


def test_power_words_the_study_cell_for_any_count(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.commands import run_cli

    code, out, err = run_cli(["power", "--game", "mediterranean", "--players", "5"],
                             monkeypatch, capsys)
    assert code == 0, err
    assert "with more than 2 players: after its first stage" in out
    assert not PHRASE.search(out), out


def test_the_run_report_names_the_game_s_own_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A run report's undecided vector at more than 2 players: the counts where the vectors
    to test are chosen on the games themselves, the game's (3, 4 or 5), where it said "3 or
    4" of every game; Carpe Diem's words as they were."""
    core_or_skip()
    from cdsim.batch import balance as judging
    from cdsim.batch.read import open_run, seat_arrays
    from reports.balance import explain
    from tests.commands import run_main

    out = tmp_path / "r"
    code, err = run_main(["simulate", "--game", "mediterranean", "-n", "5", "--games", "200",
                          "--strategies", "random", "--jobs", "1", "--out", str(out)],
                         monkeypatch, capsys)
    assert code == 0, err
    run = open_run(out)
    result = judging.analyse(run, seat_arrays(run))
    assert result.balance.verdict.decision not in ("confirmed", "no fair vector")  # 200 games
    said = explain(result, GAMES["mediterranean"].player_counts)
    assert "with 3, 4 or 5 players the vectors to test are chosen on these games" in said
    assert "with 3 or 4 players the vectors" in explain(result, GAMES["carpe-diem"].player_counts)


def test_a_seam_game_s_play_starts_at_the_rulebook_s_vp(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``cdsim play --game castles`` without --start-vp starts every seat at the game's own
    ``start_vp`` (its spec), not at zeros written into the command."""
    core_or_skip()
    import dataclasses

    from tests.commands import run_cli

    spec = GAMES["castles"]
    monkeypatch.setitem(GAMES, "castles", dataclasses.replace(
        spec, start_vp=lambda n: tuple(range(3, 3 + n))))
    code, out, err = run_cli(["play", "--game", "castles", "--players", "2", "--json"],
                             monkeypatch, capsys)
    assert code == 0, err
    seats = json.loads(out)["seats"]
    assert [s["start_vp"] for s in seats] == [3, 4], seats


def test_the_package_names_no_one_game() -> None:
    import cdsim

    assert "Carpe Diem" not in (cdsim.__doc__ or "")
