"""Playing a study (``run``): round by round, the next stage of every cell not yet decided
(``cdsim.study.plan``), all their chunks in one work queue (``play``, which ladders use
too), until every cell has its verdict. Only the driver writes, so the rows are the same for
any --jobs and any kill-and-resume history."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cdsim.batch.config import engine_for
from cdsim.batch.folder import RunFolder
from cdsim.batch.progress import Work
from cdsim.batch.queue import QueuedRun, play_queue
from cdsim.errors import CdsimError
from cdsim.study.budget import cell_game_ms
from cdsim.study.clock import Clock, TimeUp
from cdsim.study.manifest import CellState, StudyManifest
from cdsim.study.model import Job, Study
from cdsim.study.plan import Tables, games_total, plan
from cdsim.study.store import open_folder, run_folder, write_study_manifest

OnChunk = Callable[[str, int], None]  # (run key, games in the chunk)
# (games planned as far as known, games finished, both weighed by their cost)
OnPlan = Callable[[int, int, Work], None]
OnStart = Callable[[Study, Sequence[CellState]], None]  # the study as it continues


def run(study: Study, root: Path, jobs: int = -1, backend: str = "loky",
        resume: bool = False, force: bool = False, on_chunk: OnChunk | None = None,
        on_plan: OnPlan | None = None, games: int | None = None,
        on_start: OnStart | None = None, clock: Clock | None = None,
        again: str = "") -> StudyManifest:
    """Play the whole study into ``root``: round by round, the next stage of every cell not
    yet decided, all their chunks in one queue, until every cell has its verdict.
    ``games``: raise every cell's budget to at least this (an undecided cell goes on; a
    decided one is left as it is). ``on_start``: told the study as it continues (budgets
    raised) and the cells' states recorded so far, before any game. ``clock``: this run's
    rate and time budget (``--minutes``): once spent, play stops at the next chunk boundary,
    the finished stages are judged, and the manifest says why it stopped (``stopped``) and
    how to go on (``again``, the resume command): its report is provisional."""
    manifest, study = open_folder(root, study, resume, force, games)
    if again:
        manifest.resume = again
    if clock is not None:
        clock.per_game_ms = {cell.key: cell_game_ms(cell) for cell in study.cells}
    if on_start is not None:
        on_start(study, manifest.cells)
    start = time.perf_counter()
    tables: Tables = {}
    timed_out = False
    while True:
        todo, manifest.cells = plan(study, root, tables, manifest.cells)
        timed_out = timed_out or (clock is not None and clock.expired())
        # a study that ends has no such mark (StudyManifest.record)
        manifest.stopped = _stopped(bool(todo), timed_out, clock)
        write_study_manifest(root, manifest)
        if on_plan is not None:
            on_plan(*games_total(root, manifest.cells))
        if not todo or timed_out:
            break
        try:
            if clock is None:
                play(root, todo, jobs, backend, on_chunk)
            else:
                with clock.playing():
                    play(root, todo, jobs, backend, on_chunk)
        except TimeUp:  # the finished stages are judged by the plan above, then it stops
            timed_out = True
        finally:  # a stop too: the manifest counts every finished chunk, as the folder does
            manifest.wall_seconds = round(manifest.wall_seconds + time.perf_counter() - start, 3)
            start = time.perf_counter()
            if clock is not None:
                manifest.played(*clock.unrecorded())
            write_study_manifest(root, manifest)
    manifest.stamp(start, None, clock.load if clock is not None else None)
    if clock is not None:
        clock.finish()  # the pace the closing lines say is the run's, not its pages'
        manifest.played(*clock.unrecorded())
        if clock.rate() is not None:
            manifest.rate = clock.rate()
    write_study_manifest(root, manifest)
    return manifest


def _stopped(more: bool, timed_out: bool, clock: Clock | None) -> str | None:
    """The manifest's ``stopped`` while games are still to play: "interrupted" (a stop at
    any moment leaves it so) or why it stops now (its time budget); None once it ends."""
    if not more:
        return None
    if timed_out and clock is not None:
        return f"its time budget of {clock.budget_words()}"
    return "interrupted"


def check_players(study: Study) -> None:
    """Every cell's players made and checked against the cell's component set before
    anything is played or written (the study folder, its lock, a cell): a player the core
    cannot play, a user's strategy that cannot be made, or learned weights that cannot
    play a variant's or a sweep value's set is one line naming the cell."""
    with tempfile.TemporaryDirectory(prefix="cdsim-check-") as scratch:
        placed = study.placed(Path(scratch))  # a sweep's values as the files they will be
        for cell in placed.cells:
            for job in placed.stage_jobs(cell, 0, cell.deal):
                try:
                    engine_for(job.config)
                    roster = job.config.spec.roster
                    roster.weights(job.config.lineup, job.config.components)
                    roster.reads_scores(job.config.lineup)
                except CdsimError as exc:
                    raise CdsimError(f"cell {cell.key}: {exc}") from None


def _prepare(root: Path, job: Job) -> QueuedRun:
    folder = RunFolder(run_folder(root, job.key))
    exists = folder.started()
    try:  # a cell folder without a manifest holds nothing (a kill before its first write)
        return folder, folder.begin(job.config, resume=exists, force=not exists)
    except CdsimError as exc:
        raise CdsimError(f"cell {job.key}: {exc}") from None


def play(root: Path, todo: Sequence[Job], jobs: int, backend: str,
         on_chunk: OnChunk | None = None) -> None:
    """Play the unfinished chunks of every run in ``todo`` (folders under ``root/cells``) in
    the one work queue (``cdsim.batch.queue.play_queue``); used by studies and ladders."""
    runs = {job.key: _prepare(root, job) for job in todo}
    tick = None if on_chunk is None else (lambda key, _index, games: on_chunk(key, games))
    play_queue(runs, jobs, backend, tick, f"finished chunks are kept in {root}")


__all__ = ["OnChunk", "OnPlan", "OnStart", "check_players", "play", "run"]
