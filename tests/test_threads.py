"""Built-in line-ups play their chunks in threads of the driver (cdsim.batch.queue): the same
rows as worker processes, for a run and for a study; a stop ends the threads' chunks before
their next game, leaves only whole parts, and --resume gives the rows of an unbroken run."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from cdsim.batch import queue
from cdsim.batch.config import RunConfig
from cdsim.batch.folder import RunFolder
from cdsim.study.model import load_study
from cdsim.study.play import run as run_study
from cdsim.study.store import STUDY_MANIFEST

STUDY = """\
name = "threads"
seed = 5
games = 240
chunk_size = 40
players = [2]
tolerance = 0.3
[[population]]
name = "mix"
lineup = ["greedy", "landscape", "bread"]
"""


def workers(monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    """Play in ``kind`` workers only: the other kind fails the test if it is asked."""
    monkeypatch.setenv(queue.THREADS_ENV, "1" if kind == "threads" else "0")
    other = "_joblib_results" if kind == "threads" else "_thread_results"

    def refuse(*args: Any) -> Any:
        raise AssertionError(f"played in {other}, not in {kind}")

    monkeypatch.setattr(queue, other, refuse)


def play(run: Path, config: RunConfig, jobs: int = 2, on_chunk: Any = None) -> str:
    folder = RunFolder(run)
    queue.run_chunks(folder, folder.begin(config, resume=run.exists(), force=False), jobs,
                     "loky", on_chunk)
    return folder.digest()


def test_who_plays_in_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    assert queue.plays_in_threads({"a": "rust", "b": "rust"}, "loky")
    assert not queue.plays_in_threads({"a": "rust", "b": "table"}, "loky")  # a Python seat
    assert not queue.plays_in_threads({"a": "rust"}, "dask")  # a cluster's machines
    monkeypatch.setenv(queue.THREADS_ENV, "0")
    assert not queue.plays_in_threads({"a": "rust"}, "loky")


def test_a_run_has_the_same_rows_in_threads_and_in_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = RunConfig(players=4, games=48, seed=7, chunk_size=5, rotate_seats=True,
                       strategies=("villa", "landscape", "bread", "greedy"))
    digests = {}
    for kind in ("threads", "processes"):
        with monkeypatch.context() as m:
            workers(m, kind)
            digests[kind] = play(tmp_path / kind, config)
    assert digests["threads"] == digests["processes"]
    parts = {kind: sorted(p.read_bytes() for p in (tmp_path / kind / "games").glob("*"))
             for kind in digests}
    assert parts["threads"] == parts["processes"]  # byte for byte, part by part


def test_a_study_has_the_same_rows_and_verdicts_in_threads_and_in_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "study.toml"
    path.write_text(STUDY)
    for kind in ("threads", "processes"):
        with monkeypatch.context() as m:
            workers(m, kind)
            run_study(load_study(path), tmp_path / kind, jobs=2)
    runs = sorted(p.name for p in (tmp_path / "threads" / "cells").iterdir())
    assert runs == sorted(p.name for p in (tmp_path / "processes" / "cells").iterdir())
    for name in runs:
        assert RunFolder(tmp_path / "threads" / "cells" / name).digest() == \
            RunFolder(tmp_path / "processes" / "cells" / name).digest(), name
    cells = [json.loads((tmp_path / kind / STUDY_MANIFEST).read_text())["cells"]
             for kind in ("threads", "processes")]
    assert cells[0] == cells[1]


def test_a_stop_ends_the_chunk_being_played_and_resume_gives_the_same_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunk 0 is long, chunk 1 two games: the stop comes when chunk 1 is written, while a
    thread is in the middle of chunk 0, which must end at its next game, unwritten."""
    workers(monkeypatch, "threads")
    config = RunConfig(players=4, games=3002, seed=3, chunk_size=3000,
                       strategies=("greedy",) * 4)
    ends: dict[int, str] = {}
    played = queue._indexed_chunk

    def noted(key: str, index: int, *args: Any, **kwargs: Any) -> Any:
        try:
            out = played(key, index, *args, **kwargs)
        except ValueError as exc:
            ends[index] = str(exc)
            raise
        ends[index] = "rows"
        return out

    def stop(index: int, games: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(queue, "_indexed_chunk", noted)
    run = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        play(run, config, on_chunk=stop)
    for thread in threading.enumerate():
        if thread.name.startswith("cdsim-chunk"):
            thread.join(timeout=120)
    assert ends == {1: "rows", 0: "stopped before the chunk was finished"}
    assert RunFolder(run).read().finished == [1]
    assert [p.name for p in (run / "games").iterdir()] == ["part-00001.parquet"]  # no tmp
    resumed = play(run, config)
    assert ends[0] == "rows"
    assert resumed == play(tmp_path / "whole", config)


def test_the_thread_queue_lets_each_chunk_go_once_handed_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk's rows are freed once the driver has written them: the queue holds no
    finished chunk it handed on (a 100,000-game run peaked at 788 MiB when it held them
    all; make bench prints the peak)."""
    import gc
    import weakref

    class Rows:  # stands for a chunk's frames
        pass

    made: list[weakref.ref[Rows]] = []

    def chunk(key: str, index: int, *args: Any, **kwargs: Any) -> tuple[str, int, Rows]:
        rows = Rows()
        made.append(weakref.ref(rows))
        return key, index, rows

    monkeypatch.setattr(queue, "_indexed_chunk", chunk)
    tasks: list[Any] = [("run", i, None, 0, 1, "rust") for i in range(40)]
    handed: list[weakref.ref[Rows]] = []
    for _, _, rows in queue._thread_results(tasks, 2, "loky"):
        handed.append(weakref.ref(rows))
        del rows
        gc.collect()
        held = sum(r() is not None for r in handed[:-1])  # the last may be in the loop's hands
        assert held == 0, f"{held} of the {len(handed)} chunks handed on are still held"
    assert len(handed) == 40 and len(made) == 40


def test_a_core_player_dropped_on_another_thread_goes_quietly() -> None:
    """A core player (``_core.Bot``) may be dropped on a thread other than its maker's (a
    reference cycle collected there, a batch's thread): it is freed with nothing said, where
    an unsendable class printed "Bot is unsendable, but is being dropped on another thread"
    through Python's unraisable hook (seen under a whatif and a study report) and leaked it."""
    import sys

    from cdsim import core

    module = core.module()
    assert module is not None
    heard: list[object] = []
    held = [module.Bot("greedy")]
    before, sys.unraisablehook = sys.unraisablehook, heard.append
    try:
        worker = threading.Thread(target=held.clear)
        worker.start()
        worker.join()
    finally:
        sys.unraisablehook = before
    assert held == [] and heard == []
