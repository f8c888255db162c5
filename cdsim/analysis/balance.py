"""A one-run balance: the study's decision procedure on one run, read as a one-stage cell.

``cdsim balance RUN`` and a run report's starting-VP section ask the question a study cell
asks (which starting VP make the seats fair?) of games already played. They answer it with
the same engine: the candidates within ``±radius`` of the run's starting VP
(``candidates``), re-ranked with the game's tie-break, judged by ``anytime.decide`` on the
run's games as stage 0, and the fair offsets of ``offsets.fair_offsets``.

What one stage can decide (``anytime``'s rule, unchanged):

- 2 players, or ``radius`` 0: every candidate is tested on all games, so a run can
  **confirm** a vector, with the procedure's error rate.
- 3 and 4 players: the vectors to test are chosen on stage 0 and tested only on later
  games, so one run never confirms; its most equal vector is reported as *most equal so far
  (not confirmed)*, with the games a fresh run of that vector needs
  (``confirmation_games``); that run, read with ``radius`` 0, tests the one vector on
  games that did not choose it.
- Any count: **no fair vector** (every candidate shown unfair) needs no choice, so one run
  can say it.

A study cell's games (``cdsim balance --cell``) are passed as its stages, so the verdict is
the one the study's procedure gives on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cdsim.analysis import anytime, offsets
from cdsim.analysis.anytime import Verdict
from cdsim.analysis.candidates import (
    CellGames,
    FloatArray,
    gap_interval,
    pairs,
    win_table,
)
from cdsim.analysis.cell import Shares
from cdsim.analysis.predict import POWER, confirmation_games
from cdsim.errors import CdsimError

SHIFTS = tuple(range(-4, 5))  # the shift curves: each seat's own starting VP moved by these
ALPHA = 0.05


@dataclass(frozen=True)
class Balance:
    """A one-run balance: the verdict, the run's own vector and the most equal one, the fair
    offsets per seat (seats 2..n over seat 1), the shift curves, and the fresh games that
    confirm the most equal vector with chance ``POWER`` (None: not expected to, or already
    confirmed)."""

    players: int
    games: int
    tolerance: float
    radius: int
    verdict: Verdict
    current: Shares
    best: Shares
    offsets: tuple[offsets.FairOffset, ...]
    curves: tuple[tuple[int, ...], FloatArray, FloatArray, FloatArray]
    confirm_games: int | None
    stages: int = 1
    zone: float = anytime.ZONE

    @property
    def confirmed(self) -> bool:
        return self.verdict.decision == "confirmed"


def check_tolerance(tolerance: float) -> None:
    if not 0 < tolerance < 1:
        raise CdsimError(f"--tolerance must be a share between 0 and 1 (e.g. 0.02), got {tolerance}")


def fair_games(players: int, tolerance: float) -> int | None:
    """Games a run needs to confirm a vector that is exactly fair, with chance ``POWER``
    (one vector tested, one game per deal)."""
    design = anytime.design_groups(players, tolerance, ALPHA, 1.0)
    return confirmation_games(players, 0.0, tolerance, ALPHA * anytime.CONFIRM_SHARE, design)


def shares(games: CellGames, vector: Sequence[int]) -> Shares:
    """``vector``'s seat shares and largest seat gap on ``games``, each with its 95% interval
    as one set of games (the gap's: ``candidates.gap_interval``, simultaneous over the
    pairs, Student's t on the deal groups), what a report prints beside the verdict. The
    verdict itself is the procedure's, whose confidence sequences hold at any look but are
    wide on a small run (0 to 54 pp on 400 games of 4 players, where this interval is 0 to
    17 pp). Fewer
    than ``anytime.MIN_GROUPS`` deals bound nothing: the gap interval is then (0, 1)."""
    v = tuple(int(x) for x in vector)
    table = win_table(games, [v])
    share, low, high = table.seat_intervals()
    diff, se = table.pair_stats()
    interval = (0.0, 1.0)
    if table.groups >= anytime.MIN_GROUPS and np.isfinite(se).all():
        gap_low, gap_high = gap_interval(diff, se, table.groups - 1)
        interval = (float(gap_low[0]), float(min(1.0, gap_high[0])))
    return Shares(v, tuple(int(w) for w in table.wins[0]), share[0], low[0], high[0],
                  float(table.gaps[0]), interval)


def shift_curves(games: CellGames, current: Sequence[int]
                 ) -> tuple[tuple[int, ...], FloatArray, FloatArray, FloatArray]:
    """Each seat's win share as only its own starting VP moves by ``SHIFTS`` (the others
    fixed), with 95% intervals: (shifts, share, low, high), arrays (seats, shifts)."""
    n = games.players
    vectors = np.repeat(np.asarray(current, dtype=np.int64)[None, :], n * len(SHIFTS), axis=0)
    for s in range(n):
        vectors[s * len(SHIFTS):(s + 1) * len(SHIFTS), s] += SHIFTS
    share, low, high = win_table(games, vectors).seat_intervals()
    rows = np.arange(n)[:, None] * len(SHIFTS) + np.arange(len(SHIFTS))[None, :]
    seat = np.arange(n)[:, None]
    return SHIFTS, share[rows, seat], low[rows, seat], high[rows, seat]


def per_game_deff(games: CellGames, vector: Sequence[int]) -> float:
    """How much the deal-group variance of the seat-pair differences exceeds independent
    games' (largest over the pairs; below 1 when rotations pair the seats): the ``deff`` of
    ``confirmation_games`` for a fresh run of the same set-up."""
    table = win_table(games, [tuple(vector)])
    _, se = table.pair_stats()
    p = table.shares[0]
    i, j = (np.array(x) for x in zip(*pairs(games.players), strict=True))
    independent = p[i] + p[j] - (p[i] - p[j]) ** 2
    ratio = se[0] ** 2 * table.games / np.maximum(independent, 1e-12)
    return float(ratio.max()) if np.isfinite(ratio).all() and ratio.max() > 0 else 1.0


def assess(games: CellGames | Sequence[CellGames], rulebook: Sequence[int],
           tolerance: float = 0.02, radius: int = 6, games_per_group: float = 1.0,
           zone: float = anytime.ZONE) -> Balance:
    """The verdict on ``games`` around ``rulebook`` (the run's starting VP) and what a report
    shows with it (see the module docstring). ``games``: one run's games (one stage), or a
    study cell's stages in order, each stage's deal groups apart from the others'.
    ``games_per_group``: games per deal in a fresh run of this set-up (for
    ``confirm_games``); ``zone``: the indifference zone (``anytime``)."""
    check_tolerance(tolerance)
    anytime.check_zone(zone, tolerance, "--zone")
    stages = [games] if isinstance(games, CellGames) else list(games)
    every = CellGames.concat(*stages)
    if every.groups < 2:
        raise CdsimError(f"a balance needs games of two deals at least, got {every.groups}")
    rule = tuple(int(x) for x in rulebook)
    verdict = anytime.decide_games(stages, rule, radius, tolerance, ALPHA, zone=zone)
    current = shares(every, rule)
    best = shares(every, verdict.vector)
    try:
        fair = tuple(offsets.fair_offsets(every, rule, around=verdict.vector, radius=radius))
    except CdsimError:
        fair = ()
    needed = None
    if verdict.decision != "confirmed":
        design = anytime.design_groups(every.players, tolerance, ALPHA, games_per_group)
        needed = confirmation_games(every.players, best.largest_gap, tolerance + zone,
                                    ALPHA * anytime.CONFIRM_SHARE, design * games_per_group,
                                    POWER, per_game_deff(every, verdict.vector))
        if needed is not None:
            needed = -(-needed // int(games_per_group)) * int(games_per_group)
    return Balance(every.players, every.games, tolerance, radius, verdict, current, best, fair,
                   shift_curves(every, rule), needed, len(stages), zone)


def words(result: Balance) -> str:
    """The verdict in the study's words: "confirmed" only where the procedure confirmed."""
    decision = result.verdict.decision
    if decision == "confirmed":
        return "confirmed fair"
    if decision == "no fair vector":
        return "no fair vector (the most equal shown)"
    return "most equal so far (not confirmed)"
