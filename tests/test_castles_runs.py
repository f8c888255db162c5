"""Runs of another game (``cdsim simulate --game castles``): its rows are its own columns,
its manifest names the game (a Carpe Diem manifest does not, as before there were games),
its rows are the same for any --jobs, and bad input for it is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from cdsim import core
from cdsim.batch.config import RunConfig
from cdsim.batch.read import open_run, seat_arrays
from cdsim.games import game_spec
from tests.commands import run_main

pytestmark = pytest.mark.skipif(not core.available(), reason="needs the compiled core")

LINEUP = "greedy,random,castle-monastery,animal-farms"


def simulate(out: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *extra: str) -> tuple[int, str]:
    return run_main(["simulate", "--game", "castles", "-n", "4", "--strategies", LINEUP,
                     "--games", "40", "--chunk-size", "10", "--seed", "3", "-q",
                     "--out", str(out), *extra], monkeypatch, capsys)


def rows(out: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted((out / "games").glob("part-*.parquet"))).sort("game", "seat")


def test_a_castles_run_holds_its_own_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, err = simulate(tmp_path / "a", monkeypatch, capsys, "--jobs", "1")
    assert code == 0, err
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["config"]["game"] == "castles"
    assert manifest["components_digest"] == game_spec("castles").components_digest(None)[0]
    assert not (tmp_path / "a" / "cards").exists()  # the game has no card table
    frame = rows(tmp_path / "a")
    assert frame.columns == list(game_spec("castles").row_fields())
    assert frame.height == 160 and set(frame["start_vp"]) == {0}  # the rulebook's: none
    assert set(frame["strategy"]) == set(LINEUP.split(","))
    # the VP add up by source, and one winner a game
    sources = [f"vp_{s}" for s in game_spec("castles").breakdown()]
    assert frame.select(pl.sum_horizontal(sources))[:, 0].to_list() == frame["final_vp"].to_list()
    assert frame.group_by("game").agg(pl.col("won").sum())["won"].to_list() == [1] * 40
    # read back as any run is: the re-ranking's tie-break is the game's (T13.2)
    run = open_run(tmp_path / "a")
    arrays = seat_arrays(run)
    assert arrays.base.shape == (40, 4)
    top = arrays.base == arrays.base.max(axis=1, keepdims=True)
    first = (arrays.tiebreak_order + 100 * ~top).argmin(axis=1)  # among the most VP
    assert (arrays.won.argmax(axis=1) == first).all()
    assert (top.sum(axis=1) > 1).any()  # the tie-break decided some of these games
    # the same rows from two workers
    code, err = simulate(tmp_path / "b", monkeypatch, capsys, "--jobs", "2")
    assert code == 0, err
    assert rows(tmp_path / "b").equals(frame)


def test_a_carpe_diem_run_record_does_not_name_the_game() -> None:
    config = RunConfig.checked(players=2, seed=1, games=4, strategies=("greedy", "villa"))
    assert "game" not in config.record() and "game" not in config.identity()
    assert config.starting_vp == (8, 9)
    castles = RunConfig.checked(game="castles", players=2, seed=1, games=4,
                                strategies=("greedy", "mcts"))
    assert castles.record()["game"] == "castles" and castles.starting_vp == (0, 0)
    assert RunConfig.model_validate(castles.record()) == castles


def test_resume_refuses_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate(tmp_path / "a", monkeypatch, capsys)[0] == 0
    code, err = run_main(["simulate", "-n", "4", "--strategies", "greedy", "--games", "40",
                          "--chunk-size", "10", "--seed", "3", "-q", "--out",
                          str(tmp_path / "a"), "--resume"], monkeypatch, capsys)
    assert code == 2 and "game=castles" in err, err


@pytest.mark.parametrize(("args", "said"), [
    (["--game", "castle"], "--game: unknown game 'castle'"),
    (["--game", "castles", "--strategies", "villa"], "--strategies: 'villa' is not a castles player"),
    (["--game", "castles", "--strategies", "greedy@chimney=1"], "castles players take no settings"),
    (["--game", "castles", "--strategies", "animal-farms@x=1"],
     "--strategies: 'animal-farms@x=1': castles players take no settings"),
    (["--strategies", "animal-farms"], "'animal-farms' is not a carpe-diem player"),
    (["--game", "castles", "--strategies", "greedy", "--strategy-params", "mcts.c=1"],
     "--strategy-params: castles players take no parameters"),
    (["--game", "castles", "--strategies", "strategies/examples.py:Cautious"],
     "examples.py:Cautious': no such file"),
    (["--game", "castles", "--strategies", "strategies/example.py:Builder"],
     "is a Carpe Diem strategy (choose(view, options)), not a castles one"),
])
def test_bad_input_for_a_game_is_one_line(args: list[str], said: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["simulate", "-n", "2", "--games", "4", "-q", "--out", str(tmp_path / "r")]
    if "--strategies" not in args:
        flags += ["--strategies", "greedy"]
    code, err = run_main([*flags, *args], monkeypatch, capsys)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "r" / "manifest.json").exists()


def test_a_broken_castles_component_file_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "c.json"
    bad.write_text('{"no_such_key": 1}')
    code, err = simulate(tmp_path / "r", monkeypatch, capsys, "--components", str(bad))
    assert code == 2 and str(bad) in err and "unknown key 'no_such_key'" in err, err
    bad.write_text("{")
    code, err = simulate(tmp_path / "r", monkeypatch, capsys, "--components", str(bad),
                         "--force")
    assert code == 2 and "not a castles component file" in err, err
