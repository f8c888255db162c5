"""One cell of a study report in words and JSON numbers: who sat at its table and each
seat's fair offset (the cell itself is ``cdsim.study.cell.CellResult``)."""

from __future__ import annotations

import itertools
from typing import Any

from cdsim.analysis.fmt import number
from cdsim.study.cell import CellResult


def who(cell: CellResult, full: bool = False) -> str:
    """Who sat at the table: the line-ups (each in every seat rotation) or the pool;
    every N-subset of a list said as such unless ``full``."""
    lineups, players = cell.lineups, cell.players
    if cell.state.pool:
        return "each seat drawn per game from " + ", ".join(cell.state.pool)
    if len(lineups) == 1 and len(set(lineups[0])) == 1:
        return f"{lineups[0][0]} in every seat"
    rot = ", each in all seat rotations, on the same deals" if cell.state.rotate_seats else ""
    names = list(dict.fromkeys(n for x in lineups for n in x))
    subsets = set(itertools.combinations(names, players))
    if not full and len(lineups) > 1 and set(lineups) == subsets:
        return f"every {players} of {', '.join(names)}: {len(lineups)} line-ups{rot}"
    ups = "; ".join(", ".join(x) for x in lineups)
    return (f"{len(lineups)} line-ups: " if len(lineups) > 1 else "") + ups + rot


def offsets_json(c: CellResult) -> dict[str, Any]:
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


__all__ = ["offsets_json", "who"]
