"""Progress of long commands (simulate, study run, ladder), always on stderr (stdout holds
the command's result: its summary, or its JSON): a live bar when stderr is a terminal;
otherwise at most one plain line every ``PLAIN_SECONDS`` (a log stays short: a 16 s study
writes three lines, not one per chunk); ``quiet`` for none."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from cdsim.errors import CdsimError

if TYPE_CHECKING:  # the command line imports this module early: the queue when it plays
    from cdsim.batch.folder import RunFolder
    from cdsim.batch.manifest import RunManifest


def _plain_seconds() -> float:
    """Seconds between plain progress lines (CDSIM_PROGRESS_SECONDS, default 5)."""
    try:
        return max(0.0, float(os.environ.get("CDSIM_PROGRESS_SECONDS", "5")))
    except ValueError:
        return 5.0


@dataclass(frozen=True)
class Work:
    """A study's games weighed by their cost (CPU ms, ``cdsim.batch.cost``): what is planned
    and done, and each cell's cost per game by its key (a run key's part before ``+s``)."""

    total_ms: float
    done_ms: float
    per_game_ms: dict[str, float] = field(default_factory=dict)

    def of_run(self, key: str) -> float:
        """ms per game of the run ``key`` (its cell's; the mean if it is not known)."""
        cell = key.rsplit("+s", 1)[0]
        known = self.per_game_ms
        return known.get(cell, sum(known.values()) / len(known) if known else 1.0)


class Progress:
    """Games done of a total, shown on ``stream`` (stderr by default): a rich bar on a
    terminal, else a line at most every few seconds, nothing when quiet. With ``work``
    (``plan_work``) the ETA weighs each game by its cost: a learned game counts some 30
    scripted ones, where the mean game rate said "eta 31 s" for four minutes."""

    def __init__(self, label: str, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.total = 0
        self.done = 0
        self.played = 0  # by this command (a resumed run's finished games are not counted)
        self.start = time.perf_counter()
        self.last_line = self.start
        self.every = _plain_seconds()
        self.bar: Any = None
        self.task: Any = None
        self.closed = False
        self.work: Work | None = None
        self.work_played = 0.0  # ms of games played by this command
        self.deadline: float | None = None  # when a time budget ends (a perf_counter time)

    def rate(self) -> float:
        return self.played / max(time.perf_counter() - self.start, 1e-9)

    def eta(self) -> float:
        """Seconds left to the likely end: the work left (the planned games: a study's
        decided cells at their games, a whatif's comparisons to where they look like
        deciding) over the work rate so far (games weighed by their cost when known), never
        past the time budget's end (``deadline``); 0 before any game."""
        now = time.perf_counter()
        elapsed = max(now - self.start, 1e-9)
        if self.work is not None and self.work_played > 0:
            left = max(0.0, self.work.total_ms - self.work.done_ms) * elapsed / self.work_played
        else:
            rate = self.rate()
            left = (self.total - self.done) / rate if rate else 0.0
        return left if self.deadline is None else max(0.0, min(left, self.deadline - now))

    def plan_work(self, total: int, done: int, work: Work) -> None:
        """``plan`` with the games weighed by their cost (the ETA's)."""
        self.work = work
        self.plan(total, done)

    def plan(self, total: int, done: int) -> None:
        """The games planned so far and those already finished (it may grow: a study adds
        confirmations and re-simulation rounds)."""
        self.total, self.done = total, done
        if self.quiet:
            return
        if self.bar is None and _isatty(self.stream) and total > done:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
            )
            from rich.progress import (
                Progress as Bar,
            )

            self.bar = Bar(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                           TextColumn("{task.fields[rate]} games/s"),
                           TextColumn("eta {task.fields[eta]}"),
                           console=Console(file=self.stream), transient=False)
            self.bar.start()
            self.task = self.bar.add_task("games", total=total, completed=done, rate="-",
                                          eta="-")
        if self.bar is not None:
            self.bar.update(self.task, total=total, completed=done)

    def advance(self, games: int, what: str = "") -> None:
        self.played += games
        self.done += games
        if self.work is not None:
            ms = games * self.work.of_run(what)
            self.work_played += ms
            self.work = Work(self.work.total_ms, self.work.done_ms + ms, self.work.per_game_ms)
        if self.quiet:
            return
        rate = self.rate()
        if self.bar is not None:
            self.bar.update(self.task, advance=games, rate=f"{rate:.0f}", eta=f"{self.eta():.0f} s")
            return
        now = time.perf_counter()
        if now - self.last_line < self.every:
            return
        self.last_line = now
        self.line(what)

    def line(self, what: str = "") -> None:
        rate = self.rate()
        eta = self.eta()
        where = f" ({what})" if what else ""
        print(f"{self.label}: {self.done}/{self.total} games{where}, {rate:.0f} games/s, "
              f"eta {eta:.0f} s", file=self.stream, flush=True)

    def close(self, finished: bool = False) -> None:
        """Stop the bar; ``finished`` (the command completed): a plain stream gets one
        closing line, so that a log says how it ended."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None
        elif finished and not self.quiet and self.played and not self.closed:
            print(self.closing(), file=self.stream, flush=True)
        self.closed = True

    def closing(self) -> str:
        """The closing line of a plain stream."""
        wall = time.perf_counter() - self.start
        return (f"{self.label}: {self.done}/{self.total} games, {self.rate():.0f} games/s, "
                f"done in {wall:.1f} s")


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def run_with_progress(run: RunFolder, manifest: RunManifest, jobs: int, backend: str,
                      games: int, quiet: bool = False) -> None:
    """Play a run folder's unfinished chunks with progress on stderr; the summary line on
    stdout. A stop keeps the finished chunks (exit 130 with the resume hint)."""
    from cdsim.batch.queue import run_chunks

    progress = Progress("simulating", quiet=quiet)
    progress.plan(games, manifest.games_done)
    try:
        manifest = run_chunks(run, manifest, jobs, backend,
                              lambda index, n: progress.advance(n, f"chunk {index}"))
    except KeyboardInterrupt:
        progress.close()
        saved = len(finished_chunks(run))
        print(f"cdsim: interrupted; {saved} chunks saved in {run.path}: continue with --resume",
              file=sys.stderr)
        sys.exit(130)
    finally:
        progress.close()
    wall = time.perf_counter() - progress.start
    print(f"{games} games in {run.path} ({progress.played} played now in {wall:.1f} s, "
          f"{progress.played / max(wall, 1e-9):.0f} games/s); next: cdsim report {run.path}")


def finished_chunks(run: RunFolder) -> list[int]:
    try:
        return list(run.read().finished)
    except CdsimError:
        return []


class StudyProgress(Progress):
    """One progress display for a whole study or ladder (``plan`` as cells are added,
    ``chunk`` as each chunk is written), on stderr."""

    def __init__(self, name: str, label: str | None = None, stream: TextIO | None = None,
                 quiet: bool = False) -> None:
        super().__init__(label or f"study {name}", stream, quiet)
        self.name = name

    def __enter__(self) -> StudyProgress:
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.close(finished=kind is None)

    def chunk(self, key: str, games: int) -> None:
        self.advance(games, key)

    def closing(self) -> str:
        """The closing line: no time of its own (the command's result gives the run's one
        wall time, play time and game count, as its manifest and pages do)."""
        return f"{self.label}: {self.done}/{self.total} games, done"


def page_note(label: str, quiet: bool = False,
              stream: TextIO | None = None) -> Callable[[str], None] | None:
    """A progress line on stderr for each step of writing a study's pages ("LABEL: writing
    charts/x.png"), so a study never goes quiet while its pages are written; None when
    ``quiet``."""
    if quiet:
        return None

    def note(step: str) -> None:
        print(f"{label}: {step}", file=stream or sys.stderr, flush=True)
    return note
