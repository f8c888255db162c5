"""Fair starting VP by skill: does the answer move when the players get stronger? (The study
report's section is ``reports.study.skill``'s.)

Per player count, each skilled population (never the floor, never a variant) is placed by
its **ladder rating** and drawn with its **fair compensation per seat**:

- *Rating* (x). ``strategies/ratings.json`` (``make ratings``, scripts/ratings.py) holds one
  measured ladder per player count (Elo, the ladder's mean at 0) with the ladder's bootstrap
  resamples. A population's rating is the mean of its distinct members' ratings (scripted =
  mean of greedy, villa, landscape, bread); its 95% interval is the 2.5-97.5 percentiles of
  that mean over the ladder's resamples (the same resampled deals for every member, so
  their correlation is kept). A population with a member the ladder did not rate has no
  rating: it is drawn apart, and the report says so. When the learned weights the study
  played differ from those the ladder measured (digests in the run and ladder manifests),
  the report says that too.
- *Compensation* (y), per seat 2..N: that seat's starting VP minus seat 1's. The point is
  the cell's decided vector (confirmed; otherwise its most equal vector, drawn hollow: not
  confirmed). The bar spans that seat's compensation over the **vectors not shown unfair**
  on all the cell's games: candidates (within the study's radius) none of whose seat pairs
  has a one-sided lower bound on ``|p_i - p_j|`` above the tolerance, at level
  ``alpha * (1 - CONFIRM_SHARE)`` split over the pairs (``anytime.Evidence.shown_unfair``,
  the test behind "no fair vector", looking after each stage). A truly fair vector is
  outside this set with chance at most 2.5% (for the default alpha); the bar is how far the
  data let each seat's compensation range, not a confidence interval of one number.

The one-sentence **verdict** per player count (``verdict``) claims only what is decided:

- *moves with skill*: some population's confirmed vector is shown unfair for another
  population (on that population's games, some seat pair's one-sided lower bound above the
  tolerance, at ``alpha * (1 - CONFIRM_SHARE)`` split over the seat pairs and the ordered
  population pairs tested), or another population's verdict is "no fair vector";
- *does not move*: every skilled population confirmed a vector and one vector is in every
  population's set shown fair (the same starting VP serve them all; if the seats' exact fair
  offsets are shown to differ as well, the sentence says so beside it);
- *moves with skill*, too, when no vector is shown fair for all and some seat's **fair offset**
  (``offsets.fair_offsets``, each cell's own, on all its games) differs between two
  populations beyond chance: a two-sided z-test on the offsets' bootstrap intervals (their
  95% half-width is 1.96 standard errors), at ``alpha * (1 - CONFIRM_SHARE)`` split over the
  seats and population pairs compared;
- otherwise *not decided at these budgets*, with what would decide it.

See docs/statistics.md, "Fair starting VP by skill", for why these are honest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from scipy import special

from cdsim.analysis.anytime import CONFIRM_SHARE, Evidence, design_groups
from cdsim.analysis.boundary import Mixture
from cdsim.analysis.candidates import (
    CellGames,
    WinTable,
    candidates,
    pairs,
    rank_by_gap,
    win_table,
)
from cdsim.analysis.cell import CellFigures
from cdsim.analysis.fmt import vec
from cdsim.analysis.offsets import FairOffset
from cdsim.analysis.recommend import Cell as BaseCell
from cdsim.analysis.stats import FloatArray

Vector = tuple[int, ...]


class Cell(BaseCell, Protocol):
    """What the verdicts read of a study cell (``cdsim.study.cell.CellResult``): its population,
    the manifest's verdict (None while stages remain), its finished stages' games, the rulebook
    vector and the radius searched around it."""

    @property
    def games(self) -> int: ...
    @property
    def figures(self) -> CellFigures: ...


def unfair_level(alpha: float) -> float:
    """The level of every 'shown unfair' here: the study's alpha less the share its
    confirmations spend (``anytime.CONFIRM_SHARE``)."""
    return alpha * (1 - CONFIRM_SHARE)


# -- ratings ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rating:
    """A population's rating on one ladder: the mean of its members', with a 95% interval."""

    value: float
    low: float
    high: float
    members: tuple[str, ...]


def population_rating(ladder: Mapping[str, Any] | None, members: Sequence[str]) -> Rating | None:
    """The mean of ``members``' ratings on ``ladder`` (one player count's entry of the
    ratings file) and the 2.5-97.5% percentiles of that mean over the ladder's bootstrap
    resamples; None when the ladder is missing or did not rate a member."""
    if not ladder or not members:
        return None
    rated, boot = ladder.get("ratings", {}), ladder.get("resamples", {})
    if any(m not in rated or m not in boot for m in members):
        return None
    mean = np.mean(np.array([boot[m] for m in members], dtype=np.float64), axis=0)
    low, high = np.percentile(mean, [2.5, 97.5])
    return Rating(float(np.mean([rated[m]["rating"] for m in members])), float(low),
                  float(high), tuple(members))


# -- one cell ---------------------------------------------------------------------------------

def not_shown_unfair(stages: CellGames | Sequence[CellGames], vectors: np.ndarray[Any, Any],
                     tolerance: float, level: float, design_games: int | None = None,
                     tables: Callable[[CellGames], WinTable] | None = None
                     ) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Per vector: True unless some seat pair is shown more than ``tolerance`` apart (each
    pair at ``level / pairs``) by the anytime test behind "no fair vector"
    (``anytime.Evidence``), looking after each stage, so it stays valid however many stages a
    cell played. Its boundary is tightest at ``design_games`` (default: all the games given),
    a setting. ``tables``: a stage's win table over ``vectors`` (default: ``win_table``; a
    kept copy, ``cdsim.study.memo.kept_table``)."""
    parts = [stages] if isinstance(stages, CellGames) else list(stages)
    games = sum(g.games for g in parts)
    per_group = games / max(1, sum(g.groups for g in parts))
    groups = design_groups(parts[0].players, tolerance, level, per_group, design_games or games)
    evidence = Evidence(np.arange(len(vectors), dtype=np.int64),
                        Mixture.design(groups, level / len(pairs(parts[0].players))))
    for g in parts:
        evidence.add(tables(g) if tables else win_table(g, vectors), tolerance, tolerance)
    return ~evidence.shown_unfair(level)


# per candidate vector, whether it is not shown unfair: ``not_shown_unfair`` on (a cell's
# stages, the candidates, tolerance, level), or a kept copy of it (``cdsim.study.memo``)
ShownFair = Callable[[Sequence[CellGames], np.ndarray[Any, Any], float, float],
                     np.ndarray[Any, np.dtype[np.bool_]]]


@dataclass(frozen=True)
class Point:
    """One population at one player count, as the chart and the verdict see it."""

    population: str
    rating: Rating | None
    decision: str  # confirmed | no fair vector | undecided | no verdict yet (stages unfinished)
    vector: Vector  # the decided vector, or the most equal one
    fair_set: tuple[Vector, ...]
    games: int
    games_needed: int | None
    radius: int
    comp: FloatArray = field(default_factory=lambda: np.zeros(0))  # seats 2..N over seat 1
    low: FloatArray = field(default_factory=lambda: np.zeros(0))
    high: FloatArray = field(default_factory=lambda: np.zeros(0))
    plausible: int = 0  # vectors not shown unfair
    weights_note: str = ""
    offsets: tuple[FairOffset, ...] | None = None  # seats 2..N: the cell's fair offsets

    @property
    def confirmed(self) -> bool:
        return self.decision == "confirmed"


def point(cell: Cell, rating: Rating | None, tolerance: float, level: float,
          weights_note: str = "", shown_fair: ShownFair = not_shown_unfair) -> Point:
    """The cell's decided (or most equal) vector and its compensation bars (the span of
    the vectors ``shown_fair`` keeps)."""
    d = cell.decision
    games = CellGames.concat(*cell.stages)
    vectors = candidates(cell.rulebook, cell.radius)
    keep = vectors[shown_fair(cell.stages, vectors, tolerance, level)]
    if d is not None:
        v: Vector = d.vector
    else:  # still playing: the most equal vector on the games so far
        table = win_table(games, vectors)
        v = tuple(int(x) for x in vectors[int(rank_by_gap(vectors, table.spreads,
                                                              cell.rulebook)[0])])
    comp = np.asarray(v, dtype=np.float64)[1:] - v[0]
    if len(keep):
        span = (keep - keep[:, :1])[:, 1:].astype(np.float64)
        low, high = span.min(axis=0), span.max(axis=0)
    else:
        low, high = comp.copy(), comp.copy()
    return Point(cell.population, rating, d.decision if d else "no verdict yet", v,
                 d.fair_set if d else (), cell.games, d.games_needed if d else None,
                 cell.radius, comp, low, high, len(keep), weights_note, cell.figures.offsets)


# -- the verdict ------------------------------------------------------------------------------

def order(points: Sequence[Point]) -> list[Point]:
    """Weakest first by rating; unrated populations after, in the study's order."""
    rated = sorted((p for p in points if p.rating), key=lambda p: p.rating.value if p.rating else 0)
    return rated + [p for p in points if not p.rating]


OFFSET_Z = float(special.ndtri(0.975))  # a fair offset's interval: 95%, two-sided


def offsets_apart(points: Sequence[Point], level: float) -> list[str]:
    """The seats whose fair offsets differ between two populations beyond chance, in words:
    the difference over its standard error (each offset's from its 95% interval) beyond the
    two-sided critical value at ``level`` split over the seats and population pairs
    compared. Populations without offsets (players who read the scores) and offsets beyond
    the box searched (NaN) are not compared."""
    pts = [p for p in order(points) if p.offsets]
    pairs_of = [(a, b) for i, a in enumerate(pts) for b in pts[i + 1:]]
    tests = sum(len(a.offsets or ()) for a, _ in pairs_of)
    if not tests:
        return []
    critical = float(special.ndtri(1 - level / (2 * tests)))
    out = []
    for a, b in pairs_of:
        for seat, (x, y) in enumerate(zip(a.offsets or (), b.offsets or (), strict=True), start=2):
            se = math.hypot(x.high - x.low, y.high - y.low) / (2 * OFFSET_Z)
            if not (math.isfinite(se) and se > 0) or abs(y.offset - x.offset) / se <= critical:
                continue
            out.append(f"seat {seat}'s fair offset is {_vp(x)} for {a.population} and "
                       f"{_vp(y)} for {b.population}")
    return out


def _vp(o: FairOffset) -> str:
    return f"{o.offset:+.1f} VP ({o.low:+.1f} to {o.high:+.1f})"


def verdict(players: int, points: Sequence[Point], unfair: Mapping[tuple[str, str], bool],
            tolerance: float, level: float = 0.025) -> tuple[str, str]:
    """(kind, one sentence): kind ``moves``, ``does not move``, ``not decided`` or
    ``one population``. ``points``: the skilled populations' base cells (no floor);
    ``unfair[(a, b)]``: population a's confirmed vector was shown unfair on b's games;
    ``level``: the fair offsets' comparison (``offsets_apart``)."""
    head = f"{players} players: "
    pts = order(points)
    if len(pts) < 2:
        name = pts[0].population if pts else "no skilled population"
        return ("one population", head + f"only {name} plays here, so this study cannot say "
                                         "whether the fair starting VP move with skill.")
    within = f"±{100 * tolerance:.1f} pp"
    moved = []
    for a in pts:
        if not a.confirmed:
            continue
        for b in pts:
            if b is a:
                continue
            if unfair.get((a.population, b.population)):
                moved.append(f"{a.population}'s confirmed {vec(a.vector)} is shown unfair for "
                             f"{b.population} (a seat pair more than {within} apart on its "
                             f"{b.games:,} games)")
            elif b.decision == "no fair vector" and b.radius >= a.radius:  # a's vector searched
                moved.append(f"{a.population}'s {vec(a.vector)} is confirmed fair, while no "
                             f"whole-VP vector within ±{b.radius} VP is fair for {b.population}")
    if moved:
        return "moves", head + "the fair starting VP **move with skill**: " + "; ".join(moved) + "."
    apart = offsets_apart(pts, level)
    common = [v for v in pts[0].fair_set if all(v in p.fair_set for p in pts)]
    if all(p.confirmed for p in pts) and common:
        named = ", ".join(f"{p.population} {vec(p.vector)}" for p in pts)
        shared = sorted(common, key=lambda v: min(
            sum(abs(x - y) for x, y in zip(v, p.vector, strict=True)) for p in pts))
        return ("does not move", head + "the fair starting VP **do not move with skill**: "
                f"{' and '.join(vec(v) for v in shared)} "
                + ("is" if len(shared) == 1 else "are")
                + f" shown fair within {within} for every population (the most equal: "
                f"{named})" + (". Their fractional fair offsets do differ, though: "
                               + "; ".join(apart) if apart else "") + ".")
    if apart:
        return ("moves", head + "the fair starting VP **move with skill**: " + "; ".join(apart)
                + f" (each a difference beyond chance at {100 * level:g}% in all).")
    need = []
    for p in pts:
        if p.decision == "no verdict yet":
            need.append(f"{p.population} to finish its stages")
        elif p.decision == "undecided":
            others = [f"{a.population}'s {vec(a.vector)}" for a in pts if a.confirmed]
            need.append(f"{p.population} to confirm a vector (undecided after {p.games:,} "
                        "games; " + (f"about {p.games_needed:,} more games would confirm "
                                     "its most promising vector)" if p.games_needed is not None else
                                     "more games might instead show that no vector is fair "
                                     "for it)")
                        + (f" or more {p.population} games to show {' or '.join(others)} "
                           "unfair for it" if others else ""))
    for a in pts:
        for b in pts:
            if a is not b and a.confirmed and b.confirmed and a.vector not in b.fair_set:
                need.append(f"more {b.population} games, to show {a.population}'s "
                            f"{vec(a.vector)} fair or unfair for {b.population}")
    for b in pts:
        if b.decision == "no fair vector" and any(a.confirmed and a.radius > b.radius for a in pts):
            need.append(f"{b.population} judged at more vectors than its ±{b.radius} VP (its "
                        "players read scores, so re-ranking cannot judge other vectors)")
    need = need or ["more games of each population"]
    return ("not decided", head + "whether the fair starting VP move with skill is **not "
            "decided at these budgets**: it needs " + "; ".join(need) + ".")


def cross_unfair(cells: Sequence[Cell], tolerance: float, level: float
                 ) -> dict[tuple[str, str], bool]:
    """For each confirmed cell a and every other cell b: is a's vector shown unfair on b's
    games? Each test at ``level`` split over the ordered pairs tested (Bonferroni)."""
    tests = [(a, b) for a in cells for b in cells if a is not b and a.decision
             and a.decision.decision == "confirmed"]
    out: dict[tuple[str, str], bool] = {}
    for a, b in tests:
        assert a.decision is not None
        v = np.asarray([a.decision.vector], dtype=np.int64)
        out[(a.population, b.population)] = not bool(
            not_shown_unfair(b.stages, v, tolerance, level / len(tests))[0])
    return out


__all__ = ["Cell", "Point", "Rating", "ShownFair", "Vector", "cross_unfair", "not_shown_unfair", "order",
           "point", "population_rating", "unfair_level", "verdict"]
