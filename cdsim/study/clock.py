"""A study's time: the budget a designer gives (``--minutes N``: the work stops at the first
chunk boundary after it, ``TimeUp``) and this machine's pace, measured in the run, which
every estimate of "N more games take T" uses once a chunk has finished. Before that the
only figures are the costs recorded on a quiet 2-core machine (``cdsim.batch.cost``): they
may size a first stage (the prior), but an estimate made from them says "at recorded
costs", never "here"; one made from the pace says "measured here".

The pace is this run's wall time per game weighed by the recorded cost of its cell's
players (``cost.game_ms``): a learned game counts as the dozen scripted ones it costs, so
that a pace measured on scripted chunks prices strong ones too, and the machine's load and
its cores are in it. The wall time is the play (inside the work queue, ``playing``) and the
looks between plays (reading the stages' games, their win tables, the verdicts, writing the
manifest: measured from the end of one play to the start of the next, and since the last
play up to now): for a cheap game the looks cost several times the play (a Mediterranean
study judges its stages some seven times as long as it plays them), and a pace of play
alone said a quarter of the time such a study took. The looks are priced per game as the
play is (they grow with the games judged, as the win tables do). The load average when the clock
starts is kept for the manifest (``cdsim.study.machine``).

Stopping at a time is no look at the data: the verdicts stay valid (anytime), and the
chunks of a stage left unfinished are kept for ``--resume``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from cdsim.batch import cost
from cdsim.study.machine import load_average, load_words
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
    looked_seconds: float = 0.0  # wall time between one play's end and the next's start
    ended: float | None = None  # when the last play ended (a perf_counter time; None: none yet)
    recorded: tuple[int, float] = (0, 0.0)  # games and play seconds a manifest holds already
    load: float | None = field(default_factory=load_average)  # when the clock started
    hold: bool = False  # set while a first stage must finish whatever the time (a whatif's)
    over: float | None = None  # when the run's play and looks ended (``finish``; None: not yet)

    @contextmanager
    def playing(self) -> Iterator[None]:
        """Around a work queue's play: its wall time is what the rate is measured on."""
        began = time.perf_counter()
        if self.ended is not None:  # the looks since the last play
            self.looked_seconds += began - self.ended
            self.ended = None
        try:
            yield
        finally:
            self.ended = time.perf_counter()
            self.played_seconds += self.ended - began

    def spent(self) -> float:
        """Wall seconds of this run's play and of the looks after it (those since the last
        play up to now included): what the pace is measured on."""
        now = time.perf_counter() if self.over is None else self.over
        since = 0.0 if self.ended is None else now - self.ended
        return self.played_seconds + self.looked_seconds + since

    def finish(self) -> None:
        """The run's play and its last looks are over: what follows (its pages, the answer
        printed) is not part of the pace its closing lines say."""
        if self.over is None:
            self.over = time.perf_counter()

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
        if self.expired() and not self.hold:
            raise TimeUp

    def unrecorded(self) -> tuple[int, float]:
        """The games finished and play seconds since the manifest last took them, taken now
        (a stop at any moment leaves the manifest counting every finished chunk, as the
        folder and the progress do)."""
        games, seconds = self.recorded
        self.recorded = (self.games, self.played_seconds)
        return self.games - games, self.played_seconds - seconds

    def measured(self) -> bool:
        return self.games > 0 and self.weighed_ms > 0 and self.played_seconds > 0

    def deadline(self) -> float | None:
        """When the time budget ends (a ``perf_counter`` time; None: no budget)."""
        return None if self.minutes is None else self.start + self.minutes * 60

    def seconds(self, games: int, ms_per_game: float) -> float:
        """Wall seconds ``games`` of ``ms_per_game`` (recorded cost) take: at this machine's
        pace measured in this run once a chunk finished, else at the recorded costs over
        the cores (the prior: never said to be "here")."""
        if self.measured():
            return games * ms_per_game * self.spent() / self.weighed_ms
        return games * ms_per_game / 1000 / cost.workers(self.jobs)

    def pace(self) -> str:
        """``measured here: 4,210 games in 6 s of play`` (no look measured yet), ``measured
        here: 25,359 games in 41 s, 4 s of it playing, the rest judging the stages`` (or that
        nothing is measured yet)."""
        if not self.measured():
            return "not measured here yet"
        spent = self.spent()
        said = f"measured here: {self.games:,} games in {cost.duration(spent)}"
        if cost.duration(spent) == cost.duration(self.played_seconds):
            return f"{said} of play"
        return (f"{said}, {cost.duration(self.played_seconds)} of it playing, the rest "
                "judging the stages")

    def basis(self) -> str:
        """What the estimates rest on, in words."""
        if self.measured():
            return f"this machine's pace, {self.pace()}"
        return ("costs per player recorded on a quiet 2-core machine (not measured here: no "
                "chunk finished yet)")

    def games_time(self, games: int, ms_per_game: float) -> str:
        """``about 3 min here`` (measured) or ``about 3 min at recorded costs``: the time
        ``games`` take, in words."""
        took = cost.duration(self.seconds(games, ms_per_game))
        return f"about {took} here" if self.measured() else f"about {took} at recorded costs"

    def rate(self) -> PlayRate | None:
        """The measured rate as the study manifest records it (None until a chunk's time
        shows at the recorded precision)."""
        weighed, seconds = round(self.weighed_ms, 3), round(self.spent(), 3)
        if not self.measured() or weighed <= 0 or seconds <= 0:
            return None
        return PlayRate(games=self.games, weighed_ms=weighed, seconds=seconds)

    def ahead(self, ms: float, left: str, in_all: str, stopped: str = "") -> str:
        """The pace measured here and what work of ``ms`` (recorded cost) left takes at it:
        ``measured here: ... (2 cores, load average 1.3); LEFT: IN_ALL T' in all``, ``{time}``
        in ``left`` the time it takes, or that the time budget ends it first (``stopped``:
        what the stop keeps, after "with what is decided")."""
        more = self.seconds(1, ms)
        end = self.elapsed() + more
        said = (f"{self.pace()} ({load_words(cost.workers(self.jobs))}); "
                f"{left.format(time=cost.duration(more))}")
        if self.minutes is None or end <= self.minutes * 60:
            return f"{said}: {in_all} {cost.duration(end)} in all"
        return (f"{said}: more than the time left, so it stops at its time budget of "
                f"{self.budget_words()} with what is decided{stopped}")

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
