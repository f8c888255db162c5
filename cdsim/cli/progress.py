"""Progress of long commands (simulate, study run, ladder): a live bar on a terminal,
lines otherwise."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

from cdsim.errors import CdsimError


def run_with_progress(run: Path, manifest: dict[str, Any], jobs: int, backend: str,
                       games: int) -> None:
    from cdsim.runner import run_chunks

    done = sum(b - a for i, (a, b) in enumerate(manifest["chunks"]) if i in manifest["finished"])
    start = time.perf_counter()
    played = 0
    try:
        if sys.stdout.isatty():
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn()) as bar:
                task = bar.add_task("games", total=games, completed=done, rate="-")

                def tick(index: int, n: int) -> None:
                    nonlocal played
                    played += n
                    rate = played / max(time.perf_counter() - start, 1e-9)
                    bar.update(task, advance=n, rate=f"{rate:.0f}")

                manifest = run_chunks(run, manifest, jobs, backend, tick)
        else:
            def line(index: int, n: int) -> None:
                nonlocal played, done
                played += n
                done += n
                rate = played / max(time.perf_counter() - start, 1e-9)
                eta = (games - done) / rate if rate else 0
                print(f"chunk {index}: {done}/{games} games, {rate:.0f} games/s, "
                      f"eta {eta:.0f} s", flush=True)

            manifest = run_chunks(run, manifest, jobs, backend, line)
    except KeyboardInterrupt:
        saved = len(read_manifest_safe(run))
        print(f"cdsim: interrupted; {saved} chunks saved in {run}: continue with --resume",
              file=sys.stderr)
        sys.exit(130)
    wall = time.perf_counter() - start
    print(f"{games} games in {run} ({played} played now in {wall:.1f} s, "
          f"{played / max(wall, 1e-9):.0f} games/s)")


def read_manifest_safe(run: Path) -> list[int]:
    from cdsim.runner import read_manifest

    try:
        return list(read_manifest(run)["finished"])
    except CdsimError:
        return []


class StudyProgress:
    """One progress bar for a whole study (rich on a terminal, plain lines otherwise)."""

    def __init__(self, name: str, label: str | None = None, stream: TextIO | None = None) -> None:
        self.name = name
        self.label = label or f"study {name}"
        self.stream = stream or sys.stdout  # cdsim ladder --json: stderr, stdout is the JSON's
        self.played = 0
        self.total = 0
        self.done = 0
        self.start = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> StudyProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def plan(self, total: int, done: int) -> None:
        """The games planned so far (confirmations and re-simulation rounds add to it)."""
        self.total, self.done = total, done
        if self.bar is None and self.stream.isatty() and total > done:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(),
                                TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(),
                                console=Console(file=self.stream))
            self.bar.start()
            self.task = self.bar.add_task("games", total=total, completed=done, rate="-")
        if self.bar is not None:
            self.bar.update(self.task, total=total, completed=done)

    def chunk(self, key: str, games: int) -> None:
        self.played += games
        self.done += games
        rate = self.played / max(time.perf_counter() - self.start, 1e-9)
        if self.bar is not None:
            self.bar.update(self.task, advance=games, rate=f"{rate:.0f}")
            return
        eta = (self.total - self.done) / rate if rate else 0
        print(f"{key}: {self.done}/{self.total} games, {rate:.0f} games/s, eta {eta:.0f} s",
              file=self.stream, flush=True)
