"""A study's plan: which runs to play next. Each cell's finished stages are judged in order
(``anytime.decide`` on all of them) and an undecided cell with budget left gets the runs of
its next stage. The plan follows from the finished rows alone (and the stage sizes already
begun), so a resumed study re-derives it (``cdsim.study.model`` has the whole design).
The same stages are judged once in a command (``anytime_memo``): a later round, which
judges every cell again, finds the verdicts of the stages judged before, a decided cell's
all of them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from cdsim.analysis import anytime_memo
from cdsim.analysis.candidates import WinTable, candidates
from cdsim.batch import cost
from cdsim.batch.folder import RunFolder
from cdsim.batch.progress import Work
from cdsim.study.games import stage_games
from cdsim.study.manifest import CellState, StageRuns
from cdsim.study.memo import MEMO, Memo, analysis_code, kept_table
from cdsim.study.model import Cell, Job, Study
from cdsim.study.store import run_folder

Tables = dict[str, WinTable]  # a stage's win table by its first run's key (a cache)


def plan(study: Study, root: Path, tables: Tables | None = None,
         before: Sequence[CellState] = ()) -> tuple[list[Job], list[CellState]]:
    """The runs to play now (the next stage of every cell still undecided) and each cell's
    state: its stages so far and, once decided or out of budget, its verdict. Depends only
    on the finished rows and on the stage sizes ``before`` (the manifest's cells) recorded
    for stages already begun (``tables`` caches the stages' win tables between calls)."""
    tables = {} if tables is None else tables
    recorded = {c.key: c for c in before}
    jobs: list[Job] = []
    cells: list[CellState] = []
    for cell in study.cells:
        sizes = study.schedule(cell, _begun(study, cell, root, recorded.get(cell.key)))
        state = study.state_of(cell, sizes)
        cells.append(state)
        jobs.extend(_cell_plan(study, cell, state, sizes, root, tables))
    return jobs, cells


def _begun(study: Study, cell: Cell, root: Path, before: CellState | None) -> list[int]:
    """The recorded sizes of the stages that have games (a run folder begun): kept as they
    are whatever the budget is now."""
    if before is None:
        return []
    sizes: list[int] = []
    for k, size in enumerate(before.schedule):
        if not any(RunFolder(run_folder(root, job.key)).started()
                   for job in study.stage_jobs(cell, k, size)):
            break
        sizes.append(size)
    return sizes


def _cell_plan(study: Study, cell: Cell, state: CellState, sizes: Sequence[int], root: Path,
               tables: Tables) -> list[Job]:
    """One cell: its finished stages judged in order (``anytime.decide`` on all of them);
    the runs of its next stage while it is undecided and has budget left."""
    rulebook = cell.rulebook
    vectors = candidates(rulebook, cell.radius)
    played: list[WinTable] = []
    for k, size in enumerate(sizes):
        stage = study.stage_jobs(cell, k, size)
        state.stages.append(StageRuns(stage=k, seed=stage[0].config.seed, games=size,
                                      runs=[j.key for j in stage]))
        todo = [j for j in stage if not RunFolder(run_folder(root, j.key)).complete()]
        if todo:
            return todo
        if stage[0].key not in tables:
            games = stage_games([run_folder(root, j.key) for j in stage])
            tables[stage[0].key] = kept_table(_memo(root), games, vectors)
        played.append(tables[stage[0].key])
        last = k == len(sizes) - 1
        settings = study.file
        # judged once per stages: a later round finds the verdict (a decided cell's too)
        verdict = anytime_memo.decide(played, rulebook, settings.tolerance, settings.alpha,
                                      settings.tested, cell.design, last, settings.zone,
                                      settings.name_within_zone)
        if verdict.settled or last:
            state.decision = verdict
            break
    return []


def _memo(root: Path) -> Memo:
    """The study's report-cache: a stage's win table kept there is its report's (the skill
    panel re-ranks every stage of a skilled cell over its candidates, as the plan did)."""
    return Memo(root / MEMO, _analysis_code())


@functools.cache
def _analysis_code() -> str:
    return analysis_code()


def games_total(root: Path, cells: Sequence[CellState]) -> tuple[int, int, Work]:
    """(games the study may still play as far as known: a decided cell's games, an
    undecided one's budget; games already finished; both weighed by each cell's cost per
    game, ``cell_ms``)."""
    ms = {c.key: cell_ms(c) for c in cells}
    planned = {c.key: c.decision.games if c.decision else c.games for c in cells}
    done = {c.key: sum(RunFolder(run_folder(root, key)).games_done()
                       for stage in c.stages for key in stage.runs) for c in cells}
    return (sum(planned.values()), sum(done.values()),
            Work(sum(planned[k] * ms[k] for k in ms), sum(done[k] * ms[k] for k in ms), ms))


def cell_ms(state: CellState) -> float:
    """CPU ms of one game of a cell (its manifest state: line-ups and pool as spelled), from
    the recorded costs of ``cdsim.batch.cost``."""
    return cost.game_ms(state.lineups, state.pool, state.players, state.game)


__all__ = ["Tables", "cell_ms", "games_total", "plan"]
