"""How many more games a confirmation needs, predicted from the games so far.

A vector is confirmed when, for every seat pair, the anytime confidence sequence of ``p_i -
p_j`` (``cdsim.analysis.boundary``) lies inside ``(-tolerance, +tolerance)``. After ``t``
deal groups of its test games and ``g`` more, at ``T = t + g``, the running estimate is
``d_T = (t d_t + g D) / T``, with ``D`` the mean of the new groups. ``predicted_games``
draws ``D`` from its *predictive* distribution: normal around the true differences
``theta`` with the observed per-group covariance, where ``theta`` may be taken as
uncertain, normal around the estimate so far with ``SPREAD`` times that estimate's
covariance (0: the estimate as the truth). The chance of confirming at ``T`` is the share
of draws in which every pair's ``|d_T| + z_T se_T`` stays below ``tolerance`` (``z_T`` the
boundary after ``T`` groups; with an indifference zone the ``tolerance`` passed is
``tolerance + zone``).

Calibration (``SPREAD``, how many times the uncertainty of ``theta`` is counted, and
``AIM``, the chance aimed at). Without the indifference zone a flat prior was optimistic
(72% where 80% was meant), and counting it twice brought 2-player cells to about 80%. With
the zone the vector need only be shown below ``tolerance + zone``, and counting it at all
makes the number far too large: continuations of the predicted size confirmed 94-97% of
undecided synthetic cells with ``SPREAD`` 1 or 2, as an audit found on real games (8 times
too many at 2 players). So the number is "if the gap is what it looks like now"
(``SPREAD = 0``: the new games' noise only), aimed at 70%: a continuation also confirms
when an earlier look of it crosses, or another vector does, so aiming at 80% confirmed
80-86% of synthetic and 90-93% of real-game continuations; aiming at 70% confirms about
80% of both (scripts/zone_rates.py ``continue``, scripts/real_continuations.py;
docs/statistics.md).

Only the final look is counted (a crossing at an earlier look would only help), and the
estimate so far is used as it stands, so the prediction is sound only when that estimate was
not picked as the best of many on the same games: ``anytime.decide`` takes it from the
vector's own test games when it has ``MIN_GROUPS`` of them.

At 3 and 4 players that is not enough (issue 52 item 6): the watched vector was chosen from
early games for looking good, and its estimate rests on its own test games alone, often as
uncertain as its distance from the edge of the zone. On real 3-player games of the learned
player the number came true for only 52% and 69% of continuations at 12,000 and 32,000
games. So a chosen vector's number counts half its estimate's uncertainty
(``SPREAD_CHOSEN``): 75% and 77% there; on the synthetic cells 87-94% (80-87% with none);
2-player candidates, tested on every game, keep ``SPREAD`` (docs/statistics.md).
"""

from __future__ import annotations

import math

import numpy as np

from cdsim.analysis.boundary import Mixture
from cdsim.analysis.candidates import FloatArray, WinTable, pairs

POWER = 0.8
# the chance the prediction aims at so that continuations confirm about POWER of the time:
# a crossing at an earlier look of the continuation, or of another vector, also confirms
AIM = 0.7
DRAWS = 4000
SPREAD = 0.0  # the truth's uncertainty: not counted, calibrated by simulation (above)
# ... except for a vector chosen from early games (3 and 4 players), whose estimate rests on
# its own test games only and was picked for looking good: half of it counts (above)
SPREAD_CHOSEN = 0.5
MAX_FACTOR = 256  # never predict more than this many times the games behind the estimate


def pair_moments(table: WinTable) -> tuple[FloatArray, FloatArray]:
    """For a one-vector table: the pair differences ``p_i - p_j`` (pairs,) and the
    deal-group covariance of their estimates (pairs, pairs): the cluster-robust covariance
    of a ratio of sums, as ``WinTable.pair_stats`` (whose variances are its diagonal)."""
    n, m, k = table.players, float(table.games), table.groups
    share = table.wins[0] / m
    wm = table.wm[0]
    resid = (table.cross[0] - np.outer(share, wm) - np.outer(wm, share)
             + np.outer(share, share) * table.size_sq)
    cov = k / max(k - 1, 1) * resid / m**2
    c = np.zeros((len(pairs(n)), n))
    for row, (i, j) in enumerate(pairs(n)):
        c[row, i], c[row, j] = 1.0, -1.0
    return np.asarray(c @ share, dtype=np.float64), np.asarray(c @ cov @ c.T, dtype=np.float64)


def confirm_chance(now: FloatArray, t: int, centre: FloatArray, centre_cov: FloatArray,
                   per_group: FloatArray, g: int, tolerance: float, level: float, mixture: Mixture,
                   draws: FloatArray) -> float:
    """The chance that after ``g`` more groups every pair's confidence sequence lies inside
    ``(-tolerance, tolerance)``: ``now`` the estimate on the ``t`` test groups so far,
    ``centre`` and ``centre_cov`` where the truth is believed to be, ``per_group`` the
    covariance of one group's pair differences, ``draws`` standard normals (draws, pairs)."""
    big_t = t + g
    mean = (t * now + g * centre) / big_t
    cov = (g * per_group + g * g * centre_cov) / big_t**2
    scale = np.sqrt(np.maximum(np.diag(cov), 0.0))
    corr = cov / np.maximum(np.outer(scale, scale), 1e-300)
    root = np.linalg.cholesky(corr + 1e-9 * np.eye(len(corr)))
    d = mean + (draws @ root.T) * scale
    half = float(mixture.z_at(np.asarray(big_t, dtype=np.float64), level)) * np.sqrt(
        np.diag(per_group) / big_t)
    return float(((np.abs(d) + half) < tolerance).all(axis=1).mean())


def predicted_games(stream: WinTable | None, prior: WinTable, tolerance: float, level: float,
                    mixture: Mixture, power: float = AIM, seed: int = 0,
                    spread: float | None = None) -> int | None:
    """Further games after which a vector is confirmed with chance ``power`` (see the module
    docstring); ``None`` if not even ``MAX_FACTOR`` times the games behind the estimate get
    there. ``stream``: the vector's test games so far (one-vector table, or None before its
    first); ``prior``: the games its truth is estimated from (the stream itself when it is
    long enough); ``level`` and ``mixture``: the test's level and e-process; ``spread``: how
    many times the estimate's own uncertainty counts (default ``SPREAD``)."""
    centre, estimate_cov = pair_moments(prior)
    per_group = estimate_cov * prior.groups
    centre_cov = (SPREAD if spread is None else spread) * estimate_cov
    t = 0 if stream is None else stream.groups
    now = np.zeros_like(centre) if stream is None else pair_moments(stream)[0]
    draws = np.random.default_rng(seed).standard_normal((DRAWS, len(centre)))

    def chance(g: int) -> float:
        return confirm_chance(now, t, centre, centre_cov, per_group, g, tolerance, level, mixture, draws)

    cap = MAX_FACTOR * max(prior.groups, t, 1)
    high = max(1, prior.groups // 8)
    while chance(high) < power:
        if high >= cap:
            return None
        high = min(cap, high * 2)
    low = high // 2
    while high - low > max(1, high // 64):  # to about 2%: a prediction, not a count
        mid = (low + high) // 2
        low, high = (low, mid) if chance(mid) >= power else (mid, high)
    return math.ceil(high * prior.games / prior.groups)


def confirmation_games(players: int, gap: float, tolerance: float, level: float, design_games: float,
                       power: float = POWER, deff: float = 1.0) -> int | None:
    """Games one cell needs, from its first test game, to confirm a vector whose seats truly
    lie ``gap`` apart (one seat ``gap / 2`` above the fair share, one below, the others fair)
    with chance ``power`` at its final look: the anytime test at ``level`` with its boundary
    tightest at ``design_games`` games, multinomial game outcomes times the design effect
    ``deff``, one game per group. ``None`` when ``gap >= tolerance``."""
    if gap >= tolerance:
        return None
    p = np.full(players, 1 / players)
    p[0] += gap / 2
    p[-1] -= gap / 2
    c = np.zeros((len(pairs(players)), players))
    for row, (i, j) in enumerate(pairs(players)):
        c[row, i], c[row, j] = 1.0, -1.0
    per_game = c @ (np.diag(p) - np.outer(p, p)) @ c.T * deff
    theta = c @ p
    mixture = Mixture.design(design_games, level)
    draws = np.random.default_rng(0).standard_normal((DRAWS, len(theta)))
    zero = np.zeros_like(per_game)

    def chance(g: int) -> float:
        return confirm_chance(theta, 0, theta, zero, per_game, g, tolerance, level, mixture, draws)

    high = 64
    while chance(high) < power:
        high *= 2
    low = high // 2
    while high - low > max(1, high // 256):
        mid = (low + high) // 2
        low, high = (low, mid) if chance(mid) >= power else (mid, high)
    return int(high)
