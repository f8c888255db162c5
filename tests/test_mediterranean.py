"""The Mediterranean trading game as cdsim.games registers it (docs/mediterranean.md): its
spec read from the core, its start, tie-break and component files, and bad input for it as
one line and exit 2."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pytest

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games import GAMES, game_spec
from tests.commands import run_cli

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")


def test_its_spec_seats_three_to_five_from_zero_vp_with_the_cores_players() -> None:
    spec = game_spec("mediterranean")
    assert spec.player_counts == (3, 4, 5)
    assert spec.start_vp(5) == (0, 0, 0, 0, 0)  # M2.6: 5 coins each, no VP compensation
    assert set(spec.scripted) <= set(spec.player_names())
    assert {"random", "greedy", "mcts"} <= set(spec.player_names())
    assert spec.player_words is not None and set(spec.player_words) == set(spec.player_names())
    names = [name for name, _ in spec.columns()[0]]
    assert {"final_order", "shared_win", "won", "rank"} <= set(names)
    assert set(spec.tiebreak[0]) <= set(names)
    for n in (2, 6):
        with pytest.raises(CdsimError, match=rf"^--players: mediterranean is played by 3, 4, 5 "
                                             rf"players, not {n}$"):
            spec.check_players(n)


def test_its_scripted_players_are_the_profiles_files_tables_in_its_words() -> None:
    # strategies/mediterranean-profiles.toml states them once: the core plays its weights,
    # cdsim lists its descriptions (and a study's population is its tables)
    from cdsim.games.mediterranean import PLAYER_WORDS, SCRIPTED
    from cdsim.games.mediterranean.profiles import PROFILES_FILE, descriptions

    tables = [name for name in tomllib.loads(PROFILES_FILE.read_text()) if name != "defaults"]
    assert tuple(tables) == SCRIPTED == tuple(descriptions())
    for name, words in descriptions().items():
        assert words and PLAYER_WORDS[name].endswith(words), name


def test_the_tiebreak_ranks_the_earlier_place_in_the_final_order_first() -> None:
    # M8.2: of seats tied on VP the earlier in the final play order ranks first
    columns, key = game_spec("mediterranean").tiebreak
    assert columns == ("final_order",)
    order = np.array([[2, 0, 1], [0, 1, 2]])
    keys = key(3, order)
    assert keys.shape == (2, 3)
    assert list(np.argmin(keys, axis=1)) == [1, 0]


def test_a_broken_override_is_one_error_naming_the_file(tmp_path: Path) -> None:
    spec = game_spec("mediterranean")
    digest, builtin = spec.components_digest(None)
    assert builtin and len(digest) == 64
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"bonus_tiles": [{"points": 3, "count": 15,
                                                 "source": "reconstructed"}]}))
    assert spec.components_digest(str(good))[0] != digest
    for body, says in (({"bonus_tilez": []}, "unknown key 'bonus_tilez'"),
                       ({"game": "castles"}, 'game must be "mediterranean"'),
                       ({"bonus_tiles": "many"}, ""), ([], "a JSON object")):
        bad = tmp_path / f"bad{len(says)}.json"
        bad.write_text(json.dumps(body))
        with pytest.raises(CdsimError, match=rf"^{bad}: .*{says}"):
            spec.load_components(str(bad))


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "--game", "mediterranean", "-n", "2", "--games", "3",
      "--strategies", "greedy"], "--players must be 3, 4 or 5, got 2"),
    (["simulate", "--game", "mediterranean", "-n", "6", "--games", "3",
      "--strategies", "greedy"], "--players must be 3, 4 or 5, got 6"),
    (["simulate", "--game", "mediterranean", "-n", "3", "--games", "3",
      "--strategies", "villa"], "'villa' is not a mediterranean player"),
    (["simulate", "--game", "mediterranean", "-n", "3", "--games", "3",
      "--strategies", "castle-monastery"], "'castle-monastery' is not a mediterranean player"),
    (["simulate", "--game", "castles", "-n", "3", "--games", "3",
      "--strategies", "long-haul"], "'long-haul' is not a castles player"),
    (["simulate", "--game", "mediterraneo", "-n", "3", "--games", "3",
      "--strategies", "greedy"], "did you mean 'mediterranean'"),
    (["play", "--game", "mediterranean", "--players", "6"], "mediterranean is played by"),
    (["whatif", "--game", "mediterranean", "--set", "colour_bonus.castle.first=6"],
     "unknown table 'colour_bonus'"),
    (["whatif", "--game", "mediterranean", "--set", "rules.start_gold.nope=6"],
     "no key 'nope'"),
])
def test_bad_input_for_the_game_is_one_line_and_exit_2(
        args: list[str], says: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(args, monkeypatch, capsys)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and says in err, err


def test_a_broken_component_override_on_the_command_line_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rowing_cards": [{"power": -4}]}))
    code, _, err = run_cli(["simulate", "--game", "mediterranean", "-n", "3", "--games", "3",
                            "--strategies", "greedy", "--components", str(bad)],
                           monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "bad.json" in err, err


def test_a_short_run_plays_every_player_count(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    import polars as pl

    monkeypatch.chdir(tmp_path)
    seats = ["greedy", "random", "long-haul", "gold-first", "random"]
    for n in (3, 5):
        code, _, err = run_cli(["simulate", "--game", "mediterranean", "-n", str(n),
                                "--games", "10", "--strategies", ",".join(seats[:n]),
                                "--out", f"r{n}"], monkeypatch, capsys)
        assert code == 0, err
        rows = pl.read_parquet(tmp_path / f"r{n}" / "games" / "*.parquet")
        assert rows.height == 10 * n and set(rows["players"]) == {n}
        per_game = rows.group_by("game").agg(pl.col("won").sum(), pl.col("shared_win").sum())
        assert (per_game["won"] == 1).all() and (per_game["shared_win"] >= 1).all()
    # its report at 5 seats (the placements chart named four places only: a traceback)
    code, _, err = run_cli(["report", "r5"], monkeypatch, capsys)
    assert code == 0 and (tmp_path / "r5" / "report.html").is_file(), err


def test_cdsim_games_lists_three_games(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["games"], monkeypatch, capsys)
    assert code == 0, err
    assert len(GAMES) == 3 and "mediterranean" in out, out
    # a rulebook that compensates no seat says so, never "0/0/0" (issue 60 item 2)
    none = "every seat starts at 0 (the rulebook compensates no seat)"
    assert "0/0" not in out and out.count(none) == 2, out
    assert "4p 8/9/10/11" in out, out


def test_its_study_plans_every_count_with_a_floor_and_the_scripted_styles() -> None:
    from cdsim.study.file import resolve
    from cdsim.study.model import load_study

    study = load_study(resolve("mediterranean"))
    assert study.file.game == "mediterranean" and study.file.players == (3, 4, 5)
    cells = {(c.players, c.population.name): c for c in study.cells}
    assert set(cells) == {(n, p) for n in (3, 4, 5) for p in ("random", "scripted")}
    assert study.start_vp == {3: (0,) * 3, 4: (0,) * 4, 5: (0,) * 5}
    for n in (3, 4, 5):  # every scripted style seated at every count, each line-up full
        lineups = cells[n, "scripted"].population.lineups_for(n)
        assert lineups and all(len(x) == n for x in lineups)
        seated = {p.base for x in lineups for p in x}
        assert seated == {"greedy", "gold-first", "temple-majority", "long-haul"}, (n, seated)


def test_another_games_component_file_names_that_game(tmp_path: Path) -> None:
    castles_file = tmp_path / "castles.json"
    castles_file.write_text(json.dumps({"area_vp": json.loads(
        core.module().builtin_components("castles"))["area_vp"]}))  # type: ignore[union-attr]
    with pytest.raises(CdsimError, match=r"castles.json: a component set of The Castles of "
                                         r"Tuscany, not of Mediterranean.*--game castles"):
        game_spec("mediterranean").load_components(str(castles_file))
    med_file = tmp_path / "med.json"
    med_file.write_text(json.dumps({"bonus_tiles": [{"points": 3, "count": 15,
                                                     "source": "reconstructed"}]}))
    with pytest.raises(CdsimError, match=r"med.json: a component set of Mediterranean.*"
                                         r"--game mediterranean"):
        game_spec("castles").load_components(str(med_file))


def test_a_ladder_seats_five_and_defaults_to_the_games_fewest(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    # a 5-seat pairing was a pydantic traceback (a line-up of at most 4)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["ladder", "--game", "mediterranean", "--players", "5", "--strategies",
                              "greedy,random", "--games", "10", "--out", "l5"], monkeypatch, capsys)
    assert code == 0 and "Plackett-Luce" in out, err
    code, out, err = run_cli(["ladder", "--game", "mediterranean", "--strategies", "greedy,random",
                              "--games", "9", "--quiet"], monkeypatch, capsys)
    assert code == 0, err
    assert (tmp_path / "ladders" / "mediterranean-3p").is_dir()


def test_components_check_and_show_read_its_own_set(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    # both read Castles' JSON for any game but Carpe Diem
    override = tmp_path / "m.json"
    override.write_text(json.dumps({"bonus_tiles": [{"points": 3, "count": 15,
                                                     "source": "reconstructed"}]}))
    code, out, err = run_cli(["components", "check", "--game", "mediterranean", str(override)],
                             monkeypatch, capsys)
    assert code == 0 and "14 tables" in out and "changes from the built-in set: bonus_tiles" in out, err
    page = tmp_path / "m.html"
    code, out, err = run_cli(["components", "show", "--game", "mediterranean", "--components",
                              str(override), "--html", str(page)], monkeypatch, capsys)
    assert code == 0, err
    text = page.read_text()
    assert "Mediterranean" in text and 'id="rules"' in text and 'id="distance_tiles.coastal"' in text
    assert text.count("class=changed") == 1 and "was: points=2" in text


def test_a_study_file_without_players_studies_its_games_counts(tmp_path: Path) -> None:
    """``players`` left out: the study's game's counts (3, 4, 5 here), not every game's
    (a Mediterranean study was refused for 2 players, a Carpe Diem one would ask for 5)."""
    from cdsim.study.model import load_study

    population = '[[population]]\nname = "floor"\nlineup = ["random"]\n'
    for game, counts in (("mediterranean", (3, 4, 5)), ("carpe-diem", (2, 3, 4)),
                         ("castles", (2, 3, 4))):
        path = tmp_path / f"{game}.toml"
        path.write_text(f'name = "s"\ngame = "{game}"\n{population}')
        assert load_study(path).file.players == counts, game
