"""One rulebook recommendation per player count: the starting VP to print, over every
skilled population of a study (never the floor, never a variant). Each population's verdict
names its own vector; a designer prints one. (The study report's words are
``reports.study.recommend``'s.)

The rule, stated once (``recommend``):

Every population's games are split once, before anything is chosen: the **choosing
games** are its first stage (where the study made its own choices) and every other deal of
the later stages (even deal numbers); the **judging games** are the remaining deals of the
later stages (odd deal numbers). Deals are independent, so the judging games played no part
in the choice: the study's confirmation games, halved.

1. **Fair for every population.** If every skilled population confirmed a vector and some
   vectors are in every population's set shown fair, the vector to print is one of those:
   fair for each (each confirmation is wrong in at most ``alpha * CONFIRM_SHARE`` of
   cells). Among several, the one whose worst gap over the populations is smallest on the
   choosing games, then the fewest VP changed from the rulebook's, then the lowest.
2. **Otherwise the least unfair.** Of the vectors that lie, seat by seat, between the
   populations' three most equal candidates on their choosing games (for 8/10/12 and
   8/11/13, the four of 8/10-11/12-13), the one whose worst gap over the populations is
   smallest on the choosing games, with the same ties. The pool is kept to vectors near
   each population's best, so the choice is among a handful of vectors.

The claim. Each population's largest seat gap at the chosen vector on its judging games
with its 95% interval (simultaneous over the seat pairs, Student's t on the deal groups, as
every table of the study), and the **worst gap** over the populations, the largest of them,
whose interval is [the largest lower end, the largest upper end] of the populations'
intervals each at ``1 - 0.05 / populations`` (Bonferroni): 95% for the worst of them. A
population with one finished stage has no judging games: its gap is not given (NaN), nor is
the worst. These are fixed-level intervals on the games played, as the study's tables give
beside each verdict, not a verdict: the verdicts say whether a vector is fair; these say
how far the printed vector is from fair for each population.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np

from cdsim.analysis.anytime import CONFIRM_SHARE, Verdict
from cdsim.analysis.candidates import (
    REPORT_LEVEL,
    CellGames,
    candidates,
    gap_interval,
    rank_by_gap,
    win_table,
)

Vector = tuple[int, ...]
Rule = Literal["fair for every population", "least unfair"]
NEAREST = 3  # rule 2: each population's most equal candidates on its first stage


class Cell(Protocol):
    """What the recommendation reads of a skilled base cell (``cdsim.study.cell.CellResult``)."""

    @property
    def population(self) -> str: ...
    @property
    def decision(self) -> Verdict | None: ...
    @property
    def stages(self) -> tuple[CellGames, ...]: ...
    @property
    def rulebook(self) -> tuple[int, ...]: ...
    @property
    def radius(self) -> int: ...


@dataclass(frozen=True)
class PopulationGap:
    """One population at the printed vector: its largest seat gap with a 95% interval on
    its judging games (NaN without them), and whether its verdict showed the vector fair."""

    population: str
    gap: float
    low: float
    high: float
    games: int  # the games judged on
    shown_fair: bool
    decision: str  # the population's own verdict (or "still playing")
    own: Vector | None  # the population's own decided (or most equal) vector


@dataclass(frozen=True)
class Recommendation:
    """The vector to print at one player count, why, and how far from fair it is for each
    population (``gaps``) and at worst (``worst``, its 95% interval ``worst_low`` to
    ``worst_high``; NaN when some population has no games apart from its choosing ones)."""

    players: int
    vector: Vector
    rule: Rule
    common: tuple[Vector, ...]  # shown fair for every population (rule 1's candidates)
    gaps: tuple[PopulationGap, ...]
    worst: float
    worst_low: float
    worst_high: float
    chosen_on: int  # the choosing games, summed over the populations
    confirm_error: float  # each confirmation is wrong in at most this share of cells
    rulebook: Vector

    @property
    def judged(self) -> bool:
        return math.isfinite(self.worst)


def split(stages: Sequence[CellGames]) -> tuple[CellGames, CellGames | None]:
    """(choosing games, judging games) of one cell's stages: the first stage and the even
    deals of the later ones; the odd deals of the later ones (None with one stage)."""
    if len(stages) < 2:
        return stages[0], None
    later = CellGames.concat(*stages[1:])  # deals numbered 0, 1, ... in order
    odd = later.group % 2 == 1

    def part(mask: np.ndarray) -> CellGames:
        return CellGames(later.gained[mask], later.tiebreak[mask], later.group[mask])

    return CellGames.concat(stages[0], part(~odd)), part(odd)


def between(choosing: Sequence[CellGames], radius: int, rulebook: Vector,
            nearest: int = NEAREST) -> np.ndarray:
    """Rule 2's pool, from the choosing games only: the candidates (within ``radius``)
    lying seat by seat between the ``nearest`` most equal candidates of each population's
    choosing games."""
    box = candidates(rulebook, radius)
    picked = []
    for games in choosing:
        table = win_table(games, box)
        picked.append(box[rank_by_gap(box, table.spreads, rulebook)[:nearest]])
    mine = np.concatenate(picked)
    keep = ((box >= mine.min(axis=0)) & (box <= mine.max(axis=0))).all(axis=1)
    return np.asarray(box[keep], dtype=np.int64)


def _chosen(pool: np.ndarray, choosing: Sequence[CellGames], rulebook: Vector) -> Vector:
    """The vector of ``pool`` with the smallest worst gap over the choosing games."""
    worst = np.zeros(len(pool))
    for games in choosing:
        worst = np.maximum(worst, win_table(games, pool).gaps)
    return tuple(int(x) for x in pool[int(rank_by_gap(pool, worst, rulebook)[0])])


def _judged(games: CellGames | None, vector: Vector, level: float
            ) -> tuple[float, float, float, int]:
    """The largest seat gap at ``vector`` on the judging ``games``, with its interval at
    ``level``."""
    if games is None:
        return math.nan, math.nan, math.nan, 0
    table = win_table(games, [vector])
    if table.groups < 2:
        return math.nan, math.nan, math.nan, table.games
    diff, se = table.pair_stats()
    low, high = gap_interval(diff, se, table.groups - 1, level)
    return float(table.gaps[0]), float(low[0]), float(high[0]), table.games


# rule 2's pool from (the choosing games, radius, rulebook): ``between``, or a kept copy
PoolOf = Callable[[Sequence[CellGames], int, Vector], np.ndarray]


def recommend(players: int, cells: Sequence[Cell], alpha: float,
              pool_of: PoolOf | None = None) -> Recommendation | None:
    """The vector to print at ``players`` over ``cells`` (the skilled base cells of that
    player count, each with a finished stage), by the rule of the module docstring; None
    without cells."""
    cells = [c for c in cells if c.stages]
    if not cells:
        return None
    rulebook = tuple(int(x) for x in cells[0].rulebook)
    parts = [split(c.stages) for c in cells]
    choosing = [p[0] for p in parts]
    decisions = [c.decision for c in cells]
    common: tuple[Vector, ...] = ()
    if all(d is not None and d.decision == "confirmed" for d in decisions):
        sets = [{tuple(v) for v in d.fair_set} for d in decisions if d is not None]
        common = tuple(sorted(set.intersection(*sets)))
    if common:
        rule: Rule = "fair for every population"
        pool = np.asarray(common, dtype=np.int64)
    else:
        rule = "least unfair"
        pool = (pool_of or between)(choosing, min(c.radius for c in cells), rulebook)
    vector = _chosen(pool, choosing, rulebook)
    each = 1 - (1 - REPORT_LEVEL) / len(cells)  # Bonferroni: the worst at 95%
    gaps, lows, highs = [], [], []
    for c, (_, judging) in zip(cells, parts, strict=True):
        d = c.decision
        gap, low, high, games = _judged(judging, vector, REPORT_LEVEL)
        _, wlow, whigh, _ = _judged(judging, vector, each)
        lows.append(wlow)
        highs.append(whigh)
        gaps.append(PopulationGap(c.population, gap, low, high, games,
                                  d is not None and d.decision == "confirmed"
                                  and vector in {tuple(v) for v in d.fair_set},
                                  d.decision if d else "no verdict yet",
                                  tuple(d.vector) if d else None))
    # NaN (a population without games apart from its choosing ones) leaves the worst unknown
    worst = float(np.max([g.gap for g in gaps]))
    return Recommendation(players, vector, rule, common, tuple(gaps), worst,
                          float(np.max(lows)), float(np.max(highs)),
                          sum(g.games for g in choosing),
                          alpha * CONFIRM_SHARE, rulebook)


__all__ = ["Cell", "PoolOf", "PopulationGap", "Recommendation", "Rule", "between", "recommend", "split"]
