"""The candidates and the games: every starting-VP vector a cell judges, and each logged
game's winner under any of them (re-ranking), counted by deal group.

A *cell* is one player count (one the game takes) with one population of players. The question is which
starting-VP vector makes the seats fair: a vector ``v`` is **fair** when the largest gap
between two seats' win shares, ``max_ij |p_i(v) - p_j(v)|``, is at most ``tolerance``
(default 0.02, two percentage points). Only differences between seats matter, so seat 1
keeps the rulebook's value and the *candidates* are every vector within ``±radius`` of the
rulebook in the other seats (``candidates``; 2,197 for 4 players and radius 6).

Re-ranking (``rerank_winners``, ``win_table``). No player lets the starting VP change a
decision, so a game's winner under any vector ``v`` is the seat with the most
``v[s] + gained[s]``, ties going to the seat with the smaller ``tiebreak`` (the game's tie-break order:
0 wins every tie, as ``cdsim.batch.read.SeatArrays.tiebreak_order``). One batch of games is
therefore evidence about every candidate at once.

Deal groups. With seat rotation one deal is played ``n`` times, line-up rotated; those games
are correlated, deals are independent. Every variance here is computed from deal groups:
per group, the difference of two seats' win counts, so the rotations of one deal are paired
(a strong player who wins from every seat cancels out) and a deal that favours a seat
counts once, not ``n`` times (``WinTable.pair_stats``, ``pair_intervals``: the
cluster-robust variance of a ratio of sums; a group may hold any number of games).

The fixed-level intervals (``WinTable.seat_intervals``, ``pair_intervals``, ``gap_interval``)
use Student's t with ``groups - 1`` degrees of freedom: they describe one set of games, not a
cell watched look after look (the anytime verdict's own intervals are in
``cdsim.analysis.anytime``). The choice rule (``rank_by_gap``) orders vectors by their
observed gap, then by how far they move from the rulebook; the anytime verdict
(``cdsim.analysis.anytime``) uses it to choose and to name.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import special

from cdsim.analysis.stats import wilson
from cdsim.errors import CdsimError

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
Vector = tuple[int, ...]

MAX_CELLS = 4_000_000  # (vector, game, seat) cells per re-ranking block: about 40 MB of work arrays
REPORT_LEVEL = 0.95  # reported intervals (simultaneous over the seats or the seat pairs)

def pairs(players: int) -> tuple[tuple[int, int], ...]:
    """The seat pairs ``(i, j)``, ``i < j``, in the order every per-pair array uses."""
    return tuple(itertools.combinations(range(players), 2))


# ---------------------------------------------------------------------------- the games

@dataclass(frozen=True, eq=False)
class CellGames:
    """One batch of games of a cell, as plain arrays (rows are games, columns seats).

    ``gained``: VP gained per seat (final VP minus starting VP), integers, (games, n).
    ``tiebreak``: each game's tie-break rank per seat, a permutation of ``0..n-1``;
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
        at ``level`` (Bonferroni, Student's t on the deal groups). Where that interval would
        reach past 0 or 1, or has no width (a share of 0 or 1), the normal approximation
        fails there: the Wilson score interval at the same quantile on the effective games
        (``share (1 - share) / se**2``: the games over their design effect, deals as
        clusters; the deal groups when the share is 0 or 1) replaces it, so every interval
        lies inside [0, 1] and holds its share (issue 62)."""
        share, se = self.seat_stats()
        q = _quantile((1 - level) / (2 * self.players), self.groups - 1)
        low, high = share - q * se, share + q * se
        cut = (low < 0) | (high > 1) | ~(se > 0)
        if np.isfinite(q) and cut.any():
            inner = (share > 0) & (share < 1) & (se > 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                n_eff = np.where(inner, share * (1 - share) / np.where(se > 0, se, 1.0) ** 2,
                                 float(self.groups))
            n_eff = np.minimum(n_eff, float(max(self.games, 1)))
            w_low, w_high = wilson(share, n_eff, float(q))
            low, high = np.where(cut, w_low, low), np.where(cut, w_high, high)
        return (share, np.asarray(np.clip(low, 0, 1), dtype=np.float64),
                np.asarray(np.clip(high, 0, 1), dtype=np.float64))

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
    """wins, cross and wm of winner rows ``win`` (Vb, G). Every figure is a sum of whole
    counts (exact in float64 in any order), so the shortcuts below give the same bits."""
    vb, g = win.shape
    rows = np.arange(vb, dtype=np.int64)[:, None]
    wins = np.bincount((rows * n + win).reshape(-1), minlength=vb * n).reshape(vb, n)
    if k == g:  # one game a deal: a deal's counts are one win, so cross is diag(wins)
        cross = np.zeros((vb, n, n))
        cross[:, np.arange(n), np.arange(n)] = wins
        return (np.asarray(wins, dtype=np.int64), cross,
                np.asarray(wins, dtype=np.float64))  # every size is 1
    cell = (rows * k + inverse[None, :]) * n + win
    w = np.bincount(cell.reshape(-1), minlength=vb * k * n).reshape(vb, k, n)
    wt = np.ascontiguousarray(w.transpose(0, 2, 1), dtype=np.float64)  # (Vb, n, K)
    return (np.asarray(wins, dtype=np.int64),
            np.asarray(np.matmul(wt, wt.transpose(0, 2, 1)), dtype=np.float64),
            np.asarray(np.matmul(wt, sizes), dtype=np.float64))


def _winners(keys: NDArray[np.int32], shift: NDArray[np.int32]) -> IntArray:
    """argmax over seats of ``keys + shift`` for every row of ``shift``: (V, G). A running
    maximum seat by seat (faster than argmax over a short last axis; the first maximum wins,
    and keys never tie within a game)."""
    seats = np.ascontiguousarray(keys.T)  # each seat's keys read in a row, not strided
    best = seats[0][None, :] + shift[:, 0, None]
    win = np.zeros(best.shape, dtype=np.int64)
    for s in range(1, keys.shape[1]):
        key = seats[s][None, :] + shift[:, s, None]
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


def gap_interval(diff: FloatArray, se: FloatArray, df: int, level: float = REPORT_LEVEL
                 ) -> tuple[FloatArray, FloatArray]:
    """Per vector: an interval for the largest gap ``max_ij |p_i - p_j|``, simultaneous over
    the pairs at ``level`` (Bonferroni): [max of the pairs' lower bounds on ``|diff|``, max of
    their upper bounds]. ``diff`` and ``se``: ``WinTable.pair_stats``; ``df``: groups - 1."""
    q = _quantile((1 - level) / (2 * diff.shape[-1]), df)
    low = np.maximum(np.abs(diff) - q * se, 0.0).max(axis=-1)
    high = (np.abs(diff) + q * se).max(axis=-1)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


# -------------------------------------------------------------------------- the choices

def _changed(vectors: IntArray, rulebook: Sequence[int]) -> IntArray:
    return np.asarray(np.abs(vectors - np.asarray(rulebook, dtype=np.int64)[None, :]).sum(axis=1),
                      dtype=np.int64)


def _lex_keys(vectors: IntArray) -> tuple[IntArray, ...]:
    return tuple(vectors[:, c] for c in range(vectors.shape[1] - 1, -1, -1))


def rank_by_gap(vectors: ArrayLike, spreads: ArrayLike, rulebook: Sequence[int]) -> IntArray:
    """Indices of ``vectors`` from the most equal: the smallest observed gap, then the fewest
    VP changed, then lexicographic (the best vector is the first)."""
    v = np.asarray(vectors, dtype=np.int64).reshape(-1, len(rulebook))
    return np.asarray(np.lexsort((*_lex_keys(v), _changed(v, rulebook), np.asarray(spreads))),
                      dtype=np.int64)
