"""Synthetic scenarios shared by the tests of the balance engine (tests/test_candidates.py,
tests/test_anytime.py, tests/test_offsets.py): cells whose true win shares are known exactly
(``cdsim.analysis.synthetic``), with the settings a verdict runs at, and the binomial check
an observed error count is held to. Not a test file: it is imported.

The tolerances are larger than the study's 0.02 so that a cell needs thousands of games,
not hundreds of thousands; the error rates do not depend on that scale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np
from numpy.typing import NDArray
from scipy import optimize
from scipy import stats as sps

from cdsim.analysis.candidates import candidates
from cdsim.analysis.synthetic import Synth, dnorm

EPS = 1e-9  # a true gap within this of the tolerance counts as on the boundary


def _twin_cell(shift: float = 0.0) -> Synth:
    """2 players, fine VP: seat 1's mean solved so that (0,0) and (0,1) sit at +g and -g;
    ``shift`` moves it off that point (the two gaps then differ)."""
    def cell(mu: float) -> Synth:
        return Synth((dnorm(mu, 3.0), dnorm(0.0, 3.0)), skill=dnorm(0, 1.5))

    def asymmetry(mu: float) -> float:
        sh = cell(mu).true_shares([(0, 0), (0, 1)])
        return float((sh[:, 0] - sh[:, 1]).sum())

    return cell(float(optimize.brentq(asymmetry, 0.0, 2.0, xtol=1e-13)) + shift)


@dataclass(frozen=True)
class Scenario:
    """A synthetic cell with a verdict's settings: the budget, the first stage (then
    doubling, ``anytime.stage_sizes``) and ``m`` vectors tested at a time. ``fixed_tolerance=None``: the
    tolerance is the cell's smallest true gap, so the best vector sits exactly on the
    boundary."""

    cell: Synth
    rulebook: tuple[int, ...]
    radius: int
    fixed_tolerance: float | None
    budget: int
    first: int
    m: int = 3
    truth: dict[tuple[int, ...], float] = field(default_factory=dict, compare=False)

    @property
    def vectors(self) -> NDArray[np.int64]:
        return candidates(self.rulebook, self.radius)

    @property
    def gaps(self) -> dict[tuple[int, ...], float]:
        if not self.truth:
            v = self.vectors
            self.truth.update({tuple(int(x) for x in row): float(g)
                               for row, g in zip(v, self.cell.true_gaps(v), strict=True)})
        return self.truth

    @property
    def tolerance(self) -> float:
        return min(self.gaps.values()) if self.fixed_tolerance is None else self.fixed_tolerance


@cache
def scenario(name: str) -> Scenario:
    return {
        # (a) (0,1,2) makes the three seats identical: true gap 0; its neighbours are >= 0.10
        "fair": Scenario(Synth((dnorm(2, 3), dnorm(1, 3), dnorm(0, 3)), skill=dnorm(0, 2),
                               deal=dnorm(0, 1.5)), (0, 0, 0), 2, 0.06, 6000, 300),
        # (b) VP in steps of 4: a 1-VP shift only decides ties; the best gap is 0.070 > 2 tolerances
        "unfair": Scenario(Synth((dnorm(3, 5, 4), dnorm(0, 5, 4), dnorm(0, 5, 4)),
                                 deal=dnorm(0, 4, 4)), (0, 0, 0), 2, 0.03, 6000, 300),
        # (c) one vector class exactly on the boundary, every other far from it
        "border": Scenario(Synth((dnorm(1.5, 4, 4), dnorm(0, 4, 4)), skill=dnorm(0, 4, 4)),
                           (0, 0), 3, None, 4000, 200),
        # two vectors exactly on the boundary on either side (the next are 16 pp further),
        # both tested at each look (m = 2): without a correction the rate would double
        "twin": Scenario(_twin_cell(), (0, 0), 3, None, 4000, 200, m=2),
        # the twins pulled apart: (0,1) at 8.0 pp is the most equal, (0,0) at 8.7 pp close
        # behind, so a cell that confirms both often names the wrong one
        "near-twin": Scenario(_twin_cell(0.02), (0, 0), 3, 0.12, 4000, 200, m=2),
        # 3 players whose mean VP differ by thirds: three vectors are the same cell up to a
        # permutation of the seats, so all three sit exactly on the boundary (the next are
        # 8 pp further), and all three are tested at each look: the correction matters
        "thirds": Scenario(Synth(tuple(dnorm(q / 3, 3) for q in range(3)), skill=dnorm(0, 1.5),
                                 deal=dnorm(0, 1)), (0, 0, 0), 1, None, 3000, 150),
        # 4 players whose mean VP differ by quarters: four vectors are the same cell up to
        # a permutation of the seats, so all four sit exactly on the boundary, the next are
        # 5 pp further; one is tested at a time (m = 1), so a choice made on the tested games
        # would pick the luckiest of four (the winner's curse)
        "curse": Scenario(Synth(tuple(dnorm(q / 4, 3) for q in range(4)), skill=dnorm(0, 1.5),
                                deal=dnorm(0, 1)), (0, 0, 0, 0), 1, None, 4000, 200, m=1),
        # 5 players (the Mediterranean's largest cells) whose mean VP differ by fifths: five
        # vectors are the same cell up to a permutation of the seats, so all five sit exactly
        # on the boundary (9.8 pp), the next are 4.8 pp further; one is tested at a time, so a
        # choice made on the tested games would pick the luckiest of five, and a "no fair
        # vector" has ten pairs of seats to err on
        "fifths": Scenario(Synth(tuple(dnorm(q / 5, 2) for q in range(5)), skill=dnorm(0, 1),
                                 deal=dnorm(0, 2 / 3)), (0,) * 5, 1, None, 4000, 200, m=1),
        # study scale, for the measurement only (python -m tests.test_anytime study): 4
        # players, VP spread like a real game, tolerance 0.02; (0,1,2,2) is exactly fair, its
        # neighbours are 2.3 pp apart ("study") or it is 1.2 pp apart and they 2.4 pp
        # ("study-near")
        "study": Scenario(Synth((dnorm(2, 12), dnorm(1, 12), dnorm(0, 12), dnorm(0, 12)),
                                skill=dnorm(0, 8), deal=dnorm(0, 3)),
                          (0, 0, 0, 0), 2, 0.02, 200_000, 12_500),
        "study-near": Scenario(Synth((dnorm(2.5, 12), dnorm(1, 12), dnorm(0, 12), dnorm(0, 12)),
                                     skill=dnorm(0, 8), deal=dnorm(0, 3)),
                               (0, 0, 0, 0), 2, 0.02, 200_000, 12_500),
    }[name]


def at_most(count: int, cells: int, bound: float) -> bool:
    """``count`` of ``cells`` is consistent with a rate <= bound (one-sided binomial, 0.1%)."""
    return bool(sps.binom.sf(count - 1, cells, bound) > 1e-3)
