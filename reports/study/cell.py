"""One cell of a study report in words and JSON numbers: who sat at its table and each
seat's fair offset (the cell itself is ``cdsim.study.cell.CellResult``)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from cdsim.analysis.fmt import number, vec
from cdsim.analysis.offsets import FairOffset
from cdsim.games.names import shown_names
from cdsim.games.players import PlayerSpec
from cdsim.study.cell import CellResult


def who(cell: CellResult, full: bool = False) -> str:
    """Who sat at the table: the line-ups (each in every seat rotation) or the pool;
    every N-subset of a list said as such unless ``full``."""
    players, pool = cell.players, cell.state.pool
    label = shown_names([*(n for x in cell.lineups for n in x), *pool])  # files: by name
    lineups = [tuple(label[n] for n in x) for x in cell.lineups]
    if pool:
        return "each seat drawn per game from " + ", ".join(label[n] for n in pool)
    if len(lineups) == 1 and len(set(lineups[0])) == 1:
        return f"{lineups[0][0]} in every seat"
    rot = ", each in all seat rotations, on the same deals" if cell.state.rotate_seats else ""
    names = list(dict.fromkeys(n for x in lineups for n in x))
    subsets = set(itertools.combinations(names, players))
    if not full and len(lineups) > 1 and set(lineups) == subsets:
        return f"every {players} of {', '.join(names)}: {len(lineups)} line-ups{rot}"
    ups = "; ".join(", ".join(x) for x in lineups)
    return (f"{len(lineups)} line-ups: " if len(lineups) > 1 else "") + ups + rot


def shown_list(players: Sequence[PlayerSpec]) -> str:
    """Players as a page lists them: a strategy file by its name (``names.shown_names``)."""
    label = shown_names([p.spelling for p in players])
    return ", ".join(label[p.spelling] for p in players)


def offsets_json(c: CellResult) -> dict[str, object]:
    """Each seat's fair offset (starting VP over seat 1) with its 95% interval, seats
    counted from 1 (seat 1 is the reference: 0); None for a cell judged at the rulebook
    vector only."""
    offsets = c.figures.offsets
    if offsets is None:
        return {"fair_offset": None, "fair_offset_interval": None}
    return {"fair_offset": {"1": 0.0} | {str(s): number(o.offset, 3)
                                         for s, o in enumerate(offsets, 2)},
            "fair_offset_interval": {"1": [0.0, 0.0]} | {
                str(s): [number(o.low, 3), number(o.high, 3)] for s, o in enumerate(offsets, 2)}}


def offsets_text(offsets: Sequence[FairOffset]) -> str:
    """"seat 2 needs +0.4 VP (0.0 to +0.8); ...": each seat's fair offset over seat 1 with its
    95% interval (beyond the VP searched: said so)."""
    parts = []
    for seat, o in enumerate(offsets, 2):
        if not np.isfinite(o.offset):
            parts.append(f"seat {seat}: beyond the VP searched")
            continue
        span = (f" ({o.low:+.1f} to {o.high:+.1f})" if np.isfinite(o.low) and np.isfinite(o.high)
                else " (interval beyond the VP searched)")
        parts.append(f"seat {seat} needs {o.offset:+.1f} VP{span}")
    return "; ".join(parts)


def pointed_words(rulebook: Sequence[int], named: Sequence[int] | None,
                  offsets: Sequence[FairOffset], radius: int) -> str:
    """Why the whole-VP vector the fair offsets point to (each seat's offset rounded, seat 1
    at the rulebook's) is not the vector a box names beside them, or "" when it is: it lies
    outside the VP searched (each seat within ``radius`` of the rulebook's), or rounding
    seat by seat is not the vector whose largest seat gap is least. One answer per box:
    a 4-player whatif box named 8/8/8/12 beside offsets that point to 8/6/6/10, outside
    its ±2 VP."""
    if named is None or not all(math.isfinite(o.offset) for o in offsets):
        return ""
    pointed = (rulebook[0], *(rulebook[0] + math.floor(o.offset + 0.5) for o in offsets))
    if tuple(pointed) == tuple(named):
        return ""
    if any(abs(p - r) > radius for p, r in zip(pointed, rulebook, strict=True)):
        return (f"; they point to about {vec(pointed)}, outside the ±{radius} VP searched "
                f"around the rulebook's {vec(rulebook)}, so {vec(named)} is named from "
                "within them (a larger radius searches further)")
    return (f"; rounded seat by seat they point to {vec(pointed)}: {vec(named)} is named by "
            "its largest gap between any two seats, which rounding each seat's offset alone "
            "need not give")


__all__ = ["offsets_json", "offsets_text", "pointed_words", "shown_list", "who"]


def unfinished(c: CellResult, stopped: str | None) -> str:
    """A cell with no verdict yet: "still playing" while its study plays, and once play has
    stopped (``stopped``: the study manifest's why) that it stopped and what a ``--resume``
    would play (up to the rest of its budget, fewer if a look decides it first)."""
    if stopped is None:
        return f"still playing ({c.games:,} of at most {c.budget:,} games so far)"
    left = max(0, c.budget - c.games)
    return (f"stopped ({stopped}) after {c.games:,} games; a --resume plays on, at most "
            f"{left:,} more games to its budget (fewer if a look decides it first)")

