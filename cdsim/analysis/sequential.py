"""Decided starting-VP verdicts: play a cell in stages until one of three answers is shown.

A *cell* is one player count (2-4) with one population of players. The question is which
starting-VP vector makes the seats fair: a vector ``v`` is **fair** when the largest gap
between two seats' win shares, ``max_ij |p_i(v) - p_j(v)|``, is at most ``tol`` (default
0.02, two percentage points). Only differences between seats matter, so seat 1 keeps the
rulebook's value and the *candidates* are every vector within ``±radius`` of the rulebook
in the other seats (``candidates``; 2,197 for 4 players and radius 6).

Re-ranking (``rerank_winners``, ``win_table``). No player lets the starting VP change a
decision, so a game's winner under any vector ``v`` is the seat with the most
``v[s] + gained[s]``, ties going to the seat with the smaller ``tiebreak`` (R10.6 order:
0 wins every tie, as ``cdsim.batch.read.SeatArrays.tiebreak_order``). One batch of games is
therefore evidence about every candidate at once.

Deal groups. With seat rotation one deal is played ``n`` times, line-up rotated; those games
are correlated, deals are independent. Every variance here is computed from deal groups:
per group, the difference of two seats' win counts, so the rotations of one deal are paired
(a strong player who wins from every seat cancels out) and a deal that favours a seat
counts once, not ``n`` times (``WinTable.pair_stats``, ``pair_intervals``: the
cluster-robust variance of a ratio of sums; a group may hold any number of games).
Intervals use Student's t with ``groups - 1`` degrees of freedom.

The procedure (``Schedule``, ``decide_stage``, ``decide``)
----------------------------------------------------------
Stage ``k`` plays a fresh batch of ``sizes[k]`` games (each stage doubles the one before,
the last takes what is left of the budget) and spends ``alphas[k]`` of the error budget
``alpha``; ``alphas[k]`` is proportional to the stage's size and ``sum(alphas) <= alpha``.
Half of ``alphas[k]`` guards against a wrong *confirmed*, half against a wrong *no fair
vector* (``CONFIRM_SHARE``). Games played before stage ``k`` are its *fitting* games; its own
games are its *confirmation* games. A stage decides, in this order:

1. **confirmed** - Up to ``m`` vectors are chosen on the fitting games only: the candidates
   whose observed largest gap is within ``NEAR_Z`` (2) standard errors of the smallest one
   (standard errors of the difference; "near-tied", see ``near_tied``), smallest observed
   gap first (then fewest VP changed, then lexicographic).
   Stage 0 has no fitting games and tests the rulebook vector alone. Each chosen vector is
   tested on the confirmation games by an equivalence test of every seat pair at once
   (intersection-union TOST: each pair's two-sided ``1 - 2a`` interval of ``p_i - p_j`` lies
   inside ``(-tol, +tol)``), at ``a = alphas[k] * CONFIRM_SHARE / (number tested)``
   (Bonferroni over the tested vectors). The passing vectors are the *set shown fair*; the
   one reported has the fewest VP changed from the rulebook (sum of ``|differences|``), then
   the smallest gap on the confirmation games, then comes first lexicographically.
2. **no fair vector** - Every candidate has some seat pair whose one-sided lower bound on
   ``|p_i - p_j|`` exceeds ``tol``, each pair at ``alphas[k] * (1 - CONFIRM_SHARE) / pairs``
   (Bonferroni over the pairs of one vector), on all games played so far. Reported: the
   candidate with the smallest observed gap (then fewest VP changed, then lexicographic).
3. **undecided** - Neither. After the last stage the cell reports the best vector so far and
   ``games_needed``, an estimate of the fresh games one more confirmation stage would need
   for 80% power, if the best vector's observed pair differences and variances were the
   truth (``games_for_power``; optimistic, since the best vector is picked on these games).

A stage with fewer than ``MIN_GROUPS`` deal groups decides nothing (the normal approximation
behind the intervals needs a few dozen deals).

Error rates (under optional stopping, for any true win shares)
-------------------------------------------------------------
*Wrong confirmation* (the reported vector's true gap exceeds ``tol``) has probability at most
``alpha * CONFIRM_SHARE``. At stage ``k`` the tested vectors are fixed by the fitting games,
which are independent of the confirmation games; a truly unfair vector has some pair with
``|p_i - p_j| > tol``, and that pair's TOST passes with probability at most ``a``
(intersection-union: passing needs every pair to pass), so some tested unfair vector passes
with probability at most ``a * tested = alphas[k] * CONFIRM_SHARE``. Summing over stages
(a union bound, which holds whatever the dependence between stages and whenever the cell
stops) gives ``CONFIRM_SHARE * sum(alphas)``.

*Wrong "no fair vector"* (some candidate is truly fair) has probability at most
``alpha * (1 - CONFIRM_SHARE)`` (up to a term of order ``Phi(-2 tol / se)``, negligible).
No correction over the candidates is needed: the call is wrong only if a truly fair vector
``v*`` exists, and then the call needs ``v*`` in particular to be declared unfair. ``v*`` is
one fixed vector, not chosen from the data; it is declared unfair only if one of its pairs,
with ``|p_i - p_j| <= tol``, shows a lower bound above ``tol``, which happens with
probability at most ``alphas[k] * (1 - CONFIRM_SHARE) / pairs`` per pair. No vector is
chosen for this test, so it may use every game played so far; summing over stages again
gives the bound. "No fair vector" speaks about the candidates only (within ``±radius``).

Together the chance that a cell ends with a wrong verdict is at most ``alpha``
(``sum(alphas) <= alpha``). "Undecided" is never wrong, only unhelpful. The rates measured
on synthetic cells with exact truth are in docs/statistics.md (tests/test_sequential.py).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from cdsim.errors import CdsimError

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
Decision = Literal["confirmed", "no fair vector", "undecided"]
Vector = tuple[int, ...]

CONFIRM_SHARE = 0.5  # of each stage's alpha: against a wrong "confirmed"; the rest: "no fair vector"
NEAR_Z = 2.0  # near-tied: observed largest gap within this many standard errors of the least
MIN_GROUPS = 30  # deal groups a stage needs before it may decide anything
REPORT_LEVEL = 0.95  # the reported gap interval (simultaneous over seat pairs)
POWER = 0.8  # games_needed: the chance a confirmation stage of that size passes
MAX_CELLS = 4_000_000  # (vector, game, seat) cells per re-ranking block: about 40 MB of work arrays


def pairs(players: int) -> tuple[tuple[int, int], ...]:
    """The seat pairs ``(i, j)``, ``i < j``, in the order every per-pair array uses."""
    return tuple(itertools.combinations(range(players), 2))


# ---------------------------------------------------------------------------- the games

@dataclass(frozen=True, eq=False)
class CellGames:
    """One batch of games of a cell, as plain arrays (rows are games, columns seats).

    ``gained``: VP gained per seat (final VP minus starting VP), integers, (games, n).
    ``tiebreak``: each game's R10.6 tie-break rank per seat, a permutation of ``0..n-1``;
    0 wins every tie (the convention of ``cdsim.batch.read.SeatArrays.tiebreak_order``).
    ``group``: the deal each game belongs to (any integer labels, meaningful only within
    this batch); the games of one deal are correlated, deals are independent.
    """

    gained: IntArray
    tiebreak: IntArray
    group: IntArray

    def __post_init__(self) -> None:
        gained, tiebreak, group = (np.asarray(a) for a in (self.gained, self.tiebreak, self.group))
        if gained.ndim != 2 or gained.shape[1] < 2:
            raise ValueError(f"gained must be (games, seats) with 2+ seats, got shape {gained.shape}")
        if tiebreak.shape != gained.shape:
            raise ValueError(f"tiebreak has shape {tiebreak.shape}, gained {gained.shape}")
        if group.shape != gained.shape[:1]:
            raise ValueError(f"group has shape {group.shape}, expected ({gained.shape[0]},)")
        for name, a in (("gained", gained), ("tiebreak", tiebreak), ("group", group)):
            if a.size and not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"{name} must hold integers, got {a.dtype}")
        n = gained.shape[1]
        if gained.size and int(np.abs(gained).max()) >= 1 << 20:
            raise ValueError("gained VP out of range (|VP| must stay below 2**20)")
        if tiebreak.size and not (np.sort(tiebreak, axis=1) == np.arange(n)).all():
            raise ValueError(f"each row of tiebreak must be a permutation of 0..{n - 1}")
        object.__setattr__(self, "gained", gained.astype(np.int64))
        object.__setattr__(self, "tiebreak", tiebreak.astype(np.int64))
        object.__setattr__(self, "group", group.astype(np.int64))

    @property
    def games(self) -> int:
        return int(self.gained.shape[0])

    @property
    def players(self) -> int:
        return int(self.gained.shape[1])

    @property
    def groups(self) -> int:
        return int(np.unique(self.group).size)

    @classmethod
    def empty(cls, players: int) -> CellGames:
        z = np.zeros((0, players), dtype=np.int64)
        return cls(z, z.copy(), np.zeros(0, dtype=np.int64))

    @classmethod
    def concat(cls, *parts: CellGames) -> CellGames:
        """The games of all ``parts``; each part's deal groups stay distinct from the others'
        (labels are renumbered), since separate batches never share a deal."""
        if not parts:
            raise ValueError("concat needs at least one batch")
        n = parts[0].players
        if any(p.players != n for p in parts):
            raise ValueError("cannot concatenate batches of different player counts")
        labels, offset = [], 0
        for p in parts:
            _, inverse = np.unique(p.group, return_inverse=True)
            labels.append(inverse.reshape(-1).astype(np.int64) + offset)
            offset += int(inverse.max()) + 1 if p.games else 0
        return cls(np.concatenate([p.gained for p in parts]),
                   np.concatenate([p.tiebreak for p in parts]), np.concatenate(labels))


def candidates(rulebook: Sequence[int], radius: int) -> IntArray:
    """Every vector within ``±radius`` of ``rulebook`` in seats 2..n, seat 1 kept (only
    differences matter), in lexicographic order: shape ((2 radius + 1)**(n-1), n)."""
    base = np.asarray(rulebook, dtype=np.int64)
    if base.ndim != 1 or base.size < 2:
        raise CdsimError(f"the rulebook vector needs one starting VP per seat, got {list(base)}")
    if radius < 0:
        raise CdsimError(f"radius must be 0 or more, got {radius}")
    steps = range(-radius, radius + 1)
    offsets = np.array(list(itertools.product(steps, repeat=base.size - 1)), dtype=np.int64)
    offsets = offsets.reshape(-1, base.size - 1)
    zeros = np.zeros((len(offsets), 1), dtype=np.int64)
    return np.asarray(base[None, :] + np.hstack([zeros, offsets]), dtype=np.int64)


def _keys(gained: NDArray[np.int64], tiebreak: NDArray[np.int64]) -> NDArray[np.int32]:
    """Per game and seat: total VP * n + tie-break rank reversed, so the largest key wins."""
    n = gained.shape[1]
    return np.asarray(gained * n + (n - 1 - tiebreak), dtype=np.int32)


def rerank_winners(gained: ArrayLike, tiebreak: ArrayLike, vector: ArrayLike) -> IntArray:
    """The winning seat (0-based) of every game had the starting VP been ``vector``: the most
    ``vector[s] + gained[s]``, ties to the smallest ``tiebreak`` (0 wins every tie)."""
    g, t = np.asarray(gained, dtype=np.int64), np.asarray(tiebreak, dtype=np.int64)
    v = np.asarray(vector, dtype=np.int64)
    win = _winners(_keys(g, t), (v.reshape(1, -1) * g.shape[1]).astype(np.int32))
    return np.asarray(win[0], dtype=np.int64)


# ------------------------------------------------------------- win counts and intervals

@dataclass(frozen=True, eq=False)
class WinTable:
    """Sufficient statistics of the seats' wins under each of ``vectors`` in one set of deal
    groups: enough for every share, pair difference and deal-group variance.

    With ``W[k, s]`` the wins of seat ``s`` in group ``k`` and ``m_k`` the group's games:
    ``wins = sum_k W``, ``cross = sum_k W W^T`` (V, n, n), ``wm = sum_k W m_k`` (V, n),
    ``size_sq = sum_k m_k**2``. Tables of disjoint groups add up (``+``).
    """

    vectors: IntArray  # (V, n)
    wins: IntArray  # (V, n)
    cross: FloatArray  # (V, n, n)
    wm: FloatArray  # (V, n)
    games: int
    groups: int
    size_sq: float

    @property
    def players(self) -> int:
        return int(self.vectors.shape[1])

    @property
    def shares(self) -> FloatArray:
        return np.asarray(self.wins / max(self.games, 1), dtype=np.float64)

    @property
    def spreads(self) -> IntArray:
        """Most wins minus fewest wins per vector: the largest gap times ``games``."""
        return np.asarray(self.wins.max(axis=1) - self.wins.min(axis=1), dtype=np.int64)

    @property
    def gaps(self) -> FloatArray:
        """The observed largest gap of each vector (max share - min share)."""
        return np.asarray(self.spreads / max(self.games, 1), dtype=np.float64)

    def __add__(self, other: WinTable) -> WinTable:
        if not np.array_equal(self.vectors, other.vectors):
            raise ValueError("win tables of different vectors cannot be added")
        return WinTable(self.vectors, self.wins + other.wins, self.cross + other.cross,
                        self.wm + other.wm, self.games + other.games,
                        self.groups + other.groups, self.size_sq + other.size_sq)

    def take(self, index: ArrayLike) -> WinTable:
        """The rows of the vectors at ``index`` (an index array or list)."""
        i = np.atleast_1d(np.asarray(index, dtype=np.int64))
        return WinTable(self.vectors[i], self.wins[i], self.cross[i], self.wm[i], self.games,
                        self.groups, self.size_sq)

    def seat_stats(self) -> tuple[FloatArray, FloatArray]:
        """Per vector and seat: the win share and its deal-group standard error, both (V, n)
        (the cluster-robust variance of a ratio of sums, as ``pair_stats``; NaN with fewer
        than two groups)."""
        m, k = float(self.games), self.groups
        share = self.wins / max(m, 1.0)
        if k < 2:
            return np.asarray(share, dtype=np.float64), np.full(share.shape, np.nan)
        diag = np.diagonal(self.cross, axis1=1, axis2=2)
        ss = np.maximum(diag - 2 * share * self.wm + share**2 * self.size_sq, 0.0)
        return (np.asarray(share, dtype=np.float64),
                np.asarray(np.sqrt(k / (k - 1) * ss) / m, dtype=np.float64))

    def seat_intervals(self, level: float = REPORT_LEVEL) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Per vector and seat: (share, low, high), the intervals simultaneous over the seats
        at ``level`` (Bonferroni, Student's t on the deal groups), clipped to [0, 1]."""
        share, se = self.seat_stats()
        q = _quantile((1 - level) / (2 * self.players), self.groups - 1)
        return (share, np.asarray(np.clip(share - q * se, 0, 1), dtype=np.float64),
                np.asarray(np.clip(share + q * se, 0, 1), dtype=np.float64))

    def pair_stats(self) -> tuple[FloatArray, FloatArray]:
        """Per vector and seat pair (``pairs(n)`` order): the share difference ``p_i - p_j``
        and its deal-group standard error, both (V, pairs).

        The variance is the cluster-robust one of a ratio of sums: with ``d_k`` the group's
        win difference and ``D`` the overall one, ``K/(K-1) sum_k (d_k - D m_k)**2 / M**2``
        (K groups, M games): with equal groups, the variance of the mean of per-group win
        fractions. NaN with fewer than two groups."""
        n = self.players
        i, j = (np.array(x, dtype=np.int64) for x in zip(*pairs(n), strict=True))
        m, k = float(self.games), self.groups
        diff = (self.wins[:, i] - self.wins[:, j]) / max(m, 1.0)
        c = self.cross
        dd = c[:, i, i] + c[:, j, j] - 2 * c[:, i, j]
        dm = self.wm[:, i] - self.wm[:, j]
        if k < 2:
            return np.asarray(diff, dtype=np.float64), np.full(diff.shape, np.nan)
        ss = np.maximum(dd - 2 * diff * dm + diff**2 * self.size_sq, 0.0)
        se = np.sqrt(k / (k - 1) * ss) / m
        return np.asarray(diff, dtype=np.float64), np.asarray(se, dtype=np.float64)


def _group_index(group: NDArray[np.int64]) -> tuple[IntArray, int, FloatArray]:
    labels, inverse = np.unique(group, return_inverse=True)
    sizes = np.bincount(inverse.reshape(-1), minlength=labels.size).astype(np.float64)
    return inverse.reshape(-1).astype(np.int64), int(labels.size), sizes


def _table_part(win: NDArray[np.integer], inverse: IntArray, k: int, sizes: FloatArray,
                n: int) -> tuple[IntArray, FloatArray, FloatArray]:
    """wins, cross and wm of winner rows ``win`` (Vb, G)."""
    vb = win.shape[0]
    cell = (np.arange(vb, dtype=np.int64)[:, None] * k + inverse[None, :]) * n + win
    w = np.bincount(cell.reshape(-1), minlength=vb * k * n).reshape(vb, k, n)
    wt = w.astype(np.float64).transpose(0, 2, 1)  # (Vb, n, K)
    return (np.asarray(w.sum(axis=1), dtype=np.int64),
            np.asarray(np.matmul(wt, wt.transpose(0, 2, 1)), dtype=np.float64),
            np.asarray(np.matmul(wt, sizes), dtype=np.float64))


def _winners(keys: NDArray[np.int32], shift: NDArray[np.int32]) -> IntArray:
    """argmax over seats of ``keys + shift`` for every row of ``shift``: (V, G). A running
    maximum seat by seat (faster than argmax over a short last axis; the first maximum wins,
    and keys never tie within a game)."""
    best = keys[None, :, 0] + shift[:, None, 0]
    win = np.zeros(best.shape, dtype=np.int64)
    for s in range(1, keys.shape[1]):
        key = keys[None, :, s] + shift[:, None, s]
        win[key > best] = s
        np.maximum(best, key, out=best)
    return win


def _assemble(vectors: IntArray, parts: list[tuple[IntArray, FloatArray, FloatArray]],
              games: int, k: int, sizes: FloatArray) -> WinTable:
    n = vectors.shape[1]
    if parts:
        wins = np.concatenate([p[0] for p in parts])
        cross = np.concatenate([p[1] for p in parts])
        wm = np.concatenate([p[2] for p in parts])
    else:
        wins, cross, wm = (np.zeros((0, n), np.int64), np.zeros((0, n, n)), np.zeros((0, n)))
    return WinTable(vectors, wins, cross, wm, games, k, float(np.sum(sizes**2)))


def block_size(vectors: int, games: int, players: int, max_cells: int = MAX_CELLS) -> int:
    """How many vectors ``win_table`` re-ranks at once: at most ``max_cells`` keys per block
    (and never fewer than one vector), so memory stays bounded for any grid and sample."""
    return max(1, min(vectors, max_cells // max(1, games * players)))


def win_table(games: CellGames, vectors: ArrayLike, max_cells: int = MAX_CELLS) -> WinTable:
    """The seats' wins under every row of ``vectors`` (V, n), by deal group, vectorised in
    blocks of ``block_size`` vectors (4 players x 2,197 vectors x 100,000 games runs in
    blocks of 10 vectors, about 40 MB at a time)."""
    v = np.asarray(vectors, dtype=np.int64).reshape(-1, games.players)
    n, g = games.players, games.games
    inverse, k, sizes = _group_index(games.group)
    keys = _keys(games.gained, games.tiebreak)
    shift = (v * n).astype(np.int32)
    block = block_size(len(v), g, n, max_cells)
    parts = []
    for start in range(0, len(v), block):
        parts.append(_table_part(_winners(keys, shift[start:start + block]), inverse, k, sizes, n))
    return _assemble(v, parts, g, k, sizes)


def win_share_matrix(gained: ArrayLike, tiebreak: ArrayLike, vectors: ArrayLike,
                     max_cells: int = MAX_CELLS) -> FloatArray:
    """Each seat's win share under each of ``vectors``: shape (V, n). Plain arrays in,
    blocked like ``win_table``."""
    g = np.asarray(gained, dtype=np.int64)
    games = CellGames(g, np.asarray(tiebreak), np.arange(len(g), dtype=np.int64))
    return win_table(games, vectors, max_cells).shares


def _quantile(a: float | FloatArray, df: int) -> FloatArray:
    """Student's t upper quantile ``t_{1-a}`` with ``df`` degrees of freedom."""
    if df < 1:
        return np.full(np.shape(a), np.inf)
    return np.asarray(special.stdtrit(df, 1 - np.asarray(a, dtype=np.float64)), dtype=np.float64)


def pair_intervals(winners: ArrayLike, group: ArrayLike, players: int, level: float = 0.95
                   ) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each seat pair's win-share difference ``p_i - p_j`` with a two-sided ``level``
    interval whose variance comes from deal groups (``WinTable.pair_stats``).

    ``winners``: the winning seat of each game, (games,) or (V, games) for V vectors;
    ``group``: the deal of each game. Returns (diff, low, high), each (pairs,) or (V, pairs)
    in ``pairs(players)`` order. Each interval is pointwise (not simultaneous over pairs):
    for ``k`` pairs at once use ``level = 1 - (1 - L) / k``."""
    if not 0 < level < 1:
        raise CdsimError(f"level must be between 0 and 1, got {level}")
    w = np.asarray(winners, dtype=np.int64)
    rows = w.reshape(-1, w.shape[-1]) if w.size else w.reshape(-1, 0)
    if rows.size and (rows.min() < 0 or rows.max() >= players):
        raise ValueError(f"winners must be seats 0..{players - 1}")
    inverse, k, sizes = _group_index(np.asarray(group, dtype=np.int64))
    if inverse.size != rows.shape[1]:
        raise ValueError("winners and group differ in length")
    vectors = np.zeros((rows.shape[0], players), dtype=np.int64)  # unused labels
    table = _assemble(vectors, [_table_part(rows, inverse, k, sizes, players)], rows.shape[1],
                      k, sizes)
    diff, se = table.pair_stats()
    half = _quantile((1 - level) / 2, k - 1) * se
    if w.ndim == 1:
        diff, half = diff[0], half[0]
    return diff, diff - half, diff + half


# ----------------------------------------------------------------------------- the tests

def tost(diff: FloatArray, se: FloatArray, df: int, tol: float, alpha: float) -> NDArray[np.bool_]:
    """Per vector (rows): every pair's two-sided ``1 - 2 alpha`` interval lies inside
    ``(-tol, +tol)`` (intersection-union equivalence test at level ``alpha``)."""
    q = _quantile(alpha, df)
    inside = (diff - q * se > -tol) & (diff + q * se < tol)
    return np.asarray(inside.all(axis=-1), dtype=np.bool_)


def shown_unfair(diff: FloatArray, se: FloatArray, df: int, tol: float, alpha: float
                 ) -> NDArray[np.bool_]:
    """Per vector (rows): some pair's one-sided lower bound on ``|p_i - p_j|`` exceeds
    ``tol``, each pair at ``alpha / pairs`` (Bonferroni over the pairs)."""
    q = _quantile(alpha / diff.shape[-1], df)
    return np.asarray((np.abs(diff) - q * se > tol).any(axis=-1), dtype=np.bool_)


def gap_interval(diff: FloatArray, se: FloatArray, df: int, level: float = REPORT_LEVEL
                 ) -> tuple[FloatArray, FloatArray]:
    """Per vector: an interval for the largest gap ``max_ij |p_i - p_j|``, simultaneous over
    the pairs at ``level`` (Bonferroni): [max of the pairs' lower bounds on ``|diff|``, max of
    their upper bounds]."""
    q = _quantile((1 - level) / (2 * diff.shape[-1]), df)
    low = np.maximum(np.abs(diff) - q * se, 0.0).max(axis=-1)
    high = (np.abs(diff) + q * se).max(axis=-1)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def games_for_power(diff: ArrayLike, per_game_var: ArrayLike, tol: float, alpha: float,
                    power: float = POWER, multiple: int = 1) -> int | None:
    """Games a confirmation stage needs so that one vector with pair differences ``diff``
    and per-game variances ``per_game_var`` (variance of the difference times games) passes
    the TOST at ``alpha`` with probability at least about ``power``; ``None`` if some
    ``|diff| >= tol`` (then no number of games confirms it).

    Normal approximation: a pair fails when its estimate lands within ``z se`` of either
    bound; the chances of failing, summed over the pairs (a union bound, so conservative),
    must stay within ``1 - power``. Rounded up to a multiple of ``multiple`` (whole deals)
    and to at least ``MIN_GROUPS`` deals."""
    d = np.abs(np.asarray(diff, dtype=np.float64)).reshape(-1)
    sd = np.sqrt(np.asarray(per_game_var, dtype=np.float64).reshape(-1))
    if d.size == 0 or not np.isfinite(sd).all() or (d >= tol).any():
        return None
    z = float(special.ndtri(1 - alpha))

    def fails(games: int) -> float:
        with np.errstate(divide="ignore"):
            root = math.sqrt(games) / sd
        return float(np.sum(special.ndtr(z - (tol - d) * root) + special.ndtr(z - (tol + d) * root)))

    low, high = MIN_GROUPS, MIN_GROUPS  # in deals of ``multiple`` games
    while fails(high * multiple) > 1 - power:
        low, high = high, high * 2
    while low < high:
        mid = (low + high) // 2
        if fails(mid * multiple) > 1 - power:
            low = mid + 1
        else:
            high = mid
    return int(high * multiple)


# -------------------------------------------------------------------------- the choices

def _changed(vectors: IntArray, rulebook: Sequence[int]) -> IntArray:
    return np.asarray(np.abs(vectors - np.asarray(rulebook, dtype=np.int64)[None, :]).sum(axis=1),
                      dtype=np.int64)


def _lex_keys(vectors: IntArray) -> tuple[IntArray, ...]:
    return tuple(vectors[:, c] for c in range(vectors.shape[1] - 1, -1, -1))


def choose_vector(vectors: ArrayLike, spreads: ArrayLike, rulebook: Sequence[int]) -> int:
    """The index of the vector to report among those shown fair: the fewest VP changed from
    the rulebook (sum of ``|differences|``), then the smallest observed gap (``spreads``:
    wins of the top seat minus the bottom seat, same games for all), then lexicographic."""
    v = np.asarray(vectors, dtype=np.int64).reshape(-1, len(rulebook))
    order = np.lexsort((*_lex_keys(v), np.asarray(spreads), _changed(v, rulebook)))
    return int(order[0])


def rank_by_gap(vectors: ArrayLike, spreads: ArrayLike, rulebook: Sequence[int]) -> IntArray:
    """Indices of ``vectors`` from the most equal: the smallest observed gap, then the fewest
    VP changed, then lexicographic (the best vector is the first)."""
    v = np.asarray(vectors, dtype=np.int64).reshape(-1, len(rulebook))
    return np.asarray(np.lexsort((*_lex_keys(v), _changed(v, rulebook), np.asarray(spreads))),
                      dtype=np.int64)


def near_tied(fit: WinTable, rulebook: Sequence[int], m: int) -> IntArray:
    """Up to ``m`` indices of vectors to confirm, chosen on the fitting games only: the
    candidates whose observed largest gap could be the smallest one, in ``rank_by_gap``
    order (the most equal first).

    "Near-tied": a vector's observed largest gap exceeds the smallest by at most ``NEAR_Z``
    standard errors of the difference, bounded by the sum of the two gaps' standard errors
    (each that of the vector's widest observed pair; the bound holds however the two are
    correlated)."""
    order = rank_by_gap(fit.vectors, fit.spreads, rulebook)
    best = int(order[0])
    diff, se = fit.pair_stats()
    widest = se[np.arange(len(se)), np.argmax(np.abs(diff), axis=1)]
    widest = np.where(np.isfinite(widest), widest, np.inf)
    gaps = fit.gaps
    near = gaps <= gaps[best] + NEAR_Z * (widest[best] + widest)
    keep = [int(i) for i in order if near[i]]
    return np.asarray(keep[:m], dtype=np.int64)


# --------------------------------------------------------------------------- the stages

@dataclass(frozen=True)
class StageDecision:
    """What one stage showed.

    ``vector``: confirmed -> the reported fair vector; otherwise the most equal candidate on
    all games so far. ``largest_gap`` and ``gap_interval`` (95%, simultaneous over pairs):
    confirmed -> on this stage's confirmation games only; otherwise on all games so far
    (the vector was picked on them, so the gap is optimistic). ``fair_set``: the vectors the
    confirmation games showed fair (confirmed only). ``tested``: the vectors this stage's
    confirmation tested. ``games_needed``: undecided only, see ``games_for_power``."""

    stage: int
    decision: Decision
    vector: Vector
    fair_set: tuple[Vector, ...]
    tested: tuple[Vector, ...]
    largest_gap: float
    gap_interval: tuple[float, float]
    games_fit: int
    games_confirm: int
    alpha_k: float
    games_needed: int | None


def _vec(row: NDArray[np.int64]) -> Vector:
    return tuple(int(x) for x in row)


def _check(tol: float, alpha_k: float, m: int) -> None:
    if not 0 < tol < 1:
        raise CdsimError(f"tolerance must be a share between 0 and 1 (e.g. 0.02), got {tol}")
    if not 0 < alpha_k < 1:
        raise CdsimError(f"alpha must be between 0 and 1, got {alpha_k}")
    if m < 1:
        raise CdsimError(f"m (vectors tested per stage) must be 1 or more, got {m}")


def decide_tables(stage: int, fit: WinTable | None, fresh: WinTable, rulebook: Sequence[int],
                  tol: float, alpha_k: float, m: int) -> StageDecision:
    """``decide_stage`` on win tables of the candidates (fit: all earlier stages' games, or
    None at the first stage; fresh: this stage's games). Both tables must hold the same
    vectors, which must include the rulebook vector."""
    _check(tol, alpha_k, m)
    rule = tuple(int(x) for x in rulebook)
    vectors = fresh.vectors
    home = np.flatnonzero((vectors == np.asarray(rule)).all(axis=1))
    if home.size != 1:
        raise ValueError("the candidate vectors must include the rulebook vector once")
    total = fresh if fit is None else fit + fresh
    games_fit = 0 if fit is None else fit.games
    decidable = fresh.groups >= MIN_GROUPS

    tested = near_tied(fit, rule, m) if fit is not None and fit.groups >= 2 else home
    diff, se = fresh.take(tested).pair_stats()
    a = alpha_k * CONFIRM_SHARE / len(tested)
    passed = tost(diff, se, fresh.groups - 1, tol, a) if decidable else np.zeros(len(tested), bool)
    tested_vecs = tuple(_vec(vectors[i]) for i in tested)
    if passed.any():
        ok = tested[passed]
        pick = int(ok[choose_vector(vectors[ok], fresh.spreads[ok], rule)])
        d, s = fresh.take(pick).pair_stats()
        low, high = gap_interval(d, s, fresh.groups - 1)
        return StageDecision(stage, "confirmed", _vec(vectors[pick]),
                             tuple(_vec(vectors[i]) for i in ok), tested_vecs,
                             float(fresh.gaps[pick]), (float(low[0]), float(high[0])),
                             games_fit, fresh.games, alpha_k, None)

    best = int(rank_by_gap(vectors, total.spreads, rule)[0])
    diff, se = total.pair_stats()
    low, high = gap_interval(diff[best:best + 1], se[best:best + 1], total.groups - 1)
    gap = (float(total.gaps[best]), (float(low[0]), float(high[0])))
    unfair = shown_unfair(diff, se, total.groups - 1, tol, alpha_k * (1 - CONFIRM_SHARE))
    if decidable and unfair.all():
        return StageDecision(stage, "no fair vector", _vec(vectors[best]), (), tested_vecs, *gap,
                             games_fit, fresh.games, alpha_k, None)
    per_game = se[best] ** 2 * total.games
    size = max(1, round(total.games / max(total.groups, 1)))
    needed = games_for_power(diff[best], per_game, tol, alpha_k * CONFIRM_SHARE / m,
                             multiple=size)
    return StageDecision(stage, "undecided", _vec(vectors[best]), (), tested_vecs, *gap,
                         games_fit, fresh.games, alpha_k, needed)


def decide_stage(fit: CellGames, fresh: CellGames, rulebook: Sequence[int], tol: float = 0.02,
                 alpha_k: float = 0.05, radius: int = 6, m: int = 3, stage: int = 0
                 ) -> StageDecision:
    """One stage: choose up to ``m`` vectors on ``fit`` (the games of earlier stages; empty
    at the first stage: then the rulebook vector is tested), confirm them on ``fresh`` (this
    stage's games), else look for "no fair vector" on all games; see the module docstring.
    ``alpha_k``: this stage's share of the error budget."""
    rule = tuple(int(x) for x in rulebook)
    if fit.players != len(rule) or fresh.players != len(rule):
        raise CdsimError(f"the rulebook vector has {len(rule)} seats, the games "
                         f"{fit.players} and {fresh.players}")
    vectors = candidates(rule, radius)
    fit_table = win_table(fit, vectors) if fit.games else None
    return decide_tables(stage, fit_table, win_table(fresh, vectors), rule, tol, alpha_k, m)


# ------------------------------------------------------------------- schedule and driver

@dataclass(frozen=True)
class Schedule:
    """Stage sizes (games) and each stage's share ``alphas[k]`` of the error budget
    ``alpha``; ``sum(alphas) <= alpha``."""

    sizes: tuple[int, ...]
    alphas: tuple[float, ...]
    alpha: float

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 1:
            raise CdsimError(f"alpha must be between 0 and 1, got {self.alpha}")
        if not self.sizes or len(self.sizes) != len(self.alphas):
            raise CdsimError("a schedule needs one alpha per stage and at least one stage")
        if min(self.sizes) < 1 or min(self.alphas) <= 0:
            raise CdsimError("every stage needs games and a positive alpha")
        if math.fsum(self.alphas) > self.alpha:
            raise CdsimError(f"the stages spend {math.fsum(self.alphas)}, more than alpha = "
                             f"{self.alpha}")

    @property
    def budget(self) -> int:
        return sum(self.sizes)

    @classmethod
    def doubling(cls, budget: int, first: int, alpha: float = 0.05, multiple: int = 1
                 ) -> Schedule:
        """Stages of ``first``, ``2 first``, ``4 first``, ... games; the last stage takes what
        is left of ``budget`` (so it is 2 to 6 times the one before). Sizes are multiples of
        ``multiple`` (the players, when seats rotate: whole deals). Alpha is spent in
        proportion to the games: ``alphas[k] = alpha * sizes[k] / sum(sizes)`` (times
        ``1 - 1e-12``, so rounding never spends more than ``alpha``)."""
        if multiple < 1:
            raise CdsimError(f"multiple must be 1 or more, got {multiple}")
        size = -(-first // multiple) * multiple
        left = budget // multiple * multiple
        if size < 1 or size > left:
            raise CdsimError(f"the first stage ({first} games) must be between 1 and the "
                             f"budget ({budget} games)")
        sizes = []
        while left > 0:
            if left < 3 * size:
                sizes.append(left)
                break
            sizes.append(size)
            left -= size
            size *= 2
        total = sum(sizes)
        alphas = tuple(alpha * s / total * (1 - 1e-12) for s in sizes)
        return cls(tuple(sizes), alphas, alpha)


@dataclass(frozen=True)
class CellDecision:
    """A cell's verdict: the last stage's decision (see ``StageDecision``), with every
    stage's record and the games played in all."""

    decision: Decision
    vector: Vector
    fair_set: tuple[Vector, ...]
    largest_gap: float
    gap_interval: tuple[float, float]
    games: int
    games_needed: int | None
    stages: tuple[StageDecision, ...]
    tol: float
    alpha: float
    pending: bool = False  # undecided with stages of the schedule left to play

    def explain(self) -> str:
        """One paragraph for a designer (win shares and their gaps in percentage points)."""
        vec = "/".join(str(x) for x in self.vector)
        low, high = self.gap_interval
        gap = (f"largest seat gap {pp(self.largest_gap)} (95% interval {pp(low, False)} to "
               f"{pp(high)})")
        if self.decision == "confirmed":
            return (f"Fair within ±{pp(self.tol)}: starting VP {vec}, shown on "
                    f"{self.stages[-1].games_confirm:,} fresh games ({gap}). The procedure "
                    f"confirms an unfair vector in at most {self.alpha * CONFIRM_SHARE:.1%} of "
                    f"cells.")
        if self.decision == "no fair vector":
            return (f"No whole-VP starting vector near the rulebook's is fair within "
                    f"±{pp(self.tol)}; the most equal is {vec} ({gap}). The procedure says "
                    f"this of a cell that has a fair vector in at most "
                    f"{self.alpha * (1 - CONFIRM_SHARE):.1%} of cells.")
        more = ("no number of games would confirm it at the observed gap"
                if self.games_needed is None else
                f"confirming it would take about {self.games_needed:,} more games (an estimate)")
        after = "so far, with stages left to play" if self.pending else "(budget spent)"
        return (f"Undecided after {self.games:,} games {after}: the most equal vector so far "
                f"is {vec} ({gap}); {more}.")


def pp(share: float, unit: bool = True) -> str:
    """A win share or a gap between two, in percentage points: ``pp(0.0123) == "1.2 pp"``."""
    return f"{100 * share:.1f}" + (" pp" if unit else "")


def decide_played(tables: Sequence[WinTable], schedule: Schedule, rulebook: Sequence[int],
                  tol: float = 0.02, m: int = 3) -> CellDecision:
    """The verdict of a cell whose first stages are played: ``tables[k]`` is stage ``k``'s
    win table (``win_table`` of its games over the candidates, the same vectors in every
    table). The stages are decided in order as ``decide`` does; stages after the deciding
    one are ignored. Undecided with stages of the schedule left: ``pending`` (play stage
    ``len(tables)`` next, ``schedule.sizes[len(tables)]`` games). What ``decide`` returns
    for the same games; for a driver that plays stages outside this module (a study, which
    re-derives its state from the finished games after a kill)."""
    rule = tuple(int(x) for x in rulebook)
    _check(tol, schedule.alpha, m)
    if not tables:
        raise CdsimError("decide_played needs the win table of at least one stage")
    if len(tables) > len(schedule.sizes):
        raise CdsimError(f"{len(tables)} stages played, the schedule has {len(schedule.sizes)}")
    total: WinTable | None = None
    made: list[StageDecision] = []
    for k, table in enumerate(tables):
        made.append(decide_tables(k, total, table, rule, tol, schedule.alphas[k], m))
        total = table if total is None else total + table
        if made[-1].decision != "undecided":
            break
    last = made[-1]
    assert total is not None
    pending = last.decision == "undecided" and len(made) < len(schedule.sizes)
    return CellDecision(last.decision, last.vector, last.fair_set, last.largest_gap,
                        last.gap_interval, total.games, last.games_needed, tuple(made), tol,
                        schedule.alpha, pending)


def equivalence_games(players: int, gap: float, tol: float = 0.02, alpha: float = 0.05,
                      power: float = POWER, deff: float = 1.0, multiple: int = 1) -> int | None:
    """Games one fresh run needs so that a vector whose seats truly lie ``gap`` apart (one
    seat ``gap / 2`` above the fair ``1 / players``, one below, the rest fair) is shown fair
    within ``±tol`` by the all-pairs TOST at ``alpha`` with chance about ``power``
    (``games_for_power`` with multinomial variances times the design effect ``deff``);
    ``None`` when ``gap >= tol`` (no number of games shows it)."""
    if players not in (2, 3, 4):
        raise CdsimError(f"players must be 2, 3 or 4, got {players}")
    if not 0 <= gap < 2 / players:
        raise CdsimError(f"the expected gap must be between 0 and {2 / players:.3f}, got {gap}")
    if not 0 < tol < 1 or not 0 < alpha < 1 or not 0 < power < 1 or deff < 1:
        raise CdsimError("tolerance, alpha and power must lie between 0 and 1, the design "
                         "effect at least 1")
    p = np.full(players, 1 / players)
    p[0] += gap / 2
    p[-1] -= gap / 2
    i, j = (np.array(x, dtype=np.int64) for x in zip(*pairs(players), strict=True))
    diff = p[i] - p[j]
    var = (p[i] + p[j] - diff**2) * deff
    return games_for_power(diff, var, tol, alpha, power, multiple)


def decide(play: Callable[[int, int], CellGames], schedule: Schedule, rulebook: Sequence[int],
           tol: float = 0.02, radius: int = 6, m: int = 3) -> CellDecision:
    """Run a cell stage by stage until it is decided or the budget is spent.

    ``play(stage, games)`` returns about ``games`` freshly played games (whole deals, none
    shared with earlier stages) of the cell; the driver keeps only their win tables."""
    rule = tuple(int(x) for x in rulebook)
    vectors = candidates(rule, radius)
    _check(tol, schedule.alpha, m)
    total: WinTable | None = None
    made: list[StageDecision] = []
    for k, (size, alpha_k) in enumerate(zip(schedule.sizes, schedule.alphas, strict=True)):
        fresh = play(k, size)
        if fresh.players != len(rule) or fresh.games == 0:
            raise CdsimError(f"stage {k}: expected {len(rule)}-player games, got "
                             f"{fresh.games} games of {fresh.players} players")
        table = win_table(fresh, vectors)
        made.append(decide_tables(k, total, table, rule, tol, alpha_k, m))
        total = table if total is None else total + table
        if made[-1].decision != "undecided":
            break
    last = made[-1]
    assert total is not None
    return CellDecision(last.decision, last.vector, last.fair_set, last.largest_gap,
                        last.gap_interval, total.games, last.games_needed, tuple(made), tol,
                        schedule.alpha)
