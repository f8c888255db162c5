"""One cell's anytime verdict as its looks are replayed in order
(``cdsim.analysis.anytime.decide``): the evidence on every candidate, the choices made and
tested on later games, the set shown fair, the bounds behind the name (``within_best``,
``best_gap_low``), and what an undecided cell still needs (``watch``,
``games_to_decide``). The rule it follows is ``cdsim.analysis.anytime``'s docstring."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from cdsim.analysis import predict
from cdsim.analysis.boundary import PLANNED_WEIGHT, Mixture, Planned, planned
from cdsim.analysis.candidates import FloatArray, IntArray, Vector, WinTable, pairs, rank_by_gap
from cdsim.analysis.design import CONFIRM_SHARE, MIN_GROUPS, choice_weight, worst_case_games
from cdsim.analysis.evidence import Choice, Evidence, as_vector, monotone_fair, near_tied
from cdsim.analysis.predict import predicted_games
from cdsim.analysis.verdict import ChoiceRecord


class SequentialCell:
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
        vectors of that choice (``showing``, whose games ``tested_on`` gives)."""
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
        skip = {as_vector(self.vectors[i]) for c in self.choices for i in c.index[:c.confirmed + 1]}
        best = as_vector(self.vectors[int(rank_by_gap(self.vectors, self.total.spreads, self.rule)[0])])
        if self.choices and best in skip:
            return ()
        rows = near_tied(self.total, self.rule, self.m, skip)
        number = len(self.choices) + 1
        fair_plan = self.planned(float(self.total.groups), choice_weight(number) * self.alpha_c)
        self.choices.append(Choice(number, stage, Evidence(rows, self.mixture, fair_plan=fair_plan)))
        return tuple(as_vector(self.vectors[i]) for i in rows)

    def records(self) -> tuple[ChoiceRecord, ...]:
        return tuple(ChoiceRecord(stage=c.stage, vectors=self.named(c.index),
                                  alpha=choice_weight(c.number) * self.alpha_c,
                                  confirmed=self.named(c.index[:c.confirmed]))
                     for c in self.choices)

    def named(self, rows: Sequence[int] | IntArray) -> tuple[Vector, ...]:
        return tuple(as_vector(self.vectors[i]) for i in rows)

    def named_row(self, fair: Sequence[int]) -> int:
        """The row of the named vector of the set shown fair: the most equal on all games."""
        assert self.total is not None
        rows = np.asarray(fair, dtype=np.int64)
        return int(rows[rank_by_gap(self.vectors[rows], self.total.spreads[rows], self.rule)[0]])

    def watch(self) -> tuple[int | None, Vector | None]:
        """games_needed and the vector it is about: the tested vector that a continuation is
        most likely to confirm soonest (2 players: any candidate; else the first vector of each
        choice not yet shown fair), each at its own level."""
        assert self.total is not None
        # (row, its test games, its level, how much of its estimate's uncertainty counts:
        # a chosen vector's rests on its own test games only, and it was chosen for
        # looking good, so half of it counts; predict.py)
        options: list[tuple[int, WinTable | None, float, float]] = []
        if self.family:
            stream = self.everything.stream
            options = [(i, None if stream is None else stream.take(i), self.family_level, predict.SPREAD)
                       for i in range(len(self.vectors))]
        for c in self.choices:
            if c.confirmed < len(c.index):
                s = c.evidence.stream
                options.append((int(c.index[c.confirmed]),
                                None if s is None else s.take(c.confirmed),
                                choice_weight(c.number) * self.alpha_c, predict.SPREAD_CHOSEN))
        best: tuple[int, Vector] | None = None
        diff, _ = self.total.pair_stats()
        # a vector whose estimate is already outside the tolerance is not worth a prediction:
        # the truth would have to lie on the other side of tolerance with a chance above POWER
        options = [o for o in options if (np.abs(diff[o[0]]) < self.tolerance + self.zone).all()]
        for row, stream, level, spread in options:
            prior = stream if stream is not None and stream.groups >= MIN_GROUPS else self.total.take(row)
            if prior.groups < 2:
                continue
            games = predicted_games(stream if stream is not None and stream.groups else None, prior,
                                    self.tolerance + self.zone, self.beyond(level), self.mixture,
                                    spread=spread)
            if games is not None and (best is None or games < best[0]):
                best = (games, as_vector(self.vectors[row]))
        return (None, None) if best is None else best

    def games_to_decide(self, row: int) -> int | None:
        """With a zone: the further games after which the cell is decided whatever its truth
        (``worst_case_games`` with the most equal vector's widest observed per-group variance
        and the cell's design, in deal groups), less the games played; None without a zone,
        with too few groups, or when that bound is already spent (a choice still to be made)."""
        total = self.total
        assert total is not None
        if self.zone <= 0 or total.groups < MIN_GROUPS:
            return None
        _, se = total.take(row).pair_stats()
        var = float(np.nanmax(se**2)) * total.groups
        if not math.isfinite(var) or var <= 0:
            return None
        groups = worst_case_games(self.players, self.tolerance, self.zone, self.alpha, var,
                                  max(1, round(self.design)))
        assert groups is not None
        left = math.ceil(groups * total.games / total.groups) - total.games
        return left if left > 0 else None

    def tested_on(self, row: int) -> tuple[WinTable, int]:
        """The games a vector shown fair was tested on (one-vector table) and their first stage."""
        if self.family:
            assert self.everything.stream is not None
            return self.everything.stream.take(row), 0
        c = self.showing(row)
        assert c is not None and c.evidence.stream is not None
        return c.evidence.stream.take(int(np.flatnonzero(c.index == row)[0])), c.stage + 1
