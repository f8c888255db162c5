"""Decided starting-VP verdicts: play a cell in stages until one of three answers is shown.

The staged procedure that ``cdsim study run`` used before the anytime one
(``cdsim.analysis.anytime``, which supersedes it: every game counts there and a cell can be
extended). It stays until the study calls the new one; the candidates, re-ranking and win
tables it uses live in ``cdsim.analysis.candidates`` and are re-exported here under their
old names. Intervals here use Student's t with ``groups - 1`` degrees of freedom.

The procedure (``Schedule``, ``decide_stage``, ``decide``)
----------------------------------------------------------
Stage ``k`` plays a fresh batch of ``sizes[k]`` games (each stage doubles the one before,
the last takes what is left of the budget) and spends ``alphas[k]`` of the error budget
``alpha``; ``alphas[k]`` is proportional to the stage's size and ``sum(alphas) <= alpha``.
Half of ``alphas[k]`` guards against a wrong *confirmed*, half against a wrong *no fair
vector* (``CONFIRM_SHARE``). Games played before stage ``k`` are its *fitting* games; its own
games are its *confirmation* games. A stage decides, in this order:

1. **confirmed** - Up to ``m`` vectors are chosen on the fitting games only: the candidates
   whose observed largest gap is within ``NEAR_Z`` (2) standard errors of the smallest one
   (standard errors of the difference; "near-tied", see ``near_tied``), smallest observed
   gap first (then fewest VP changed, then lexicographic).
   Stage 0 has no fitting games and tests the rulebook vector alone. Each chosen vector is
   tested on the confirmation games by an equivalence test of every seat pair at once
   (intersection-union TOST: each pair's two-sided ``1 - 2a`` interval of ``p_i - p_j`` lies
   inside ``(-tol, +tol)``), at ``a = alphas[k] * CONFIRM_SHARE / (number tested)``
   (Bonferroni over the tested vectors). The passing vectors are the *set shown fair*; the
   one reported has the fewest VP changed from the rulebook (sum of ``|differences|``), then
   the smallest gap on the confirmation games, then comes first lexicographically.
2. **no fair vector** - Every candidate has some seat pair whose one-sided lower bound on
   ``|p_i - p_j|`` exceeds ``tol``, each pair at ``alphas[k] * (1 - CONFIRM_SHARE) / pairs``
   (Bonferroni over the pairs of one vector), on all games played so far. Reported: the
   candidate with the smallest observed gap (then fewest VP changed, then lexicographic).
3. **undecided** - Neither. After the last stage the cell reports the best vector so far and
   ``games_needed``, an estimate of the fresh games one more confirmation stage would need
   for 80% power, if the best vector's observed pair differences and variances were the
   truth (``games_for_power``; optimistic, since the best vector is picked on these games).

A stage with fewer than ``MIN_GROUPS`` deal groups decides nothing (the normal approximation
behind the intervals needs a few dozen deals).

Error rates (under optional stopping, for any true win shares)
-------------------------------------------------------------
*Wrong confirmation* (the reported vector's true gap exceeds ``tol``) has probability at most
``alpha * CONFIRM_SHARE``. At stage ``k`` the tested vectors are fixed by the fitting games,
which are independent of the confirmation games; a truly unfair vector has some pair with
``|p_i - p_j| > tol``, and that pair's TOST passes with probability at most ``a``
(intersection-union: passing needs every pair to pass), so some tested unfair vector passes
with probability at most ``a * tested = alphas[k] * CONFIRM_SHARE``. Summing over stages
(a union bound, which holds whatever the dependence between stages and whenever the cell
stops) gives ``CONFIRM_SHARE * sum(alphas)``.

*Wrong "no fair vector"* (some candidate is truly fair) has probability at most
``alpha * (1 - CONFIRM_SHARE)`` (up to a term of order ``Phi(-2 tol / se)``, negligible).
No correction over the candidates is needed: the call is wrong only if a truly fair vector
``v*`` exists, and then the call needs ``v*`` in particular to be declared unfair. ``v*`` is
one fixed vector, not chosen from the data; it is declared unfair only if one of its pairs,
with ``|p_i - p_j| <= tol``, shows a lower bound above ``tol``, which happens with
probability at most ``alphas[k] * (1 - CONFIRM_SHARE) / pairs`` per pair. No vector is
chosen for this test, so it may use every game played so far; summing over stages again
gives the bound. "No fair vector" speaks about the candidates only (within ``±radius``).

Together the chance that a cell ends with a wrong verdict is at most ``alpha``
(``sum(alphas) <= alpha``). "Undecided" is never wrong, only unhelpful. The rates measured
on synthetic cells with exact truth are in docs/statistics.md (tests/test_sequential.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from cdsim.analysis.anytime import stage_sizes
from cdsim.analysis.candidates import (  # re-exported: the names callers know from here
    MAX_CELLS,
    REPORT_LEVEL,
    CellGames,
    FloatArray,
    IntArray,
    Vector,
    WinTable,
    _quantile,
    block_size,
    candidates,
    choose_vector,
    pair_intervals,
    pairs,
    rank_by_gap,
    rerank_winners,
    win_share_matrix,
    win_table,
)
from cdsim.errors import CdsimError

Decision = Literal["confirmed", "no fair vector", "undecided"]

CONFIRM_SHARE = 0.5  # of each stage's alpha: against a wrong "confirmed"; the rest: "no fair vector"
NEAR_Z = 2.0  # near-tied: observed largest gap within this many standard errors of the least
MIN_GROUPS = 30  # deal groups a stage needs before it may decide anything
POWER = 0.8  # games_needed: the chance a confirmation stage of that size passes

# ----------------------------------------------------------------------------- the tests

def tost(diff: FloatArray, se: FloatArray, df: int, tol: float, alpha: float) -> NDArray[np.bool_]:
    """Per vector (rows): every pair's two-sided ``1 - 2 alpha`` interval lies inside
    ``(-tol, +tol)`` (intersection-union equivalence test at level ``alpha``)."""
    q = _quantile(alpha, df)
    inside = (diff - q * se > -tol) & (diff + q * se < tol)
    return np.asarray(inside.all(axis=-1), dtype=np.bool_)


def shown_unfair(diff: FloatArray, se: FloatArray, df: int, tol: float, alpha: float
                 ) -> NDArray[np.bool_]:
    """Per vector (rows): some pair's one-sided lower bound on ``|p_i - p_j|`` exceeds
    ``tol``, each pair at ``alpha / pairs`` (Bonferroni over the pairs)."""
    q = _quantile(alpha / diff.shape[-1], df)
    return np.asarray((np.abs(diff) - q * se > tol).any(axis=-1), dtype=np.bool_)


def gap_interval(diff: FloatArray, se: FloatArray, df: int, level: float = REPORT_LEVEL
                 ) -> tuple[FloatArray, FloatArray]:
    """Per vector: an interval for the largest gap ``max_ij |p_i - p_j|``, simultaneous over
    the pairs at ``level`` (Bonferroni): [max of the pairs' lower bounds on ``|diff|``, max of
    their upper bounds]."""
    q = _quantile((1 - level) / (2 * diff.shape[-1]), df)
    low = np.maximum(np.abs(diff) - q * se, 0.0).max(axis=-1)
    high = (np.abs(diff) + q * se).max(axis=-1)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def games_for_power(diff: ArrayLike, per_game_var: ArrayLike, tol: float, alpha: float,
                    power: float = POWER, multiple: int = 1) -> int | None:
    """Games a confirmation stage needs so that one vector with pair differences ``diff``
    and per-game variances ``per_game_var`` (variance of the difference times games) passes
    the TOST at ``alpha`` with probability at least about ``power``; ``None`` if some
    ``|diff| >= tol`` (then no number of games confirms it).

    Normal approximation: a pair fails when its estimate lands within ``z se`` of either
    bound; the chances of failing, summed over the pairs (a union bound, so conservative),
    must stay within ``1 - power``. Rounded up to a multiple of ``multiple`` (whole deals)
    and to at least ``MIN_GROUPS`` deals."""
    d = np.abs(np.asarray(diff, dtype=np.float64)).reshape(-1)
    sd = np.sqrt(np.asarray(per_game_var, dtype=np.float64).reshape(-1))
    if d.size == 0 or not np.isfinite(sd).all() or (d >= tol).any():
        return None
    z = float(special.ndtri(1 - alpha))

    def fails(games: int) -> float:
        with np.errstate(divide="ignore"):
            root = math.sqrt(games) / sd
        return float(np.sum(special.ndtr(z - (tol - d) * root) + special.ndtr(z - (tol + d) * root)))

    low, high = MIN_GROUPS, MIN_GROUPS  # in deals of ``multiple`` games
    while fails(high * multiple) > 1 - power:
        low, high = high, high * 2
    while low < high:
        mid = (low + high) // 2
        if fails(mid * multiple) > 1 - power:
            low = mid + 1
        else:
            high = mid
    return int(high * multiple)


def near_tied(fit: WinTable, rulebook: Sequence[int], m: int) -> IntArray:
    """Up to ``m`` indices of vectors to confirm, chosen on the fitting games only: the
    candidates whose observed largest gap could be the smallest one, in ``rank_by_gap``
    order (the most equal first).

    "Near-tied": a vector's observed largest gap exceeds the smallest by at most ``NEAR_Z``
    standard errors of the difference, bounded by the sum of the two gaps' standard errors
    (each that of the vector's widest observed pair; the bound holds however the two are
    correlated)."""
    order = rank_by_gap(fit.vectors, fit.spreads, rulebook)
    best = int(order[0])
    diff, se = fit.pair_stats()
    widest = se[np.arange(len(se)), np.argmax(np.abs(diff), axis=1)]
    widest = np.where(np.isfinite(widest), widest, np.inf)
    gaps = fit.gaps
    near = gaps <= gaps[best] + NEAR_Z * (widest[best] + widest)
    keep = [int(i) for i in order if near[i]]
    return np.asarray(keep[:m], dtype=np.int64)


# --------------------------------------------------------------------------- the stages

@dataclass(frozen=True)
class StageDecision:
    """What one stage showed.

    ``vector``: confirmed -> the reported fair vector; otherwise the most equal candidate on
    all games so far. ``largest_gap`` and ``gap_interval`` (95%, simultaneous over pairs):
    confirmed -> on this stage's confirmation games only; otherwise on all games so far
    (the vector was picked on them, so the gap is optimistic). ``fair_set``: the vectors the
    confirmation games showed fair (confirmed only). ``tested``: the vectors this stage's
    confirmation tested. ``games_needed``: undecided only, see ``games_for_power``."""

    stage: int
    decision: Decision
    vector: Vector
    fair_set: tuple[Vector, ...]
    tested: tuple[Vector, ...]
    largest_gap: float
    gap_interval: tuple[float, float]
    games_fit: int
    games_confirm: int
    alpha_k: float
    games_needed: int | None


def _vec(row: NDArray[np.int64]) -> Vector:
    return tuple(int(x) for x in row)


def _check(tol: float, alpha_k: float, m: int) -> None:
    if not 0 < tol < 1:
        raise CdsimError(f"tolerance must be a share between 0 and 1 (e.g. 0.02), got {tol}")
    if not 0 < alpha_k < 1:
        raise CdsimError(f"alpha must be between 0 and 1, got {alpha_k}")
    if m < 1:
        raise CdsimError(f"m (vectors tested per stage) must be 1 or more, got {m}")


def decide_tables(stage: int, fit: WinTable | None, fresh: WinTable, rulebook: Sequence[int],
                  tol: float, alpha_k: float, m: int) -> StageDecision:
    """``decide_stage`` on win tables of the candidates (fit: all earlier stages' games, or
    None at the first stage; fresh: this stage's games). Both tables must hold the same
    vectors, which must include the rulebook vector."""
    _check(tol, alpha_k, m)
    rule = tuple(int(x) for x in rulebook)
    vectors = fresh.vectors
    home = np.flatnonzero((vectors == np.asarray(rule)).all(axis=1))
    if home.size != 1:
        raise ValueError("the candidate vectors must include the rulebook vector once")
    total = fresh if fit is None else fit + fresh
    games_fit = 0 if fit is None else fit.games
    decidable = fresh.groups >= MIN_GROUPS

    tested = near_tied(fit, rule, m) if fit is not None and fit.groups >= 2 else home
    diff, se = fresh.take(tested).pair_stats()
    a = alpha_k * CONFIRM_SHARE / len(tested)
    passed = tost(diff, se, fresh.groups - 1, tol, a) if decidable else np.zeros(len(tested), bool)
    tested_vecs = tuple(_vec(vectors[i]) for i in tested)
    if passed.any():
        ok = tested[passed]
        pick = int(ok[choose_vector(vectors[ok], fresh.spreads[ok], rule)])
        d, s = fresh.take(pick).pair_stats()
        low, high = gap_interval(d, s, fresh.groups - 1)
        return StageDecision(stage, "confirmed", _vec(vectors[pick]),
                             tuple(_vec(vectors[i]) for i in ok), tested_vecs,
                             float(fresh.gaps[pick]), (float(low[0]), float(high[0])),
                             games_fit, fresh.games, alpha_k, None)

    best = int(rank_by_gap(vectors, total.spreads, rule)[0])
    diff, se = total.pair_stats()
    low, high = gap_interval(diff[best:best + 1], se[best:best + 1], total.groups - 1)
    gap = (float(total.gaps[best]), (float(low[0]), float(high[0])))
    unfair = shown_unfair(diff, se, total.groups - 1, tol, alpha_k * (1 - CONFIRM_SHARE))
    if decidable and unfair.all():
        return StageDecision(stage, "no fair vector", _vec(vectors[best]), (), tested_vecs, *gap,
                             games_fit, fresh.games, alpha_k, None)
    per_game = se[best] ** 2 * total.games
    size = max(1, round(total.games / max(total.groups, 1)))
    needed = games_for_power(diff[best], per_game, tol, alpha_k * CONFIRM_SHARE / m,
                             multiple=size)
    return StageDecision(stage, "undecided", _vec(vectors[best]), (), tested_vecs, *gap,
                         games_fit, fresh.games, alpha_k, needed)


def decide_stage(fit: CellGames, fresh: CellGames, rulebook: Sequence[int], tol: float = 0.02,
                 alpha_k: float = 0.05, radius: int = 6, m: int = 3, stage: int = 0
                 ) -> StageDecision:
    """One stage: choose up to ``m`` vectors on ``fit`` (the games of earlier stages; empty
    at the first stage: then the rulebook vector is tested), confirm them on ``fresh`` (this
    stage's games), else look for "no fair vector" on all games; see the module docstring.
    ``alpha_k``: this stage's share of the error budget."""
    rule = tuple(int(x) for x in rulebook)
    if fit.players != len(rule) or fresh.players != len(rule):
        raise CdsimError(f"the rulebook vector has {len(rule)} seats, the games "
                         f"{fit.players} and {fresh.players}")
    vectors = candidates(rule, radius)
    fit_table = win_table(fit, vectors) if fit.games else None
    return decide_tables(stage, fit_table, win_table(fresh, vectors), rule, tol, alpha_k, m)


# ------------------------------------------------------------------- schedule and driver

@dataclass(frozen=True)
class Schedule:
    """Stage sizes (games) and each stage's share ``alphas[k]`` of the error budget
    ``alpha``; ``sum(alphas) <= alpha``."""

    sizes: tuple[int, ...]
    alphas: tuple[float, ...]
    alpha: float

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise CdsimError(f"alpha must be between 0 and 1, got {self.alpha}")
        if not self.sizes or len(self.sizes) != len(self.alphas):
            raise CdsimError("a schedule needs one alpha per stage and at least one stage")
        if min(self.sizes) < 1 or min(self.alphas) <= 0:
            raise CdsimError("every stage needs games and a positive alpha")
        if math.fsum(self.alphas) > self.alpha:
            raise CdsimError(f"the stages spend {math.fsum(self.alphas)}, more than alpha = "
                             f"{self.alpha}")

    @property
    def budget(self) -> int:
        return sum(self.sizes)

    @classmethod
    def doubling(cls, budget: int, first: int, alpha: float = 0.05, multiple: int = 1
                 ) -> Schedule:
        """Stages of ``first``, ``2 first``, ``4 first``, ... games; the last stage takes what
        is left of ``budget`` (so it is 2 to 6 times the one before). Sizes are multiples of
        ``multiple`` (the players, when seats rotate: whole deals). Alpha is spent in
        proportion to the games: ``alphas[k] = alpha * sizes[k] / sum(sizes)`` (times
        ``1 - 1e-12``, so rounding never spends more than ``alpha``)."""
        sizes = stage_sizes(budget, first, multiple)  # the anytime study's stages too
        total = sum(sizes)
        alphas = tuple(alpha * s / total * (1 - 1e-12) for s in sizes)
        return cls(tuple(sizes), alphas, alpha)


@dataclass(frozen=True)
class CellDecision:
    """A cell's verdict: the last stage's decision (see ``StageDecision``), with every
    stage's record and the games played in all."""

    decision: Decision
    vector: Vector
    fair_set: tuple[Vector, ...]
    largest_gap: float
    gap_interval: tuple[float, float]
    games: int
    games_needed: int | None
    stages: tuple[StageDecision, ...]
    tol: float
    alpha: float
    pending: bool = False  # undecided with stages of the schedule left to play

    def explain(self) -> str:
        """One paragraph for a designer (win shares and their gaps in percentage points)."""
        vec = "/".join(str(x) for x in self.vector)
        low, high = self.gap_interval
        gap = (f"largest seat gap {pp(self.largest_gap)} (95% interval {pp(low, False)} to "
               f"{pp(high)})")
        if self.decision == "confirmed":
            return (f"Fair within ±{pp(self.tol)}: starting VP {vec}, shown on "
                    f"{self.stages[-1].games_confirm:,} fresh games ({gap}). The procedure "
                    f"confirms an unfair vector in at most {self.alpha * CONFIRM_SHARE:.1%} of "
                    f"cells.")
        if self.decision == "no fair vector":
            return (f"No whole-VP starting vector near the rulebook's is fair within "
                    f"±{pp(self.tol)}; the most equal is {vec} ({gap}). The procedure says "
                    f"this of a cell that has a fair vector in at most "
                    f"{self.alpha * (1 - CONFIRM_SHARE):.1%} of cells.")
        more = ("no number of games would confirm it at the observed gap"
                if self.games_needed is None else
                f"confirming it would take about {self.games_needed:,} more games (an estimate)")
        after = "so far, with stages left to play" if self.pending else "(budget spent)"
        return (f"Undecided after {self.games:,} games {after}: the most equal vector so far "
                f"is {vec} ({gap}); {more}.")


def pp(share: float, unit: bool = True) -> str:
    """A win share or a gap between two, in percentage points: ``pp(0.0123) == "1.2 pp"``."""
    return f"{100 * share:.1f}" + (" pp" if unit else "")


def decide_played(tables: Sequence[WinTable], schedule: Schedule, rulebook: Sequence[int],
                  tol: float = 0.02, m: int = 3) -> CellDecision:
    """The verdict of a cell whose first stages are played: ``tables[k]`` is stage ``k``'s
    win table (``win_table`` of its games over the candidates, the same vectors in every
    table). The stages are decided in order as ``decide`` does; stages after the deciding
    one are ignored. Undecided with stages of the schedule left: ``pending`` (play stage
    ``len(tables)`` next, ``schedule.sizes[len(tables)]`` games). What ``decide`` returns
    for the same games; for a driver that plays stages outside this module (a study, which
    re-derives its state from the finished games after a kill)."""
    rule = tuple(int(x) for x in rulebook)
    _check(tol, schedule.alpha, m)
    if not tables:
        raise CdsimError("decide_played needs the win table of at least one stage")
    if len(tables) > len(schedule.sizes):
        raise CdsimError(f"{len(tables)} stages played, the schedule has {len(schedule.sizes)}")
    total: WinTable | None = None
    made: list[StageDecision] = []
    for k, table in enumerate(tables):
        made.append(decide_tables(k, total, table, rule, tol, schedule.alphas[k], m))
        total = table if total is None else total + table
        if made[-1].decision != "undecided":
            break
    last = made[-1]
    assert total is not None
    pending = last.decision == "undecided" and len(made) < len(schedule.sizes)
    return CellDecision(last.decision, last.vector, last.fair_set, last.largest_gap,
                        last.gap_interval, total.games, last.games_needed, tuple(made), tol,
                        schedule.alpha, pending)


def equivalence_games(players: int, gap: float, tol: float = 0.02, alpha: float = 0.05,
                      power: float = POWER, deff: float = 1.0, multiple: int = 1) -> int | None:
    """Games one fresh run needs so that a vector whose seats truly lie ``gap`` apart (one
    seat ``gap / 2`` above the fair ``1 / players``, one below, the rest fair) is shown fair
    within ``±tol`` by the all-pairs TOST at ``alpha`` with chance about ``power``
    (``games_for_power`` with multinomial variances times the design effect ``deff``);
    ``None`` when ``gap >= tol`` (no number of games shows it)."""
    if players not in (2, 3, 4):
        raise CdsimError(f"players must be 2, 3 or 4, got {players}")
    if not 0 <= gap < 2 / players:
        raise CdsimError(f"the expected gap must be between 0 and {2 / players:.3f}, got {gap}")
    if not 0 < tol < 1 or not 0 < alpha < 1 or not 0 < power < 1 or deff < 1:
        raise CdsimError("tolerance, alpha and power must lie between 0 and 1, the design "
                         "effect at least 1")
    p = np.full(players, 1 / players)
    p[0] += gap / 2
    p[-1] -= gap / 2
    i, j = (np.array(x, dtype=np.int64) for x in zip(*pairs(players), strict=True))
    diff = p[i] - p[j]
    var = (p[i] + p[j] - diff**2) * deff
    return games_for_power(diff, var, tol, alpha, power, multiple)


def decide(play: Callable[[int, int], CellGames], schedule: Schedule, rulebook: Sequence[int],
           tol: float = 0.02, radius: int = 6, m: int = 3) -> CellDecision:
    """Run a cell stage by stage until it is decided or the budget is spent.

    ``play(stage, games)`` returns about ``games`` freshly played games (whole deals, none
    shared with earlier stages) of the cell; the driver keeps only their win tables."""
    rule = tuple(int(x) for x in rulebook)
    vectors = candidates(rule, radius)
    _check(tol, schedule.alpha, m)
    total: WinTable | None = None
    made: list[StageDecision] = []
    for k, (size, alpha_k) in enumerate(zip(schedule.sizes, schedule.alphas, strict=True)):
        fresh = play(k, size)
        if fresh.players != len(rule) or fresh.games == 0:
            raise CdsimError(f"stage {k}: expected {len(rule)}-player games, got "
                             f"{fresh.games} games of {fresh.players} players")
        table = win_table(fresh, vectors)
        made.append(decide_tables(k, total, table, rule, tol, alpha_k, m))
        total = table if total is None else total + table
        if made[-1].decision != "undecided":
            break
    last = made[-1]
    assert total is not None
    return CellDecision(last.decision, last.vector, last.fair_set, last.largest_gap,
                        last.gap_interval, total.games, last.games_needed, tuple(made), tol,
                        schedule.alpha)


__all__ = ["CONFIRM_SHARE", "MAX_CELLS", "MIN_GROUPS", "NEAR_Z", "POWER", "REPORT_LEVEL", "CellDecision",
           "CellGames", "Decision", "FloatArray", "IntArray", "Schedule", "StageDecision", "Vector",
           "WinTable", "_quantile", "block_size", "candidates", "choose_vector", "decide",
           "decide_played", "decide_stage", "decide_tables", "equivalence_games", "games_for_power",
           "gap_interval", "near_tied", "pair_intervals", "pairs", "pp", "rank_by_gap",
           "rerank_winners", "shown_unfair", "tost", "win_share_matrix", "win_table"]
