"""The fair offset per seat: how many starting VP over seat 1 make each seat's win share
equal to seat 1's, as a continuous number with a 95% interval, at any budget.

A whole-VP vector can be confirmed fair only once its gap is shown inside the tolerance,
which takes many games; the fair offset is readable long before: "seat 2 needs +0.4 VP (0.0
to +0.8)". It also explains why several whole-VP vectors can be fair at once (4 players):
they are the whole-VP points near the continuous one.

The estimand. Re-ranking gives every seat's win share ``p_s(v)`` at every whole-VP vector
``v`` (``candidates``). Between whole VP the shares are interpolated linearly (multilinearly
over seats 2..n), which is what a uniformly distributed fractional VP would give. The fair
point is the ``x`` (starting VP of seats 2..n, seat 1 at the rulebook's) where
``p_s(x) = p_1(x)`` for every seat ``s``: all seats equal. Its offsets ``x_s - v_1`` are
reported. At 2 players this is the median of seat 1's final VP margin over seat 2 (ties
shared by the tie-break), interpolated. The point is found by Newton's method on the
interpolated shares, in a box of whole-VP vectors around the most equal one.

The interval. A cluster bootstrap over deal groups (the games of one deal stay together, so
the rotations' pairing and a deal's own advantage are kept): ``resamples`` resamples with
replacement of the deal groups, seeded, each solved for its fair point; the interval is the
2.5-97.5% percentiles per seat (pointwise per seat, not simultaneous). tests/test_offsets.py
checks its coverage on synthetic cells whose fair point is known exactly.

Re-ranking must be exact: for players who read the scores (judged at the rulebook vector
only) there is no fair offset to compute this way.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis.candidates import (
    CellGames,
    FloatArray,
    IntArray,
    _keys,
    _winners,
    block_size,
    candidates,
    rank_by_gap,
    win_table,
)
from cdsim.errors import CdsimError

MAX_GROUP_CELLS = 4_000_000  # (deal group, box vector) cells kept for the bootstrap
NEWTON_STEPS = 40


class FairOffset(NamedTuple):
    """One seat's fair offset: starting VP over seat 1 (may be fractional) and its interval.
    NaN where the fair point lies beyond the box searched (``radius`` too small)."""

    offset: float
    low: float
    high: float


def box(centre: Sequence[int], reach: int) -> IntArray:
    """Whole-VP vectors with seat 1 at ``centre[0]`` and every other seat within ``±reach``
    of ``centre``, in C order of seats 2..n (a grid of ``(2 reach + 1)**(n-1)``)."""
    c = np.asarray(centre, dtype=np.int64)
    steps = list(itertools.product(range(-reach, reach + 1), repeat=len(c) - 1))
    return np.asarray([[c[0], *(c[1:] + np.asarray(s))] for s in steps], dtype=np.int64)


def group_differences(games: CellGames, vectors: IntArray) -> tuple[NDArray[np.int16], FloatArray]:
    """Per deal group and vector: wins of seats 2..n minus wins of seat 1, (groups, V, n-1),
    and the group's games (groups,)."""
    n = games.players
    _, inverse = np.unique(games.group, return_inverse=True)
    inverse = inverse.reshape(-1)
    k = int(inverse.max()) + 1 if inverse.size else 0
    sizes = np.bincount(inverse, minlength=k).astype(np.float64)
    keys = _keys(games.gained, games.tiebreak)
    out = np.zeros((k, len(vectors), n - 1), dtype=np.int16)
    shift = (np.asarray(vectors) * n).astype(np.int32)
    block = block_size(len(vectors), games.games, n)  # vectors re-ranked at once
    for first in range(0, len(vectors), block):
        win = _winners(keys, shift[first:first + block])
        rows = np.arange(win.shape[0], dtype=np.int64)[:, None]
        counts = np.bincount(((rows * k + inverse[None, :]) * n + win).reshape(-1),
                             minlength=win.shape[0] * k * n).reshape(-1, k, n)
        out[:, first:first + win.shape[0], :] = (
            counts[:, :, 1:] - counts[:, :, :1]).transpose(1, 0, 2)
    return out, sizes


def interpolate(values: FloatArray, lo: IntArray, x: FloatArray) -> FloatArray:
    """Multilinear interpolation (linear extrapolation past the edges) of ``values`` (B,
    N_1, ..., N_d, d) on the integer grid starting at ``lo`` (d,), at points ``x`` (B, d)."""
    return _interpolate(values, lo, x, np.arange(x.shape[0]))


def _interpolate(values: FloatArray, lo: IntArray, x: FloatArray, rows: IntArray) -> FloatArray:
    """``interpolate`` with point ``i`` on ``values[rows[i]]``: several points a row in one
    call (row by row the same arithmetic, so the same bits as one call per point set)."""
    b, d = x.shape
    shape = np.asarray(values.shape[1:1 + d])
    rel = x - lo[None, :]
    base = np.clip(np.floor(rel).astype(np.int64), 0, np.maximum(shape - 2, 0))
    frac = rel - base
    out = np.zeros((b, values.shape[-1]))
    for corner in itertools.product((0, 1), repeat=d):
        c = np.asarray(corner)
        index = np.minimum(base + c, shape - 1)
        weight = np.prod(np.where(c == 1, frac, 1 - frac), axis=1)
        out += weight[:, None] * values[(rows, *index.T)]
    return out


def solve(values: FloatArray, lo: IntArray, start: FloatArray) -> FloatArray:
    """Where every interpolated difference is 0, per row of ``values``: Newton's method
    with a finite-difference Jacobian, steps capped at 1 VP; NaN where it does not
    converge (no crossing near the box)."""
    x = start.astype(np.float64).copy()
    b, d = x.shape
    h = 1e-6
    # each step interpolates x and its d nudged copies in one call: (d + 1) B points
    rows = np.tile(np.arange(b), d + 1)
    for _ in range(NEWTON_STEPS):
        at = _interpolate(values, lo, np.concatenate(
            [x, *(x + h * np.eye(d)[s] for s in range(d))]), rows)
        f = at[:b]
        jac = np.stack([(at[(s + 1) * b:(s + 2) * b] - f) / h
                        for s in range(d)], axis=2)  # (B, d equations, d unknowns)
        ok = np.asarray(np.abs(np.linalg.det(jac)) > 1e-12, dtype=np.bool_)
        step = np.zeros_like(x)
        step[ok] = np.linalg.solve(jac[ok], -f[ok][:, :, None])[:, :, 0]
        x += np.clip(step, -1.0, 1.0)
    f = interpolate(values, lo, x)
    done = np.asarray((np.abs(f) < 1e-7).all(axis=1) & np.isfinite(x).all(axis=1), dtype=np.bool_)
    return np.asarray(np.where(done[:, None], x, np.nan), dtype=np.float64)


def exact_point(shares: FloatArray, centre: Sequence[int], reach: int) -> FloatArray:
    """The fair point (starting VP of seats 2..n) of known win shares ``shares`` (V, n) on
    ``box(centre, reach)``: the estimand of ``fair_offsets``, for checking it."""
    n = shares.shape[1]
    values = (shares[:, 1:] - shares[:, :1]).reshape((1,) + (2 * reach + 1,) * (n - 1) + (n - 1,))
    lo = np.asarray(centre[1:], dtype=np.int64) - reach
    return np.asarray(solve(values, lo, np.asarray([centre[1:]], dtype=np.float64))[0], dtype=np.float64)


def _centre(games: CellGames, rulebook: Sequence[int], radius: int) -> tuple[int, ...]:
    vectors = candidates(rulebook, radius)
    table = win_table(games, vectors)
    return tuple(int(x) for x in vectors[int(rank_by_gap(vectors, table.spreads, rulebook)[0])])


def fair_offsets(games: CellGames | Sequence[CellGames], rulebook: Sequence[int],
                 around: Sequence[int] | None = None, radius: int = 6, level: float = 0.95,
                 resamples: int = 400, seed: int = 0) -> list[FairOffset]:
    """Per seat 2..n, the fair offset (starting VP over seat 1 that equalises the seat's win
    share with seat 1's, all seats at once) with its ``level`` interval, as ``FairOffset``
    (offset, low, high) tuples; see the module docstring.

    ``games``: a cell's games (or its stages', concatenated with their deal groups kept
    apart). ``around``: the whole-VP vector to search near (default: the most equal of the
    candidates within ``radius`` of ``rulebook``). ``resamples`` and ``seed``: the cluster
    bootstrap (the same seed gives the same interval)."""
    data = CellGames.concat(*games) if isinstance(games, Sequence) else games
    rule = tuple(int(x) for x in rulebook)
    if data.players != len(rule):
        raise CdsimError(f"the rulebook vector has {len(rule)} seats, the games {data.players}")
    if not 0 < level < 1 or resamples < 1 or data.groups < 2:
        raise CdsimError("fair offsets need 0 < level < 1, resamples >= 1 and two deal groups")
    n = len(rule)
    if n == 2:  # one offset: every candidate is cheap, no need to look for the centre
        centre, reach = rule, radius
    else:
        centre = tuple(around) if around is not None else _centre(data, rule, radius)
        reach = 2 if data.groups * 5 ** (n - 1) <= MAX_GROUP_CELLS else 1
    vectors = box(centre, reach)
    diffs, sizes = group_differences(data, vectors)
    lo = np.asarray(centre[1:], dtype=np.int64) - reach
    grid = (1,) + (2 * reach + 1,) * (n - 1) + (n - 1,)
    point = solve((diffs.sum(axis=0) / sizes.sum()).reshape(grid), lo,
                  np.asarray([centre[1:]], dtype=np.float64))[0]
    boot = _bootstrap(diffs, sizes, grid, lo, point, resamples, seed)
    tail = (1 - level) / 2
    out = []
    for s in range(n - 1):
        b = boot[:, s]
        missing = np.isnan(b).mean()
        low, high = ((np.nan, np.nan) if missing > tail else
                     tuple(float(q) for q in np.nanquantile(b, [tail, 1 - tail])))
        out.append(FairOffset(float(point[s]) - rule[0], low - rule[0], high - rule[0]))
    return out


def _bootstrap(diffs: NDArray[np.int16], sizes: FloatArray, grid: tuple[int, ...],
               lo: IntArray, point: FloatArray, resamples: int, seed: int) -> FloatArray:
    """The fair point of each cluster-bootstrap resample of the deal groups (resamples, d)."""
    k = len(sizes)
    flat = diffs.reshape(k, -1).astype(np.float32)
    rng = np.random.default_rng(seed)
    start = np.where(np.isfinite(point), point, (lo + (np.asarray(grid[1:-1]) - 1) / 2))
    found = []
    for first in range(0, resamples, 50):  # 50 resamples' weights at a time bound the memory
        count = min(50, resamples - first)
        # k draws of the k groups with replacement, as counts (a multinomial, drawn fast)
        weights = np.stack([np.bincount(rng.integers(0, k, size=k), minlength=k)
                            for _ in range(count)]).astype(np.float32)
        # flat.T @ weights.T, not weights @ flat: the same product, some 40 times faster
        # in OpenBLAS for this short, wide shape
        values = (flat.T @ weights.T).T / (weights @ sizes.astype(np.float32))[:, None]
        found.append(values.astype(np.float64).reshape((count, *grid[1:])))
    # every resample solved at once (a resample's point is its own row's: the same bits)
    return solve(np.concatenate(found), lo, np.repeat(start[None, :], resamples, axis=0))
