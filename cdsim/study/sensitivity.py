"""``cdsim components sensitivity``: which reconstructed entries move the starting-VP answer.

Every family of reconstructed entries (``cdsim.study.families``) is a variant of one study,
played beside the shipped set on the same deals (paired) by the four scripted players in
every seat rotation (``cdsim whatif``'s scripted play), at 2, 3 and 4 players. Its budget is
sized before play from the recorded cost per game (``cdsim.batch.cost``) so the whole run
fits the minutes asked (``--minutes``, default 10) on this machine's cores, and every cell
plays the same ``STAGES`` equal stages, all cells' stage ``k`` in one work queue. A stage is
not begun when this run's own measured pace says it would end past the time: a busy machine
plays fewer stages, and the answer says how many. The folder is a study folder (``cdsim
study report`` writes its pages); the answer (``cdsim.analysis.offset_shift``: each seat's
fair-offset shift with its paired interval, whether the decided or most equal vector
moves, the families ranked) is ``sensitivity.json`` and ``sensitivity.md`` beside it.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from cdsim.analysis import anytime
from cdsim.analysis.candidates import CellGames, candidates, win_table
from cdsim.analysis.offset_shift import FamilyEffect, PairedShift, effect, paired_shift, ranked
from cdsim.analysis.verdict import Verdict
from cdsim.batch import cost
from cdsim.batch.folder import RunFolder
from cdsim.errors import CdsimError
from cdsim.study.families import Family, families
from cdsim.study.file import Variant
from cdsim.study.games import stage_games
from cdsim.study.manifest import StageRuns
from cdsim.study.model import Cell, Study, load_study
from cdsim.study.play import play, stamp
from cdsim.study.store import open_folder, run_folder, write_study_manifest
from cdsim.study.whatif import SCRIPTED, study_text

NAME = "sensitivity"  # the study's name, its manifest's key and its files' stem
FAMILIES = "families"  # the folder of the override files and the study file
STAGES = 4  # equal stages: a busy machine stops between them
PLAY_SHARE = 0.75  # of the minutes, planned for play at the recorded costs
STOP_SHARE = 0.85  # no stage begins that this run's pace says ends past this share
MIN_DEALS = 10  # per stage and cell (the paired bootstrap resamples deals)
DEALS = 12  # games per deal: 12 at 2 and 3 players (every line-up, every rotation), 4 at 4
PLAYERS = (2, 3, 4)


def game_ms(players: int) -> float:
    """CPU ms of one scripted game at ``players`` (recorded costs)."""
    return cost.game_ms([list(SCRIPTED[:players])], (), players)


def planned_games(players: Sequence[int], sides: int, minutes: float, jobs: int) -> int:
    """Games of each cell (each side, each player count) so that ``sides`` sides at every
    player count take ``PLAY_SHARE`` of ``minutes`` on ``jobs`` cores at the recorded
    costs: whole deals in ``STAGES`` equal stages, at least ``MIN_DEALS`` deals a stage."""
    ms = sides * sum(game_ms(p) for p in players)
    games = int(minutes * 60 * PLAY_SHARE * cost.workers(jobs) * 1000 / ms)
    step = STAGES * DEALS
    return max(step * MIN_DEALS, games // step * step)


def plan_seconds(players: Sequence[int], sides: int, games: int, jobs: int) -> float:
    """Seconds the planned games take here at the recorded costs."""
    return sides * games * sum(game_ms(p) for p in players) / 1000 / cost.workers(jobs)


def study_path(root: Path) -> Path:
    return root / FAMILIES / f"{NAME}.toml"


def build(root: Path, players: Sequence[int], seed: int, games: int,
          chosen: Sequence[Family] | None = None) -> Study:
    """The study: each family's override written into ``root/families``, and the study
    file with the base and every family as a variant, read as any study file is."""
    found = list(chosen) if chosen is not None else families()
    folder = root / FAMILIES
    variant_list = [Variant(name=f.name, description=f"{f.title}: {f.step}",
                            components=str(f.write(folder).resolve())) for f in found]
    text = study_text(NAME, variant_list, players, ["scripted"], seed, {"scripted": games})
    text = text.replace("# Written by cdsim whatif: the base and the change on the same deals.",
                        "# Written by cdsim components sensitivity: the base and every family "
                        "of reconstructed entries, one step each, on the same deals.")
    path = study_path(root)
    path.write_text(text)
    return load_study(path)


def stage_size(cell: Cell) -> int:
    return cell.games // STAGES


def stage_finished(study: Study, root: Path, cell: Cell, stage: int) -> bool:
    return all(RunFolder(run_folder(root, j.key)).complete()
               for j in study.stage_jobs(cell, stage, stage_size(cell)))


@dataclass
class Played:
    """What a run played: the stages every cell finished, and whether the time stopped it."""

    stages: int
    stopped: bool  # a stage was left unplayed for the time
    seconds: float
    load: tuple[float, float] = (math.nan, math.nan)  # 1-minute load average, start and end


OnStage = Callable[[int, float], None]  # (stage finished, its seconds)


def run(study: Study, root: Path, jobs: int = -1, resume: bool = False, force: bool = False,
        minutes: float | None = None, on_chunk: Callable[[str, int], None] | None = None,
        on_stage: OnStage | None = None) -> Played:
    """Play the study's stages in turn, every cell's stage ``k`` in one work queue, until
    all ``STAGES`` are played or the next would end past ``STOP_SHARE`` of ``minutes`` at
    this run's own pace; then the study manifest (every cell's stages and verdict)."""
    manifest, study = open_folder(root, study, resume=resume, force=force)
    before = float(manifest.get("wall_seconds", 0.0))  # a resumed folder's earlier play
    start, load = time.perf_counter(), _load()
    stopped, done = False, 0
    pace = 0.0  # seconds per game-ms of the last stage played here (this machine, now)
    for stage in range(STAGES):
        todo = [j for cell in study.cells if not stage_finished(study, root, cell, stage)
                for j in study.stage_jobs(cell, stage, stage_size(cell))]
        if todo:
            work = sum(j.config.games * game_ms(j.config.players) for j in todo)
            if (minutes is not None and pace and time.perf_counter() - start + pace * work
                    > STOP_SHARE * minutes * 60):
                stopped = True
                break
            began = time.perf_counter()
            try:
                play(root, todo, jobs, "loky", on_chunk)
            finally:
                _write(study, root, manifest, stage, before, start)
            took = time.perf_counter() - began
            pace = took / work
            if on_stage is not None:
                on_stage(stage, took)
        done = stage + 1
    _write(study, root, manifest, done, before, start)
    return Played(done, stopped, time.perf_counter() - start, (load, _load()))


def _load() -> float:
    """This machine's 1-minute load average (NaN where the system does not say)."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return math.nan


def _write(study: Study, root: Path, manifest: dict[str, object], stages: int,
           before: float, start: float) -> None:
    """The study manifest with every cell's finished stages (``cdsim study report`` reads
    it; a stop keeps what it holds)."""
    cells = []
    for cell in study.cells:
        size = stage_size(cell)
        state = study.state_of(cell, [size] * STAGES)
        for k in range(stages):
            jobs = study.stage_jobs(cell, k, size)
            state.stages.append(StageRuns(stage=k, seed=jobs[0].config.seed, games=size,
                                          runs=[j.key for j in jobs]))
        cells.append(state.model_dump(mode="json"))
    manifest["cells"] = cells
    manifest[NAME] = {"stages": STAGES, "families": [v.name for v in study.variants]}
    manifest.update(stamp(before, start))
    write_study_manifest(root, manifest)


# -- the answer ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """The sensitivity study's answer: per family (ranked) its effect, with the settings
    and what was played."""

    effects: tuple[FamilyEffect, ...]  # ranked, the largest clear effect first
    families: tuple[Family, ...]
    players: tuple[int, ...]
    games: dict[int, int]  # games of each side per player count, as played
    played: Played  # this command's play: the stages every cell finished (of STAGES)...
    base: dict[int, tuple[tuple[int, ...], str]]  # per player count: the base's vector, decision


def verdict(study: Study, cell: Cell, stages: Sequence[CellGames]) -> Verdict:
    """A cell's starting-VP verdict on its own stages (as a study cell's would be)."""
    vectors = candidates(cell.rulebook, cell.radius)
    f = study.file
    return anytime.decide([win_table(g, vectors) for g in stages], cell.rulebook, f.tolerance,
                          f.alpha, f.tested, design_games=cell.design, predict=False,
                          zone=f.zone, naming=f.name_within_zone)


def answer(study: Study, root: Path, played: Played, resamples: int = 400,
           on_family: Callable[[str], None] | None = None) -> Answer:
    """Each family's shifts at every player count on the stages all its cells finished,
    and the ranking."""
    stages = played.stages
    if stages == 0:
        raise CdsimError(f"{root}: no stage is finished yet: nothing to rank (play on with "
                         "--resume)")
    read: dict[str, list[CellGames]] = {}

    def games(cell: Cell) -> list[CellGames]:
        if cell.key not in read:
            size = stage_size(cell)
            read[cell.key] = [stage_games([run_folder(root, j.key)
                                           for j in study.stage_jobs(cell, k, size)])
                              for k in range(stages)]
        return read[cell.key]

    bases = {c.players: c for c in study.cells if c.variant is None}
    base_verdicts = {p: verdict(study, c, games(c)) for p, c in bases.items()}
    found = {f.name: f for f in families()}
    effects = []
    for variant in study.variants:
        if on_family is not None:
            on_family(variant.name)
        shifts: list[PairedShift] = []
        for cell in study.cells:
            if cell.variant is None or cell.variant.name != variant.name:
                continue
            base = bases[cell.players]
            mine = verdict(study, cell, games(cell))
            theirs = base_verdicts[cell.players]
            shift = paired_shift(games(base), games(cell), cell.rulebook, resamples=resamples,
                                 seed=cell.players)
            shifts.append(replace(shift, base_vector=tuple(theirs.vector),
                                  variant_vector=tuple(mine.vector),
                                  base_decision=theirs.decision,
                                  variant_decision=mine.decision))
        effects.append(effect(variant.name, shifts))
    chosen = tuple(found[v.name] for v in study.variants if v.name in found)
    return Answer(tuple(ranked(effects)), chosen, tuple(sorted(bases)),
                  {p: stages * stage_size(c) for p, c in bases.items()}, played,
                  {p: (tuple(v.vector), v.decision) for p, v in base_verdicts.items()})


def stages_played(study: Study, root: Path) -> int:
    """The stages every cell has finished (what a report of a stopped run can rank)."""
    for stage in range(STAGES):
        if not all(stage_finished(study, root, c, stage) for c in study.cells):
            return stage
    return STAGES


def finite(x: float) -> float | None:
    """A number for JSON: None for NaN."""
    return x if math.isfinite(x) else None


__all__ = ["FAMILIES", "NAME", "PLAYERS", "STAGES", "Answer", "Played", "answer", "build",
           "finite", "game_ms", "plan_seconds", "planned_games", "run", "stage_finished",
           "stage_size", "stages_played", "study_path"]
