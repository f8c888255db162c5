"""The one work queue (runs, studies and ladders): every unfinished chunk of every run goes
to workers that play its games on the core and return rows; only the driver writes them
(cdsim.batch.folder). Where every seat of every run is a built-in player and the work stays
on this machine, the workers are threads of the driver (the core releases the GIL for a
chunk's games; threads spare the worker processes' start-up, imports and pickling);
otherwise joblib's (loky worker processes locally, Dask on a cluster).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Generator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from cdsim import core
from cdsim.batch.config import RunConfig, engine_for, lineup_for, replay_command
from cdsim.batch.folder import RunFolder
from cdsim.batch.manifest import RunManifest
from cdsim.batch.uses import use_frame
from cdsim.errors import StrategyFailure


def _die_with_driver(driver: int) -> None:
    """Worker initializer: on Linux the kernel stops the worker when the process that
    started it (``driver``, its pid) dies, even by kill -9 (else loky workers play on for
    minutes, holding the driver's stderr). A driver that died before this ran (killed while
    its workers were still starting, as under load) sends no such signal: its worker has
    already been handed to another parent, so it stops here itself."""
    if sys.platform.startswith("linux"):
        import contextlib
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):  # no prctl: they end when idle
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() != driver:  # after the prctl: a death from now on signals it
            os._exit(1)


def worker_options(backend: str) -> dict[str, object]:
    """parallel_config's extra settings for a backend's workers (loky: die with the driver,
    this process)."""
    return ({"initializer": _die_with_driver, "initargs": (os.getpid(),)}
            if backend == "loky" else {})


def play_chunk_table(config: RunConfig, first: int, last: int) -> list[dict[str, object]]:
    """The seat rows of ``play_chunk_tables``."""
    return play_chunk_tables(config, first, last)[0]


def play_chunk_tables(config: RunConfig, first: int, last: int
                      ) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Games first..last-1 on the core, one at a time (worker side), as seat rows and card
    rows: a line-up with a user's Python strategy (the game's ``Roster.table``: the core plays,
    the Python strategy decides on an observation made from the core's state). A strategy
    that fails (anything in its code, its time limit, a choice not offered) is a
    StrategyFailure naming the game, the decision and the command that replays it."""

    roster = config.spec.roster
    overrides = roster.parse_params(config.strategy_params)
    rows: list[dict[str, object]] = []  # a seat row, column by column (GameRecord.rows)
    cards: list[dict[str, object]] = []
    watch = _watcher()
    for game in range(first, last):
        setup, names = lineup_for(config, game)
        table = None
        try:
            table = roster.table(config.components, names, overrides, config.seed, setup,
                                 config.starting_vp, where=f"game {game}",
                                 decision_timeout=config.decision_timeout or None, watch=watch)
            record = table.play()
        except StrategyFailure as exc:  # named as the user gave it (module:Class)
            name = names[exc.seat].spelling if exc.seat >= 0 else exc.strategy
            decision = "" if table is None else f" decision {table.decisions() + 1}"
            raise exc.located(name, f", game {game} (setup {setup}){decision}; replay it "
                              f"with: {replay_command(config, game)}") from None
        for row in record.rows():
            row.update(game=game, setup=setup, seed=config.seed)
            rows.append(row)
        cards += [{"game": game} | card for card in record.card_rows()]
    return rows, cards


# A worker that dies (a crash, a kill, os._exit called another way) says nothing: so while a
# user strategy decides, a worker started by a cdsim driver keeps a one-line note of where
# it is in a file of its own (DRIVER_ENV names the driver), which the driver reads when
# joblib reports the worker dead (``dead_worker_note``; cdsim.cli.app sets DRIVER_ENV).
DRIVER_ENV = "CDSIM_DRIVER"
_NOTE: dict[str, int] = {}


def notes_folder(driver: int) -> Path:
    import tempfile

    return Path(tempfile.gettempdir()) / f"cdsim-{driver}-workers"


def _watcher() -> Callable[[str | None], None] | None:
    """The note keeper of this worker, or None where there is no driver to read notes
    (the driver itself, --jobs 1, or a worker of another kind)."""
    if os.environ.get(DRIVER_ENV) != str(os.getppid()):
        return None
    return _note


def _note(text: str | None) -> None:
    try:
        if "fd" not in _NOTE:
            folder = notes_folder(os.getppid())
            folder.mkdir(exist_ok=True)
            _NOTE["fd"] = os.open(folder / str(os.getpid()), os.O_CREAT | os.O_WRONLY, 0o600)
        data = (text or "").encode("utf-8", "replace")[:2000] + b"\n"
        os.pwrite(_NOTE["fd"], data.ljust(2048), 0)
    except OSError:
        pass  # a note is a courtesy: never fail a game for it


def dead_worker_note() -> str | None:
    """What a dead worker of this driver was doing, if it was in a user strategy's decision
    (the notes of workers that ended normally are empty): a last word ("!...", written by
    a worker that stopped itself) first, else the note left longest ago (loky stops the
    other workers after the first death)."""
    folder = notes_folder(os.getpid())
    notes: list[tuple[bool, float, str]] = []
    try:
        for path in folder.iterdir():
            line = path.read_text(errors="replace").split("\n", 1)[0].strip()
            if line:
                notes.append((not line.startswith("!"), path.stat().st_mtime, line))
    except OSError:
        pass
    return min(notes)[2].lstrip("!") if notes else None


def clear_notes() -> None:
    import shutil

    shutil.rmtree(notes_folder(os.getpid()), ignore_errors=True)


def core_chunk_frame(config: RunConfig, first: int, last: int, check: bool = False,
                     stop: Any = None) -> Any:
    """The seat rows of ``core_chunk_frames``."""
    return core_chunk_frames(config, first, last, check, stop)[0]


def core_chunk_frames(config: RunConfig, first: int, last: int, check: bool = False,
                      stop: Any = None) -> tuple[Any, Any]:
    """Games first..last-1 played in the core a chunk at a time (every seat a built-in
    player), as seat rows and card rows: the same rows ``play_chunk_tables`` gives, faster.
    A set ``stop`` (``cdsim._core.Stop``) ends the chunk before its next game, with a
    ValueError."""
    rows, cards, _ = core_chunk_parts(config, first, last, check, stop)
    return rows, cards


def core_chunk_parts(config: RunConfig, first: int, last: int, check: bool = False,
                     stop: Any = None) -> tuple[Any, Any, Any]:
    """``core_chunk_frames``' seat rows and card rows, and the use rows of the run's
    watched entries (``cdsim.batch.uses``; None: the run watches none)."""
    import polars as pl

    roster = config.spec.roster
    module = roster.core()  # ready to play its players (Carpe Diem's: its profiles file's)
    assert module is not None
    n = config.players
    games = np.arange(first, last, dtype=np.int64)
    setups = np.empty(len(games), dtype=np.int64)
    # one entry per spelling: rows name each player as spelled, even two spellings of one
    players = list({spec.spelling: spec for spec in config.lineup}.values())
    index = {spec.spelling: i for i, spec in enumerate(players)}
    lineups = np.empty(len(games) * n, dtype=np.uint8)
    for i, game in enumerate(range(first, last)):
        setups[i], seats = lineup_for(config, game)
        lineups[i * n:(i + 1) * n] = [index[s.spelling] for s in seats]
    overrides = roster.parse_params(config.strategy_params)
    # the core plays built-in names; a name@setting spelling is its built-in with overrides
    strategies = [(spec.base, sorted(roster.overrides(spec, overrides).items()))
                  for spec in players]
    names = [spec.spelling for spec in players]
    columns = module.play_chunk(config.spec.load_components(config.components), n,
                                list(config.starting_vp), config.seed, games, setups, lineups,
                                strategies, check, stop, uses=bool(config.watched))
    made_uses = columns.pop("uses", None)
    uses = None if made_uses is None else use_frame(made_uses, config.watched)
    table, made = config.spec.cards, columns.pop("cards", None)  # the game's card table
    cards = None if table is None or made is None else table.frame(made)
    strategy = pl.Series(names, dtype=pl.String).gather(columns.pop("strategy"))
    frame: dict[str, pl.Series] = {"strategy": strategy}
    frame.update({k: pl.Series(k, v, dtype=pl.Boolean if v.dtype == np.bool_ else pl.Int64)
                  for k, v in columns.items()})
    order = list(config.spec.row_fields())  # the game's rows in their recorded order
    order += [k for k in frame if k not in order]
    return pl.DataFrame({k: frame[k] for k in order}), cards, uses


OnChunk = Callable[[str, int, int], None]  # (run key, chunk index, games in the chunk)
Task = tuple[str, int, RunConfig, int, int, str]  # (run key, chunk index, config, games, engine)
Results = Generator[tuple[str, int, Any], None, None]  # (run key, chunk index, frames or a StrategyFailure)

# CDSIM_THREADS=0 plays built-in line-ups in worker processes as a Python strategy's are
# (scripts/bench.py measures both; the rows are the same either way).
THREADS_ENV = "CDSIM_THREADS"


def plays_in_threads(engines: Mapping[str, str], backend: str) -> bool:
    """Whether the queue's chunks play in threads of the driver: every run on the core
    alone (no Python strategy: its decisions would hold the GIL) and on this machine (a
    Dask cluster spreads chunks over machines)."""
    return (backend == "loky" and all(engine == "rust" for engine in engines.values())
            and os.environ.get(THREADS_ENV, "1") != "0")


# A run of the queue: its folder and its manifest (``RunFolder.begin``'s)
QueuedRun = tuple[RunFolder, RunManifest]


def play_queue(runs: Mapping[str, QueuedRun], jobs: int, backend: str,
               on_chunk: OnChunk | None = None, where: str = "") -> None:
    """The one work queue (runs, studies and ladders): every unfinished chunk of every run in
    ``runs`` (key -> (run folder, its manifest from ``RunFolder.begin``)) goes into one queue
    of ``jobs`` workers (threads or joblib's: ``plays_in_threads``); only the driver writes,
    each part as it arrives (``RunFolder.save_chunk``), so the rows are the same for any
    --jobs, any kind of worker and any completion order. A strategy's failure in one chunk
    lets the others finish and be kept; then the first failure is raised, naming ``where``
    (default: the run folder) as the place --resume continues from."""
    manifests = {key: m for key, (_, m) in runs.items()}
    engines = {key: engine_for(m.config) for key, m in manifests.items()}
    for key, m in manifests.items():
        m.engine = engines[key]  # written with the run's first finished chunk
    tasks: list[Task] = []
    for key, m in manifests.items():
        finished = set(m.finished)
        tasks += [(key, index, m.config, first, last, engines[key])
                  for index, (first, last) in enumerate(m.chunks) if index not in finished]
    play = _thread_results if plays_in_threads(engines, backend) else _joblib_results
    failures: list[StrategyFailure] = []
    start = time.perf_counter()
    results = play(tasks, jobs, backend)
    try:
        for key, index, frames in results:
            if isinstance(frames, StrategyFailure):  # the other chunks go on and are kept
                failures.append(frames)
                continue
            now = time.perf_counter()
            folder, manifest = runs[key][0], manifests[key]
            folder.save_chunk(manifest, index, frames, now - start)
            start = now
            if on_chunk is not None:
                first, last = manifest.chunks[index]
                on_chunk(key, index, last - first)
    finally:
        results.close()  # a stop: no further chunk is played or written
    if failures:
        more = f"; {len(failures) - 1} more chunks failed" if len(failures) > 1 else ""
        if not where:
            (folder, _), = runs.values()
            (manifest,) = manifests.values()
            where = f"{len(manifest.finished)} finished chunks are kept in {folder.path}"
        raise failures[0].located(failures[0].strategy, f"{more}; {where} (--resume plays "
                                  "the rest)")


def _joblib_results(tasks: list[Task], jobs: int, backend: str) -> Results:
    """The chunks' rows as joblib's workers finish them (any order)."""
    from joblib import Parallel, delayed, parallel_config

    with parallel_config(backend=backend, n_jobs=jobs, **worker_options(backend)):
        results = Parallel(return_as="generator_unordered")(
            delayed(_indexed_chunk)(*task) for task in tasks)
        try:
            # not yield from: a stop's close() would reach joblib's generator before the
            # warnings are silenced below
            for result in results:  # noqa: UP028
                yield result
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                import warnings

                with warnings.catch_warnings():  # joblib's note on cancelled tasks at a stop
                    warnings.simplefilter("ignore", UserWarning)
                    close()


def _thread_results(tasks: list[Task], jobs: int, backend: str) -> Results:
    """The chunks' rows as ``jobs`` threads of this process finish them (any order). On a
    stop (or any exit before the last) the chunks not begun are cancelled and those being
    played end before their next game, so that the process ends promptly and nothing
    unfinished is written. A thread that raises (the core panicked) ends the queue the
    same way, its error raised here; the chunks written before it are kept."""
    from concurrent.futures import ThreadPoolExecutor, as_completed

    from joblib import effective_n_jobs, parallel_config

    module = core.module()
    assert module is not None  # engine_for needed it
    stop = module.Stop()
    with parallel_config(backend=backend):  # --jobs as joblib's workers read it (-1: all)
        workers = effective_n_jobs(jobs)
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cdsim-chunk")
    try:
        # a finished future holds its chunk's rows: each is let go once handed on, so the
        # driver holds the chunks being written, not the whole run's rows
        pending = {pool.submit(_indexed_chunk, *task, stop=stop) for task in tasks}
        for future in as_completed(pending):
            pending.discard(future)
            result = future.result()
            del future
            yield result
            del result
    finally:
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)


def run_chunks(run: RunFolder, manifest: RunManifest, jobs: int, backend: str,
               on_chunk: Callable[[int, int], None] | None = None) -> RunManifest:
    """Play every unfinished chunk of one run (``play_queue`` with one run);
    ``on_chunk(index, games)`` after each is written."""
    tick = None if on_chunk is None else (lambda _key, index, games: on_chunk(index, games))
    play_queue({str(run.path): (run, manifest)}, jobs, backend, tick)
    return manifest


def play_chunk_frame(config: RunConfig, first: int, last: int, engine: str = "") -> Any:
    """The seat rows of ``play_chunk_frames``."""
    return play_chunk_frames(config, first, last, engine)[0]


def play_chunk_frames(config: RunConfig, first: int, last: int, engine: str = "",
                      stop: Any = None) -> tuple[Any, Any, Any]:
    """Games first..last-1 as polars DataFrames, seat rows, card rows and use rows, on the
    engine the run plays on (the compiled core when every seat is a built-in player: the
    same rows, faster; a set ``stop`` ends it early). Card rows None: a game without a card
    table; use rows None: a run that watches nothing, or a Python strategy's (the Python
    table records no uses: cdsim.batch.uses)."""
    import polars as pl

    if (engine or engine_for(config)) == "rust":
        return core_chunk_parts(config, first, last, stop=stop)
    rows, cards = play_chunk_tables(config, first, last)
    table = config.spec.cards  # the game's card table (None: it has none)
    if table is None:
        return pl.DataFrame(rows), None, None
    schema = {k: pl.String if k in table.text else pl.Int64 for k in table.fields}
    return pl.DataFrame(rows), pl.DataFrame(cards, schema=schema), None


def _indexed_chunk(key: str, index: int, config: RunConfig, first: int, last: int,
                   engine: str = "", stop: Any = None) -> tuple[str, int, Any]:
    """Worker side: a chunk's rows, or the failure of a strategy in it (returned, not
    raised, so that the other chunks of the queue finish and are written)."""
    try:
        return key, index, play_chunk_frames(config, first, last, engine, stop)
    except StrategyFailure as exc:
        return key, index, exc


__all__ = ["DRIVER_ENV", "THREADS_ENV", "OnChunk", "QueuedRun", "clear_notes",
           "core_chunk_frame", "core_chunk_frames", "core_chunk_parts", "dead_worker_note",
           "play_chunk_frame",
           "play_chunk_frames", "play_chunk_table", "play_chunk_tables", "play_queue",
           "plays_in_threads", "run_chunks",
           "worker_options"]
