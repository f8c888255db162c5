"""``cdsim components sensitivity``: which reconstructed entries move the starting-VP answer.

Every family of reconstructed entries (the game's ``GameSpec.families``: Carpe Diem's are
``cdsim.games.carpe_diem.families``) is a variant of one study, played beside the shipped
set on the same deals (paired) by the four scripted players in every seat rotation
(``cdsim whatif``'s scripted play), at 2, 3 and 4 players. Its budget is sized before play
from the recorded cost per game (``cdsim.batch.cost``) so the whole run fits the minutes
asked (``--minutes``, default 10) on this machine's cores, and every cell
plays the same stages (``SHARES``: four of an eighth of its games, then two quarters), all
cells' stage ``k`` in one work queue. A stage is not begun when this run's own measured
pace says it would end past the time: a busy machine plays fewer stages, and the answer
says how many. The folder is a study folder (``cdsim
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
from cdsim.games import GameSpec, game_spec
from cdsim.games.features import Family
from cdsim.study.file import Variant
from cdsim.study.games import stage_games
from cdsim.study.manifest import StageRuns, StudyManifest
from cdsim.study.model import Cell, Study, load_study
from cdsim.study.play import play
from cdsim.study.store import open_folder, run_folder, write_study_manifest
from cdsim.study.whatif import study_text

NAME = "sensitivity"  # the study's name, its manifest's key and its files' stem
FAMILIES = "families"  # the folder of the override files and the study file
# each stage's eighths of a cell's games: small first stages measure this run's pace soon,
# and a busy machine stops between stages
SHARES = (1, 1, 1, 1, 2, 2)
STAGES = len(SHARES)
UNIT = sum(SHARES)
PLAY_SHARE = 0.75  # of the minutes, planned for play at the recorded costs
STOP_SHARE = 0.85  # no stage begins that this run's pace says ends past this share
RESAMPLES = 300  # of the paired bootstrap: enough for 95% percentiles and the spread
MIN_DEALS = 10  # per stage and cell (the paired bootstrap resamples deals)
DEALS = 12  # games per deal: 12 at 2 and 3 players (every line-up, every rotation), 4 at 4


def game_ms(players: int) -> float:
    """CPU ms of one scripted game at ``players`` (recorded costs)."""
    return cost.game_ms([list(game_spec(None).scripted[:players])], (), players)


def planned_games(players: Sequence[int], sides: int, minutes: float, jobs: int) -> int:
    """Games of each cell (each side, each player count) so that ``sides`` sides at every
    player count take ``PLAY_SHARE`` of ``minutes`` on ``jobs`` cores at the recorded
    costs: whole deals in every stage, at least ``MIN_DEALS`` deals in the smallest."""
    ms = sides * sum(game_ms(p) for p in players)
    games = int(minutes * 60 * PLAY_SHARE * cost.workers(jobs) * 1000 / ms)
    step = UNIT * DEALS
    return max(step * MIN_DEALS, games // step * step)


def plan_seconds(players: Sequence[int], sides: int, games: int, jobs: int) -> float:
    """Seconds the planned games take here at the recorded costs."""
    return sides * games * sum(game_ms(p) for p in players) / 1000 / cost.workers(jobs)


def families(game: GameSpec | None = None) -> list[Family]:
    """Every family of the game's component set (None: the default game), in its fixed
    order (the study's variants); one line for a game that has none."""
    spec = game or game_spec(None)
    if spec.families is None:
        raise CdsimError(f"{spec.title} has no families of component entries to perturb")
    return spec.families()


def family_named(name: str, game: GameSpec | None = None) -> Family:
    """The family called ``name`` (one line naming the known ones when there is none)."""
    found = {f.name: f for f in families(game)}
    if name not in found:
        raise CdsimError(f"no family {name!r} (known: {', '.join(found)})")
    return found[name]


def study_path(root: Path) -> Path:
    return root / FAMILIES / f"{NAME}.toml"


def build(root: Path, players: Sequence[int], seed: int, games: int,
          chosen: Sequence[Family] | None = None) -> Study:
    """The study: each family's override written into ``root/families``, and the study
    file with the base and every family as a variant (``games`` a cell, rounded up to whole
    deals in every stage), read as any study file is."""
    found = list(chosen) if chosen is not None else families()
    step = UNIT * DEALS  # every stage whole deals at every player count
    games = -(-games // step) * step
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


def stage_size(cell: Cell, stage: int) -> int:
    """Games of ``stage`` of ``cell`` (its share of the cell's games)."""
    return cell.games // UNIT * SHARES[stage]


def stage_finished(study: Study, root: Path, cell: Cell, stage: int) -> bool:
    return all(RunFolder(run_folder(root, j.key)).complete()
               for j in study.stage_jobs(cell, stage, stage_size(cell, stage)))


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
    this run's own pace. The study manifest holds every cell's finished stages after each
    stage (and after a stop), so ``cdsim study report`` reads the folder at any moment."""
    manifest, study = open_folder(root, study, resume=resume, force=force)
    before = manifest.wall_seconds  # a resumed folder's earlier play
    start, load = time.perf_counter(), _load()
    stopped, done = False, 0
    pace = 0.0  # seconds per game-ms of the last stage played here (this machine, now)
    for stage in range(STAGES):
        todo = [j for cell in study.cells if not stage_finished(study, root, cell, stage)
                for j in study.stage_jobs(cell, stage, stage_size(cell, stage))]
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


def _write(study: Study, root: Path, manifest: StudyManifest, stages: int,
           before: float, start: float) -> None:
    """The study manifest with every cell's finished stages (``cdsim study report`` reads
    it; a stop keeps what it holds)."""
    cells = []
    for cell in study.cells:
        sizes = [stage_size(cell, k) for k in range(STAGES)]
        state = study.state_of(cell, sizes)
        for k in range(stages):
            jobs = study.stage_jobs(cell, k, sizes[k])
            state.stages.append(StageRuns(stage=k, seed=jobs[0].config.seed, games=sizes[k],
                                          runs=[j.key for j in jobs]))
        cells.append(state)
    manifest.cells = cells
    # its own key (a key the model keeps as it is: StudyManifest's extra="allow")
    setattr(manifest, NAME, {"stages": STAGES, "families": [v.name for v in study.variants]})
    manifest.stamp(start, before)
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


@dataclass(frozen=True)
class Judge:
    """A cell's starting-VP verdict as the study's settings give it (a record a worker
    process can take)."""

    radius: int
    tolerance: float
    alpha: float
    tested: int
    design: int
    zone: float
    naming: bool

    @classmethod
    def of(cls, study: Study, cell: Cell) -> Judge:
        f = study.file
        return cls(cell.radius, f.tolerance, f.alpha, f.tested, cell.design, f.zone,
                   f.name_within_zone)

    def verdict(self, rulebook: Sequence[int], stages: Sequence[CellGames]) -> Verdict:
        """The verdict of a cell's stages (as a study cell's would be)."""
        vectors = candidates(rulebook, self.radius)
        return anytime.decide([win_table(g, vectors) for g in stages], rulebook,
                              self.tolerance, self.alpha, self.tested, design_games=self.design,
                              predict=False, zone=self.zone, naming=self.naming)


def compare(base: Sequence[CellGames], mine: Sequence[CellGames], rulebook: Sequence[int],
            judge: Judge, resamples: int, seed: int) -> PairedShift:
    """One family at one player count: the seats' paired shifts, and the variant's own
    verdict (its vector and decision; the base's are filled in by ``answer``)."""
    shift = paired_shift(base, mine, rulebook, resamples=resamples, seed=seed)
    found = judge.verdict(rulebook, mine)
    return replace(shift, variant_vector=tuple(found.vector), variant_decision=found.decision)


def answer(study: Study, root: Path, played: Played, jobs: int = -1, resamples: int = RESAMPLES,
           on_family: Callable[[str], None] | None = None) -> Answer:
    """Each family's shifts at every player count on the stages all its cells finished,
    and the ranking; the comparisons spread over ``jobs`` worker processes."""
    from joblib import Parallel, delayed

    stages = played.stages
    if stages == 0:
        raise CdsimError(f"{root}: no stage is finished yet: nothing to rank (play on with "
                         "--resume)")
    read: dict[str, list[CellGames]] = {}

    def games(cell: Cell) -> list[CellGames]:
        if cell.key not in read:
            read[cell.key] = [stage_games([run_folder(root, j.key) for j in
                                           study.stage_jobs(cell, k, stage_size(cell, k))])
                              for k in range(stages)]
        return read[cell.key]

    bases = {c.players: c for c in study.cells if c.variant is None}
    base_verdicts = {p: Judge.of(study, c).verdict(c.rulebook, games(c))
                     for p, c in bases.items()}
    tasks = [(v.name, c) for v in study.variants for c in study.cells
             if c.variant is not None and c.variant.name == v.name]
    results = Parallel(n_jobs=min(cost.workers(jobs), len(tasks)), return_as="generator")(
        delayed(compare)(games(bases[c.players]), games(c), c.rulebook, Judge.of(study, c),
                         resamples, c.players) for _, c in tasks)
    by_family: dict[str, list[PairedShift]] = {v.name: [] for v in study.variants}
    for (name, cell), shift in zip(tasks, results, strict=True):
        theirs = base_verdicts[cell.players]
        by_family[name].append(replace(shift, base_vector=tuple(theirs.vector),
                                       base_decision=theirs.decision))
        if len(by_family[name]) == sum(1 for n, _ in tasks if n == name) and on_family:
            on_family(name)
    effects = [effect(name, shifts) for name, shifts in by_family.items()]
    found = {f.name: f for f in families()}
    chosen = tuple(found[v.name] for v in study.variants if v.name in found)
    return Answer(tuple(ranked(effects)), chosen, tuple(sorted(bases)),
                  {p: sum(stage_size(c, k) for k in range(stages)) for p, c in bases.items()},
                  played, {p: (tuple(v.vector), v.decision) for p, v in base_verdicts.items()})


def stages_played(study: Study, root: Path) -> int:
    """The stages every cell has finished (what a report of a stopped run can rank)."""
    for stage in range(STAGES):
        if not all(stage_finished(study, root, c, stage) for c in study.cells):
            return stage
    return STAGES


def finite(x: float) -> float | None:
    """A number for JSON: None for NaN."""
    return x if math.isfinite(x) else None


__all__ = [
    "FAMILIES",
    "NAME",
    "SHARES",
    "STAGES",
    "UNIT",
    "Answer",
    "Judge",
    "Played",
    "answer",
    "build",
    "compare",
    "families",
    "family_named",
    "finite",
    "game_ms",
    "plan_seconds",
    "planned_games",
    "run",
    "stage_finished",
    "stage_size",
    "stages_played",
    "study_path",
]
