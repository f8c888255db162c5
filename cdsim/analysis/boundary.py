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
"""

from __future__ import annotations

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
