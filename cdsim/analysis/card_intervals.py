"""The 95% intervals of one card's figures in a whatif or a study's variant section
(``cards.card_figures``): each inside its own range, each on enough deals to mean something.

A card's figures rest on few independent pieces: the games of one deal are played under
every line-up and seat rotation, and a card is only taken in the deals that put it on the
grid (B05 at 2 players: in about one deal in ten). So:

- **A share** (taken, fulfilled, kept) is a Wilson score interval on the effective number of
  takes, ``n / deff``, where the design effect ``deff`` (floored at 1) is the deal-clustered
  variance of the ratio over the binomial one, both at the Wilson centre (so a share of 0 or
  1 still has a spread), and the quantile is Student's t on the deals behind it less one:
  it stays within [0, 1] and widens with few deals.
- **The mean VP per take** is the ratio's deal-clustered interval (linearised, t on the
  deals less one), kept within the VP a take can bring (the lowest and highest seen, and
  a failed take's cost, its kind's ``CardKind.worst_vp``).
- **A figure on the takers** (fulfilled, VP per take, the takers' win difference) needs the
  card taken in at least ``MIN_DEALS`` deals; on fewer it is not a number but "too few"
  (at 2 players, 20 takes in 2 deals gave a win difference of -72 pts [-97, -47] against a
  truth of -7: two deals are two observations, however many games they hold).

docs/statistics.md ("Card figures inside their range") has the simulation behind them.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis.stats import t_quantile, wilson

MIN_DEALS = 10  # deals with a take before a figure on the takers is shown
NAN3 = (math.nan, math.nan, math.nan)
Array = NDArray[np.integer[Any]] | NDArray[np.floating[Any]] | NDArray[np.bool_]
Figure = tuple[float, float, float]  # estimate, low, high (95%)


def deals_with(values: Array, setup: Array) -> int:
    """The deals in which ``values`` (one per game) is ever positive."""
    v = np.asarray(values, dtype=float)
    return int(np.unique(np.asarray(setup)[v > 0]).size)


def t95(deals: int) -> float:
    """Student's t 97.5% quantile on ``deals`` - 1 degrees of freedom (inf below 2)."""
    return float(t_quantile(0.025, deals - 1))


class Clustered(NamedTuple):
    """A deal-clustered variance and the 97.5% quantile to use with it."""

    variance: float
    z: float


def clustered_variance(residual: Array, weight: Array, setup: Array) -> Clustered:
    """The deal-clustered variance of a ratio's numerator sum: the sum over deals of each
    deal's residual sum, squared, each divided by (1 - h)^2 where h is the deal's share of
    the ``weight`` (the ratio's denominator): the jackknife's small-sample correction
    (CR3), as the plain sandwich is too narrow on a few deals; and Student's t on the
    deals' effective number less one, (sum u^2)^2 / sum u^4 over the deals' terms u (at
    most the deals with a take): a few deals that carry most of the variance count as few
    (docs/statistics.md)."""
    _, inverse = np.unique(np.asarray(setup), return_inverse=True)
    sums = np.bincount(inverse, weights=np.asarray(residual, dtype=float))
    w = np.bincount(inverse, weights=np.asarray(weight, dtype=float))
    h = w / w.sum() if w.sum() > 0 else np.zeros_like(w)
    u2 = (sums / np.maximum(1 - h, 1e-9)) ** 2
    total, fourth = float(u2.sum()), float(np.sum(u2**2))
    deals = int((w > 0).sum())
    effective = min(float(deals), total**2 / fourth) if fourth > 0 else float(deals)
    return Clustered(total, t95(max(2, math.floor(effective))))


def share(num: Array, den: Array, setup: Array, min_deals: int = 2) -> Figure:
    """A share sum(num) / sum(den) (per game: takes and chances) with its 95% interval inside
    [0, 1]: Wilson on sum(den) / deff, t on the deals with a chance less one; nan without
    any den, an estimate without an interval on fewer than ``min_deals`` such deals."""
    y, x = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    total = float(x.sum())
    if total <= 0:
        return NAN3
    r = float(y.sum()) / total
    inside = x > 0
    k = deals_with(x, setup)
    if k < max(min_deals, 2):
        return r, math.nan, math.nan
    centre = (float(y.sum()) + 2) / (total + 4)  # near the Wilson centre, for the spread
    deals = np.asarray(setup, dtype=np.int64)
    robust = clustered_variance((y - centre * x)[inside], x[inside], deals[inside])
    deff = max(1.0, robust.variance / total**2 / (centre * (1 - centre) / total))
    low, high = wilson(r, total / deff, robust.z)
    return r, float(low), float(high)


def mean(num: Array, den: Array, setup: Array, bounds: tuple[float, float],
         min_deals: int = MIN_DEALS) -> Figure:
    """A mean per take sum(num) / sum(den) with its deal-clustered 95% interval (t on the
    deals with a take less one) kept within ``bounds``; nan without a take, an estimate
    without an interval on fewer than ``min_deals`` deals."""
    y, x = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    total = float(x.sum())
    if total <= 0:
        return NAN3
    r = float(y.sum()) / total
    k = deals_with(x, setup)
    if k < max(min_deals, 2):
        return r, math.nan, math.nan
    spread = clustered_variance(y - r * x, x, setup)
    half = spread.z * math.sqrt(spread.variance) / total
    return r, max(bounds[0], r - half), min(bounds[1], r + half)


__all__ = ["MIN_DEALS", "NAN3", "Clustered", "Figure", "clustered_variance", "deals_with", "mean", "share",
           "t95"]
