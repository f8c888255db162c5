"""How far a change to the components moves each seat's fair offset: variant minus base on
the same deals (paired), with an interval, and which family of changes moves it most
(``cdsim components sensitivity``).

The shift. Each side's fair offsets are ``offsets.fair_offsets``' estimand (the continuous
starting VP over seat 1 that equalises every seat's win share with seat 1's), solved on the
box of whole-VP vectors around its own most equal one (as ``fair_offsets`` does). The shift of seat ``s`` is
the variant's offset minus the base's.

The interval. Base and variant play the same deals, so one cluster bootstrap over the deal
groups resamples both at once: each resample's weights are applied to both sides' games,
both are solved, and their difference is kept. A deal's own advantage then cancels, and the
interval is far narrower than two independent ones would give. The 2.5-97.5% percentiles per
seat are reported (pointwise); the bootstrap's standard deviation gives the simultaneous
call of ``noise`` (is any of a family's intervals clear of zero when all of them are held at
once, a Bonferroni bound over its seats and player counts).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from cdsim.analysis.candidates import (
    CellGames,
    FloatArray,
    IntArray,
    candidates,
    rank_by_gap,
    win_table,
)
from cdsim.analysis.offsets import box, group_differences, solve
from cdsim.analysis.stats import t_quantile
from cdsim.errors import CdsimError

REACH = 2  # the box around each side's most equal vector (3 and 4 players)
CENTRE_RADIUS = 3  # where that vector is looked for, around the rulebook's
LEVEL = 0.95


@dataclass(frozen=True)
class SeatShift:
    """One seat's fair offset (starting VP over seat 1) on the base and on the variant, the
    shift (variant minus base) with its 95% interval and the bootstrap's standard deviation.
    NaN where a side's fair point lies beyond the box."""

    seat: int  # from 2
    base: float
    variant: float
    shift: float
    low: float
    high: float
    sd: float


@dataclass(frozen=True)
class PairedShift:
    """Every seat's shift at one player count, and each side's most equal whole-VP vector
    among the candidates within the radius (the vector a study would name)."""

    players: int
    seats: tuple[SeatShift, ...]
    base_vector: tuple[int, ...]
    variant_vector: tuple[int, ...]
    games: int  # of each side
    deals: int
    # each side's verdict on its own games when the study gives one (confirmed: the
    # vector named fair; else the most equal): "confirmed", "undecided", ...
    base_decision: str = ""
    variant_decision: str = ""


def most_equal(games: CellGames, rulebook: Sequence[int], radius: int = REACH) -> tuple[int, ...]:
    """The whole-VP vector within ``radius`` of ``rulebook`` whose seats' win shares are the
    most equal on ``games`` (``candidates.rank_by_gap``)."""
    vectors = candidates(rulebook, radius)
    table = win_table(games, vectors)
    return tuple(int(x) for x in vectors[int(rank_by_gap(vectors, table.spreads, rulebook)[0])])


def paired_shift(base: Sequence[CellGames], variant: Sequence[CellGames],
                 rulebook: Sequence[int], resamples: int = 400, seed: int = 0,
                 radius: int = 6) -> PairedShift:
    """Each seat's fair-offset shift, variant minus base, on the stages both played (the
    same seeds: the same deals), with a paired cluster-bootstrap interval (see above)."""
    common = min(len(base), len(variant))
    if common == 0:
        raise CdsimError("no stage played by both the base and the variant")
    for x, y in zip(base[:common], variant[:common], strict=True):
        if x.games != y.games or not np.array_equal(np.unique(x.group), np.unique(y.group)):
            raise CdsimError("the base and the variant did not play the same deals")
    b, v = CellGames.concat(*base[:common]), CellGames.concat(*variant[:common])
    rule = tuple(int(x) for x in rulebook)
    n = len(rule)
    if b.players != n or b.groups < 2:
        raise CdsimError("a paired shift needs the rulebook's seats and two deals")
    reach = radius if n == 2 else REACH
    grid = (1,) + (2 * reach + 1,) * (n - 1) + (n - 1,)
    sides = []
    for games in (b, v):  # each side's box around its own most equal vector
        centre = rule if n == 2 else most_equal(games, rule, CENTRE_RADIUS)
        lo = np.asarray(centre[1:], dtype=np.int64) - reach
        diffs, sizes = group_differences(games, box(centre, reach))
        sides.append(_Side(diffs, sizes, lo, np.asarray([centre[1:]], dtype=np.float64)))
    points = [solve((s.diffs.sum(axis=0) / s.sizes.sum()).reshape(grid), s.lo, s.start)[0]
              for s in sides]
    boot = _bootstrap(sides, grid, resamples, seed)
    tail = (1 - LEVEL) / 2
    seats = []
    for s in range(n - 1):
        draws = boot[:, s]
        ok = draws[np.isfinite(draws)]
        if ok.size < (1 - tail) * len(draws) or ok.size < 2:
            low = high = sd = math.nan
        else:
            low, high = (float(q) for q in np.quantile(ok, [tail, 1 - tail]))
            sd = float(ok.std(ddof=1))
        seats.append(SeatShift(s + 2, float(points[0][s]) - rule[0], float(points[1][s]) - rule[0],
                               float(points[1][s] - points[0][s]), low, high, sd))
    return PairedShift(n, tuple(seats), most_equal(b, rule, radius=REACH),
                       most_equal(v, rule, radius=REACH), b.games, b.groups)


@dataclass(frozen=True)
class _Side:
    """One side's games on its box: per deal group and box vector the wins of seats 2..n
    minus seat 1's, the groups' games, the box's lowest corner and where to start solving."""

    diffs: NDArray[np.int16]
    sizes: FloatArray
    lo: IntArray
    start: FloatArray


def _bootstrap(sides: Sequence[_Side], grid: tuple[int, ...], resamples: int, seed: int
               ) -> FloatArray:
    """Per resample (the same deal groups drawn for both sides), variant's fair point minus
    base's: (resamples, seats - 1)."""
    k = len(sides[0].sizes)
    flats = [(s.diffs.reshape(k, -1).astype(np.float32), s.sizes.astype(np.float32), s)
             for s in sides]
    rng = np.random.default_rng(seed)
    out = []
    for first in range(0, resamples, 50):  # 50 at a time bounds the memory
        count = min(50, resamples - first)
        weights = np.stack([np.bincount(rng.integers(0, k, size=k), minlength=k)
                            for _ in range(count)]).astype(np.float32)
        found = []
        for flat, sizes, side in flats:
            values = (flat.T @ weights.T).T / (weights @ sizes)[:, None]
            found.append(solve(values.astype(np.float64).reshape((count, *grid[1:])), side.lo,
                               np.repeat(side.start, count, axis=0)))
        out.append(found[1] - found[0])
    return np.concatenate(out)


# -- the ranking -----------------------------------------------------------------------------

@dataclass(frozen=True)
class FamilyEffect:
    """One family's shifts at every player count played, and what they add up to: its
    largest |shift| (the seat and count), whether that is beyond noise, and the player
    counts whose most equal vector it moves."""

    family: str
    shifts: tuple[PairedShift, ...]
    largest: float  # |shift| VP, NaN when none could be computed
    players: int  # where the largest is
    seat: int
    clear: bool  # some interval clear of zero, all of the family's held at once
    moved: tuple[int, ...]  # the player counts whose most equal vector differs


def effect(family: str, shifts: Sequence[PairedShift], level: float = LEVEL) -> FamilyEffect:
    """A family's effect from its shifts (see the module docstring for ``clear``)."""
    found = [(abs(s.shift), p.players, s.seat, s) for p in shifts for s in p.seats
             if math.isfinite(s.shift)]
    intervals = max(1, len(found))
    z = float(t_quantile((1 - level) / (2 * intervals), 10**9))
    clear = any(math.isfinite(s.sd) and abs(s.shift) > z * s.sd for *_, s in found)
    size, players, seat = max(((a, p, q) for a, p, q, _ in found), default=(math.nan, 0, 0))
    moved = tuple(p.players for p in shifts if p.base_vector != p.variant_vector)
    return FamilyEffect(family, tuple(shifts), size, players, seat, clear, moved)


def ranked(effects: Sequence[FamilyEffect]) -> list[FamilyEffect]:
    """Families from the largest |shift| down; the ones clear of noise first (a large shift
    within noise says less than a smaller one shown)."""
    return sorted(effects, key=lambda e: (not e.clear, -(e.largest if math.isfinite(e.largest)
                                                         else -1.0), e.family))


__all__ = ["FamilyEffect", "PairedShift", "SeatShift", "effect", "most_equal", "paired_shift",
           "ranked"]
