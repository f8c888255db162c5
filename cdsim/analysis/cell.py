"""A study cell's figures as its report gives them (``cdsim.study.cell``): the seat win
shares behind a verdict, at one vector, and each seat's fair offset on all its games
(``cell_figures``: which games each is on). The verdict itself is ``anytime``'s; a variant's
paired difference is ``paired.seat_difference``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cdsim.analysis.anytime import Verdict
from cdsim.analysis.candidates import CellGames, Vector, WinTable, gap_interval, win_table
from cdsim.analysis.offsets import FairOffset, fair_offsets
from cdsim.analysis.stats import FloatArray


@dataclass(frozen=True)
class Shares:
    """Each seat's wins and win share under one vector on some games, the shares' 95%
    intervals simultaneous over the seats (deal groups), and the vector's largest seat gap
    with its 95% interval, simultaneous over the seat pairs: the one record of a vector's
    seat shares, for a study cell (``shares_of``) and a one-run balance
    (``cdsim.analysis.balance.shares``)."""

    vector: Vector
    wins: tuple[int, ...]
    share: FloatArray
    low: FloatArray
    high: FloatArray
    largest_gap: float
    gap_interval: tuple[float, float]

    @property
    def games(self) -> int:
        """Every game has one winner (ties by the game's tie-break)."""
        return sum(self.wins)


def shares_of(table: WinTable, row: int = 0) -> Shares:
    """The shares of ``table``'s vector ``row`` (a ``win_table`` of the cell's games)."""
    t = table.take(row)
    share, low, high = t.seat_intervals()
    diff, se = t.pair_stats()
    glow, ghigh = gap_interval(diff, se, t.groups - 1)
    return Shares(tuple(int(x) for x in t.vectors[0]), tuple(int(w) for w in t.wins[0]),
                  share[0], low[0], high[0], float(t.gaps[0]), (float(glow[0]), float(ghigh[0])))


def cell_offsets(games: CellGames, rulebook: Sequence[int], around: Sequence[int] | None,
                 radius: int) -> tuple[FairOffset, ...] | None:
    """Each seat's fair offset on all the cell's games, searched within ``radius`` of
    ``around`` (the decided vector, when there is one). None for players who read the
    scores (radius 0: judged at the rulebook vector only, re-ranking would not say what they
    do) and for fewer than two deal groups."""
    if radius == 0 or games.groups < 2:
        return None
    return tuple(fair_offsets(games, rulebook, around=around, radius=radius))


# a cell's fair offsets from (its games, rulebook, around, radius): ``cell_offsets``, or a
# kept copy of its figures (``cdsim.study.memo``)
OffsetsOf = Callable[[CellGames, Sequence[int], Sequence[int] | None, int],
                     tuple[FairOffset, ...] | None]


@dataclass(frozen=True)
class CellFigures:
    """What a cell's report shows beside its verdict."""

    at_rulebook: Shares  # on all its games
    at_decided: Shares | None  # confirmed: on the games after its choice; else on all games
    offsets: tuple[FairOffset, ...] | None  # seats 2..n: fair offset over seat 1


def cell_figures(stages: Sequence[CellGames], rulebook: Sequence[int],
                 decision: Verdict | None, radius: int,
                 offsets: OffsetsOf = cell_offsets) -> CellFigures:
    """The figures of a cell's finished ``stages`` (at least one): the seat shares at the
    rulebook vector on every game, at the decided vector (``decision``: the study manifest's
    verdict; a confirmed vector on the games it was tested on, after its choice, else every
    game up to the decision) and each seat's fair offset on every game (by ``offsets``)."""
    every = CellGames.concat(*stages)
    at_rulebook = shares_of(win_table(every, [tuple(rulebook)]))
    at_decided = None
    if decision is not None:
        first = decision.tested_from if decision.decision == "confirmed" else 0
        used = CellGames.concat(*stages[first:decision.decided_at + 1])
        at_decided = shares_of(win_table(used, [decision.vector]))
    return CellFigures(at_rulebook, at_decided,
                       offsets(every, rulebook,
                               None if decision is None else decision.vector, radius))


__all__ = ["CellFigures", "OffsetsOf", "Shares", "cell_figures", "cell_offsets", "shares_of"]
