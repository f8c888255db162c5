"""The game registry (cdsim.games): each spec reads its game from the core, and bad input
for a game is one CdsimError naming the flag."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games import DEFAULT_GAME, GAMES, game_spec

needs_core = pytest.mark.skipif(not core.available(), reason="needs the compiled core")


def test_every_core_game_has_a_spec_and_carpe_diem_is_the_default() -> None:
    assert DEFAULT_GAME == "carpe-diem"
    assert game_spec(None).name == "carpe-diem"
    module = core.module()
    if module is not None:
        assert tuple(GAMES) == tuple(module.GAMES)


def test_carpe_diem_starts_with_the_rulebook_vp_and_castles_with_zeros() -> None:
    assert game_spec("carpe-diem").start_vp(4) == (8, 9, 10, 11)
    assert game_spec("castles").start_vp(3) == (0, 0, 0)


def test_an_unknown_game_names_the_flag_and_the_closest_name() -> None:
    with pytest.raises(CdsimError, match=r"^--game: unknown game 'castle'.*did you mean 'castles'"):
        game_spec("castle")


def test_a_wrong_player_count_names_the_flag() -> None:
    with pytest.raises(CdsimError, match=r"^--players: castles is played by 2, 3, 4"):
        game_spec("castles").check_players(5)
    game_spec("castles").check_players(4)


@needs_core
def test_castles_players_come_from_the_core_and_refuse_carpe_diem_names() -> None:
    spec = game_spec("castles")
    assert "castle-monastery" in spec.player_names() and "mcts" in spec.player_names()
    assert set(spec.scripted) <= set(spec.player_names())
    with pytest.raises(CdsimError, match=r"^--strategies: 'villa' is not a castles player"):
        spec.check_strategy("villa")
    spec.check_strategy("mcts")


@needs_core
def test_castles_columns_have_no_cards_and_its_breakdown_sums_final_vp() -> None:
    columns, breakdown = game_spec("castles").columns()
    names = [name for name, _ in columns]
    assert "failed_cards" not in names and "final_vp" in names
    assert all(f"vp_{source}" in names for source in breakdown)


@needs_core
def test_a_broken_castles_override_is_one_error_naming_the_file(tmp_path: Path) -> None:
    load = game_spec("castles").load_components
    assert load(None) is not None
    bad_key = tmp_path / "key.json"
    bad_key.write_text(json.dumps({"player_tilez": []}))
    with pytest.raises(CdsimError, match=r"key.json: unknown key 'player_tilez'"):
        load(str(bad_key))
    bad_value = tmp_path / "value.json"
    bad_value.write_text(json.dumps({"player_tiles": "many"}))
    with pytest.raises(CdsimError, match=r"value.json: "):
        load(str(bad_value))


@needs_core
def test_cdsim_games_lists_every_registered_game(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from tests.commands import run_main

    monkeypatch.setattr("sys.argv", ["cdsim", "games"])
    from cdsim.cli import main

    main()
    out = capsys.readouterr().out
    for spec in GAMES.values():
        assert f"{spec.name}" in out and spec.title in out
        assert ", ".join(spec.player_names()) in out
    assert "carpe-diem (the default)" in out and "4p 8/9/10/11" in out
    assert "0/0" not in out and "the rulebook compensates no seat" in out  # issue 60 item 2
    assert run_main(["games", "--nope"], monkeypatch, capsys)[0] == 2


def test_the_top_help_and_every_game_flag_name_the_registered_games() -> None:
    # the top help named Carpe Diem only; --game's help named the games by hand
    from typer.testing import CliRunner

    from cdsim.cli import app
    from cdsim.cli.app import complete_game

    assert core.module() is not None
    top = CliRunner().invoke(app, ["--help"], terminal_width=400).output
    flag = CliRunner().invoke(app, ["simulate", "--help"], terminal_width=400).output
    for name in GAMES:
        assert name in top and name in flag, name
    assert complete_game("") == list(GAMES)
    assert complete_game(DEFAULT_GAME[:3]) == [n for n in GAMES if n.startswith(DEFAULT_GAME[:3])]
    assert complete_game("no-such-game") == []


def test_strategies_and_cards_take_the_game(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # neither took --game: Castles' players could be listed nowhere but `cdsim games`
    from tests.commands import run_cli

    for spec in GAMES.values():
        code, out, err = run_cli(["strategies", "--game", spec.name], monkeypatch, capsys)
        assert code == 0, err
        listed = [line.split()[0] for line in out.splitlines()
                  if line and not line.startswith(" ")]
        assert set(spec.player_names()) <= set(listed), (spec.name, listed)
        if spec.player_words is not None:  # each player in a line of words, none left bare
            assert all(spec.player_words.get(n) for n in spec.player_names()), spec.name
        code, out, err = run_cli(["cards", "--game", spec.name], monkeypatch, capsys)
        if spec.cards is None:
            assert code == 2 and err.count("\n") == 1, err
            assert f"--game {spec.name}" in err and "has no objective or fountain cards" in err
        else:
            assert code == 0 and "B05" in out, err
