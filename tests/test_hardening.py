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

from cdsim.rules.components import DATA_DIR
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
from cdsim.rules.components import load_components
from cdsim.handover import components_dict
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


# -- stops: Ctrl-C, SIGTERM, SIGHUP --------------------------------------------------------

STOP_PAUSE = """
import sys, time
import cdsim.cli
from reports import report
def slow(*a, **k):
    print("ready", flush=True)
    time.sleep(30)
report.write = slow
sys.argv = ["cdsim", "report", sys.argv[1]]
cdsim.cli.main()
"""


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_stop_during_a_report_exits_130(finished_run: Path, signame: str) -> None:
    import signal

    proc = subprocess.Popen([sys.executable, "-c", STOP_PAUSE, str(finished_run)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == "cdsim: interrupted", err


@pytest.mark.parametrize("signame, workers", [("SIGTERM", "processes"), ("SIGKILL", "processes"),
                                              ("SIGTERM", "threads")])
def test_a_stop_during_simulate_keeps_chunks_and_stops_the_workers(tmp_path: Path,
                                                                    signame: str,
                                                                    workers: str) -> None:
    import os
    import signal
    import time

    run = tmp_path / "run"
    env = os.environ | {"CDSIM_THREADS": "1" if workers == "threads" else "0"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cdsim", "simulate", "--out", str(run), "--players", "2",
         "--games", "100000", "--strategies", "random", "--chunk-size", "200", "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 60
    while time.time() < deadline and not list((run / "games").glob("part-*.parquet")):
        time.sleep(0.1)
    children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(proc.pid)], capture_output=True,
                              text=True, check=False).stdout.split()
    assert bool(children) == (workers == "processes")  # loky's workers, or threads only
    proc.send_signal(getattr(signal, signame))
    _, err = proc.communicate(timeout=60)
    if signame == "SIGTERM":
        assert proc.returncode == 130, err
        assert "--resume" in err and err.count("\n") == 1, err
        finished = json.loads((run / "manifest.json").read_text())["finished"]
        parts = sorted((run / "games").iterdir())  # a part the manifest missed is played again
        assert {f"part-{i:05d}.parquet" for i in finished} <= {p.name for p in parts}
        assert all(len(pl.read_parquet(p)) == 200 * 2 for p in parts)  # whole, no temporary
    deadline = time.time() + 30  # the kernel's SIGTERM to each worker (PR_SET_PDEATHSIG); slow under load
    alive = children
    while alive and time.time() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in children if Path(f"/proc/{pid}").exists()
                 and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]
    assert not alive, f"workers outlived the driver: {alive}"


# -- the fuzz's leftovers (issue 32 item 7) ---------------------------------------------------

def _digests(run: Path) -> dict[str, str]:
    import hashlib

    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((run / "games").glob("*"))}


FULL_DISK = [*RUN[:3], "16", *RUN[4:]]  # 16 games: 4 chunks of 4


def test_a_full_disk_mid_run_keeps_the_finished_parts_and_resume_continues(
        finished_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    whole = tmp_path / "whole"
    assert run_main(["simulate", "--out", str(whole), *FULL_DISK], monkeypatch, capsys)[0] == 0
    written = pl.DataFrame.write_parquet

    def fills_up(self: pl.DataFrame, path: Path, *args: object, **kwargs: object) -> None:
        if len(list(Path(path).parent.glob("part-*.parquet"))) >= 2:  # as polars says it:
            Path(path).write_bytes(b"PAR1 cut short")  # half a file, then its own error
            raise pl.exceptions.ComputeError("parquet: File out of specification: underlying "
                                             "IO error: No space left on device (os error 28)")
        written(self, path, *args, **kwargs)

    run = tmp_path / "run"
    monkeypatch.setattr(pl.DataFrame, "write_parquet", fills_up)
    for extra in ([], ["--resume"]):  # the disk is still full when resumed
        err = refused(["simulate", "--out", str(run), *FULL_DISK, *extra], monkeypatch, capsys,
                      "No space left on device", "finished chunks are kept, --resume continues")
        assert "part-00002.parquet" in err or "part-00003.parquet" in err
        finished = json.loads((run / "manifest.json").read_text())["finished"]
        assert len(finished) == 2 and _digests(run) == {
            name: digest for name, digest in _digests(whole).items()
            if int(name[5:10]) in finished}  # intact, and no temporary file left behind
    monkeypatch.setattr(pl.DataFrame, "write_parquet", written)
    code, err = run_main(["simulate", "--out", str(run), "--resume", "--jobs", "1"],
                         monkeypatch, capsys)
    assert code == 0, err
    assert _digests(run) == _digests(whole)


def test_a_full_tmpfs_is_one_line(tmp_path: Path) -> None:
    """The same on a real full disk: a 300 kB tmpfs in a mount namespace of its own."""
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-m", "true"], capture_output=True, check=False).returncode:
        pytest.skip("no mount namespace here (unshare -m needs the privilege)")
    disk, kept = tmp_path / "disk", tmp_path / "kept"
    disk.mkdir()
    script = (f"mount -t tmpfs -o size=300k tmpfs {disk} || exit 77; "
              f"{sys.executable} -m cdsim simulate --out {disk}/run --players 2 --games 4000 "
              "--strategies random --chunk-size 100 --jobs 1 -q 2> " + str(tmp_path / "err")
              + f"; echo $? > {tmp_path / 'code'}; cp -r {disk}/run {kept}")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                          check=False, timeout=300)
    if done.returncode == 77:
        pytest.skip("cannot mount a tmpfs here")
    err = (tmp_path / "err").read_text()
    assert (tmp_path / "code").read_text().strip() == "2", err
    assert err.startswith("cdsim: error: ") and err.count("\n") == 1, err
    assert "No space left on device" in err and "Traceback" not in err
    finished = json.loads((kept / "manifest.json").read_text())["finished"]
    assert finished and sorted(int(p.stem[5:]) for p in (kept / "games").glob("part-*")) == finished
    assert not list((kept / "games").glob(".*.tmp"))
    out = subprocess.run([sys.executable, "-m", "cdsim", "report", str(kept), "--out",
                          str(tmp_path / "report")], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr  # what was kept reads back whole


def test_a_bootstrap_too_large_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ladder"
    refused(["ladder", "--strategies", "random,greedy", "--games", "4", "--out", str(out),
             "--resamples", "1000000000"], monkeypatch, capsys,
            "--resamples must be between 10 and 10,000, got 1000000000")
    assert not out.exists()


def test_a_study_manifest_with_a_tolerance_that_is_not_a_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cdsim.study.store import STUDY_MANIFEST

    folder = tmp_path / "study"
    folder.mkdir()
    for key, value, expect in (("tolerance", "0.3", "tolerance must be a number, got '0.3'"),
                               ("alpha", 2.0, "alpha must be above 0 and below 0.5, got 2.0"),
                               ("players", [2, "3"], "players.1 must be an integer")):
        (folder / STUDY_MANIFEST).write_text(json.dumps({"identity": {}, "cells": [],
                                                         key: value}))
        refused(["study", "report", str(folder)], monkeypatch, capsys, str(folder), expect)


@pytest.mark.parametrize("args", [
    ["play", "--players", "2", "--start-vp", ",,,"],
    ["play", "--players", "2", "--start-vp", ""],
    ["play", "--players", "2", "--start-vp", "8,,9"],
    ["simulate", "--out", "{tmp}/run", *RUN, "--start-vp", ",,,"],
    ["simulate", "--out", "{tmp}/run", *RUN, "--start-vp", " "],
    ["simulate", "--out", "", *RUN],
    ["simulate", "--out", " ", *RUN],
    ["ladder", "--strategies", "random,greedy", "--out", ""],
    ["study", "run", "default", "--out", ""],
    ["train", "--out", ""],
])
def test_blank_or_empty_values_are_refused(args: list[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # a blank --out must not write here
    flag = "--start-vp" if "--start-vp" in args else "--out"
    refused([a.replace("{tmp}", str(tmp_path)) for a in args], monkeypatch, capsys, flag)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", ["report", "balance"])
def test_a_blank_out_for_a_report_is_refused(command: str, finished_run: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    refused([command, str(finished_run), "--out", ""], monkeypatch, capsys, "--out")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("tolerance", ["1e-300", "1e-100", "0.0009", "1", "nan", "-0.02"])
def test_a_tolerance_out_of_range_is_one_line(tolerance: str, finished_run: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """1e-300 overflowed in the procedure's design size (a traceback); every command that
    takes a tolerance, and a study file's key, takes only 0.001 up to 1."""
    expect = "must be between 0.001 and 1"
    for command in ("report", "balance"):
        refused([command, str(finished_run), "--tolerance", tolerance, "--out",
                 str(tmp_path / command)], monkeypatch, capsys, "--tolerance", expect)
    refused(["power", "--tolerance", tolerance], monkeypatch, capsys, "--tolerance", expect)
    path = tmp_path / "tiny.toml"
    path.write_text(f'name = "tiny"\ngames = 40\nplayers = [2]\ntolerance = {tolerance}\n'
                    '[[population]]\nname = "r"\nlineup = ["random"]\n')
    refused(["study", "run", str(path), "--out", str(tmp_path / "s")], monkeypatch, capsys,
            str(path), "tolerance", expect)
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("zone", ["0.02", "-0.001", "nan", "1e300"])
def test_a_zone_out_of_range_is_one_line(zone: str, finished_run: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The indifference zone takes 0 up to below the tolerance, in `cdsim balance` and in a
    study file."""
    expect = "must be at least 0 and below the tolerance (0.02)"
    refused(["balance", str(finished_run), "--zone", zone, "--out", str(tmp_path / "b")],
            monkeypatch, capsys, "--zone", expect)
    path = tmp_path / "tiny.toml"
    path.write_text(f'name = "tiny"\ngames = 40\nplayers = [2]\nzone = {zone}\n'
                    '[[population]]\nname = "r"\nlineup = ["random"]\n')
    refused(["study", "run", str(path), "--out", str(tmp_path / "s")], monkeypatch, capsys,
            str(path), "zone", expect)
    assert not (tmp_path / "s").exists()


def test_resume_refuses_a_part_of_another_run(finished_run: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "other"
    assert run_main(["simulate", "--out", str(other), *RUN, "--seed", "9"], monkeypatch,
                    capsys)[0] == 0
    run = _copy(finished_run, tmp_path)
    shutil.copy(_part(other, 1), _part(run, 1))  # the same chunk of a run on another seed
    before = _digests(run)
    refused(["simulate", "--out", str(run), "--resume"], monkeypatch, capsys,
            "part-00001.parquet", "a part of another run (seed [9]")
    assert _digests(run) == before  # nothing replaced, nothing mixed in
    for command in ("report", "balance"):
        refused([command, str(run), "--out", str(tmp_path / command)], monkeypatch, capsys,
                "a part of another run")


def test_paths_named_in_help_exist() -> None:
    """A file of this repository named in any command's --help is there (``cdsim play
    --help`` named strategies/params.py long after it went)."""
    import re

    import typer

    from cdsim.cli import app

    def helps(command: object, path: list[str]) -> list[tuple[str, str]]:
        ctx = command.make_context(" ".join(path), [], resilient_parsing=True)  # type: ignore[attr-defined]
        found = [(" ".join(path), command.get_help(ctx))]  # type: ignore[attr-defined]
        for name in getattr(command, "list_commands", lambda _: [])(ctx):
            found += helps(command.get_command(ctx, name), [*path, name])  # type: ignore[attr-defined]
        return found

    top = ("cdsim", "strategies", "reports", "scripts", "docs", "tests")
    pattern = re.compile(rf"\b(?:{'|'.join(top)})/[\w./-]*\w")
    texts = helps(typer.main.get_command(app), ["cdsim"])
    named = {(command, m) for command, text in texts for m in pattern.findall(text)}
    assert ("cdsim train", "strategies/weights/learned.json") in named  # it finds them
    missing = sorted((command, m) for command, m in named if not (REPO / m).exists())
    assert not missing, missing
