"""A sweep's figures against the swept value (a study's ``[[sweep]]``: one component value
tried over a list), as its report words them (``reports.study.sweep``):

- ``covers``: whether the seats *come out fair* at a value: every seat's 95% interval for
  its fair offset (``offsets.fair_offsets``) covers the offset the starting VP played gives
  that seat. That is all it claims: the intervals do not exclude it there.
- ``neutral``: where the swept card or component is neutral, its takers (users) winning
  as often as the other seats of their strategies: where its win difference
  (``cards.card_figures``, ``uses.use_figures``), linear between the values tried, crosses
  0, and the 95% set of values where its interval covers 0 (the range; "outside the
  values tried" where the set is empty).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from cdsim.analysis.offsets import FairOffset


def covers(offsets: Sequence[FairOffset] | None, played: Sequence[float]) -> bool | None:
    """Whether every seat's fair-offset interval (seats 2..N) covers ``played``, its offset
    over seat 1 at the starting VP played (a seat whose interval was not located: no); None
    without fair offsets (players who read the scores)."""
    if offsets is None:
        return None
    return all(np.isfinite(o.low) and np.isfinite(o.high) and o.low <= target <= o.high
               for o, target in zip(offsets, played, strict=True))


def crossing(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Where the piecewise-linear ``ys`` over ``xs`` first crosses 0 (None: it does not)."""
    for i in range(len(xs) - 1):
        (x0, y0), (x1, y1) = (xs[i], ys[i]), (xs[i + 1], ys[i + 1])
        if not (np.isfinite(y0) and np.isfinite(y1)):
            continue
        if y0 == 0:
            return float(x0)
        if (y0 < 0) != (y1 < 0) or y1 == 0:
            return float(x0 + (x1 - x0) * (0 - y0) / (y1 - y0))
    return None


@dataclass(frozen=True)
class Neutral:
    """Where a swept component's win difference crosses 0 (``at``: its estimate, linear
    between the values tried; None: it does not cross), and the 95% set of values where it
    may be 0: every value, between two tried, where the interval (its ends linear between
    the values too) covers 0. ``ends``: that set's ends inside the values tried, sorted
    (two: the range; one: the set reaches past the first or the last value tried, ``past``
    says which; none: it reaches past both, or it is empty); ``above``: where the set is
    empty, whether its users win more often (every interval above 0; None: no estimate).
    ``tried``: the values with a figure; ``step``: the widest step between two of them."""

    at: float | None
    ends: tuple[float, ...] = ()
    above: bool | None = None
    past: tuple[bool, bool] = (False, False)  # the set reaches past the first / last value
    tried: tuple[float, ...] = ()
    step: float = math.inf

    @property
    def empty(self) -> bool:
        """The 95% set holds no value tried or between: neutral outside them, if anywhere."""
        return self.at is None and not self.ends and not any(self.past)

    @property
    def wide(self) -> bool:
        """The set is wider than the widest step between the values tried: the estimate's
        crossing says little, the range is the answer."""
        return len(self.ends) != 2 or self.ends[1] - self.ends[0] > self.step


def _segment(x0: float, x1: float, y0: float, y1: float, keep: str) -> tuple[float, float] | None:
    """The part of [x0, x1] where the line through (x0, y0), (x1, y1) is below 0 (``keep``
    "lt") or above 0 ("gt"), as its closure's ends; None where no part is (an interval
    that only touches 0 does not cover it)."""
    sign = 1.0 if keep == "lt" else -1.0
    a, b = sign * y0, sign * y1
    if a < 0 and b < 0:
        return (x0, x1)
    if a >= 0 and b >= 0:
        return None
    cross = x0 + (x1 - x0) * (0 - a) / (b - a)
    return (x0, cross) if a < 0 else (cross, x1)


def neutral(xs: Sequence[float], estimate: Sequence[float], low: Sequence[float],
            high: Sequence[float]) -> Neutral:
    """The win difference's ``estimate`` and its 95% interval (``low``, ``high``) over the
    values ``xs`` (sorted): where it crosses 0 and the 95% set where it may be 0. The set
    covers the true crossing at least 95% of the time where the truth is linear between
    the values tried (at a crossing between two values, the interval's ends there are the
    ends' mix, at least as wide as the mix of the estimates needs, whatever their
    correlation): docs/guide.md, "Where a swept component is neutral"; tests/test_neutral.py
    holds it to a known crossing by simulation. Values without a figure are left out."""
    keep = [i for i in range(len(xs)) if all(np.isfinite(v[i]) for v in (estimate, low, high))]
    x = [float(xs[i]) for i in keep]
    est, lo, hi = ([float(v[i]) for i in keep] for v in (estimate, low, high))
    at = crossing(xs, estimate)
    step = max((b - a for a, b in itertools.pairwise(x)), default=math.inf)
    found: list[tuple[float, float]] = []
    for i in range(len(x) - 1):
        below = _segment(x[i], x[i + 1], lo[i], lo[i + 1], "lt")
        over = _segment(x[i], x[i + 1], hi[i], hi[i + 1], "gt")
        if below is not None and over is not None and max(below[0], over[0]) < min(
                below[1], over[1]):
            found.append((max(below[0], over[0]), min(below[1], over[1])))
    if len(x) == 1 and lo[0] < 0 < hi[0]:
        found.append((x[0], x[0]))
    if not found:
        return Neutral(None, (), bool(est[-1] > 0) if est else None, tried=tuple(x), step=step)
    first, last = min(f[0] for f in found), max(f[1] for f in found)
    past = (first == x[0] and lo[0] < 0 < hi[0], last == x[-1] and lo[-1] < 0 < hi[-1])
    ends = tuple(e for e, out in ((first, past[0]), (last, past[1])) if not out)
    return Neutral(at, ends, past=past, tried=tuple(x), step=step)


__all__ = ["Neutral", "covers", "crossing", "neutral"]
