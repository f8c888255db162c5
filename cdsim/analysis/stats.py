"""The statistics behind every number in a report: intervals, tests, power.

Conventions: a *share* is wins / games (or wins / appearances for a strategy);
intervals are 95% Wilson score intervals; a run that rotates seats plays each
dealt setup N times, so its games come in correlated clusters and the sample
size behind an interval is the effective one, n / design effect (never more
than n: the design effect is floored at 1, the conservative side).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import special

Z95 = 1.959963984540054
FloatArray = NDArray[np.float64]


def wilson(share: NDArray[np.floating] | float, n: NDArray[np.floating] | NDArray[np.integer]
           | float, z: float = Z95) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval of a share observed over n trials (vectorised).

    ``n`` may be an effective, fractional sample size (n / design effect).
    """
    p = np.asarray(share, dtype=float)
    m = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / denom
    # the interval always holds the share (rounding can put a bound a hair past 0 or 1)
    return np.clip(np.minimum(centre - half, p), 0, 1), np.clip(np.maximum(centre + half, p), 0, 1)


def t_quantile(a: float | FloatArray, df: int) -> FloatArray:
    """Student's t upper quantile ``t_{1-a}`` with ``df`` degrees of freedom (infinite below
    1; a huge ``df`` gives the normal quantile)."""
    if df < 1:
        return np.full(np.shape(a), np.inf)
    return np.asarray(special.stdtrit(df, 1 - np.asarray(a, dtype=np.float64)), dtype=np.float64)


def design_effect(indicator: NDArray[np.floating] | NDArray[np.bool_],
                  cluster: NDArray[np.integer]) -> float:
    """Variance inflation of a mean of 0/1 ``indicator`` whose rows come in clusters.

    Ratio of the cluster-robust variance of the mean to the independent one,
    floored at 1. ``cluster`` labels each row (e.g. the dealt setup).
    """
    y = np.asarray(indicator, dtype=float)
    n = y.size
    if n < 2:
        return 1.0
    p = float(y.mean())
    iid = p * (1 - p) / n
    if iid <= 0:
        return 1.0
    _, inverse = np.unique(cluster, return_inverse=True)
    sums = np.bincount(inverse, weights=y - p)
    k = sums.size
    if k < 2:
        return 1.0
    robust = k / (k - 1) * float(np.sum(sums**2)) / n**2
    return max(1.0, robust / iid)


def seat_design_effect(winner: NDArray[np.integer], setup: NDArray[np.integer],
                       players: int) -> float:
    """The largest design effect over the seats' win indicators, games clustered by deal."""
    return max(design_effect(winner == s, setup) for s in range(players))


def paired_difference(diff: NDArray[np.floating] | NDArray[np.integer],
                      cluster: NDArray[np.integer], z: float = Z95
                      ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Mean of per-game paired differences (games, k) with a cluster-robust 95% interval.

    ``diff[g]`` compares the same game (same seed, same deal) under two designs; games of one
    ``cluster`` (the dealt setup) are correlated, so the variance of the mean is the
    cluster-robust one (sums over clusters). Returns (mean, low, high), each shaped (k,).
    Identical designs give exactly 0 with an interval of [0, 0]."""
    d = np.asarray(diff, dtype=float)
    d = d.reshape(len(d), -1)
    g = len(d)
    mean = d.mean(axis=0) if g else np.full(d.shape[1], np.nan)
    _, inverse = np.unique(cluster, return_inverse=True)
    k = int(inverse.max()) + 1 if g else 0
    if k < 2:
        return mean, mean.copy(), mean.copy()
    sums = np.zeros((k, d.shape[1]))
    np.add.at(sums, inverse, d - mean)
    half = z * np.sqrt(k / (k - 1) * np.sum(sums**2, axis=0)) / g
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class EqualShares:
    """Test of 'every seat wins equally often' (chi-square goodness of fit)."""

    chi2: float
    df: int
    p_value: float
    design_effect: float  # the chi-square was divided by this (Rao-Scott first order)


def equal_shares_test(wins: NDArray[np.integer], deff: float = 1.0) -> EqualShares:
    """Chi-square test of equal win counts across seats; one winner per game."""
    w = np.asarray(wins, dtype=float)
    n = w.sum()
    if n <= 0:
        return EqualShares(float("nan"), len(w) - 1, float("nan"), deff)
    expected = np.full(len(w), n / len(w))
    chi2 = float(np.sum((w - expected) ** 2 / expected)) / deff
    df = len(w) - 1
    from scipy import stats  # a third of a second to import: only where a test is run

    return EqualShares(chi2, df, float(stats.chi2.sf(chi2, df)), deff)


@dataclass(frozen=True)
class Power:
    players: int
    effect: float
    alpha: float
    power: float
    games_chi2: int  # the all-seat chi-square test detects it
    games_pair: int  # a two-sided z-test of the two seats that differ detects it
    games_ci: int  # each seat's 95% interval is at most ±effect/2 wide (worst case p = 1/N)


def shares_for_gap(players: int, effect: float) -> FloatArray:
    """The alternative: one seat ahead by effect/2, one behind by effect/2, the rest fair."""
    p = np.full(players, 1 / players)
    p[0] += effect / 2
    p[-1] -= effect / 2
    return p


def chi2_power(games: int, p: FloatArray, alpha: float = 0.05) -> float:
    """Power of the equal-shares chi-square test with ``games`` games when the truth is ``p``."""
    k = len(p)
    lam = games * float(np.sum((p - 1 / k) ** 2 / (1 / k)))
    from scipy import stats  # a third of a second to import: only where a power is asked

    crit = stats.chi2.ppf(1 - alpha, k - 1)
    return float(stats.ncx2.sf(crit, k - 1, lam))


def power_analysis(players: int, effect: float, alpha: float = 0.05, power: float = 0.8) -> Power:
    """Games needed to detect a seat gap of ``effect`` (best seat minus worst seat)."""
    if players < 2:
        raise ValueError(f"players must be 2 or more, got {players}")
    if not 0 < effect < 2 / players:
        raise ValueError(f"effect must be between 0 and {2 / players:.3f} for {players} players, "
                         f"got {effect}")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("alpha and power must be between 0 and 1")
    p = shares_for_gap(players, effect)
    lo, hi = 2, 2
    while chi2_power(hi, p, alpha) < power:
        hi *= 2
    while lo < hi:  # smallest n with enough power
        mid = (lo + hi) // 2
        if chi2_power(mid, p, alpha) >= power:
            hi = mid
        else:
            lo = mid + 1
    games_chi2 = lo
    from scipy import stats

    za, zb = float(stats.norm.ppf(1 - alpha / 2)), float(stats.norm.ppf(power))
    var = p[0] + p[-1] - effect**2
    var0 = 2 / players  # the variance under the null of equal shares
    games_pair = math.ceil(((za * math.sqrt(var0) + zb * math.sqrt(var)) / effect) ** 2)
    q = 1 / players
    games_ci = math.ceil(q * (1 - q) * (Z95 / (effect / 2)) ** 2)
    return Power(players, effect, alpha, power, games_chi2, games_pair, games_ci)
