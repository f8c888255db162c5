"""The one-sided normal-mixture confidence sequence: evidence that stays valid at every look.

Take independent deal groups ``X_1, X_2, ...`` (here: one deal group's difference of two
seats' win shares under one vector) with mean ``mu`` and standard deviation ``sigma``, and the
null hypothesis ``mu >= c`` (for ``mu <= c`` flip the signs). With ``t`` groups, their mean
``d`` and its standard error ``se = sigma / sqrt(t)``, write ``z = (c - d) / se`` (how far the
data lie on the far side of ``c``) and ``s = z sqrt(t) = sum_k (c - X_k) / sigma``. Robbins'
normal mixture over the bets ``lambda >= 0`` of ``exp(lambda s - lambda^2 t / 2)``, with a
half-normal prior of precision ``rho`` on ``lambda``, is

    M_t = 2 sqrt(rho / (t + rho)) exp(s^2 / (2 (t + rho))) Phi(s / sqrt(t + rho))

(Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic
confidence sequences", Ann. Statist. 49(2), section 3, the one-sided normal mixture; the
same formula as ``OneSidedNormalMixture::log_superMG`` in their ``confseq`` library). Under
the null ``M_t`` is a nonnegative supermartingale starting at 1, so by Ville's inequality
``P(M_t >= 1/a for some t) <= a``: ``1 / max_t M_t`` is a p-value at any stopping time,
however many looks come later and whenever the budget is raised. That is what lets a cell
stop, resume and be extended without breaking its error rate.

``sigma`` is not known: it is the deal-group standard error of the data so far, which makes
this the (one-sided) *asymptotic confidence sequence* of Waudby-Smith, Arbour, Sinha,
Kennedy & Ramdas ("Time-uniform central limit theory and asymptotic confidence sequences",
Ann. Statist. 2024): valid as the number of groups grows, the same kind of approximation as
the Student's t intervals it replaces. A test looks only from ``MIN_GROUPS`` groups on, and
tests/test_anytime.py measures the error rates on synthetic cells at the boundary.

``rho`` sets where the boundary is tightest: ``best_rho(v, a)`` makes it tightest at ``v``
groups for a one-sided level ``a`` (Howard et al.'s choice, confseq's ``best_rho``). It must
be fixed before the data it judges (a function of settings only, never of outcomes).

The e-value used (``Mixture``) puts ``POINT_WEIGHT`` (80%) of its prior on one bet,
``lambda_d = sqrt(2 log(1 / (w a)) / v)``, the bet that makes a vector just detectable
after ``v`` groups most likely to be confirmed there, and the rest on Robbins' mixture
above. A mixture of e-processes is an e-process, so validity is untouched. At 1.25% the
boundary is 3.00 standard errors at the design against 3.28 for Robbins' mixture alone
(about 15% fewer games there; one look with no anytime guarantee would need 2.24), and
within 3% / 9% / 12% of Robbins' at a quarter / four times / twenty times the design.

The confseq package itself (PyPI 0.0.11, January 2023) is a C++/Boost extension; these few
lines are the formulas it implements, written out so the project needs no compiler.

``Planned`` is the other part of a study cell's evidence: a group-sequential test at the
looks the cell plans (alpha spending ``level (t/T)**2``), made a test martingale by taking
the chance, given the data so far, that it will reject (Doob's martingale). With only a
handful of looks a mixture reaches its level far less often than Ville's inequality
allows (0.2-0.4% where 1.25% was allowed); the planned test spends it there (about 1%)
and keeps the worst case within 1.15 times a fixed-sample test's games.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

FloatArray = NDArray[np.float64]

POINT_WEIGHT = 0.8  # of the prior on the single bet tuned to the design; the rest: Robbins


def best_rho(groups: float, alpha: float) -> float:
    """The mixture precision that makes the one-sided boundary at level ``alpha`` tightest
    after ``groups`` groups: ``v / (2 log(1/(2a)) + log(1 + 2 log(1/(2a))))``."""
    if groups <= 0 or not 0 < alpha < 0.5:
        raise ValueError(f"best_rho needs groups > 0 and 0 < alpha < 0.5, got {groups}, {alpha}")
    two_log = 2 * math.log(1 / (2 * alpha))
    return groups / (two_log + math.log(1 + two_log))


def log_evidence(z: ArrayLike, groups: ArrayLike, rho: float) -> FloatArray:
    """``log M_t`` for standardised distances ``z`` after ``groups`` groups (broadcast). A
    ``z`` of +inf (no spread at all, data beyond ``c``) gives +inf; NaN gives -inf (no
    evidence)."""
    zz = np.asarray(z, dtype=np.float64)
    t = np.asarray(groups, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        s = zz * np.sqrt(t)
        v = t + rho
        out = 0.5 * np.log(4 * rho / v) + s * s / (2 * v) + special.log_ndtr(s / np.sqrt(v))
    out = np.where(np.isposinf(zz), np.inf, out)
    return np.asarray(np.where(np.isnan(out), -np.inf, out), dtype=np.float64)


def boundary_z(groups: ArrayLike, alpha: float, rho: float) -> FloatArray:
    """The ``z`` at which ``M_t`` reaches ``1 / alpha`` after ``groups`` groups: a one-sided
    level-``alpha`` confidence sequence is ``d ± boundary_z * se`` (``log M`` increases with
    ``z``, so a bisection finds it)."""
    t = np.asarray(groups, dtype=np.float64)
    target = math.log(1 / alpha)
    low, high = np.zeros(t.shape), np.full(t.shape, 64.0)
    for _ in range(60):  # 64 / 2**60: far below any share
        mid = (low + high) / 2
        above = log_evidence(mid, t, rho) >= target
        high = np.where(above, mid, high)
        low = np.where(above, low, mid)
    return np.asarray(high, dtype=np.float64)


@dataclass(frozen=True)
class Mixture:
    """The e-process of a test: ``POINT_WEIGHT`` on the bet ``bet`` (standardised units),
    the rest on Robbins' half-normal mixture of precision ``rho``. Made once per cell from
    settings (``design``), never from outcomes."""

    rho: float
    bet: float
    weight: float = POINT_WEIGHT

    @classmethod
    def design(cls, groups: float, alpha: float, weight: float = POINT_WEIGHT) -> Mixture:
        """Tightest near ``groups`` groups for one-sided tests at about ``alpha``."""
        bet = math.sqrt(2 * math.log(1 / (weight * alpha)) / groups) if weight > 0 else 0.0
        return cls(best_rho(groups, alpha), bet, weight)

    def log_evidence(self, z: ArrayLike, groups: ArrayLike) -> FloatArray:
        """``log`` of the e-value after ``groups`` groups at standardised distance ``z``."""
        robbins = log_evidence(z, groups, self.rho)
        if self.weight <= 0:
            return robbins
        zz = np.asarray(z, dtype=np.float64)
        t = np.asarray(groups, dtype=np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            point = self.bet * zz * np.sqrt(t) - self.bet**2 * t / 2
        point = np.where(np.isnan(point), -np.inf, point)
        out = np.logaddexp(math.log(self.weight) + point, math.log(1 - self.weight) + robbins)
        return np.asarray(out, dtype=np.float64)

    def z_at(self, groups: ArrayLike, alpha: float) -> FloatArray:
        """The ``z`` at which the e-value reaches ``1 / alpha`` (bisection: it increases
        with ``z``)."""
        t = np.asarray(groups, dtype=np.float64)
        target = math.log(1 / alpha)
        low, high = np.zeros(t.shape), np.full(t.shape, 64.0)
        for _ in range(60):
            mid = (low + high) / 2
            above = self.log_evidence(mid, t) >= target
            high = np.where(above, mid, high)
            low = np.where(above, low, mid)
        return np.asarray(high, dtype=np.float64)


# ------------------------------------------------------------------ the planned looks

PLANNED_WEIGHT = 0.8  # of a zone test's e-process on its planned looks; the rest: the mixture
SPEND_POWER = 2.0  # the planned looks spend level * (t / T) ** SPEND_POWER by time t
GRID = 401  # points of the numerical integration over one look's continuation region


def _trapezoid(x: FloatArray) -> FloatArray:
    w = np.full(len(x), x[1] - x[0])
    w[0] = w[-1] = w[0] / 2
    return w


class Planned:
    """The group-sequential test of one one-sided null at planned looks, made into a test
    martingale: evidence that spends its whole level at the looks a cell plans and still
    holds at any other look, at any stopping time.

    In standardised units ``s = z sqrt(t)`` (``z`` as in ``log_evidence``) a null at its
    boundary makes ``s`` a random walk of unit variance per group. The planned looks
    ``times`` (cumulative groups) get crossing values ``b_k`` that spend ``level (t_k /
    T)**SPEND_POWER`` by look ``k`` (Lan & DeMets' alpha spending, Kim & DeMets' power
    family; ``T`` the last look), so ``R``, "``s`` crosses ``b_k`` at some planned look",
    has chance ``level`` under the null. ``P(R | the data so far) / level`` is then a
    martingale that starts at 1 (Doob's), reaches ``1 / level`` exactly when ``R`` happens,
    and is a supermartingale for any truth inside the null (``R`` is monotone in ``s``).
    By Ville's inequality it crosses ``1 / level`` with chance at most ``level`` however
    the looks fall; unlike a mixture over bets it crosses at the planned looks with chance
    close to ``level`` itself, so the error budget is spent rather than left unused.

    ``value(s, t)`` is ``P(R | s at t)``, given no crossing at the planned looks before
    ``t``, all of which were looked at (``s`` is a Markov chain). A look that skips a
    planned one cannot evaluate it; ``Evidence`` then drops this part (valid: a process
    below a stopped test martingale crosses no more often). After the last planned look it
    is 0 unless it crossed."""

    def __init__(self, times: tuple[float, ...], level: float, power: float = SPEND_POWER) -> None:
        if not times or not 0 < level < 1 or any(b <= a for a, b in itertools.pairwise(times)):
            raise ValueError(f"a plan needs increasing look times and 0 < level < 1, got {times}, {level}")
        self.times = np.asarray(times, dtype=np.float64)
        self.level = level
        last = self.times[-1]
        spent = level * (self.times / last) ** power
        step = np.diff(np.concatenate([[0.0], spent]))
        k_looks = len(self.times)
        b = np.zeros(k_looks)
        b[0] = math.sqrt(self.times[0]) * float(special.ndtri(1 - step[0]))
        x = np.linspace(-9 * math.sqrt(self.times[0]), b[0], GRID)
        f = np.exp(-(x**2) / (2 * self.times[0])) / math.sqrt(2 * math.pi * self.times[0])
        for k in range(1, k_looks):  # forward: sub-density of s on the continuation region
            dt = self.times[k] - self.times[k - 1]
            mass = _trapezoid(x) * f

            def tail(v: float, x: FloatArray = x, mass: FloatArray = mass, dt: float = dt) -> float:
                return float(np.sum(mass * special.ndtr((x - v) / math.sqrt(dt))))

            low, high = float(x[0]), float(x[-1]) + 12 * math.sqrt(dt)
            for _ in range(100):  # bisection: tail falls as v rises
                mid = (low + high) / 2
                low, high = (mid, high) if tail(mid) > step[k] else (low, mid)
            b[k] = high
            nx = np.linspace(min(-9 * math.sqrt(self.times[k]), high - 1), high, GRID)
            kernel = np.exp(-((nx[:, None] - x[None, :]) ** 2) / (2 * dt)) / math.sqrt(2 * math.pi * dt)
            f, x = kernel @ mass, nx
        self.b = b
        # backward: g_k(s) = P(a crossing at a look after k | s at look k, none yet)
        self.grids: list[FloatArray] = [np.zeros(1)] * k_looks
        self.ahead: list[FloatArray] = [np.zeros(1)] * k_looks
        for k in range(k_looks - 2, -1, -1):
            xs = np.linspace(min(-9 * math.sqrt(self.times[k]), b[k] - 1), b[k], GRID)
            self.grids[k], self.ahead[k] = xs, self._from(k + 1, xs, float(self.times[k]))

    def _from(self, nxt: int, s: FloatArray, t: float) -> FloatArray:
        """P(a crossing at planned look ``nxt`` or later | ``s`` at ``t`` <= its time)."""
        dt = float(self.times[nxt]) - t
        p = special.ndtr((s - self.b[nxt]) / math.sqrt(dt))
        if nxt < len(self.times) - 1:
            xs = self.grids[nxt]
            weights = _trapezoid(xs) * self.ahead[nxt]
            # flat copies: reshape(-1) of a non-C-ordered array (a seat-pair table from
            # WinTable.pair_stats is Fortran-ordered) is a copy, so writing through it
            # would leave the result uninitialised
            flat = np.ascontiguousarray(s, dtype=np.float64).reshape(-1)
            dest = np.empty(flat.size, dtype=np.float64)
            for start in range(0, flat.size, 4096):  # bounded memory: 4096 x GRID at a time
                part = flat[start:start + 4096]
                kernel = np.exp(-((part[:, None] - xs[None, :]) ** 2) / (2 * dt))
                dest[start:start + 4096] = kernel @ weights / math.sqrt(2 * math.pi * dt)
            p = p + dest.reshape(np.shape(s))
        return np.asarray(np.clip(p, 0.0, 1.0), dtype=np.float64)

    def value(self, s: ArrayLike, t: float) -> FloatArray:
        """``P(R | s at t)``, no planned look before ``t`` crossed and every one looked at."""
        ss = np.asarray(s, dtype=np.float64)
        ss = np.where(np.isnan(ss), -np.inf, ss)
        k = int(np.searchsorted(self.times, t + 1e-9, side="right")) - 1  # last look <= t
        if k == len(self.times) - 1:
            on = abs(float(self.times[k]) - t) < 1e-9
            return np.asarray(ss >= self.b[k], dtype=np.float64) if on else np.zeros(ss.shape)
        finite = np.where(np.isfinite(ss), ss, 0.0)
        p = self._from(k + 1, finite, t)
        p = np.where(np.isposinf(ss), 1.0, np.where(np.isneginf(ss), 0.0, p))
        if k >= 0 and abs(float(self.times[k]) - t) < 1e-9:
            p = np.where(ss >= self.b[k], 1.0, p)
        return np.asarray(p, dtype=np.float64)

    def crossing_z(self) -> FloatArray:
        """The crossing values in standard errors, ``b_k / sqrt(t_k)``."""
        return np.asarray(self.b / np.sqrt(self.times), dtype=np.float64)


@functools.lru_cache(maxsize=256)
def planned(times: tuple[float, ...], level: float) -> Planned:
    """``Planned(times, level)``, made once per plan and level (a few milliseconds each)."""
    return Planned(times, level)
