"""Does a change to the component set move seat balance? The paired comparison behind
``cdsim whatif``: base and variant play the same deals, so each deal gives every seat's
*paired difference* of win share (variant minus base, at the rulebook's starting VP), and
most deals give 0 (a one-card change leaves most games as they were): far fewer games
decide it than comparing two fresh samples would.

The rule
--------
For each seat, an anytime-valid confidence sequence on its mean paired difference per deal
(``boundary``'s normal mixture on deal groups, each side at ``(1 - RATE_SHARE) alpha / (2
seats)``): valid at every look, so the comparison may stop at the first look that decides
it. Most deals give 0, so the normal approximation rests on the deals the change alters,
not on all deals: a seat's sequence is used only once at least ``MIN_CHANGED`` deals
change its difference (the count ``MIN_DEALS`` asks of deals). Before that, and as a second
bound at every look, the seat's change is bounded by the share of deals it alters: a deal's
difference lies in [-1, 1], so ``|mean| <= P(changed)``, and ``changed_rate``'s anytime
upper bound on that share (at ``RATE_SHARE alpha / seats``) bounds the seat's move. So a
look where few deals changed gives a wide interval, never [0, 0] (docs/statistics.md, "Too
few changed deals"). With the precision ``eps`` (``cdsim whatif``'s ``--precision``, by
default the designer's margin ``MARGIN``, 1 pp; a study report's variants: ``PRECISION``,
0.5 pp):

- **unchanged**: every seat's interval lies inside ``(-eps, +eps)``: no seat's win share
  moves by ``eps`` or more;
- **changed**: some seat's interval lies wholly beyond ``eps`` (or below ``-eps``);
- **measured**: neither, but every seat's interval is narrower than ``eps`` on each side
  of its estimate (``|half-width| <= eps / 2``): the change is known to within ``eps``
  and lies near ``eps``; this is what ends a comparison whose true change sits at the
  precision (an indifference zone: every comparison ends);
- **undecided**: none of these yet (the budget ran out first).

A wrong *unchanged* (some seat truly moves by ``eps`` or more) or a wrong *changed* (the
seat named truly moves by less than ``eps``) needs that seat's sequence to miss its true
mean: at most ``alpha`` per comparison, at any look, by a union bound over the seats.
Whatever the outcome, the seats' intervals bound the move: no seat's win share moves by more
than the largest ``|end|`` (``Comparison.bound``). A changed card is judged by the same rule
on its takers' win difference (``card_side``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from scipy import special

from cdsim.analysis.boundary import best_rho, boundary_z
from cdsim.analysis.candidates import REPORT_LEVEL, CellGames, rerank_winners
from cdsim.analysis.fmt import pp
from cdsim.analysis.stats import paired_difference, t_quantile

FloatArray = NDArray[np.float64]
Outcome = Literal["unchanged", "changed", "measured", "undecided"]

PRECISION = 0.005  # 0.5 pp: a seat moving less than this is "unchanged" (study reports)
# ``cdsim whatif``'s default precision, the designer's margin: a quick look (3 minutes of
# scripted play) decides most single-card changes at it (docs/statistics.md, "The
# designer's margin")
MARGIN = 0.01
ALPHA = 0.05  # per comparison, over both directions and every seat
MIN_DEALS = 30  # deal groups before a comparison may look (the normal approximation)
# deals whose difference is not 0 before a seat's normal sequence is used: a sparse mean is
# a mean of its nonzero terms, so the normal approximation asks this of them
MIN_CHANGED = 30
# the share of each seat's level spent on the bound from the share of deals changed
# (``changed_rate``); the normal sequences keep the rest
RATE_SHARE = 0.1
# standard errors a seat's change is moved towards the margin when ``games_to_decide``
# predicts a decision beyond or inside it (docs/statistics.md, "The size beside the bound")
CAUTION = 1.0
# and each seat's per-deal spread taken ``SPREAD / sqrt(changed deals)`` high: the spread of
# the games to come varies too, and taken as it looks the width met the margin about half
# the time at a true shift at the margin
SPREAD = 1.0


@dataclass(frozen=True)
class SeatChange:
    """One seat's paired difference of win share, variant minus base, with its anytime
    interval (shares, not pp)."""

    seat: int  # from 1
    change: float
    low: float
    high: float
    changed: int | None = None  # deals whose difference for this seat is not 0 (None: not kept)


@dataclass(frozen=True)
class Comparison:
    """The seats' paired differences on the deals both played, and what they decide."""

    outcome: Outcome
    seats: tuple[SeatChange, ...]
    games: int  # games of each side (base and variant play as many)
    deals: int
    precision: float
    changed: int | None = None  # deals the change altered for some seat (None: not kept)
    design: float | None = None  # the deals its sequences are tightest at (``compare``'s)

    def words(self) -> str:
        """The answer in a designer's words."""
        eps = f"{100 * self.precision:.1f} pp"
        # the seat that gains most (at 2 players the other loses as much), else the one
        # that moves most
        moved = sorted(self.seats, key=lambda s: (-abs(round(s.change, 12)), -s.change))
        if self.outcome == "unchanged":
            return f"seat balance does not move (every seat within ±{eps})"
        if self.outcome == "changed":
            s = moved[0]
            way = "gains" if s.change > 0 else "loses"
            return (f"seat balance moves: seat {s.seat} {way} {pp(abs(s.change))} "
                    f"({pp(s.low, sign=True)} to {pp(s.high, sign=True)})")
        if self.outcome == "measured":
            s = moved[0]
            return (f"seat balance moves by about {eps} at most: seat {s.seat} "
                    f"{pp(s.change, sign=True)} ({pp(s.low, sign=True)} to {pp(s.high, sign=True)})")
        if self.few_changed():
            return (f"not decided yet: the change altered {self.changed_words()}, too few to "
                    f"measure a seat's shift ({MIN_CHANGED} needed); seats within "
                    f"{pp(min(s.low for s in self.seats), sign=True)} to "
                    f"{pp(max(s.high for s in self.seats), sign=True)}")
        return (f"not decided yet: seats within {pp(min(s.low for s in self.seats), sign=True)} "
                f"to {pp(max(s.high for s in self.seats), sign=True)}")

    def few_changed(self) -> bool:
        """Some seat's difference is not 0 in fewer than ``MIN_CHANGED`` deals: its interval
        is the bound from the share of deals changed alone."""
        return any(s.changed is not None and s.changed < MIN_CHANGED for s in self.seats)

    def changed_words(self) -> str:
        """"5 of 53 deals" (the deals the change altered for some seat)."""
        shown = min((s.changed for s in self.seats if s.changed is not None), default=None)
        changed = self.changed if self.changed is not None else shown
        return f"{changed:,} of {self.deals:,} deals" if changed is not None else "few deals"

    def bound(self) -> float:
        """The most any seat's win share moves, as far as the intervals say: the largest
        ``|end|`` of the seats' intervals (inf before the first look)."""
        ends = [abs(x) for s in self.seats for x in (s.low, s.high)]
        return max(ends) if ends and all(math.isfinite(x) for x in ends) else math.inf

    def largest(self) -> tuple[SeatChange, float, float, float] | None:
        """The largest seat shift: the seat whose change is largest (the gainer first), the
        estimate ``max |change|`` and its interval, from the seats' intervals (which hold
        together at 1 - ``ALPHA``): from the largest distance of an interval from 0 to the
        largest ``|end|`` (``bound``). None before the first look or while a seat's shift
        rests on too few changed deals (``few_changed``)."""
        bound = self.bound()
        if not math.isfinite(bound) or self.few_changed():
            return None
        seat = sorted(self.seats, key=lambda s: (-abs(round(s.change, 12)), -s.change))[0]
        low = max(max(0.0, s.low, -s.high) for s in self.seats)
        return seat, abs(seat.change), low, bound

    def bound_words(self) -> str:
        """The bound in a designer's words, whatever the outcome (the intervals hold
        together at 1 - ``ALPHA``), and beside it the size: the largest seat shift's
        estimate with its interval (or why there is none yet)."""
        bound = self.bound()
        if not math.isfinite(bound):
            return "seat balance: no bound yet (too few deals)"
        up = math.ceil(round(1000 * bound, 9)) / 1000  # "at most": rounded up, never down
        said = f"seat balance moves by at most {pp(up)} ({100 * (1 - ALPHA):.0f}%)"
        found = self.largest()
        if found is None:
            return (f"seat balance moves by at most {pp(up)} ({100 * (1 - ALPHA):.0f}%, from "
                    "the share of deals changed alone: too few changed to estimate the shift)")
        seat, size, low, _ = found
        low = math.floor(round(1000 * low, 9)) / 1000  # an interval's low end: rounded down
        return (f"{said}; largest seat shift {pp(size)} (seat {seat.seat} "
                f"{pp(seat.change, sign=True)}), 95% interval {pp(low, unit=False)} to "
                f"{pp(up)}")

    def games_to_decide(self) -> int | None:
        """If the seats' differences stay as they look: about how many more games a side
        would decide an undecided comparison (None: decided, or too few deals to say). With
        its sequences' ``design`` (``compare``'s) the intervals narrow as the sequences do
        (their boundary grows past the design), and a decision beyond or inside the margin
        counts each seat's change moved ``CAUTION`` standard errors towards the margin (at
        a true change near the margin only the intervals' width decides: "measured");
        without it (a report's fixed intervals) as one over the root of the games."""
        finite = [s for s in self.seats if math.isfinite(s.low) and math.isfinite(s.high)]
        if (self.outcome != "undecided" or not finite or len(finite) < len(self.seats)
                or self.few_changed()):
            return None
        eps, n = self.precision, self.games
        half = [max((s.high - s.low) / 2, 1e-12) for s in finite]
        if self.design is not None and self.deals >= MIN_DEALS:
            return self._deals_to_decide(finite, half)
        ways = [n * max((2 * h / eps) ** 2 for h in half)]  # measured: every width <= eps
        if all(abs(s.change) < eps for s in finite):  # unchanged: every interval inside
            ways.append(n * max((h / (eps - abs(s.change))) ** 2
                                for s, h in zip(finite, half, strict=True)))
        ways += [n * (h / (abs(s.change) - eps)) ** 2  # changed: one interval beyond
                 for s, h in zip(finite, half, strict=True) if abs(s.change) > eps]
        return max(0, math.ceil(min(ways)) - n)

    def _deals_to_decide(self, seats: Sequence[SeatChange], half: Sequence[float]) -> int | None:
        """``games_to_decide`` along the sequences' own boundary (``design`` set)."""
        assert self.design is not None
        eps, now = self.precision, float(self.deals)
        side = ALPHA * (1 - RATE_SHARE) / (2 * len(seats))
        rho = best_rho(self.design, side)

        def z(deals: float) -> float:
            return float(boundary_z(np.asarray(deals), side, rho))

        # each seat's per-deal sd, one standard error of its estimate high (about one over
        # the root of twice the changed deals, and heavier tails): the games to come
        at_now = z(now)
        sd = [h * math.sqrt(now) / at_now * (1 + SPREAD / math.sqrt(max(1, s.changed or 1)))
              for s, h in zip(seats, half, strict=True)]
        se = [x / math.sqrt(now) for x in sd]
        # each change moved CAUTION standard errors towards the margin
        near = [abs(s.change) + CAUTION * e if abs(s.change) < eps else
                max(eps, abs(s.change) - CAUTION * e) for s, e in zip(seats, se, strict=True)]

        def decided(deals: float) -> bool:
            step = z(deals) / math.sqrt(deals)  # one boundary for every seat (a bisection)
            h = [step * x for x in sd]
            return (all(2 * x <= eps for x in h)  # measured
                    or all(c + x < eps for c, x in zip(near, h, strict=True))  # unchanged
                    or any(c - x > eps for c, x in zip(near, h, strict=True)))  # changed

        high = now
        while not decided(high):
            high *= 2
            if high > 1e12:
                return None
        low = now
        while high - low > max(1.0, 0.005 * high):
            mid = (low + high) / 2
            low, high = (low, mid) if decided(mid) else (mid, high)
        per_deal = self.games / max(1, self.deals)
        return max(0, math.ceil(high * per_deal) - self.games)


CardSide = Literal["too weak", "about right", "too strong", "not decided"]


def card_side(win: tuple[float, float, float], margin: float = MARGIN) -> CardSide:
    """A changed card in a designer's words, from its takers' win difference (estimate, low,
    high: the win share of the seats that took it minus that of the other seats of their
    strategies, 95%) at the designer's ``margin``: **too strong** when the interval lies
    wholly above ``+margin``, **too weak** wholly below ``-margin``, **about right** wholly
    inside ``(-margin, +margin)``, else **not decided** (the same rule as ``judge``'s, on
    one figure; an association, not a cause)."""
    _, low, high = win
    if not (math.isfinite(low) and math.isfinite(high)):
        return "not decided"
    if low > margin:
        return "too strong"
    if high < -margin:
        return "too weak"
    if -margin < low and high < margin:
        return "about right"
    return "not decided"


def winners(games: CellGames, vector: Sequence[int]) -> FloatArray:
    """One-hot winners (games, seats) under ``vector`` (ties by the logged tie-break order)."""
    w = rerank_winners(games.gained, games.tiebreak, vector)
    return np.asarray(np.eye(games.players)[w], dtype=np.float64)


def deal_differences(base: Sequence[CellGames], variant: Sequence[CellGames],
                     vector: Sequence[int]) -> FloatArray:
    """Per deal group, each seat's mean paired difference of winning (deals, seats): the
    stages both sides played, game by game (the same seeds: the same deals and line-ups).
    A stage whose games do not pair (another deal or count) ends the pairing there."""
    rows: list[FloatArray] = []
    for b, v in zip(base, variant, strict=False):
        if b.games != v.games or not np.array_equal(b.group, v.group):
            break
        diff = winners(v, vector) - winners(b, vector)
        _, inverse = np.unique(b.group, return_inverse=True)
        sums = np.zeros((int(inverse.max()) + 1, diff.shape[1]))
        counts = np.zeros(len(sums))
        np.add.at(sums, inverse, diff)
        np.add.at(counts, inverse, 1.0)
        rows.append(sums / counts[:, None])
    if not rows:
        return np.zeros((0, base[0].players if base else 2))
    return np.concatenate(rows)


def seat_difference(variant: Sequence[CellGames], base: Sequence[CellGames],
                    vector: Sequence[int], level: float = REPORT_LEVEL
                    ) -> tuple[tuple[FloatArray, FloatArray, FloatArray], int] | None:
    """Each seat's paired difference of win share under ``vector``, variant minus base, on
    every stage both played (the same seeds: the same deals and line-ups), clustered by deal,
    with ``level`` intervals simultaneous over the seats (a fixed sample: a study report's
    variants, not the anytime sequences of ``compare``; a seat changed in fewer than
    ``MIN_CHANGED`` deals: the bound from the share of deals changed, as ``compare``'s):
    ((mean, low, high), games paired).
    None when no stage pairs, or when one's games do not (another deal or count)."""
    diffs: list[FloatArray] = []
    groups: list[NDArray[np.int64]] = []
    offset = 0
    common = min(len(variant), len(base))
    for mine, theirs in zip(variant[:common], base[:common], strict=True):
        if mine.games != theirs.games or not np.array_equal(mine.group, theirs.group):
            return None
        diffs.append(winners(mine, vector) - winners(theirs, vector))
        groups.append(mine.group - mine.group.min() + offset)
        offset = int(groups[-1].max()) + 1
    if not diffs:
        return None
    players = variant[0].players
    z = float(t_quantile((1 - level) / (2 * players), 10**9))
    diff, group = np.concatenate(diffs), np.concatenate(groups)
    mean, low, high = paired_difference(diff, group, z)
    # a seat changed in fewer than MIN_CHANGED deals: its interval is the bound from the share
    # of deals changed (Clopper-Pearson, one-sided at the seat's level), never [0, 0]
    _, inverse = np.unique(group, return_inverse=True)
    sums = np.zeros((int(inverse.max()) + 1, players))
    np.add.at(sums, inverse, diff)
    deals = len(sums)
    for s in range(players):
        changed = int((sums[:, s] != 0).sum())
        if changed < MIN_CHANGED:
            from scipy import stats  # the dearest import of a report: only where it is used

            rate = (1.0 if changed >= deals else
                    float(stats.beta.ppf(1 - (1 - level) / players, changed + 1, deals - changed)))
            low[s], high[s] = -rate, rate
    return (mean, low, high), len(diff)


def design_deals(games: int, games_per_deal: int) -> float:
    """Where the sequences are tightest: the deals of the budget (a setting, never data)."""
    return max(float(MIN_DEALS), games / max(1, games_per_deal))


def changed_rate(changed: int, deals: int, level: float) -> float:
    """An anytime upper bound on the share of deals a change alters, from ``changed`` of
    ``deals``: the largest rate ``q`` whose uniform-prior mixture martingale
    ``B(changed + 1, deals - changed + 1) / (q^changed (1 - q)^(deals - changed))`` stays
    below ``1 / level`` (Ville's inequality: wrong at some look in at most ``level`` of
    comparisons). 0 of 53 deals: 17% at 0.25%; 0 of 3,333: 0.4%."""
    if deals <= 0 or changed >= deals:
        return 1.0
    target = math.log(1 / level)
    log_beta = float(special.betaln(changed + 1, deals - changed + 1))

    def excess(q: float) -> float:
        return (log_beta - (changed * math.log(q) if changed else 0.0)
                - (deals - changed) * math.log1p(-q) - target)

    low = changed / deals if changed else 1e-300
    if excess(1 - 1e-15) <= 0:
        return 1.0
    from scipy import optimize  # imported only where it is used, as scipy.stats above

    return float(optimize.brentq(excess, low, 1 - 1e-15, xtol=1e-12))


def compare(per_deal: FloatArray, design: float, precision: float = PRECISION,
            alpha: float = ALPHA, games_per_deal: int = 1) -> Comparison:
    """The comparison at this look, from the deals' paired differences (``deal_differences``);
    ``design``: the deals at which the sequences are tightest (``design_deals``). Each seat's
    interval: its normal sequence once ``MIN_CHANGED`` deals change it, within the bound from
    the share of deals changed (``changed_rate``), which alone bounds it before."""
    deals, seats = per_deal.shape if per_deal.ndim == 2 else (0, 2)
    if deals < MIN_DEALS:
        empty = tuple(SeatChange(s + 1, math.nan, -math.inf, math.inf) for s in range(seats))
        return Comparison("undecided", empty, deals * games_per_deal, deals, precision)
    side = alpha * (1 - RATE_SHARE) / (2 * seats)
    z = float(boundary_z(np.asarray(float(deals)), side, best_rho(design, side)))
    mean = per_deal.mean(axis=0)
    se = per_deal.std(axis=0, ddof=1) / math.sqrt(deals)
    moved = per_deal != 0
    changes = []
    for s in range(seats):
        m = int(moved[:, s].sum())
        # a deal's difference lies in [-1, 1]: |mean| <= the share of deals it is not 0
        rate = changed_rate(m, deals, alpha * RATE_SHARE / seats)
        low, high = -rate, rate
        if m >= MIN_CHANGED:
            low, high = max(low, float(mean[s] - z * se[s])), min(high, float(mean[s] + z * se[s]))
        changes.append(SeatChange(s + 1, float(mean[s]), low, high, m))
    found = judge(changes, precision, deals * games_per_deal, deals)
    return replace(found, changed=int(moved.any(axis=1).sum()), design=design)


def judge(changes: Sequence[SeatChange], precision: float = PRECISION, games: int = 0,
          deals: int = 0, changed: int | None = None) -> Comparison:
    """What the seats' intervals decide at ``precision`` (the rule above): the anytime
    sequences of ``compare``, or a study report's fixed 95% intervals on its variant."""
    if all(-precision < c.low and c.high < precision for c in changes):
        outcome: Outcome = "unchanged"
    elif any(c.low > precision or c.high < -precision for c in changes):
        outcome = "changed"
    elif all(c.high - c.low <= precision for c in changes):
        outcome = "measured"
    else:
        outcome = "undecided"
    return Comparison(outcome, tuple(changes), games, deals, precision, changed)


def worst_case_deals(sd: float, precision: float = PRECISION, alpha: float = ALPHA,
                     seats: int = 4) -> int:
    """Deals after which every seat's interval is at most ``precision`` wide for a per-deal
    standard deviation ``sd``: the most a comparison can take (its design)."""
    side = alpha * (1 - RATE_SHARE) / (2 * seats)
    deals = float(MIN_DEALS)
    while True:
        z = float(boundary_z(np.asarray(deals), side, best_rho(deals, side)))
        if 2 * z * sd / math.sqrt(deals) <= precision:
            return math.ceil(deals)
        deals *= 1.25


__all__ = ["ALPHA", "MARGIN", "MIN_CHANGED", "MIN_DEALS", "PRECISION", "RATE_SHARE",
           "CardSide", "Comparison", "Outcome", "SeatChange", "card_side", "changed_rate",
           "compare", "deal_differences", "design_deals", "judge", "seat_difference",
           "winners", "worst_case_deals"]
