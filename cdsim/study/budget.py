"""A study's plan in games and in time, said before play: each cell's budget (at most the
games it plays; with an indifference zone and no ``games`` in the file, the games that
decide it whatever its truth, ``anytime.worst_case_games``) and how long that takes on
this machine's cores at the cost of its players recorded on a quiet 2-core machine
(``cdsim.batch.cost``): the prior, said so, never "here"; once a round has measured this
machine's pace, ``cdsim study run`` says the time again, measured here."""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.batch import cost
from cdsim.study.manifest import CellState
from cdsim.study.model import Cell, Study


def cell_game_ms(cell: Cell) -> float:
    """CPU ms of one game of ``cell`` (recorded costs)."""
    return cost.game_ms(cell.state.lineups, cell.state.pool, cell.players, cell.state.game)


def _played(state: CellState | None) -> tuple[int, bool]:
    """(games a recorded cell has played as far as its manifest says, decided)."""
    if state is None:
        return 0, False
    verdict = state.decision
    if verdict:  # a cell that plays on for its name is not done until it is shown
        return verdict.games, verdict.settled
    return sum(s.games for s in state.stages[:-1]), False


def plan_lines(study: Study, before: Sequence[CellState], jobs: int = -1) -> list[str]:
    """The plan as lines: per cell its budget, the games left at most and their time here;
    then the whole study's. ``before``: the cells' states a resumed folder recorded."""
    recorded = {c.key: c for c in before}
    cores = cost.workers(jobs)
    lines = [f"study {study.file.name}: at most these games per cell (most end sooner), and how "
             f"long they take at most on {cores} core{'s' if cores > 1 else ''} at the costs "
             "per player recorded on a quiet 2-core machine (not measured here: the time is "
             "said again once a round of play has measured this machine's pace):"]
    total_games, total_ms = 0, 0.0
    for cell in study.cells:
        ms = cell_game_ms(cell)
        played, decided = _played(recorded.get(cell.key))
        if decided:
            lines.append(f"  {cell.key}: decided on {played:,} games")
            continue
        left = max(0, cell.games - played)
        total_games += left
        total_ms += left * ms
        done = f" ({played:,} played)" if played else ""
        lines.append(f"  {cell.key}: {cell.games:,} games{done}, {_ms(ms)} a game: at most "
                     f"{cost.games_time(left, ms, jobs)}")
    lines.append(f"  in all: at most {total_games:,} games, "
                 f"{cost.duration(total_ms / 1000 / cores)}")
    return lines


def _ms(ms: float) -> str:
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:,.0f} ms"
