"""A sweep's figures against the swept value (a study's ``[[sweep]]``: one component value
tried over a list), as its report words them (``reports.study.sweep``):

- ``covers``: whether the seats *come out fair* at a value: every seat's 95% interval for
  its fair offset (``offsets.fair_offsets``) covers the offset the starting VP played gives
  that seat. That is all it claims: the intervals do not exclude it there.
- ``neutral``: where the swept card is neutral, its takers winning as often as the other
  seats of their strategies: where its win difference (``cards.card_figures``), linear
  between the values tried, crosses 0, with the values where its interval's ends cross 0 as
  the range. No claim across a value without a figure.
"""

from __future__ import annotations

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
    """Where a swept card's win difference crosses 0 (``at``), and where its interval's ends
    do (``ends``, sorted: two give the range); when it does not cross, whether its takers win
    more often at the values tried (``above``: the last estimate > 0; None: no estimate)."""

    at: float | None
    ends: tuple[float, ...] = ()
    above: bool | None = None


def neutral(xs: Sequence[float], estimate: Sequence[float], low: Sequence[float],
            high: Sequence[float]) -> Neutral:
    """The win difference's ``estimate`` and its interval over the values ``xs``."""
    at = crossing(xs, estimate)
    if at is None:
        finite = [e for e in estimate if np.isfinite(e)]
        return Neutral(None, (), bool(finite[-1] > 0) if finite else None)
    ends = sorted(x for x in (crossing(xs, low), crossing(xs, high)) if x is not None)
    return Neutral(at, tuple(ends))


__all__ = ["Neutral", "covers", "crossing", "neutral"]
