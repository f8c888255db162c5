"""A study's time: the budget a designer gives (``--minutes N``: the work stops at the first
chunk boundary after it, ``TimeUp``) and this run's measured rate, which every estimate of
"N more games take T here" uses once a chunk has finished (before that, the recorded costs
of ``cdsim.batch.cost``), saying which it is.

The rate is this run's wall time playing (inside the work queue, ``playing``) per game
weighed by the recorded cost of its cell's players (``cost.game_ms``): a learned game
counts as the dozen scripted ones it costs, so that a rate measured on scripted chunks
prices strong ones too, and the machine's load and its cores are in it; the looks between
stages are not (they grow with the looks, not the games).

Stopping at a time is no look at the data: the verdicts stay valid (anytime), and the
chunks of a stage left unfinished are kept for ``--resume``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from cdsim.batch import cost
from cdsim.study.manifest import PlayRate


class TimeUp(Exception):
    """The time budget is spent: raised at a chunk boundary, caught where the study plays
    (the finished chunks are written, the rest is not played)."""


@dataclass
class Clock:
    """The time budget (``minutes``; None: none) and the rate measured in this run."""

    minutes: float | None = None
    jobs: int = -1
    start: float = field(default_factory=time.perf_counter)
    weighed_ms: float = 0.0  # recorded-cost ms of the games finished by this run
    games: int = 0  # games finished by this run
    per_game_ms: dict[str, float] = field(default_factory=dict)  # recorded, by cell key
    played_seconds: float = 0.0  # wall time inside the work queue

    @contextmanager
    def playing(self) -> Iterator[None]:
        """Around a work queue's play: its wall time is what the rate is measured on."""
        began = time.perf_counter()
        try:
            yield
        finally:
            self.played_seconds += time.perf_counter() - began

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float | None:
        """Seconds of the budget left (None: no budget)."""
        return None if self.minutes is None else self.minutes * 60 - self.elapsed()

    def expired(self) -> bool:
        left = self.left()
        return left is not None and left <= 0

    def chunk(self, key: str, games: int) -> None:
        """A chunk of the run ``key`` (a cell's run: ``CELL+sK...``) was written: the rate
        learns it; past the budget, ``TimeUp``."""
        cell = key.rsplit("+s", 1)[0]
        self.games += games
        self.weighed_ms += games * self.per_game_ms.get(cell, cost.TABLE_MS)
        if self.expired():
            raise TimeUp

    def measured(self) -> bool:
        return self.games > 0 and self.weighed_ms > 0 and self.played_seconds > 0

    def seconds(self, games: int, ms_per_game: float) -> float:
        """Wall seconds ``games`` of ``ms_per_game`` (recorded cost) take here: at this run's
        measured rate once a chunk finished, else at the recorded costs over the cores."""
        if self.measured():
            return games * ms_per_game * self.played_seconds / self.weighed_ms
        return games * ms_per_game / 1000 / cost.workers(self.jobs)

    def basis(self) -> str:
        """What the estimates rest on, in words."""
        if self.measured():
            return (f"this run's rate here ({self.games:,} games in "
                    f"{cost.duration(self.played_seconds)} of play)")
        return "recorded costs per player; no chunk finished yet"

    def games_time(self, games: int, ms_per_game: float) -> str:
        """``about 3 min here``: the time ``games`` take, in words."""
        return f"about {cost.duration(self.seconds(games, ms_per_game))} here"

    def rate(self) -> PlayRate | None:
        """The measured rate as the study manifest records it (None until a chunk's time
        shows at the recorded precision)."""
        weighed, seconds = round(self.weighed_ms, 3), round(self.played_seconds, 3)
        if not self.measured() or weighed <= 0 or seconds <= 0:
            return None
        return PlayRate(games=self.games, weighed_ms=weighed, seconds=seconds)

    def budget_words(self) -> str:
        """``3 min`` (the budget as given)."""
        assert self.minutes is not None
        return minutes_words(self.minutes)


def minutes_words(minutes: float) -> str:
    return f"{minutes:g} min"


def check_minutes(minutes: float | None, where: str) -> None:
    """A time budget: at most a week (``where`` names the flag or key); 0 is none, as
    everywhere a time budget is given."""
    from cdsim.errors import CdsimError

    if minutes is not None and not 0 <= minutes <= 7 * 24 * 60:
        raise CdsimError(f"{where} must be between 0 (no time budget) and {7 * 24 * 60:,} "
                         f"minutes (a week), got {minutes:g}")


__all__ = ["Clock", "TimeUp", "check_minutes", "minutes_words"]
