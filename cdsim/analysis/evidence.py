"""The evidence of an anytime verdict (``cdsim.analysis.anytime``): for a set of vectors on
a run of deal groups, the running maxima of each seat pair's log e-values, both fair sides
and both unfair ones (``Evidence``: the mixture's e-value of ``cdsim.analysis.boundary``,
with a cell's planned part where it has one); the vectors chosen to test on later games
(``Choice``, ``near_tied``); and the 2-player family's p-values made monotone in the
offset (``monotone_fair``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis.boundary import PLANNED_WEIGHT, Mixture, Planned
from cdsim.analysis.candidates import FloatArray, IntArray, Vector, WinTable, pairs, rank_by_gap
from cdsim.analysis.design import MIN_GROUPS, NEAR_Z


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
             if as_vector(total.vectors[int(i)]) not in skip]
    if not order:
        return np.zeros(0, dtype=np.int64)
    diff, se = total.pair_stats()
    widest = se[np.arange(len(se)), np.argmax(np.abs(diff), axis=1)]
    widest = np.where(np.isfinite(widest), widest, np.inf)
    gaps, best = total.gaps, order[0]
    keep = [i for i in order if gaps[i] <= gaps[best] + NEAR_Z * (widest[best] + widest[i])]
    return np.asarray(keep[:m], dtype=np.int64)


def as_vector(row: NDArray[np.int64]) -> Vector:
    """A candidate row as a vector of ints."""
    return tuple(int(x) for x in row)
