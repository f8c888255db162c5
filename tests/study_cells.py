"""Study cells made by hand for the study report's tests (tests/test_study.py,
tests/test_skill.py): a verdict as the study manifest records it and a reported cell
(``cdsim.study.cell.CellResult``) around it. Not a test file: it is imported."""

from __future__ import annotations

from collections.abc import Sequence

from cdsim.analysis.anytime import Decision, Verdict
from cdsim.analysis.candidates import CellGames
from cdsim.analysis.cell import CellFigures, Shares
from cdsim.study.cell import CellResult
from cdsim.study.manifest import CellState, StageRuns

Vector = tuple[int, ...]


def verdict(decision: Decision, vector: Vector, fair_set: Sequence[Vector] = (),
            games_needed: int | None = None, watch: Vector | None = None,
            games: int = 200_000, games_tested: int = 112_500) -> Verdict:
    """A verdict at the fourth look, tested from the second; a confirmed one's fair set is
    its vector unless given."""
    return Verdict(decision=decision, vector=vector,
                   fair_set=tuple(fair_set) or ((vector,) if decision == "confirmed" else ()),
                   largest_gap=0.01, gap_interval=(0.0, 0.019), games=games,
                   games_tested=games_tested, tested_from=1, games_needed=games_needed,
                   watch=watch, decided_at=4, tolerance=0.02, alpha=0.05, choices=(), looks=())


def cell_result(population: str, rulebook: Vector, lineups: Sequence[Sequence[str]],
                decision: Verdict | None, at_rulebook: Shares,
                stages: Sequence[CellGames] = (), runs: Sequence[Sequence[str]] = (),
                variant: str | None = None, floor: bool = False, radius: int = 4,
                budget: int = 200_000, rotate_seats: bool = True) -> CellResult:
    """A cell of ``len(rulebook)`` players whose finished stages are ``stages`` (their run
    folders ``runs``), as the study manifest would hold it."""
    players = len(rulebook)
    key = f"{players}p.{population}" + (f".{variant}" if variant else "")
    state = CellState(
        key=key, players=players, population=population, variant=variant, floor=floor,
        method="re-ranking", games=budget, design_games=budget,
        lineups=[list(x) for x in lineups], pool=[], rotate_seats=rotate_seats,
        rulebook=list(rulebook), radius=radius, schedule=[budget],
        stages=[StageRuns(stage=k, seed=k, games=1, runs=list(r)) for k, r in enumerate(runs)],
        decision=decision)
    return CellResult(state, tuple(stages), CellFigures(at_rulebook, None, None))
