"""`cdsim ladder`: tiny ladders end to end (2 and 3 players), resume, the name@setting
spelling, bad input (the fits against known answers: tests/test_ratings.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from cdsim import ladder as lad
from cdsim.analysis import ratings as rt
from cdsim.batch.config import RunConfig, engine_for
from cdsim.batch.folder import RunFolder
from cdsim.batch.queue import core_chunk_frame, play_chunk_table
from cdsim.cli import main
from cdsim.games.carpe_diem.players import registry
from cdsim.ladder import read_results as read_ladder
from tests.commands import run_main
from tests.conftest import core_or_skip


def cdsim(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cdsim", *args], capture_output=True, text=True,
                          check=False, cwd=cwd)


RATING_KEYS = {"strategy": str, "rating": float, "low": float, "high": float, "games": int,
               "failed_card_rate": float}


def _check_ratings(data: dict[str, object], players: int, names: set[str]) -> list[dict]:  # type: ignore[type-arg]
    assert data["players"] == players
    ratings = data["ratings"]
    assert isinstance(ratings, list) and {r["strategy"] for r in ratings} == names
    for r in ratings:
        for key, kind in RATING_KEYS.items():
            assert isinstance(r[key], kind), (key, r)
        assert r["low"] <= r["rating"] <= r["high"]
        assert 0 <= r["failed_card_rate"] <= 1
    values = [r["rating"] for r in ratings]
    assert values == sorted(values, reverse=True)  # strongest first
    return ratings


def test_two_player_ladder_end_to_end(tmp_path: Path) -> None:
    out = cdsim("ladder", "--strategies", "random,greedy,villa", "--games", "24", "--seed", "3",
                "--chunk-size", "12", "--jobs", "2", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    root = tmp_path / "ladders" / "2p"  # the default --out
    assert "games, done" in out.stderr  # progress on stderr, the JSON alone on stdout
    data = json.loads(out.stdout)
    ratings = _check_ratings(data, 2, {"random", "greedy", "villa"})
    by = {r["strategy"]: r for r in ratings}
    assert by["random"]["rating"] == 0 == by["random"]["low"]  # the anchor
    assert by["greedy"]["rating"] > by["random"]["rating"]
    assert {r["games"] for r in ratings} == {48}  # 2 pairings x 24 games each
    assert data["method"] == "Bradley-Terry" and data["anchor"] == "random"
    pairings = {p["key"]: p for p in data["pairings"]}
    assert set(pairings) == {"random-vs-greedy", "random-vs-villa", "greedy-vs-villa"}
    assert json.loads((root / "ladder.json").read_text()) == data
    for key, p in pairings.items():  # every pairing an ordinary, rotated run folder
        run = root / p["run"]
        assert RunFolder(run).read().config.rotate_seats and p["games"] == 24
        rows = pl.DataFrame(RunFolder(run).rows())
        assert set(rows["strategy"]) == set(key.split("-vs-"))
        seats = rows.group_by("strategy").agg(pl.col("seat").n_unique())["seat"].to_list()
        assert seats == [2, 2]  # each deal played both ways
    share = {(h["strategy"], h["against"]): h for h in data["head_to_head"]}
    assert share["greedy", "villa"]["share"] + share["villa", "greedy"]["share"] == pytest.approx(1)
    assert share["greedy", "random"]["meetings"] == 24
    for sweep in data["sweeps"]:  # won every meeting: reported with a lower bound
        assert share[sweep["strategy"], sweep["over"]]["share"] == 1
        assert sweep["deals"] == 12 and sweep["gap_at_least"] == pytest.approx(218.94, abs=0.01)
    page = (root / "ladder.html").read_text()
    assert page.count("data:image/png;base64,") == 3 and 'src="charts/' not in page
    assert {p.name for p in (root / "charts").iterdir()} == {
        "ladder_ratings.png", "ladder_head_to_head.png", "ladder_vp_failed.png"}
    assert "Bradley-Terry" in (root / "ladder.md").read_text()
    report = cdsim("report", str(root / "cells" / "greedy-vs-villa"))
    assert report.returncode == 0, report.stderr


def test_three_player_ladder_end_to_end(tmp_path: Path) -> None:
    root = tmp_path / "l3"
    out = cdsim("ladder", "-n", "3", "--strategies", "random,greedy,villa", "--games", "30",
                "--seed", "2", "--out", str(root), "--jobs", "2", "--resamples", "50")
    assert out.returncode == 0, out.stderr
    assert "Plackett-Luce ratings" in out.stdout and "wrote " in out.stdout
    data = json.loads((root / "ladder.json").read_text())
    ratings = _check_ratings(data, 3, {"random", "greedy", "villa"})
    assert ratings[-1]["strategy"] == "random" and ratings[-1]["rating"] == 0
    assert data["method"] == "Plackett-Luce" and len(data["pairings"]) == 1
    assert all(r["games"] == 30 for r in ratings)
    assert (root / "ladder.md").is_file() and (root / "charts" / "ladder_head_to_head.png").is_file()


@pytest.mark.parametrize(("k", "players", "count"), [(2, 2, 1), (5, 2, 10), (2, 3, 2), (2, 4, 3),
                                                     (3, 4, 3), (3, 3, 1), (5, 3, 10), (6, 4, 15)])
def test_lineups_are_balanced(k: int, players: int, count: int) -> None:
    names = tuple("abcdef"[:k])
    lineups = lad.lineups(names, players)
    assert len(lineups) == count == len(set(lineups))
    seats = Counter(s for lineup in lineups for s in lineup)
    assert set(seats) == set(names) and len(set(seats.values())) == 1  # each equally often
    assert all(len(lineup) == players and len(set(lineup)) > 1 for lineup in lineups)


class Stop(Exception):
    pass


def test_resume_after_an_interruption_equals_an_uninterrupted_ladder(tmp_path: Path) -> None:
    spec = lad.Ladder(players=2, strategies=("random", "greedy", "villa"), games=16, seed=4,
                      chunk_size=4)  # 3 pairings x 4 chunks
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    lad.run(spec, whole, jobs=1)
    seen: list[str] = []

    def stop_after_5(key: str, games: int) -> None:
        seen.append(key)
        if len(seen) == 5:
            raise Stop

    with pytest.raises(Stop):
        lad.run(spec, broken, jobs=2, on_chunk=stop_after_5)
    parts = {p: p.stat().st_mtime_ns for p in (broken / "cells").glob("*/games/part-*.parquet")}
    assert 5 <= len(parts) < 12
    with pytest.raises(Exception, match="already holds a ladder"):
        lad.run(spec, broken, jobs=1)
    out = cdsim("ladder", "--out", str(broken), "--resume", "--jobs", "2")  # settings: its own
    assert out.returncode == 0, out.stderr
    for part, mtime in parts.items():  # nothing finished before the interruption replayed
        assert part.stat().st_mtime_ns == mtime, part
    keys = sorted(p.name for p in (whole / "cells").iterdir())
    assert keys == sorted(p.name for p in (broken / "cells").iterdir()) and len(keys) == 3
    for key in keys:
        assert RunFolder(whole / "cells" / key).digest() == RunFolder(broken / "cells" / key).digest(), key
    first, second = read_ladder(whole, 20).fit, read_ladder(broken, 20).fit
    assert first.rating.tolist() == second.rating.tolist()
    assert first.high.tolist() == second.high.tolist()  # the bootstrap is seeded too


def test_a_setting_spelled_with_at_is_its_own_entry(tmp_path: Path) -> None:
    names = ("villa@chimney=0.2", "villa@chimney=3@open_edge=0.1")
    spec = lad.Ladder(players=2, strategies=names, games=8, seed=1, chunk_size=8)
    lad.run(spec, tmp_path / "at", jobs=1)
    run = tmp_path / "at" / "cells" / "-vs-".join(names)
    assert set(pl.DataFrame(RunFolder(run).rows())["strategy"]) == set(names)
    result = read_ladder(tmp_path / "at", 10)
    assert set(result.names) == set(names) and result.anchor is None
    assert sum(result.fit.rating) == pytest.approx(0)  # no random: the mean is 0


def test_an_at_setting_reaches_the_players() -> None:
    core_or_skip()
    at = RunConfig(players=2, games=4, seed=2, strategies=("villa@chimney=3", "greedy"),
                   rotate_seats=True)
    plain = RunConfig(players=2, games=4, seed=2, strategies=("villa", "greedy"),
                      rotate_seats=True, strategy_params="villa.chimney=3")
    default = RunConfig(players=2, games=4, seed=2, strategies=("villa", "greedy"),
                        rotate_seats=True)
    assert engine_for(at) == "rust"
    core_rows = core_chunk_frame(at, 0, 4)
    table_rows = pl.DataFrame(play_chunk_table(at, 0, 4)).select(core_rows.columns)
    assert core_rows.equals(table_rows)  # a game at a time: the registry's name@setting
    assert set(core_rows["strategy"]) == {"villa@chimney=3", "greedy"}
    same = core_rows.drop("strategy")  # the same games as the parameter set by name
    assert same.equals(core_chunk_frame(plain, 0, 4).drop("strategy"))
    assert not same.equals(core_chunk_frame(default, 0, 4).drop("strategy"))


def test_name_at_value_sets_the_budget_parameter(monkeypatch: pytest.MonkeyPatch) -> None:
    assert registry.BUDGET["mcts"] == "playouts"
    assert registry.parse_spec("villa@chimney=1.5@open_edge=0.2") == (
        "villa", {"chimney": 1.5, "open_edge": 0.2})
    assert registry.parse_spec("greedy") == ("greedy", {})
    monkeypatch.setitem(registry.BUDGET, "villa", "chimney")  # as mcts@100 sets playouts
    assert registry.parse_spec("villa@100") == ("villa", {"chimney": 100.0})
    player = registry.make_strategy("villa@2.5", registry.parse_params("villa.good=1.1"))
    assert isinstance(player, registry.Builtin) and player.name == "villa@2.5"
    assert (player.params["chimney"], player.params["good"]) == (2.5, 1.1)


BAD = [
    (["--strategies", "random,nope"], "unknown strategy 'nope'"),
    (["--strategies", "greedy"], "at least 2 strategies"),
    (["--strategies", "greedy,greedy"], "names greedy twice"),
    (["--strategies", "greedy,villa@chimny=2"], "villa has no parameter 'chimny'"),
    (["--strategies", "greedy,villa@5"], "villa has no budget parameter"),
    (["--strategies", "greedy,villa@chimney=high"], "'high' is not a number"),
    (["--strategies", "greedy,random@good=2"], "'random' has no parameters"),
    (["--strategies", "greedy,nope@3"], "built-in players only"),
    (["--strategies", "greedy,villa", "--players", "5"], "--players must be 2, 3 or 4"),
    (["--strategies", "greedy,villa", "--players", "1"], "--players must be 2, 3 or 4"),
    (["--strategies", "greedy,villa", "-n", "3", "--games", "10"], "multiple of 3"),
    (["--strategies", "greedy,villa", "--strategy-params", "villa.x=1"], "no parameter 'x'"),
    (["--games", "10"], "--strategies is required"),
    (["--strategies", "greedy,villa", "--resamples", "3"], "--resamples"),
    (["--strategies", "greedy,villa", "--resume"], "no ladder to resume"),
    (["--resume"], "no ladder to resume"),
]


@pytest.mark.parametrize(("args", "expect"), BAD)
def test_bad_input_is_one_line_and_exit_2(args: list[str], expect: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, err = run_main(["ladder", "--out", str(out), *args], monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert expect in err, err
    assert not out.exists()  # nothing ran


def test_an_existing_ladder_is_never_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "out")
    args = ["ladder", "--strategies", "random,greedy", "--games", "4", "--out", out, "--jobs", "1",
            "--resamples", "10"]
    monkeypatch.setattr(sys, "argv", ["cdsim", *args])
    main()
    assert "greedy" in capsys.readouterr().out
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 2 and "already holds a ladder" in err and err.count("\n") == 1
    code, err = run_main([*args[:-4], "--seed", "9", "--resume"], monkeypatch, capsys)
    assert code == 2 and "made with other strategies" in err
    code, err = run_main(["ladder", "--out", out, "--resume", "--games", "6"], monkeypatch, capsys)
    assert code == 2 and "made with other strategies" in err  # its own settings, but 6 games
    monkeypatch.setattr(sys, "argv", ["cdsim", "ladder", "--out", out, "--resume", "--games", "4",
                                      "--resamples", "10", "--json"])
    main()  # nothing left to play: the report again
    assert json.loads(capsys.readouterr().out)["games_per_pairing"] == 4


def test_make_ratings_writes_each_count_with_its_resamples(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/ratings.py (make ratings) on a tiny ladder: the ratings of every player, its
    bootstrap resamples, the other counts of the file kept, and a second run reads the
    finished ladder instead of replaying it."""
    import importlib.util

    core_or_skip()
    spec = importlib.util.spec_from_file_location(
        "ratings", Path(__file__).resolve().parents[1] / "scripts" / "ratings.py")
    assert spec is not None and spec.loader is not None
    ratings = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ratings)
    monkeypatch.setattr(ratings, "STRATEGIES", "random,greedy,villa")
    monkeypatch.setattr(ratings, "GAMES", {2: 4})
    out = tmp_path / "ratings.json"
    out.write_text(json.dumps({"players": {"3": {"kept": True}}}))
    argv = ["ratings.py", "--players", "2", "--out", str(out), "--ladders", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    ratings.main()
    data = json.loads(out.read_text())["players"]
    assert data["3"] == {"kept": True}
    two = data["2"]
    assert set(two["ratings"]) == set(two["resamples"]) == {"random", "greedy", "villa"}
    assert {len(r) for r in two["resamples"].values()} == {rt.RESAMPLES}
    assert two["command"].endswith("--out ladders/ratings-2p")
    def parts() -> dict[Path, int]:
        return {p: p.stat().st_mtime_ns for p in (tmp_path / "ratings-2p").rglob("*.parquet")}

    played = parts()
    assert played
    ratings.main()  # read, not replayed
    assert json.loads(out.read_text())["players"]["2"]["ratings"] == two["ratings"]
    assert parts() == played
