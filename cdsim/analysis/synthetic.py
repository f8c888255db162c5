"""Synthetic cells whose true win shares are known exactly: the ground truth against which
the balance engine's error rates and intervals are measured (tests/test_candidates.py,
tests/test_anytime.py, tests/test_offsets.py; their scenarios are in tests/scenarios.py).

Each seat's VP gain is the sum of a per-game draw (seat-dependent), a per-deal player skill
(the player moves seat with the rotation) and a per-deal seat effect (the same in all
rotations of a deal), all discrete; tie-break orders are uniform random. A game's seats are
then independent, so every vector's true win shares follow exactly from the seats'
distributions (``Synth.true_shares``), while the deal groups carry both kinds of correlation
a real study has.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis.candidates import CellGames

Pmf = tuple[int, NDArray[np.float64]]  # (smallest value, probabilities of consecutive integers)


def dnorm(mean: float, sd: float, step: int = 1) -> Pmf:
    """A normal distribution discretised on the multiples of ``step`` (tails beyond 8 sd cut).
    Wide ones are practically shift-invariant: one whose mean moves by a third of a VP has
    the same win chances, to about 1e-14, as if the whole distribution moved."""
    k = np.arange(math.floor((mean - 8 * sd) / step), math.ceil((mean + 8 * sd) / step) + 1)
    w = np.exp(-((k * step - mean) ** 2) / (2 * sd * sd))
    probs = np.zeros((len(k) - 1) * step + 1)
    probs[::step] = w / w.sum()
    return int(k[0] * step), probs


NONE: Pmf = (0, np.ones(1))


def conv(a: Pmf, b: Pmf) -> Pmf:
    return a[0] + b[0], np.convolve(a[1], b[1])


def draw(rng: np.random.Generator, pmf: Pmf, size: tuple[int, ...]) -> NDArray[np.int64]:
    c = np.cumsum(pmf[1])
    c[-1] = 1.0
    return np.asarray(pmf[0] + np.searchsorted(c, rng.random(size), side="right"), dtype=np.int64)


@dataclass(frozen=True)
class Synth:
    seats: tuple[Pmf, ...]  # per game and seat
    skill: Pmf = NONE  # per deal and player; the player rotates through the seats
    deal: Pmf = NONE  # per deal and seat; the same in every rotation of the deal

    @property
    def players(self) -> int:
        return len(self.seats)

    def true_shares(self, vectors: Sequence[Sequence[int]] | NDArray[np.int64]) -> NDArray[np.float64]:
        """Exact win shares (V, n): P(seat s wins) = sum over totals t and over the set S of
        other seats tied at t of P(T_s = t) prod_{S} P(T_j = t) prod_{rest} P(T_j < t) / (|S|+1)
        (a uniform random tie-break order gives each tied seat the same chance)."""
        v = np.asarray(vectors, dtype=np.int64).reshape(-1, self.players)
        marg = [conv(conv(s, self.skill), self.deal) for s in self.seats]
        n, nv = self.players, len(v)
        lo = min(o for o, _ in marg) + int(v.min())
        width = max(o + len(p) for o, p in marg) + int(v.max()) - lo
        f = np.zeros((nv, n, width))
        for s, (o, p) in enumerate(marg):
            idx = (o - lo + v[:, s])[:, None] + np.arange(len(p))[None, :]
            f[np.arange(nv)[:, None], s, idx] = p[None, :]
        below = np.cumsum(f, axis=2) - f
        shares = np.zeros((nv, n))
        for s in range(n):
            others = [j for j in range(n) if j != s]
            acc = np.zeros((nv, width))
            for r in range(n):
                for tied in itertools.combinations(others, r):
                    term = np.full((nv, width), 1.0 / (r + 1))
                    for j in others:
                        term = term * (f[:, j] if j in tied else below[:, j])
                    acc += term
            shares[:, s] = (f[:, s] * acc).sum(axis=1)
        return shares

    def true_gaps(self, vectors: Sequence[Sequence[int]] | NDArray[np.int64]) -> NDArray[np.float64]:
        sh = self.true_shares(vectors)
        return np.asarray(sh.max(axis=1) - sh.min(axis=1), dtype=np.float64)

    def play(self, rng: np.random.Generator, games: int) -> CellGames:
        """About ``games`` games (whole deals of n rotations)."""
        n = self.players
        deals = -(-games // n)
        skill = draw(rng, self.skill, (deals, n))
        deal = draw(rng, self.deal, (deals, n))
        seat_of = (np.arange(n)[None, :] + np.arange(n)[:, None]) % n  # [rotation, seat] -> player
        noise = np.stack([draw(rng, p, (deals, n)) for p in self.seats], axis=-1)
        gained = deal[:, None, :] + skill[:, seat_of] + noise
        tiebreak = np.argsort(rng.random((deals, n, n)), axis=-1)
        return CellGames(gained.reshape(-1, n), tiebreak.reshape(-1, n),
                         np.repeat(np.arange(deals), n))
