"""Bad input, continued (tests/test_hardening.py): a stop (Ctrl-C, SIGTERM, SIGHUP) during
a command, and the fuzz's leftovers: a full disk mid-run, blank or out-of-range values, a
part of another run. One line and the right exit code, nothing lost."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from tests.commands import run_main
from tests.test_hardening import _copy, _part, finished_run, refused

__all__ = ["finished_run"]  # the module's fixture, shared

REPO = Path(__file__).resolve().parent.parent
RUN = ["--players", "2", "--games", "8", "--strategies", "random", "--chunk-size", "4",
       "--jobs", "1"]


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


# A Ctrl-C raised in code that CPython runs from a text (eval or exec of a string). In the
# flake it arrived as a namedtuple's text was compiled (psutil makes dozens as loky first
# loads, in a whatif's first round) and was raised as that text began to run.
STOP_IN_A_TEXT = """
import os, signal, sys
import cdsim.cli
from reports import report
def loads_late(*a, **k):
    eval("os.kill(os.getpid(), signal.SIGINT)", {"os": os, "signal": signal})
    print("not stopped", flush=True)
report.write = loads_late
sys.argv = ["cdsim", "report", sys.argv[1]]
cdsim.cli.main()
"""


def test_a_ctrl_c_raised_in_a_text_being_run_exits_130(finished_run: Path,
                                                       tmp_path: Path) -> None:
    """Exit 130, not killed by SIGINT (-2) after the stop line: CPython takes a plain
    KeyboardInterrupt that left such a text for one nobody handled, though cdsim did
    (cdsim.cli.stops.Stop), and under ``python -m`` (the tests' way, not the installed
    script's) ends so. About 1 whatif in 10-20 stopped by Ctrl-C did."""
    (tmp_path / "stop_in_a_text.py").write_text(STOP_IN_A_TEXT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(tmp_path)])}
    proc = subprocess.run([sys.executable, "-m", "stop_in_a_text", str(finished_run)],
                          capture_output=True, text=True, timeout=60, check=False, env=env)
    assert "not stopped" not in proc.stdout
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip() == "cdsim: interrupted", proc.stderr


# what else a stopped run may write to stderr, none of it a fault: its progress lines (a
# chunk that takes longer than the progress interval, as under load), and the warning of
# the resource tracker that loky's workers share, which unlinks the semaphores of workers
# killed mid-chunk when the driver is gone (its text, then the source line warnings quote)
PROGRESS = re.compile(r"^simulating: \d+/\d+ games( \(chunk \d+\))?, \d+ games/s, eta \d+ s$")
TRACKER = re.compile(r"^\S*resource_tracker\.py:\d+: UserWarning: resource_tracker: There "
                     r"appear to be \d+ leaked semlock objects to clean up at shutdown")


def stop_lines(err: str) -> list[str]:
    """The lines of a stopped run's stderr that are neither progress nor the resource
    tracker's warning about semaphores (with the ``warnings.warn(`` line it quotes)."""
    lines = err.splitlines()
    kept: list[str] = []
    for i, line in enumerate(lines):
        if PROGRESS.match(line) or TRACKER.match(line):
            continue
        if line.strip().startswith("warnings.warn(") and i and TRACKER.match(lines[i - 1]):
            continue
        kept.append(line)
    return kept


def test_a_stopped_run_s_stderr_is_read_line_by_line() -> None:
    """Only progress lines and the tracker's own warning are set aside: a traceback, a
    second message or another warning stays and fails the stop test."""
    stop = "cdsim: interrupted; 1 chunks saved in r: continue with --resume"
    tracker = ("/x/loky/backend/resource_tracker.py:446: UserWarning: resource_tracker: There "
               "appear to be 2 leaked semlock objects to clean up at shutdown: {'/loky-1-a'}")
    progress = "simulating: 200/100000 games (chunk 0), 32 games/s, eta 3107 s"
    assert stop_lines(f"{progress}\n{stop}\n") == [stop]
    assert stop_lines(f"{stop}\n{tracker}\n  warnings.warn(\n") == [stop]
    assert len(stop_lines(f"Traceback (most recent call last):\n{stop}\n")) == 2
    other = "/x/y.py:3: UserWarning: something else"
    assert len(stop_lines(f"{stop}\n{other}\n  warnings.warn(\n")) == 3
    assert len(stop_lines(f"{stop}\n{tracker.replace('semlock', 'folder')}\n")) == 2


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
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # a process that outlives the driver holds its stderr
        err = None
    deadline = time.time() + 30  # the kernel's SIGTERM to each worker (PR_SET_PDEATHSIG); slow under load
    alive = children
    while alive and time.time() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in children if Path(f"/proc/{pid}").exists()
                 and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]]
    for pid in alive:  # a leak is reported, not left playing on after the test
        os.kill(int(pid), signal.SIGKILL)
    assert not alive, f"workers outlived the driver: {alive}"
    if err is None:  # they were slow to go (under load), but went
        _, err = proc.communicate(timeout=30)
    if signame == "SIGTERM":
        assert proc.returncode == 130, err
        said = stop_lines(err)
        assert len(said) == 1 and said[0].startswith("cdsim: interrupted") and "--resume" in \
            said[0], err
        finished = json.loads((run / "manifest.json").read_text())["finished"]
        parts = sorted((run / "games").iterdir())  # a part the manifest missed is played again
        assert {f"part-{i:05d}.parquet" for i in finished} <= {p.name for p in parts}
        assert all(len(pl.read_parquet(p)) == 200 * 2 for p in parts)  # whole, no temporary


GUARD = """
import os, sys
from cdsim.batch.queue import worker_options
options = worker_options("loky")
options["initializer"](int(sys.argv[1]))  # a worker's first step, told who its driver is
print("playing", flush=True)
"""


def test_a_worker_whose_driver_died_before_it_started_stops_itself() -> None:
    """A worker started just before its driver is killed (kill -9, under load) may ask the
    kernel to stop it with its driver only after the driver is gone: no signal ever comes,
    and it plays on. It stops itself when its parent is no longer the driver that started
    it (here: told another driver's pid); with its own driver's pid it plays."""
    import os

    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    env = os.environ | {"PYTHONPATH": str(REPO)}
    own = subprocess.run([sys.executable, "-c", GUARD, str(os.getpid())], env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert (own.returncode, own.stdout) == (0, "playing\n"), own.stderr
    orphan = subprocess.run([sys.executable, "-c", GUARD, str(os.getpid() + 1_000_000)],
                            env=env, capture_output=True, text=True, timeout=60, check=False)
    assert (orphan.returncode, orphan.stdout) == (1, ""), orphan.stderr


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
    assert ("cdsim train", "strategies/weights/carpe_diem-learned.json") in named  # it finds them
    missing = sorted((command, m) for command, m in named if not (REPO / m).exists())
    assert not missing, missing
