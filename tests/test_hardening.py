"""Bad input of any kind is one line naming the file, key or flag, and exit code 2: never a
traceback, a panic, a hang, an exit 0 or lost results (issue 25)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.components import DATA_DIR
from tests.commands import run_main

REPO = Path(__file__).resolve().parent.parent
RUN = ["--players", "2", "--games", "8", "--strategies", "random", "--chunk-size", "4",
       "--jobs", "1"]


def refused(args: list[str], monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str], *names: str) -> str:
    """The command exits 2 with one line naming every one of ``names``."""
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for name in names:
        assert name in err, err
    return err


# -- TOML files ----------------------------------------------------------------------------

@pytest.mark.parametrize("body, expect", [
    (b'players = "\xff\xfe"\n', "not a UTF-8 text file"),
    (b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n", "nested too deep"),
])
def test_unreadable_toml_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str], body: bytes, expect: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_bytes(body)
    out = str(tmp_path / "out")
    refused(["simulate", "--config", str(bad), "--out", out], monkeypatch, capsys, str(bad), expect)
    refused(["study", "run", str(bad), "--out", out], monkeypatch, capsys, str(bad), expect)
    refused(["score", str(bad)], monkeypatch, capsys, str(bad), expect)
    refused(["components", "check", str(bad)], monkeypatch, capsys, str(bad), expect)
    assert not Path(out).exists()


@pytest.mark.parametrize("body, expect", [
    ('cards = [["A06"]]', "unknown card id ['A06'] in cards"),
    ('fountain_cards = [{a = 1}]', "in fountain_cards"),
    ("frame = [[1], 2, 3, 4]", "unknown frame part [1]"),
    ('[[tile]]\ncell = [0, 0]\nedges = "G G G G"\nbuilding = ["market"]', "unknown building"),
    ('[[tile]]\ncell = [0, 0]\nedges = ["G"]', "edges must be 4 codes"),
    ('[[tile]]\ncell = [0, 0]\nedges = "V G G G"\nchimneys = 300', "chimneys must be between 0 and 9"),
    ("[supply]\ncoins = 10000", "supply coins must be between 0 and 500"),
    ('[[tile]]\ncell = [0, 0]\nedges = "G G G G"\nscore = 5', "tile 1: unknown key 'score'"),
])
def test_bad_position_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str], body: str, expect: str) -> None:
    path = tmp_path / "pos.toml"
    path.write_text(body + "\n")
    refused(["score", str(path)], monkeypatch, capsys, str(path), expect)


# -- component sets: only what the core can play ------------------------------------------

def component_set(tmp_path: Path, file: str, old: str, new: str) -> Path:
    folder = tmp_path / "set"
    folder.mkdir(exist_ok=True)
    text = (DATA_DIR / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    return folder


COMPONENT_CASES = [
    ("tiles.toml", "chimneys = 2", "chimneys = 300", "chimneys must be between 0 and 9"),
    ("tiles.toml", 'building = "market"', 'building = ["market"]',
     "building must be 'market', 'bakery' or 'fountain', got ['market']"),
    ("tiles.toml", "count = 4", "count = 1000000000000",
     "tile 'L-villa-end-1': count must be between 1 and 84"),
    ("cards.toml", "reward = { bread = 1, steps = 1 }", "reward = { coins = 1000 }",
     "reward.coins must be between 0 and 9, got 1000"),
    ("cards.toml", "reward = { bread = 1, steps = 1 }", "reward = { coins = 3 }",
     "is more than a multiple costs"),
    ("cards.toml", "requires = { grapes = 2 }", "requires = { grapes = 2147483648 }",
     "requires.grapes must be between 1 and 99"),
    ("cards.toml", "reward = { vp = 4 }", "reward = { vp = 2147483648 }",
     "reward.vp must be between 0 and 1000"),
    ("frames.toml", "vp = 3", "vp = 2147483648",
     "frame part 1: goals.0.vp must be between -1000 and 1000"),
    ("frames.toml", "id = 1\n", "id = 9223372036854775808\n", "id must be between"),
    ("scoring.toml", "points = [0, 1, 2, 3,", "points = [" + "0, " * 100_000,
     "scroll_track.points must have at most 256 entries"),
    ("scoring.toml", "per_extra_chimney = 2", "per_extra_chimney = -2147483649",
     "villa_table.per_extra_chimney must be between -1000 and 1000"),
]


@pytest.mark.parametrize("file, old, new, expect", COMPONENT_CASES)
def test_component_sets_the_core_cannot_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str], file: str,
                                             old: str, new: str, expect: str) -> None:
    folder = component_set(tmp_path, file, old, new)
    refused(["components", "check", str(folder)], monkeypatch, capsys, str(folder / file), expect)
    out = tmp_path / "run"
    refused(["simulate", "--out", str(out), "--components", str(folder), *RUN], monkeypatch,
            capsys, expect)
    assert not out.exists()


CORE_REFUSES = """
import json, sys
from cdsim import _core
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.handover import components_dict
raw = components_dict(load_components())
raw["objectives"][0]["coins"] = 1000     # a card that pays for itself without bound
try:
    _core.Components(json.dumps(raw))
except ValueError as exc:
    print("refused:", exc)
    sys.exit(3)
"""


def test_the_core_refuses_a_pathological_set_with_an_error_not_an_abort() -> None:
    pytest.importorskip("cdsim._core")
    # in a subprocess: an abort (SIGABRT) would otherwise end pytest
    out = subprocess.run([sys.executable, "-c", CORE_REFUSES], capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 3, out.stdout + out.stderr
    assert "objective card" in out.stdout and "panicked" not in out.stderr


# -- simulate flags -----------------------------------------------------------------------

@pytest.mark.parametrize("args, names", [
    (["--players", "4", "--games", "8", "--strategies", "random", "--start-vp", "2147483648,0,0,0"],
     ["--start-vp", "between -1,000,000 and 1,000,000"]),
    (["--players", "4", "--games", "8", "--strategies", "random", "--start-vp", "1,2"],
     ["--start-vp needs 4 values"]),
    (["--players", "2", "--games", str(10**12), "--strategies", "random"],
     ["--games must be between 1 and 100,000,000"]),
    (["--players", "2", "--games", "100000000", "--chunk-size", "1", "--strategies", "random"],
     ["raise --chunk-size"]),
    (["--players", "2", "--games", "8", "--strategies", "random", "--jobs", "0"], ["--jobs"]),
    (["--players", "2", "--games", "8", "--strategies", "random", "--jobs", "100000"], ["--jobs"]),
    (["--players", "1" * 30, "--games", "8", "--strategies", "random"], ["--players must be 2, 3 or 4"]),
    (["--players", "2", "--games", "8", "--strategies", ":"], ["--strategies", "':'"]),
    (["--players", "2", "--games", "8", "--strategy-pool", "random,:"], ["--strategy-pool"]),
])
def test_bad_simulate_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str], args: list[str],
                            names: list[str]) -> None:
    out = tmp_path / "run"
    refused(["simulate", "--out", str(out), *args], monkeypatch, capsys, *names)
    assert not out.exists()


def test_a_study_too_big_for_the_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.toml"
    path.write_text('name = "big"\ngames = 1000000000000000\n[[population]]\nname = "r"\n'
                    'lineup = ["random"]\n')
    refused(["study", "run", str(path), "--out", str(tmp_path / "s")], monkeypatch, capsys,
            str(path), "games must be between 1 and 100000000")


def test_a_too_long_out_and_a_bad_effect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    long = tmp_path / ("x" * 300)
    refused(["simulate", "--out", str(long), *RUN], monkeypatch, capsys, "--out", "255 bytes")
    refused(["study", "run", "default", "--out", str(long)], monkeypatch, capsys, "--out")
    refused(["ladder", "--strategies", "random,greedy", "--out", str(long)], monkeypatch, capsys,
            "--out")
    refused(["power", "--effect", "5e-324"], monkeypatch, capsys, "--effect")
    refused(["power", "--effect", "nan"], monkeypatch, capsys, "--effect")
    refused(["power", "--players", "1" * 30], monkeypatch, capsys, "--players")
    refused(["study", "run", "default", "--jobs", "0", "--out", str(tmp_path / "s")],
            monkeypatch, capsys, "--jobs")


def test_a_bad_dask_scheduler_makes_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("dask.distributed")
    out = tmp_path / "run"
    refused(["simulate", "--out", str(out), *RUN, "--backend", "dask", "--scheduler", "bad::addr"],
            monkeypatch, capsys, "--scheduler 'bad::addr'")
    assert not out.exists()


# -- run and study folders: the manifest checked against the parts ------------------------

@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("runs") / "ok"
    out = subprocess.run([sys.executable, "-m", "cdsim", "simulate", "--out", str(run), *RUN],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return run


def _copy(run: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    shutil.copytree(run, target)
    return target


def _edit_manifest(run: Path, **changes: object) -> None:
    path = run / "manifest.json"
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))


def _part(run: Path, index: int) -> Path:
    return run / "games" / f"part-{index:05d}.parquet"


CORRUPTIONS = {
    "empty chunks": (lambda r: _edit_manifest(r, chunks=[]), "chunks"),
    "malformed chunks": (lambda r: _edit_manifest(r, chunks=[[0, "4"], [4, 8]]),
                         "chunks.0.1 must be an integer, got '4'"),
    "finished null": (lambda r: _edit_manifest(r, finished=None), "finished"),
    "chunk listed twice": (lambda r: _edit_manifest(r, finished=[0, 0, 1]), "listed twice"),
    "unknown chunk": (lambda r: _edit_manifest(r, finished=[0, 7]), "chunk 7 is not in the plan"),
    "config not a table": (lambda r: _edit_manifest(r, config=[]), "config"),
    "duplicated part": (lambda r: shutil.copy(_part(r, 0), _part(r, 1)), "should hold games 4-7"),
    "zero-row part": (lambda r: pl.read_parquet(_part(r, 1)).head(0).write_parquet(_part(r, 1)),
                      "it holds 0 rows"),
    "wrong column type": (lambda r: pl.read_parquet(_part(r, 0)).with_columns(
        pl.col("final_vp").cast(pl.String)).write_parquet(_part(r, 0)), "'final_vp'"),
    "null final_vp": (lambda r: pl.read_parquet(_part(r, 0)).with_columns(
        final_vp=pl.when(pl.col("seat") == 0).then(None).otherwise(pl.col("final_vp")))
        .write_parquet(_part(r, 0)), "null"),
    # chunk 0's games again under chunk 1's ids: the same deals would count twice
    "overlapping games": (lambda r: pl.read_parquet(_part(r, 0)).with_columns(pl.col("game") + 4)
                          .write_parquet(_part(r, 1)), "not the one their game id deals"),
    "a seat twice": (lambda r: pl.read_parquet(_part(r, 1)).with_columns(seat=pl.lit(0, pl.Int64))
                     .write_parquet(_part(r, 1)), "a seat twice"),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_run_folders_are_refused_by_every_reader(
        name: str, finished_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = _copy(finished_run, tmp_path)
    corrupt, expect = CORRUPTIONS[name]
    corrupt(run)
    refused(["report", str(run), "--out", str(tmp_path / "rep")], monkeypatch, capsys, expect)
    refused(["balance", str(run), "--out", str(tmp_path / "bal")], monkeypatch, capsys, expect)


@pytest.mark.parametrize("bad", [0, 1])
def test_a_run_s_parts_checked_in_one_pass_name_the_bad_one(
        bad: int, finished_run: Path, tmp_path: Path) -> None:
    """open_run checks all of a run's parts in one query (parts.check_parts): the line
    still names the part that is wrong, and only it, whichever it is; a part whose columns
    differ from the others' (the one query cannot read them together) too."""
    from cdsim.batch.read import open_run

    run = _copy(finished_run, tmp_path)
    frame = pl.read_parquet(_part(run, bad))
    frame.with_columns(seat=pl.lit(0, pl.Int64)).write_parquet(_part(run, bad))
    with pytest.raises(CdsimError, match=f"part-0000{bad}.parquet: chunk {bad} holds a game "
                                         "with a seat twice"):
        open_run(run)
    frame.with_columns(extra=pl.lit(1), seat=pl.lit(0, pl.Int64)).write_parquet(_part(run, bad))
    with pytest.raises(CdsimError, match=f"part-0000{bad}.parquet: chunk {bad} holds a game"):
        open_run(run)
    frame.write_parquet(_part(run, bad))
    assert open_run(run).games == 8


def test_bad_cells_in_a_study_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    from cdsim.study.store import STUDY_MANIFEST

    folder = tmp_path / "study"
    folder.mkdir()
    for cells, expect in ([{"key": "x"}], "cells.0"), ("nope", "cells"), \
            ([{"key": "../../etc", "players": 2, "population": "p", "variant": None,
               "games": 4, "method": "re-ranking", "fit": "x", "resim": [],
               "recommended": None, "confirm": None}], "cells.0.key"):
        (folder / STUDY_MANIFEST).write_text(json.dumps({"identity": {}, "cells": cells}))
        refused(["study", "report", str(folder)], monkeypatch, capsys, str(folder), expect)


def test_bad_pairings_in_a_ladder_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from cdsim.ladder import LADDER_MANIFEST

    folder = tmp_path / "ladder"
    folder.mkdir()
    settings = {"players": 2, "strategies": ["greedy", "villa"], "games": 2, "seed": 0,
                "chunk_size": 100, "strategy_params": None, "components": None}
    good = {"key": "greedy-vs-villa", "lineup": ["greedy", "villa"],
            "run": "cells/greedy-vs-villa"}
    for ladder, pairings, expect in (
            (settings, "nope", "pairings"),
            (settings, [{**good, "lineup": "greedy"}], "pairings.0.lineup"),
            (settings, [{**good, "key": "a/../../b"}], "pairings.0.key"),
            (settings, [{**good, "run": "/etc"}], "pairings: bad key or run"),
            ({**settings, "players": "2"}, [good], "ladder.players"),
            ({**settings, "games": 0}, [good], "ladder.games")):
        (folder / LADDER_MANIFEST).write_text(json.dumps({"ladder": ladder, "pairings": pairings}))
        refused(["ladder", "--out", str(folder), "--resume"], monkeypatch, capsys, str(folder),
                expect)


# -- one writer per folder ----------------------------------------------------------------

def test_a_second_writer_is_refused_and_nothing_is_deleted(
        finished_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from filelock import FileLock

    from cdsim.batch.folder import LOCK

    run = _copy(finished_run, tmp_path)
    before = sorted(p.name for p in (run / "games").iterdir())
    holder = subprocess.Popen(  # another process holds the folder
        [sys.executable, "-c", "import sys, time; from filelock import FileLock; "
         f"l = FileLock({str(run / LOCK)!r}); l.acquire(); print('held', flush=True); "
         "time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for extra in (["--force"], ["--resume"]):
            refused(["simulate", "--out", str(run), *RUN, *extra], monkeypatch, capsys,
                    str(run), "another cdsim process is writing")
        assert sorted(p.name for p in (run / "games").iterdir()) == before
        assert json.loads((run / "manifest.json").read_text())["finished"] == [0, 1]
    finally:
        holder.kill()
        holder.wait()
    with FileLock(run / LOCK, timeout=0):  # released by the OS when its holder died
        pass


def test_a_folder_stopped_before_its_manifest_starts_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cdsim.batch.folder import LOCK

    run = tmp_path / "run"
    (run / "games").mkdir(parents=True)  # what a kill -9 before the manifest leaves
    (run / LOCK).write_text("")
    code, err = run_main(["simulate", "--out", str(run), *RUN, "--resume"], monkeypatch, capsys)
    assert code == 0, err
    assert json.loads((run / "manifest.json").read_text())["finished"] == [0, 1]
    shutil.rmtree(run)
    (run / "games").mkdir(parents=True)
    code, err = run_main(["simulate", "--out", str(run), *RUN], monkeypatch, capsys)
    assert code == 0, err


def test_a_full_disk_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    import errno

    import polars

    def full(self: object, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(polars.DataFrame, "write_parquet", full)
    run = tmp_path / "run"
    refused(["simulate", "--out", str(run), *RUN], monkeypatch, capsys, "No space left on device",
            "--resume")
