"""Decided starting-VP verdicts in which every game counts and a cell can always go on.

A cell (one player count, one population) is played in *stages*; after each stage (a
*look*) the verdict is a pure function of the games of all stages so far and of where the
stages end: ``decide(tables, rulebook, ...)`` with ``tables[k]`` the win table
(``candidates.win_table``) of stage ``k``'s games over the candidates. Resuming a cell is
calling it again on the same stages; extending it (a raised budget) is calling it with more
stages appended. A stage's games never change once a later stage exists.

The rule
--------
The error budget ``alpha`` (5%) is split once: ``alpha_c = CONFIRM_SHARE * alpha`` (2.5%)
against a wrong *confirmed*, the rest ``alpha_n`` against a wrong *no fair vector*.

Evidence: for one vector and one seat pair on a run of deal groups, the difference of the
two seats' win shares ``d`` (per deal group, so rotations are paired) and its deal-group
standard error give, for a null such as ``p_i - p_j >= tolerance``, the normal-mixture
e-value of ``cdsim.analysis.boundary`` (an asymptotic confidence sequence). Its running
maximum over the looks gives an anytime p-value: valid at any look, at any stopping time,
and after any number of further looks or a raised budget. The e-value's prior is fixed from
the settings alone (``design_games``, the games at which the boundary is tightest). With a
zone and a design (a study cell) 80% of each test's e-value (``PLANNED_WEIGHT``) is a test
planned for the cell's own stages (``planned_looks``: doubling from the first stage to
``design_games``), made a martingale (``boundary.Planned``): it spends the test's level at
the looks the cell makes instead of leaving most of it to looks that never come, and stays
valid at any other look; the rest is the mixture, which carries an extended cell past its
plan. A look that skips a planned one drops the planned part (docs/statistics.md).

The indifference zone ``zone`` (``d``; a study's default ``ZONE``, 0.5 pp) puts the two
decisions on two bounds, as fishtest's SPRT tests between ``elo0`` and ``elo1``: fair is
shown against gaps of ``hi = tolerance + d``, unfair against gaps of ``lo = tolerance - d``.
A vector whose largest gap lies between the two may be called either; outside them the error
rates below hold. ``zone = 0`` is the rule without a zone (both against ``tolerance``).

1. **confirmed** - a vector is *shown fair* when, for every seat pair, both ``p_i - p_j >=
   hi`` and ``p_i - p_j <= -hi`` are rejected (intersection-union: its confidence sequence
   lies inside ``(-hi, +hi)``). Which vectors are tested:

   - 2 players, or a single candidate: every candidate is tested on **all** games. At 2
     players win share is monotone in the offset (more VP for seat 2 never turns a win of
     seat 2 into a loss), so the truly unfair vectors are two runs at the ends; with the
     p-values made monotone in the offset (running maxima from either end), a wrong
     confirmation needs the one unfair vector nearest the fair ones on one side to pass.
     Each side gets ``alpha_c / 2`` (one side with a single candidate: ``alpha_c``).
   - 3 and 4 players: after stage 0, up to ``m`` vectors are *chosen* on stage 0's games
     (the near-tied most equal ones, ``NEAR_Z``), and each is tested on every game played
     after its choice. They are tested in their chosen order at the selection's full level
     (fixed-sequence testing): the second counts as shown fair only once the first is, and
     so on, so no Bonferroni split is needed. **Revisiting the choice**: at a later look
     whose most equal vector on all games so far is not being tested (in no earlier choice,
     or waiting behind an unconfirmed vector of its sequence), a new choice is made the same
     way (skipping the vectors first in line or shown fair) and tested on the games after
     it. Choice ``j`` spends ``w_j alpha_c``: ``w_1 = FIRST_CHOICE`` (0.8), ``w_j = (1 -
     FIRST_CHOICE) / 2**(j-1)`` after, which sums to 1 over any number of choices.

   The *set shown fair* is every vector shown fair so far; the one named is the most equal
   of them: the smallest observed gap on all games, then the fewest VP changed from the
   rulebook, then first lexicographically (``candidates.rank_by_gap``). ``best_gap_low``
   bounds the most equal candidate's gap from below (each pair and side at ``alpha_n / (2 pairs)``, the
   argument of 2: one fixed vector). ``within_best`` bounds how much more equal than the
   named vector any candidate is: the named vector's upper bound less the least lower
   bound of the *other* candidates (if the most equal is another, it is one fixed vector;
   if it is the named one, nothing is claimed wrongly), wrong in at most ``alpha`` of
   cells; at most ``zone`` is the naming promise, said where shown.
2. **no fair vector** - every candidate has some seat pair shown to lie more than ``lo``
   apart: ``p_i - p_j <= lo`` or ``p_i - p_j >= -lo`` rejected, each pair at ``alpha_n /
   pairs``, on all games so far (nothing is chosen, so every game may be used).
3. **undecided** - neither; ``games_needed`` says how many more games would confirm the
   most promising tested vector with chance ``POWER`` (``predicted_games``).

The first look at which 1 or 2 holds decides the cell; later stages are ignored. With
``naming`` (a study's ``name_within_zone``) a confirmation decides only once the named
vector's ``within_best`` is at most ``zone``: the cell looks on (choosing again, so the most
equal vector gets tested), which changes no error rate (every test is valid at any look;
the set shown fair only grows); ``naming_games`` bounds the games it may take.

Why every cell ends (``zone > 0``): a vector tested on ``T`` groups whose confidence
sequences are narrower than ``h_c`` (fair side) and ``h_n`` (unfair side) with ``h_c + h_n
< 2 d`` is decided either way: if its largest estimated gap ``g`` is below ``hi - h_c`` it
is shown fair, and otherwise ``g >= hi - h_c > lo + h_n`` shows it unfair. The half-widths
shrink as ``1 / sqrt(T)``, so a cell always ends; ``worst_case_games`` is the ``T`` at which
that holds for a prior per-game variance, the cell's budget when a study leaves ``games``
out.

Use (a study cell)
------------------
::

    vectors = candidates(rulebook, radius)                 # fixed for the cell
    tables = [win_table(games_of_stage(k), vectors) ...]   # one per stage played (cacheable)
    verdict = decide(tables, rulebook, tolerance, alpha, m, design_games=DESIGN, predict=stopping)
    verdict.model_dump(mode="json")                        # the manifest's / study.json's record
    sizes = stage_sizes(budget, first, deal, played=sizes_played)  # raised budget: appended
    offsets = offsets.fair_offsets(stage_games, rulebook, around=verdict.vector, radius=radius)

``DESIGN`` (None: ``design_groups``'s default) is part of the cell's identity; the budget is
not (raising it extends the cell). Play the next stage while the verdict is undecided and
``len(tables) < len(sizes)``.

Why the error rates hold (for any true win shares)
---------------------------------------------------
*Wrong confirmed* (the set shown fair holds a vector whose true gap is ``hi`` or more; read
``tolerance`` as ``hi`` in this paragraph and as ``lo`` in the next): at most ``alpha_c``. A
choice is fixed by games played before its test games, which are fresh deals, so given the
choice its p-values are valid. In a fixed sequence a wrong confirmation needs the *first*
truly unfair vector of the sequence to pass, one fixed hypothesis: chance at most the
choice's level ``w_j alpha_c``; a truly unfair vector has a pair with ``|p_i - p_j| >=
tolerance``, and its one violated side must be rejected (intersection-union). Summing over
the choices (a union bound, whatever their number) gives ``alpha_c``. At 2 players the two
ends each cost at most ``alpha_c / 2``. *Wrong no fair vector* (some candidate ``v*`` is
fair): ``v*`` is one fixed vector, not chosen from the data, so no correction over the
candidates is needed; it is declared unfair only if one of its pairs, truly within
``tolerance``, has a null rejected: ``alpha_n / pairs`` for the side nearer the truth, plus
the chance that the estimate runs more than ``2 tolerance`` past the truth the other way
(far below the rounding of any rate: the old staged test made the same argument); at most
``alpha_n`` in all. Together at most ``alpha`` per cell, at any
look, also after extensions. The approximation behind it is the central limit theorem on
deal groups (each test looks from ``MIN_GROUPS`` groups on).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator
from scipy import special

from cdsim.analysis.boundary import PLANNED_WEIGHT, Mixture, Planned, planned
from cdsim.analysis.candidates import (
    REPORT_LEVEL,
    CellGames,
    FloatArray,
    IntArray,
    Vector,
    WinTable,
    candidates,
    pairs,
    rank_by_gap,
    win_table,
)
from cdsim.analysis.fmt import pp, vec
from cdsim.analysis.predict import POWER, predicted_games
from cdsim.errors import CdsimError

Decision = Literal["confirmed", "no fair vector", "undecided"]

CONFIRM_SHARE = 0.5  # of alpha: against a wrong "confirmed"; the rest: "no fair vector"
# the indifference zone of a study and of `cdsim balance`: fair is shown against gaps of
# tolerance + ZONE, unfair against gaps of tolerance - ZONE, so that every cell ends
# (docs/statistics.md)
ZONE = 0.005
# the tolerances a user may ask for: below 0.1 pp no budget could decide (a cell's design
# size, ~1/tolerance**2 games, grows past any float), and a gap of 100 pp is every outcome
MIN_TOLERANCE = 0.001
MAX_TOLERANCE = 1.0
FIRST_CHOICE = 0.8  # of alpha_c: the first choice's level; later choices share the rest
NEAR_Z = 2.0  # near-tied: observed largest gap within this many standard errors of the least
MIN_GROUPS = 30  # deal groups a test needs before it may look
REVISIT = 2  # 3 and 4 players: a misled first choice is tested again on the later games


def tolerance_problem(tolerance: float) -> str | None:
    """Why a user may not ask for ``tolerance`` ("must be ..."), or None."""
    if MIN_TOLERANCE <= tolerance < MAX_TOLERANCE:
        return None
    return (f"must be between {MIN_TOLERANCE:g} and {MAX_TOLERANCE:g} (e.g. 0.02 = 2 pp), "
            f"got {tolerance:g}")


def check_tolerance(tolerance: float, name: str) -> float:
    """``tolerance``, or one error line naming ``name`` (the flag)."""
    problem = tolerance_problem(tolerance)
    if problem:
        raise CdsimError(f"{name} {problem}")
    return tolerance


def zone_problem(zone: float, tolerance: float) -> str | None:
    """Why a user may not ask for the indifference zone ``zone`` beside the tolerance
    ``tolerance`` ("must be ..."), or None: from 0 (no zone: a cell whose best vector sits
    at the tolerance may never end) to below the tolerance (tolerance - zone is a gap shown
    unfair)."""
    if 0 <= zone < tolerance and math.isfinite(zone):
        return None
    return (f"must be at least 0 and below the tolerance ({tolerance:g}), e.g. 0.005 = 0.5 pp, "
            f"got {zone:g}")


def check_zone(zone: float, tolerance: float, name: str) -> float:
    """``zone``, or one error line naming ``name`` (the flag or key)."""
    problem = zone_problem(zone, tolerance)
    if problem:
        raise CdsimError(f"{name} {problem}")
    return zone


def choice_weight(j: int) -> float:
    """The share of ``alpha_c`` the ``j``-th choice (1-based) spends."""
    return FIRST_CHOICE if j == 1 else (1 - FIRST_CHOICE) / 2 ** (j - 1)


def design_groups(players: int, tolerance: float, alpha: float, games_per_group: float,
                  design_games: int | None = None) -> float:
    """Deal groups at which the boundaries are tightest. By default the games a one-look
    equivalence test at ``alpha / 4`` needs to confirm, with 80% chance, a vector whose
    critical pair lies ``tolerance / 2`` inside the tolerance (per-game variance ``2 /
    players``): where the decisions that are hard to make fall. A setting: fix it when the
    cell starts."""
    if design_games is None:
        z = float(special.ndtri(1 - alpha * CONFIRM_SHARE / 2)) + float(special.ndtri(POWER))
        design_games = math.ceil((z / (tolerance / 2)) ** 2 * 2 / players)
    return max(1.0, design_games / games_per_group)


def pair_variance(players: int) -> float:
    """The prior per-game variance of a seat pair's win difference: two seats at the fair
    share ``1 / n`` (``p_i + p_j - (p_i - p_j)**2``), no help from paired rotations (they
    only lower it: 0.92 measured at 2 strong players)."""
    return 2 / players


def levels(players: int, alpha: float) -> tuple[float, float]:
    """(a fair side's level, an unfair pair's level) of the first test a cell makes: at 2
    players ``alpha_c / 2`` (the family's ends), else the first choice's ``FIRST_CHOICE
    alpha_c``; ``alpha_n / pairs``."""
    alpha_c = alpha * CONFIRM_SHARE
    fair = alpha_c / 2 if players == 2 else FIRST_CHOICE * alpha_c
    return fair, (alpha - alpha_c) / len(pairs(players))


PLAN_SHAPE = 64  # the worst case assumes a study's stages: the first 1/64 of it, then doubling


def closing_z(players: int, alpha: float) -> float:
    """The two margins for chance, in standard errors of the tested games, at the last of a
    study's planned looks (``PLAN_SHAPE``): the planned part's last crossing value on the
    fair side plus the unfair side's. At 3 and 4 players the fair side is the first
    choice's, tested from the second stage on (its standard errors are over the games
    after the first stage, a 63/64 share)."""
    fair, unfair = levels(players, alpha)
    times = planned_looks(1024, 1.0, PLAN_SHAPE * 1024)
    after = tuple(t - times[0] for t in times[1:])
    z_fair = planned(times, PLANNED_WEIGHT * fair).crossing_z()[-1]
    if players > 2:
        z_fair = planned(after, PLANNED_WEIGHT * fair).crossing_z()[-1] * math.sqrt(
            times[-1] / after[-1])
    return float(z_fair + planned(times, PLANNED_WEIGHT * unfair).crossing_z()[-1])


def worst_case_games(players: int, tolerance: float, zone: float, alpha: float,
                     variance: float | None = None, design_games: int | None = None) -> int | None:
    """A cell's budget that decides it whatever its truth: the games after which every
    candidate is decided (the module docstring: ``h_c + h_n <= 2 zone``), for the per-game
    variance ``variance`` of a pair's difference (default ``pair_variance``). ``design_games``
    None: a cell planned to end there (a study that leaves ``games`` out), decided at its
    last planned look (``closing_z``). Otherwise the cell's plan ends at ``design_games``:
    that many if its last look decides, else the games after which the mixture alone (the
    rest of the e-value, ``1 - PLANNED_WEIGHT``) does, tightest at ``design_games``. At 3 and
    4 players ``REVISIT`` times that: a first choice made on stage 0's few games may put a
    worse vector first and block the most equal one, which is then chosen again and tested
    on the later games only (tests/test_zone.py). None without a zone: a vector whose gap
    is the tolerance may then never be decided."""
    if zone <= 0:
        return None
    factor = 1 if players == 2 else REVISIT
    var = pair_variance(players) if variance is None else variance
    planned_end = math.ceil((closing_z(players, alpha) / (2 * zone)) ** 2 * var)
    if design_games is None:
        return planned_end * factor
    if planned_end <= design_games:
        return design_games * factor
    fair, unfair = (level * (1 - PLANNED_WEIGHT) for level in levels(players, alpha))

    mixture = Mixture.design(design_games, alpha * CONFIRM_SHARE / 2)
    return _closing_games(lambda _: mixture, (fair, unfair), var, 2 * zone) * factor


def _closing_games(design: Callable[[float], Mixture], levels: tuple[float, float], var: float,
                   width: float) -> int:
    """The least games (to 0.1%) after which two one-sided margins at ``levels`` add up to
    at most ``width``, a game's variance ``var``, the boundary ``design(games)``'s."""
    def closed(games: float) -> bool:
        mix = design(games)
        t = np.asarray(games)
        z = float(mix.z_at(t, levels[0])) + float(mix.z_at(t, levels[1]))
        return z * math.sqrt(var / games) <= width

    high = 1024.0
    while not closed(high):
        high *= 2
    low = high / 2
    while high - low > max(1.0, high / 1000):
        mid = (low + high) / 2
        low, high = (low, mid) if closed(mid) else (mid, high)
    return math.ceil(high)


def naming_games(players: int, zone: float, alpha: float, named_from: int,
                 variance: float | None = None) -> int:
    """The games after which a cell that plays on for its name (``decide``'s ``naming``)
    shows it within the zone whatever its truth: two candidates with the same gap need the
    named one's upper bound and the other's lower bound (``_Cell.within_best``, the
    mixture's alone: the planned looks are the decisions') less than ``zone`` apart, on
    the per-game variance ``variance`` (default ``pair_variance``), the boundary tightest
    there (a study budgets its cells so). ``named_from``: the vectors the name is taken
    from (``_Cell.named_level``: every candidate at 2 players, else the vectors of the
    first choice). At 3 and 4 players ``REVISIT`` times that, as ``worst_case_games``."""
    var = pair_variance(players) if variance is None else variance
    up = alpha * CONFIRM_SHARE / max(1, named_from)
    if players > 2:
        up *= FIRST_CHOICE
    low = alpha * (1 - CONFIRM_SHARE) / (2 * len(pairs(players)))
    return _closing_games(lambda games: Mixture.design(games, alpha * CONFIRM_SHARE / 2),
                          (up, low), var, zone) * (1 if players == 2 else REVISIT)


# ---------------------------------------------------------------------------- evidence

@dataclass
class Evidence:
    """Running maxima of the log e-values of one set of vectors on one run of deal groups:
    ``upper`` against ``p_i - p_j >= tolerance + zone``, ``lower`` against ``p_i - p_j <=
    -(tolerance + zone)`` (both (V, pairs)); ``apart_hi`` / ``apart_lo`` against ``p_i - p_j
    <= tolerance - zone`` / ``>= -(tolerance - zone)`` (the "shown unfair" side). ``stream``
    is the sum of the win tables looked at so far.

    The e-value of a side is ``mixture``'s, or with a plan (``fair_plan`` for the fair
    sides, ``apart_plan`` for the unfair ones: ``boundary.Planned`` at ``PLANNED_WEIGHT``
    times the side's level, on this run's own planned looks) ``PLANNED_WEIGHT`` times the
    plan's martingale plus the rest times the mixture's. A look that skips a planned one
    drops the plan's part for good (``dropped``)."""

    index: IntArray  # rows of the candidates
    mixture: Mixture
    stream: WinTable | None = None
    upper: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    lower: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    apart_hi: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    apart_lo: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    fair_plan: Planned | None = None
    apart_plan: Planned | None = None
    last: float = 0.0  # groups at the last look
    dropped: bool = False

    def add(self, table: WinTable, fair_at: float, apart_at: float) -> None:
        """One more stage's games; look if there are enough groups. ``fair_at``: the gap
        the fair side tests against (tolerance + zone); ``apart_at``: the unfair side's
        (tolerance - zone)."""
        part = table.take(self.index)
        self.stream = part if self.stream is None else self.stream + part
        shape = (len(self.index), len(pairs(table.players)))
        if self.upper.shape != shape:
            self.upper, self.lower, self.apart_hi, self.apart_lo = (
                np.full(shape, -np.inf) for _ in range(4))
        if self.stream.groups < MIN_GROUPS:
            return
        diff, se = self.stream.pair_stats()
        t = self.stream.groups
        for plan in (self.fair_plan, self.apart_plan):
            if plan is not None and ((plan.times > self.last + 1e-9) & (plan.times < t - 1e-9)).any():
                self.dropped = True  # a planned look skipped: its value is unknown
        self.last = float(t)
        with np.errstate(divide="ignore", invalid="ignore"):
            for name, z, plan in (("upper", (fair_at - diff) / se, self.fair_plan),
                                  ("lower", (diff + fair_at) / se, self.fair_plan),
                                  ("apart_hi", (diff - apart_at) / se, self.apart_plan),
                                  ("apart_lo", (-apart_at - diff) / se, self.apart_plan)):
                setattr(self, name, np.maximum(getattr(self, name), self._log_e(z, t, plan)))

    def _log_e(self, z: FloatArray, t: int, plan: Planned | None) -> FloatArray:
        mixed = self.mixture.log_evidence(z, t)
        if plan is None:
            return mixed
        rest = math.log(1 - PLANNED_WEIGHT) + mixed
        if self.dropped:
            return rest
        with np.errstate(divide="ignore"):
            own = np.log(plan.value(z * math.sqrt(t), float(t))) + math.log(PLANNED_WEIGHT / plan.level)
        return np.asarray(np.logaddexp(own, rest), dtype=np.float64)

    def fair_p(self) -> FloatArray:
        """Per vector and pair: the larger of the two sides' p-values (V, pairs)."""
        return np.asarray(np.exp(-np.minimum(self.upper, self.lower)), dtype=np.float64)

    def shown_unfair(self, level: float) -> NDArray[np.bool_]:
        """Per vector: some pair shown more than ``tolerance`` apart, each pair at ``level /
        pairs`` (on whichever side its data lie)."""
        need = math.log(self.upper.shape[1] / level)
        return np.asarray((np.maximum(self.apart_hi, self.apart_lo) >= need).any(axis=1),
                          dtype=np.bool_)


@dataclass
class Choice:
    """Vectors chosen on the games of stages ``0..stage``, tested on later stages in order."""

    number: int  # 1-based: its share of alpha_c is choice_weight(number)
    stage: int
    evidence: Evidence
    confirmed: int = 0  # a prefix of the chosen order

    @property
    def index(self) -> IntArray:
        return self.evidence.index


def monotone_fair(p_upper: FloatArray, p_lower: FloatArray) -> FloatArray:
    """2 players, vectors in increasing offset of seat 2: the p-values made monotone in the
    offset. ``p_1 - p_2`` falls as seat 2 gets more VP, so the vectors with ``p_1 - p_2 >=
    tolerance`` are the lowest offsets: the upper side's p-value of a vector is the largest
    over it and every higher offset (confirming it claims all of those are below
    ``tolerance``), the lower side's the largest over it and every lower offset."""
    up = np.maximum.accumulate(p_upper[::-1])[::-1]
    low = np.maximum.accumulate(p_lower)
    return np.asarray(np.maximum(up, low), dtype=np.float64)


def near_tied(total: WinTable, rulebook: Sequence[int], m: int, skip: set[Vector]) -> IntArray:
    """Up to ``m`` rows to choose, most equal first (``rank_by_gap``): the candidates not in
    ``skip`` whose observed largest gap exceeds the least one's by at most ``NEAR_Z``
    standard errors of the difference (bounded by the sum of the two gaps' standard errors,
    each that of the vector's widest observed pair). The most equal one not skipped always
    qualifies."""
    order = [int(i) for i in rank_by_gap(total.vectors, total.spreads, rulebook)
             if _vec(total.vectors[int(i)]) not in skip]
    if not order:
        return np.zeros(0, dtype=np.int64)
    diff, se = total.pair_stats()
    widest = se[np.arange(len(se)), np.argmax(np.abs(diff), axis=1)]
    widest = np.where(np.isfinite(widest), widest, np.inf)
    gaps, best = total.gaps, order[0]
    keep = [i for i in order if gaps[i] <= gaps[best] + NEAR_Z * (widest[best] + widest[i])]
    return np.asarray(keep[:m], dtype=np.int64)


def _vec(row: NDArray[np.int64]) -> Vector:
    return tuple(int(x) for x in row)


# ----------------------------------------------------------------------------- verdict
# Declared once (pydantic): the value ``decide`` returns is the record a study manifest,
# study.json and ``cdsim balance --json`` hold (``model_dump(mode="json")``: vectors as
# lists, ``explain`` with them) and what a manifest read back is checked against.

Share = Annotated[float, Field(ge=0, le=1)]
Count = Annotated[int, Field(ge=0)]
Vectors = tuple[Vector, ...]


class _Record(BaseModel):
    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")


class ChoiceRecord(_Record):
    """One choice: made on the games of stages ``0..stage``, tested in order on the later
    ones at level ``alpha`` (its share of the confirmation error); ``confirmed`` is the
    prefix shown fair so far."""

    stage: Count
    vectors: Vectors
    alpha: Share
    confirmed: Vectors


class Look(_Record):
    """The state after one stage: games so far, the set shown fair, how many candidates are
    shown unfair, and the vectors chosen at this look (tested from the next stage on)."""

    stage: Count
    games: Count
    fair_set: Vectors
    shown_unfair: Count
    chosen: Vectors


class Verdict(_Record):
    """A cell's verdict at its last look (or at the look that decided it).

    ``vector``: confirmed -> the named vector of ``fair_set``; otherwise the most equal
    candidate on all games. ``largest_gap`` and ``gap_interval`` (95%, simultaneous over
    the pairs, valid at any look: a confidence sequence): confirmed -> on the games the
    named vector was tested on (``games_tested``), its upper end at most ``tolerance +
    zone`` (what the confirmation showed: the interval never contradicts it); otherwise on
    all games, where the vector was picked as the most equal, so the gap is optimistic.
    ``games_needed`` (undecided
    only): the further games after which ``watch`` is confirmed with chance about ``POWER``
    (``predicted_games``); ``None`` if no number of games gets there from this evidence.
    ``decided_at``: the stage whose look decided the cell (the last stage when undecided);
    ``tested_from``: the first stage of the games behind ``largest_gap`` (those are stages
    ``tested_from..decided_at``); with ``naming``, ``decided_at`` is the look that showed
    the name (the last stage when the budget ran out first), not the confirmation's.
    ``explain`` is computed from the rest."""

    decision: Decision
    vector: Vector
    fair_set: Vectors
    largest_gap: Share
    gap_interval: tuple[Share, Share]
    games: Count
    games_tested: Count
    tested_from: Count
    # a prediction, not games to play: it may exceed what one run may hold
    games_needed: Count | None
    watch: Vector | None
    decided_at: Count
    tolerance: Share
    alpha: Share
    # a verdict recorded before the indifference zone: none (0), nothing bounded
    zone: Share = 0.0
    best_gap_low: Share = 0.0  # the most equal candidate's gap is at least this (alpha_n)
    games_to_decide: Count | None = None  # undecided, with a zone: at most this many more
    # confirmed: the named vector's gap exceeds the most equal candidate's by at most this
    # (wrong in at most alpha of cells; ``_Cell.within_best``); None: not bounded
    within_best: Share | None = None
    # the cell plays on after its confirmation until ``within_best`` is at most the zone
    # (a study's ``name_within_zone``); False in a verdict recorded before it
    naming: bool = False
    choices: tuple[ChoiceRecord, ...]
    looks: tuple[Look, ...]
    # a recorded verdict (a manifest read back) holds its explanation: checked to be a
    # string, then dropped (``explain`` is computed), so a verdict reads back as itself
    recorded_explain: str | None = Field(default=None, validation_alias="explain", exclude=True,
                                         repr=False)

    @property
    def settled(self) -> bool:
        """Nothing more to play for (``is_settled``)."""
        return is_settled(self.decision, self.naming, self.within_best, self.zone)

    @field_validator("recorded_explain")
    @classmethod
    def _computed(cls, _: str | None) -> None:
        return None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def explain(self) -> str:
        """One paragraph for a designer (shares and gaps in percentage points)."""
        shown = vec(self.vector)
        low, high = self.gap_interval
        gap = f"largest seat gap {pp(self.largest_gap)} (95% interval {pp(low, unit=False)} to {pp(high)})"
        alpha_c, alpha_n = self.alpha * CONFIRM_SHARE, self.alpha * (1 - CONFIRM_SHARE)
        high_tol = pp(self.tolerance + self.zone)
        low_tol = pp(self.tolerance - self.zone)
        if self.decision == "confirmed":
            others = [vec(v) for v in self.fair_set if v != self.vector]
            also = f"; also shown fair: {', '.join(others)}" if others else ""
            return (f"Fair within ±{pp(self.tolerance)}{self._zone_words()}: starting VP {shown}, "
                    f"the most equal of those shown fair, shown on {self.games_tested:,} games "
                    f"({gap}){also}{self._near_words()}. The procedure calls a vector fair whose "
                    f"seats lie {high_tol} or more apart in at most {alpha_c:.1%} of cells, "
                    f"however often it looks or is extended.")
        if self.decision == "no fair vector":
            return (f"No whole-VP starting vector near the rulebook's is fair within "
                    f"±{pp(self.tolerance)}{self._zone_words()}; the most equal is {shown} ({gap}). "
                    f"The procedure says this of a cell that has a vector within {low_tol} in at "
                    f"most {alpha_n:.1%} of cells.")
        more = ("these games are too few to predict how many more would confirm one (the truth may "
                "lie beyond the tolerance)"
                if self.games_needed is None or self.watch is None else
                f"about {self.games_needed:,} more games would confirm {vec(self.watch)} "
                f"with a {POWER:.0%} chance if its gap is what it looks like now")
        either = ("" if not self.games_to_decide else
                  f"; at most about {self.games_to_decide:,} more decide the cell either way")
        return (f"Undecided after {self.games:,} games: the most equal vector so far is {shown} "
                f"({gap}); {more}{either}. Every game played so far keeps counting if the cell "
                "goes on.")

    def _zone_words(self) -> str:
        if not self.zone:
            return ""
        return f" (to {pp(self.zone)}: shown below {pp(self.tolerance + self.zone)})"

    @property
    def name_words(self) -> str:
        """How much more equal than the named vector another candidate may be
        (``within_best``, at ``1 - alpha``; within the zone, the naming promise); "" when
        not bounded."""
        room = self.within_best
        if room is None or not self.zone:
            return ""
        if room <= self.zone:
            return (f"no candidate is more than {pp(room)} more equal "
                    f"({1 - self.alpha:.0%} confidence)")
        return (f"another candidate may be up to {pp(room)} more equal (more games would "
                f"tell them apart)")

    def _near_words(self) -> str:
        return f"; {self.name_words}" if self.name_words else ""


def is_settled(decision: str, naming: bool, within_best: float | None, zone: float) -> bool:
    """A verdict with nothing more to play for: "no fair vector", or confirmed (with
    ``naming``, its name shown within the zone of the most equal). A recorded verdict's
    fields as they are (a manifest's dict) or ``Verdict.settled``."""
    if decision != "confirmed":
        return decision == "no fair vector"
    return not naming or (within_best is not None and within_best <= zone)


# ------------------------------------------------------------------------------ driver

class _Cell:
    """The state of one cell while its looks are replayed in order (``decide``)."""

    def __init__(self, vectors: IntArray, rule: Vector, tolerance: float, alpha: float, m: int,
                 mixture: Mixture, zone: float = 0.0, plan: tuple[float, ...] = ()) -> None:
        self.vectors, self.rule, self.tolerance, self.alpha, self.m, self.mixture = (
            vectors, rule, tolerance, alpha, m, mixture)
        self.zone = zone
        self.plan = plan if zone > 0 else ()  # the cell's planned looks (cumulative groups)
        self.design = 1.0  # deal groups at which the boundaries are tightest (decide sets it)
        self.players = vectors.shape[1]
        self.family = self.players == 2 or len(vectors) == 1
        # every candidate on every game: "no fair vector", and the tests when nothing is chosen
        self.everything = Evidence(
            np.arange(len(vectors), dtype=np.int64), mixture,
            fair_plan=self.planned(0, self.family_level) if self.family else None,
            apart_plan=self.planned(0, self.alpha * (1 - CONFIRM_SHARE) / len(pairs(self.players))))
        self.choices: list[Choice] = []
        self.total: WinTable | None = None

    def planned(self, origin: float, level: float) -> Planned | None:
        """The planned part of a test at ``level`` whose games start after ``origin``
        groups: the cell's planned looks after it, from ``MIN_GROUPS`` on (None without a
        zone or a plan, or when no planned look is left)."""
        times = tuple(t - origin for t in self.plan if t - origin >= MIN_GROUPS)
        return planned(times, PLANNED_WEIGHT * level) if times else None

    def beyond(self, level: float) -> float:
        """The level the mixture alone must reach after the planned looks."""
        return level * (1 - PLANNED_WEIGHT) if self.plan else level

    @property
    def alpha_c(self) -> float:
        return self.alpha * CONFIRM_SHARE

    @property
    def family_level(self) -> float:
        """Both ends of the 2-player family may hold unfair vectors: half each."""
        return self.alpha_c / 2 if len(self.vectors) > 1 else self.alpha_c

    def look(self, table: WinTable) -> None:
        self.total = table if self.total is None else self.total + table
        bounds = (self.tolerance + self.zone, self.tolerance - self.zone)
        self.everything.add(table, *bounds)
        for choice in self.choices:
            choice.evidence.add(table, *bounds)

    def fair_rows(self) -> list[int]:
        """Rows of the candidates shown fair so far (the set shown fair)."""
        if self.family:
            if self.players == 2 and len(self.vectors) > 1:
                order = np.argsort(self.vectors[:, 1], kind="stable")  # by seat 2's offset
                up = np.exp(-self.everything.upper[order, 0])
                low = np.exp(-self.everything.lower[order, 0])
                worst = np.empty(len(order))
                worst[order] = monotone_fair(up, low)
            else:
                worst = self.everything.fair_p().max(axis=1)
            return [int(i) for i in np.flatnonzero(worst <= self.family_level)]
        rows: list[int] = []
        for choice in self.choices:
            level = choice_weight(choice.number) * self.alpha_c
            worst = choice.evidence.fair_p().max(axis=1)
            passed = 0
            while passed < len(worst) and worst[passed] <= level:  # fixed sequence
                passed += 1
            choice.confirmed = passed
            rows.extend(int(i) for i in choice.index[:passed])
        return sorted(set(rows))

    def gap_lows(self) -> FloatArray:
        """Per candidate, a lower confidence bound on its gap (on all games): its largest
        pair's ``|p_i - p_j|`` less the margin, each pair at ``alpha_n / (2 pairs)``. For
        one fixed vector, wrong in at most ``alpha_n`` of cells: any pair may be the one
        whose estimate runs past the gap, on either side (a pair truly at 0 can err both
        ways), so the level is split over pairs and sides."""
        total = self.total
        assert total is not None
        diff, se = total.pair_stats()
        if total.groups < MIN_GROUPS:
            return np.zeros(len(diff))
        level = self.alpha * (1 - CONFIRM_SHARE) / (2 * diff.shape[1])
        z = float(self.mixture.z_at(np.asarray(float(total.groups)), level))
        low = np.where(np.isfinite(se), np.abs(diff) - z * se, 0.0).max(axis=1)
        return np.asarray(np.maximum(low, 0.0), dtype=np.float64)

    def best_gap_low(self) -> float:
        """A lower confidence bound on the most equal candidate's gap: the least of
        ``gap_lows``. The most equal vector is one fixed vector, so no correction over the
        candidates is needed (the argument of "no fair vector")."""
        return float(self.gap_lows().min())

    def named_level(self, row: int) -> float:
        """The level of the named vector's upper bound (``within_best``): its share of
        ``alpha_c`` as one of the vectors a name can come from, which sums to at most
        ``alpha_c`` over any number of choices: 2 players, one of every candidate (all
        tested on every game); else its choice's share (``choice_weight``) split over the
        vectors of that choice (``showing``, whose games ``_tested_on`` gives)."""
        c = self.showing(row)
        if c is None:
            return self.alpha_c / len(self.vectors)
        return self.alpha_c * choice_weight(c.number) / len(c.index)

    def showing(self, row: int) -> Choice | None:
        """The choice whose sequence showed vector ``row`` fair (the first, if it was
        chosen again); None when every candidate is tested on every game (``family``)."""
        if self.family:
            return None
        for c in self.choices:
            if (c.index[:c.confirmed] == row).any():
                return c
        raise AssertionError("a vector shown fair was tested")

    def within_best(self, row: int, tested: WinTable) -> float | None:
        """How much less equal than the most equal candidate the named vector ``row`` may
        be: an upper bound on ``gap(row) - min_w gap(w)``, wrong in at most ``alpha`` of
        cells (None before ``MIN_GROUPS`` groups). Its gap's upper bound on the games it was
        tested on (``tested``), each pair at ``named_level`` (only its truly widest pair can
        make the bound too low, and only on one side, so no split over pairs: ``alpha_c``
        at most over every vector a name can come from), less the least lower bound of
        every *other* candidate's gap (``gap_lows``: if another candidate is the most equal
        it is one fixed vector, ``alpha_n`` at most; if the named one is, the claim holds
        outright)."""
        total = self.total
        assert total is not None
        if len(self.vectors) < 2:
            return 0.0  # the only candidate is the most equal
        if total.groups < MIN_GROUPS or tested.groups < MIN_GROUPS:
            return None
        diff_t, se_t = tested.pair_stats()
        if not np.isfinite(se_t).all():
            return None
        z_up = float(self.mixture.z_at(np.asarray(float(tested.groups)), self.named_level(row)))
        upper = float((np.abs(diff_t[0]) + z_up * se_t[0]).max())
        others = float(np.delete(self.gap_lows(), row).min())
        return max(0.0, upper - others)

    def all_unfair(self) -> tuple[bool, int]:
        unfair = self.everything.shown_unfair(self.alpha * (1 - CONFIRM_SHARE))
        return bool(unfair.all()), int(unfair.sum())

    def choose(self, stage: int) -> tuple[Vector, ...]:
        """After a look that decided nothing: the first choice after stage 0, a new one when
        the most equal vector so far is not being tested (in no earlier choice, or waiting
        behind an unconfirmed vector of its sequence; never when nothing is chosen)."""
        assert self.total is not None
        if self.family:
            return ()
        # shown fair, or first in line in its sequence: every other chosen vector may be
        # chosen again (a blocked vector gets a sequence of its own on the games after now)
        skip = {_vec(self.vectors[i]) for c in self.choices for i in c.index[:c.confirmed + 1]}
        best = _vec(self.vectors[int(rank_by_gap(self.vectors, self.total.spreads, self.rule)[0])])
        if self.choices and best in skip:
            return ()
        rows = near_tied(self.total, self.rule, self.m, skip)
        number = len(self.choices) + 1
        fair_plan = self.planned(float(self.total.groups), choice_weight(number) * self.alpha_c)
        self.choices.append(Choice(number, stage, Evidence(rows, self.mixture, fair_plan=fair_plan)))
        return tuple(_vec(self.vectors[i]) for i in rows)

    def records(self) -> tuple[ChoiceRecord, ...]:
        return tuple(ChoiceRecord(stage=c.stage, vectors=self.named(c.index),
                                  alpha=choice_weight(c.number) * self.alpha_c,
                                  confirmed=self.named(c.index[:c.confirmed]))
                     for c in self.choices)

    def named(self, rows: Sequence[int] | IntArray) -> tuple[Vector, ...]:
        return tuple(_vec(self.vectors[i]) for i in rows)


def _check(tables: Sequence[WinTable], rulebook: Sequence[int], tolerance: float, alpha: float,
           m: int) -> tuple[Vector, IntArray]:
    if not 0 < tolerance < 1:
        raise CdsimError(f"tolerance must be a share between 0 and 1 (e.g. 0.02), got {tolerance}")
    if not 0 < alpha < 1:
        raise CdsimError(f"alpha must be between 0 and 1, got {alpha}")
    if m < 1:
        raise CdsimError(f"m (vectors chosen at a time) must be 1 or more, got {m}")
    if not tables:
        raise CdsimError("a verdict needs the games of at least one stage")
    rule = tuple(int(x) for x in rulebook)
    vectors = tables[0].vectors
    if vectors.shape[1] != len(rule):
        raise CdsimError(f"the rulebook vector has {len(rule)} seats, the games {vectors.shape[1]}")
    if any(not np.array_equal(t.vectors, vectors) for t in tables):
        raise ValueError("every stage's win table must hold the same candidate vectors")
    if int((vectors == np.asarray(rule)).all(axis=1).sum()) != 1:
        raise ValueError("the candidate vectors must include the rulebook vector once")
    if tables[0].groups < 1:
        raise CdsimError("the first stage has no games")
    return rule, vectors


def planned_looks(first: int, per_group: float, design_games: int | None,
                  plan: Sequence[int] | None = None) -> tuple[float, ...]:
    """A cell's planned looks in cumulative deal groups: after each stage of ``plan``
    (games), by default the doubling stages from ``first`` games to ``design_games``
    (``stage_sizes``; one look when the first stage holds them all). Settings only."""
    if plan is None:
        assert design_games is not None
        deal = max(1, round(per_group))
        plan = stage_sizes(design_games, first, deal) if first < design_games else (first,)
    return tuple(float(x) / per_group for x in np.cumsum(np.asarray(plan, dtype=np.float64)))


def decide(tables: Sequence[WinTable], rulebook: Sequence[int], tolerance: float = 0.02,
           alpha: float = 0.05, m: int = 3, design_games: int | None = None,
           predict: bool = True, zone: float = 0.0, plan: Sequence[int] | None = None,
           naming: bool = False) -> Verdict:
    """The verdict of a cell from its stages so far (see the module docstring).

    ``tables[k]``: stage ``k``'s win table over the candidates (``win_table(games,
    candidates(rulebook, radius))``; the same vectors in every table). ``m``: vectors
    chosen at a time (3 and 4 players). ``design_games``: where the boundaries are tightest
    (``design_groups``); a setting of the cell, never changed once it has games.
    ``predict=False`` skips ``games_needed`` (a driver that plays on anyway needs it only
    when it stops). ``zone``: the indifference zone (fair is shown against gaps of
    ``tolerance + zone``, unfair against ``tolerance - zone``; 0: against ``tolerance`` both
    ways). ``naming`` (with a zone): a confirmed cell is decided only once its named
    vector is shown within the zone of the most equal candidate (``within_best``); until
    then it looks on (choosing again as an undecided cell does), and its stages running
    out leave it confirmed with the name not shown. Pure: the same tables give the same
    verdict, so a resumed or extended cell re-derives its state."""
    rule, vectors = _check(tables, rulebook, tolerance, alpha, m)
    check_zone(zone, tolerance, "zone")
    per_group = tables[0].games / tables[0].groups
    groups = design_groups(len(rule), tolerance, alpha, per_group, design_games)
    looks_planned = (planned_looks(tables[0].games, per_group, design_games, plan)
                     if zone > 0 and (design_games is not None or plan is not None) else ())
    cell = _Cell(vectors, rule, tolerance, alpha, m, Mixture.design(groups, alpha * CONFIRM_SHARE / 2),
                 zone, looks_planned)
    cell.design = groups
    looks: list[Look] = []
    decision: Decision = "undecided"
    fair: list[int] = []
    naming = naming and zone > 0
    for k, table in enumerate(tables):
        cell.look(table)
        fair = cell.fair_rows()
        none_fair, unfair = cell.all_unfair()
        decided = bool(fair) or none_fair
        if decided and fair and naming:  # confirmed: decided once the name is shown close
            row = _named(cell, fair)
            near = cell.within_best(row, _tested_on(cell, row)[0])
            decided = near is not None and near <= zone
        chosen = () if decided else cell.choose(k)
        assert cell.total is not None
        looks.append(Look(stage=k, games=cell.total.games, fair_set=cell.named(fair),
                          shown_unfair=unfair, chosen=chosen))
        if decided:
            decision = "confirmed" if fair else "no fair vector"
            break
    if fair and decision == "undecided":  # naming: its stages ran out before the name showed
        decision = "confirmed"
    return _verdict(cell, decision, fair, tuple(looks), predict, naming)


def _named(cell: _Cell, fair: Sequence[int]) -> int:
    """The row of the named vector of the set shown fair: the most equal on all games."""
    assert cell.total is not None
    rows = np.asarray(fair, dtype=np.int64)
    return int(rows[rank_by_gap(cell.vectors[rows], cell.total.spreads[rows], cell.rule)[0]])


def gap_with_interval(table: WinTable, mixture: Mixture, level: float = REPORT_LEVEL
                      ) -> tuple[float, tuple[float, float]]:
    """A one-vector table's largest seat gap with an interval at ``level``, simultaneous
    over the pairs and valid at any look: each pair's confidence sequence at ``(1 - level) /
    (2 pairs)`` a side; [largest lower bound on ``|p_i - p_j|``, largest upper bound]."""
    diff, se = table.pair_stats()
    d, s = np.abs(diff[0]), se[0]
    if table.groups < MIN_GROUPS or not np.isfinite(s).all():
        return float(table.gaps[0]), (0.0, 1.0)
    z = float(mixture.z_at(np.asarray(float(table.groups)), (1 - level) / (2 * len(d))))
    low = float(np.maximum(d - z * s, 0.0).max())
    return float(table.gaps[0]), (low, float(min(1.0, (d + z * s).max())))


def _watch(cell: _Cell) -> tuple[int | None, Vector | None]:
    """games_needed and the vector it is about: the tested vector that a continuation is
    most likely to confirm soonest (2 players: any candidate; else the first vector of each
    choice not yet shown fair), each at its own level."""
    assert cell.total is not None
    options: list[tuple[int, WinTable | None, float]] = []
    if cell.family:
        stream = cell.everything.stream
        options = [(i, None if stream is None else stream.take(i), cell.family_level)
                   for i in range(len(cell.vectors))]
    for c in cell.choices:
        if c.confirmed < len(c.index):
            s = c.evidence.stream
            options.append((int(c.index[c.confirmed]),
                            None if s is None else s.take(c.confirmed),
                            choice_weight(c.number) * cell.alpha_c))
    best: tuple[int, Vector] | None = None
    diff, _ = cell.total.pair_stats()
    # a vector whose estimate is already outside the tolerance is not worth a prediction:
    # the truth would have to lie on the other side of tolerance with a chance above POWER
    options = [o for o in options if (np.abs(diff[o[0]]) < cell.tolerance + cell.zone).all()]
    for row, stream, level in options:
        prior = stream if stream is not None and stream.groups >= MIN_GROUPS else cell.total.take(row)
        if prior.groups < 2:
            continue
        games = predicted_games(stream if stream is not None and stream.groups else None, prior,
                                cell.tolerance + cell.zone, cell.beyond(level), cell.mixture)
        if games is not None and (best is None or games < best[0]):
            best = (games, _vec(cell.vectors[row]))
    return (None, None) if best is None else best


def _verdict(cell: _Cell, decision: Decision, fair: list[int], looks: tuple[Look, ...],
             predict: bool, naming: bool = False) -> Verdict:
    total = cell.total
    assert total is not None
    rows = np.asarray(fair, dtype=np.int64)
    needed: int | None = None
    watch: Vector | None = None
    first = 0
    if decision == "confirmed":  # the most equal of the set shown fair (all games)
        named = _named(cell, fair)
        tested, first = _tested_on(cell, named)
    else:
        named = int(rank_by_gap(cell.vectors, total.spreads, cell.rule)[0])
        tested = total.take(named)
        if decision == "undecided" and predict:
            needed, watch = _watch(cell)
    gap, interval = gap_with_interval(tested, cell.mixture)
    if decision == "confirmed":
        # the confirmation shows every pair below tolerance + zone, with its own tests (the
        # planned ones among them, at its level): the interval never reaches past what it
        # showed (the reporting interval is the mixture's alone, simultaneous over pairs)
        interval = (interval[0], min(interval[1], cell.tolerance + cell.zone))
    either = _games_to_decide(cell, named) if decision == "undecided" and predict else None
    near = cell.within_best(named, tested) if decision == "confirmed" else None
    return Verdict(decision=decision, vector=_vec(cell.vectors[named]),
                   fair_set=cell.named(rows), largest_gap=gap, gap_interval=interval,
                   games=total.games, games_tested=tested.games, tested_from=first,
                   games_needed=needed, watch=watch, decided_at=looks[-1].stage,
                   choices=cell.records(), looks=looks, tolerance=cell.tolerance, alpha=cell.alpha,
                   zone=cell.zone, best_gap_low=cell.best_gap_low(), games_to_decide=either,
                   within_best=near, naming=naming)


def _games_to_decide(cell: _Cell, row: int) -> int | None:
    """With a zone: the further games after which the cell is decided whatever its truth
    (``worst_case_games`` with the most equal vector's widest observed per-group variance
    and the cell's design, in deal groups), less the games played; None without a zone,
    with too few groups, or when that bound is already spent (a choice still to be made)."""
    total = cell.total
    assert total is not None
    if cell.zone <= 0 or total.groups < MIN_GROUPS:
        return None
    _, se = total.take(row).pair_stats()
    var = float(np.nanmax(se**2)) * total.groups
    if not math.isfinite(var) or var <= 0:
        return None
    groups = worst_case_games(cell.players, cell.tolerance, cell.zone, cell.alpha, var,
                              max(1, round(cell.design)))
    assert groups is not None
    left = math.ceil(groups * total.games / total.groups) - total.games
    return left if left > 0 else None


def _tested_on(cell: _Cell, row: int) -> tuple[WinTable, int]:
    """The games a vector shown fair was tested on (one-vector table) and their first stage."""
    if cell.family:
        assert cell.everything.stream is not None
        return cell.everything.stream.take(row), 0
    c = cell.showing(row)
    assert c is not None and c.evidence.stream is not None
    return c.evidence.stream.take(int(np.flatnonzero(c.index == row)[0])), c.stage + 1


def decide_games(stages: Sequence[CellGames], rulebook: Sequence[int], radius: int = 6,
                 tolerance: float = 0.02, alpha: float = 0.05, m: int = 3,
                 design_games: int | None = None, zone: float = 0.0) -> Verdict:
    """``decide`` on the games of each stage (rows per stage, as a study stores them):
    re-ranks every candidate within ``±radius`` of ``rulebook``."""
    vectors = candidates(rulebook, radius)
    return decide([win_table(g, vectors) for g in stages], rulebook, tolerance, alpha, m, design_games,
                  zone=zone)


def stage_sizes(budget: int, first: int, multiple: int = 1, played: Sequence[int] = ()
                ) -> tuple[int, ...]:
    """Stage sizes (games) for a budget: ``first``, then each twice the one before, the last
    taking what is left (2 to 6 times the one before); sizes are multiples of ``multiple``
    (whole deals). ``played``: stages already played, kept as they are; a raised budget
    appends stages after them (the next twice the last), so extending never changes a
    stage that has games."""
    if multiple < 1:
        raise CdsimError(f"multiple must be 1 or more, got {multiple}")
    sizes = [int(s) for s in played]
    left = budget // multiple * multiple - sum(sizes)
    size = 2 * sizes[-1] if sizes else -(-first // multiple) * multiple
    if not sizes and (size < 1 or size > left):
        raise CdsimError(f"the first stage ({first} games) must be between 1 and the budget "
                         f"({budget} games)")
    while left > 0:
        if left < 3 * size:
            sizes.append(left)
            break
        sizes.append(size)
        left -= size
        size *= 2
    return tuple(sizes)
