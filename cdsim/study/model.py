"""A study, as ``cdsim study run`` plays it: player counts x player populations (x design
variants), each cell played in stages until its starting-VP verdict is decided.

A designer asks "for 2, 3 and 4 players, which starting VP make the seats fair, and how
sure is that?". A study file names the player counts, the populations (who sits at the
table) and, optionally, component variants; every combination is a *cell*. A cell plays in
*stages* of fresh deals (``anytime.stage_sizes``: the first 1/64 of the cell's budget,
``games``, each next twice the one before, the last taking what is left) and after every
stage judges all its games so far (``anytime.decide``) until one of three verdicts:
**confirmed** (a vector is shown fair within the tolerance on the games played since it was
chosen), **no fair vector** (every whole-VP vector within the radius is shown unfair) or
**undecided** (the budget is spent; with the games a decision would likely need). Whatever
the true win shares, a cell ends with a wrong verdict with chance at most ``alpha``, at
whatever look it stops and however often its budget is raised (docs/statistics.md).

Extending: the budget is not part of the study's identity. ``--resume`` with a larger budget
(the study file's, or ``--games N``) keeps every stage begun as it is, appends stages and
plays only those for the undecided cells; a cell's first stage and ``design_games`` (where
its test is tightest: the budget it started with) are recorded and never change.

Each stage of a cell is one ordinary run folder per line-up (``cdsim report`` and
``cdsim balance`` work on each):

    STUDY/study.toml                          the study file as given
    STUDY/study-manifest.json                 the normalised study (what --resume must
                                              match), each cell's stages and verdict
    STUDY/cells/4p.random+s0/                 stage 0 of a cell with one line-up
    STUDY/cells/2p.scripted+s1.greedy-villa/  stage 1 of a balanced population, one line-up
    STUDY/cells/4p.scripted.B05-at-6+s0/      a variant: the same games on other components
    STUDY/sweeps/B05-reward=6.toml            a sweep's value: an override of its base
    STUDY/cells/4p.scripted.B05-reward=6+s0/  ... played as a variant (cdsim.study.sweeps)

Balanced populations: a population that names more strategies than a game has seats plays
every N-subset of them (``lineup``), or exactly the line-ups it lists (``lineups``), each in
all N seat rotations, over the same deals; a deal group is one deal in every line-up and
rotation. A population of ``random`` players only (or ``floor = true``) is the *floor*:
reported, never part of a headline.

Reproducibility: stage ``k`` of every cell deals from the same seed (the study ``seed`` for
stage 0, then seeds derived from it), so populations and variants of one player count play
the same deals (common random numbers: a variant's difference is its effect, not luck).
Every run's chunks go into one work queue (``cdsim.batch.queue.play_queue``); only the
driver writes, so the rows are the same for any --jobs and any kill-and-resume history.
What is played next follows from the finished rows alone (the verdicts are deterministic),
so a resumed study re-derives its state.

This module holds the records a study file loads into (cells, the study; a population, a
variant and a sweep are the file's own ``cdsim.study.file.Population``, ``Variant`` and
``Sweep``, the study's settings its ``StudyFile``) and reads a study file into them
(``load_study``); ``cdsim.study.plan`` says what to play next and ``cdsim.study.play``
plays it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np

from cdsim.analysis import anytime
from cdsim.analysis.candidates import candidates
from cdsim.batch.config import MAX_GAMES, RunConfig
from cdsim.errors import CdsimError, read_toml
from cdsim.games import GameSpec, game_spec
from cdsim.games.players import PlayerSpec
from cdsim.study import file as study_file
from cdsim.study.file import Population, Sweep, Variant
from cdsim.study.manifest import CellState, Identity, ReadsCellState
from cdsim.study.sweeps import expand, place

# the first stage: budget / 64 games, then doubling (6 looks): looking often costs little in
# an anytime test (16 looks about as many games as one fixed test, 4 looks some 12% more)
FIRST_SHARE = 64


@dataclass(frozen=True)
class Cell(ReadsCellState):
    """A cell as the study plans it: its ``state`` as the study manifest holds it before
    any stage is planned (``CellState``: its key, players, names, budget, design, line-ups
    as spelled, rulebook vector and radius; no schedule, stages or verdict yet), the
    population and variant it names as loaded, and its ``first`` stage. The state's facts
    are read through it (``players``, ``games``, ``design``, ...), never copied."""

    state: CellState
    population: Population
    variant: Variant | None
    first: int  # games of the first stage

    @classmethod
    def of(cls, players: int, population: Population, variant: Variant | None,
           rulebook: Sequence[int], radius: int, games: int, game: str) -> Cell:
        """A cell of ``players`` with its budget (``games``), designed for it, its first
        stage still to size (``budgeted``). Re-ranking judges every vector within
        ``radius``; players who read scores might play otherwise under other starting VP,
        so only the rulebook vector is judged for them (radius 0)."""
        parts = [f"{players}p", population.name, *([variant.name] if variant else [])]
        reads = population.reads_scores_in(game)
        state = CellState(
            key=".".join(parts), players=players, population=population.name,
            variant=variant.name if variant else None, floor=population.floor,
            method="rulebook only" if reads else "re-ranking", games=games, design_games=games,
            lineups=spelled(population.lineups_for(players)), pool=spelled([population.pool])[0],
            rotate_seats=population.rotate_seats, rulebook=list(rulebook),
            radius=0 if reads else radius, schedule=[], game=game)
        return cls(state, population, variant, 0)

    def budgeted(self, games: int, first: int, design: int) -> Cell:
        """This cell with another budget, first stage and design."""
        return replace(self, first=first, state=self.state.model_copy(
            update={"games": games, "design_games": design}))

    @property
    def games(self) -> int:
        """The budget: at most this many games over all stages (it may be raised)."""
        return self.state.games

    @property
    def design(self) -> int:
        """Games at which the boundaries are tightest: the budget when the cell started,
        then fixed (a raised budget extends the cell under the same test)."""
        return self.state.design_games

    @property
    def method(self) -> Literal["re-ranking", "rulebook only"]:
        return self.state.method

    @property
    def lineups(self) -> tuple[tuple[PlayerSpec, ...], ...]:
        return self.population.lineups_for(self.players)

    @property
    def deal(self) -> int:
        """Games per deal: each line-up once, in every seat rotation if rotated."""
        return max(1, len(self.lineups)) * (self.players if self.population.rotate_seats else 1)


@dataclass(frozen=True)
class Job:
    key: str  # run folder name under cells/
    config: RunConfig



@dataclass(frozen=True)
class Study:
    """A study as it plays: its file as checked (``file``: the settings, seed, radius,
    tolerance, ..., and the populations) and what it loads and plans from it."""

    file: study_file.StudyFile
    variants: tuple[Variant, ...]
    cells: tuple[Cell, ...]
    start_vp: dict[int, tuple[int, ...]]  # the file's, else the rulebook's (GameSpec.start_vp)
    components: str | None  # the file's component set, as an absolute path
    components_digest: str
    source: str = ""
    text: str = field(default="", repr=False)
    sweeps: tuple[Sweep, ...] = ()

    def placed(self, root: Path) -> Study:
        """The sweeps' override files written into the study folder ``root``, the variants
        naming them there (the run folders record the path)."""
        paths: dict[str, str] = {}
        for sweep in self.sweeps:
            paths |= place(root, sweep)

        def moved(v: Variant) -> Variant:
            return v.model_copy(update={"components": paths[v.name]}) if v.name in paths else v

        return replace(self, variants=tuple(map(moved, self.variants)),
                       cells=tuple(replace(c, variant=c.variant and moved(c.variant))
                                   for c in self.cells))

    def schedule(self, cell: Cell, played: Sequence[int] = ()) -> tuple[int, ...]:
        """The cell's stage sizes (games): the stages already ``played`` (begun) as they are,
        then stages doubling up to the budget (``anytime.stage_sizes``)."""
        return anytime.stage_sizes(cell.games, cell.first, cell.deal, played=played)

    def raised(self, games: int | None, recorded: Mapping[str, CellState],
               firsts: dict[str, int] | None = None) -> Study:
        """This study with budgets that only grow: each cell's at least the ``games`` asked
        for (``--games``) and the budget its folder already recorded, and its design (where
        its boundaries are tightest) and first stage the ones it started with (``firsts``:
        the first stage asked for, by cell, as its folder's identity recorded it)."""
        cells = []
        for cell in self.cells:
            old = recorded.get(cell.key)
            budget = max(cell.games, games or 0, old.games if old else 0)
            budget = -(-budget // cell.deal) * cell.deal  # whole deals
            if old is None:  # a new cell: its test is designed for the budget it starts with
                cells.append(cell.budgeted(budget, cell.first,
                                           cell.design if budget == cell.games else budget))
            else:  # its first stage and design as it started (both shape the test): the
                # first stage asked for, not the one played, which took the whole budget
                # when that was under three first stages
                first = (firsts or {}).get(cell.key)
                cells.append(cell.budgeted(budget, cell.first if first is None else int(first),
                                           old.design_games))
        return replace(self, cells=tuple(cells))

    def state_of(self, cell: Cell, schedule: Sequence[int], games: int | None = None
                 ) -> CellState:
        """The cell as the study manifest holds it, its stages still to record: its state
        with its ``schedule``, checked, for ``cdsim study run`` and ``cdsim whatif``.
        ``games``: the budget to record (default: the cell's)."""
        return CellState.model_validate(cell.state.model_dump() | {
            "games": cell.games if games is None else games, "schedule": list(schedule)})

    def stage_seed(self, stage: int) -> int:
        """Stage 0 deals from the study seed, stage k from a seed derived from (seed, k):
        every cell of the study plays the same deals at the same stage."""
        seed = self.file.seed
        if stage == 0:
            return seed
        state = np.random.SeedSequence([seed, 0x57A6E, stage]).generate_state(2)
        derived = (int(state[0]) << 31 | int(state[1]) >> 1) & (2**62 - 1)
        return derived if derived != seed else derived ^ 1

    def stage_jobs(self, cell: Cell, stage: int, size: int) -> list[Job]:
        """The runs of one stage: one per line-up (or one for a pool), each playing every
        deal of the stage (in every seat rotation when rotated)."""
        pop = cell.population
        params = ",".join(p for p in (self.file.strategy_params, pop.strategy_params) if p) or None
        lineups: Sequence[tuple[PlayerSpec, ...]] = cell.lineups or ((),)
        jobs = []
        for lineup in lineups:
            key = f"{cell.key}+s{stage}"
            if len(lineups) > 1:
                key += "." + "-".join(_safe(n.spelling) for n in lineup)
            jobs.append(Job(key, RunConfig.checked(
                game=self.file.game, players=cell.players, games=size // len(lineups),
                seed=self.stage_seed(stage),
                strategies=lineup, strategy_pool=pop.pool, start_vp=cell.rulebook,
                rotate_seats=pop.rotate_seats,
                components=cell.variant.components if cell.variant else self.components,
                chunk_size=pop.chunk_size or self.file.chunk_size, strategy_params=params,
                watched=tuple(self.file.watch))))
        return jobs

    def identity(self) -> Identity:
        """What must match for --resume to continue a study (what decides its rows and its
        verdicts)."""
        f = self.file
        identity: Identity = json.loads(json.dumps({
            **f.settings_identity(), "chunk_size": f.chunk_size,
            "components_digest": self.components_digest,
            "start_vp": {str(k): list(v) for k, v in sorted(self.start_vp.items())},
            "strategy_params": f.strategy_params,
            # only for another game: a Carpe Diem study keeps its identity
            **({"game": f.game} if f.game != game_spec(None).name else {}),
            # only when there are sweeps: a study without any keeps its identity
            **({"sweeps": [s.identity() for s in self.sweeps]} if self.sweeps else {}),
            # not the budget: raising it extends the cell; the design stays as it started
            "cells": [{"key": c.key, "design": c.design, "first": c.first,
                       "lineups": spelled(c.lineups), "pool": spelled([c.population.pool])[0],
                       "rotate": c.population.rotate_seats,
                       "params": c.population.strategy_params, "method": c.method,
                       "variant": c.variant.digest if c.variant else None,
                       # only when set: a study without it keeps its identity
                       **({"chunk_size": c.population.chunk_size}
                          if c.population.chunk_size else {}),
                       **({"sweep": c.variant.sweep} if c.variant and c.variant.sweep else {})}
                      for c in self.cells]}))
        return identity


def spelled(lineups: Sequence[Sequence[PlayerSpec]]) -> list[list[str]]:
    """Line-ups as manifests hold them: each player as spelled."""
    return [[spec.spelling for spec in lineup] for lineup in lineups]


def _safe(name: str) -> str:
    """A strategy's spelling as part of a folder name (module:Class has a colon)."""
    return re.sub(r"[^A-Za-z0-9_@=+,-]", "_", name)



# -- reading and validating a study file -----------------------------------------------

def load_study(path: Path) -> Study:
    """Read and validate a study file: anything wrong is one CdsimError line, before any
    game is played (its schema is ``cdsim.study.file``; strategies, parameters and
    component folders are all loaded here)."""

    def fail(where: str, problem: str) -> CdsimError:
        return CdsimError(f"{path}: {where}{': ' if where else ''}{problem}")

    spec = study_file.parse(path, read_toml(path))
    game = game_spec(spec.game)

    def params(text: str | None, where: str) -> None:
        try:
            game.roster.parse_params(text)  # the game's (one that takes none: said so)
        except CdsimError as exc:
            raise fail(where, str(exc)) from None

    players = spec.players
    for p in players:
        try:
            game.check_players(p, "players")
        except CdsimError as exc:
            raise fail("", str(exc)) from None
    start_vp = {p: tuple(game.start_vp(p)) for p in players}
    start_vp.update({int(k): tuple(v) for k, v in spec.start_vp.items()})
    params(spec.strategy_params, "")
    if game.sweeps is None and spec.sweep:
        raise fail(f"sweep {spec.sweep[0].name!r}", f"{game.title} has no sweeps of "
                   f"component keys; a {game.name} study takes variants (component files) only")
    components = _components(fail, spec.components, path, "components", game)
    base_digest = game.components_digest(components)[0]
    first = spec.first_stage or 0

    pop_games: dict[str, tuple[int | None, int]] = {}
    for pop in spec.population:
        where = f"population {pop.name!r}"
        try:  # each player made now (a user's module imported, learned weights read): one line
            _ = pop.reads_scores_in(game.name)
        except CdsimError as exc:
            raise fail(where, str(exc)) from None
        except Exception as exc:  # a user module that fails to import
            raise fail(where, f"cannot load a strategy ({type(exc).__name__}: {exc})") from None
        params(pop.strategy_params, where)
        pop_games[pop.name] = (pop.games or spec.games, pop.first_stage or first)

    variants = []
    for given in spec.variant:
        folder = _components(fail, given.components, path, f"variant {given.name!r}: components",
                             game)
        assert folder is not None
        variants.append(given.model_copy(update={"components": folder,
                                                 "digest": game.components_digest(folder)[0]}))
    sweeps = tuple(_sweep(fail, given, path, components, game) for given in spec.sweep)
    variants += [v for sweep in sweeps for v in sweep.value_variants()]

    overrides: dict[tuple[int, str], tuple[int | None, int]] = {}
    for ctable in spec.cell:
        budget, start = pop_games[ctable.population]
        overrides[(ctable.players, ctable.population)] = (ctable.games or budget,
                                                          ctable.first_stage or start)

    cells = []
    for p in players:
        for pop in spec.population:
            asked, start = overrides.get((p, pop.name), pop_games[pop.name])
            for variant in (None, *variants):
                budget = asked or question_budget(
                    p, spec, len(candidates(start_vp[p], spec.radius)))
                cell = Cell.of(p, pop, variant, start_vp[p], spec.radius, budget,
                               game.name)
                deal = cell.deal
                budget = -(-budget // deal) * deal  # whole deals
                least = anytime.MIN_GROUPS * deal  # the first stage needs a few dozen deals
                if start and start < least:
                    raise fail(f"cell {cell.key}", f"first_stage = {start} games is fewer "
                               f"than {anytime.MIN_GROUPS} deals ({least} games here), the "
                               "fewest a test may look at; raise it or leave it out")
                start = start or max(least, -(-budget // FIRST_SHARE // deal) * deal)
                if start > budget:
                    raise fail(f"cell {cell.key}", f"games ({budget}) must hold the first "
                               f"stage ({start} games: at least {anytime.MIN_GROUPS} deals of "
                               f"{deal} games); raise games")
                cells.append(cell.budgeted(budget, start, budget))
    study = Study(file=spec, variants=tuple(variants), cells=tuple(cells), start_vp=start_vp,
                  components=components, components_digest=base_digest, source=str(path),
                  text=path.read_text(), sweeps=sweeps)
    for cell in study.cells:  # the schedule's and RunConfig's own checks, now
        try:
            sizes = study.schedule(cell)
            study.stage_jobs(cell, len(sizes) - 1, sizes[-1])
        except CdsimError as exc:
            raise fail(f"cell {cell.key}", str(exc)) from None
    return study


def question_budget(players: int, spec: study_file.StudyFile, vectors: int) -> int:
    """A cell's budget when the study file gives none: the games that decide it whatever
    its truth (``anytime.worst_case_games``, the per-game variance of a pair at fair
    shares; rotated deals only lower it), or ``DEFAULT_BUDGET`` without a zone. With
    ``name_within_zone`` at least the games that show its name (``anytime.naming_games``:
    the name taken from all ``vectors`` at 2 players, from the first choice's ``tested``
    at 3 and 4)."""
    worst = anytime.worst_case_games(players, spec.tolerance, spec.zone, spec.alpha)
    if worst is None:
        return study_file.DEFAULT_BUDGET
    if spec.name_within_zone:
        named_from = vectors if players == 2 else spec.tested
        worst = max(worst, anytime.naming_games(players, spec.zone, spec.alpha, named_from))
    return min(MAX_GAMES, worst)


def _components(fail: Callable[[str, str], CdsimError], value: str | None, study: Path,
                where: str, game: GameSpec | None = None) -> str | None:
    """A component path of the study file, relative to the file's folder, checked by its
    game's loader."""

    if value is None:
        return None
    target = Path(value).expanduser()
    target = target if target.is_absolute() else study.resolve().parent / target
    try:
        (game or game_spec(None)).components_digest(str(target))
    except CdsimError as exc:
        raise fail("", f"{where}: unreadable component set: {exc}") from None
    return str(target.resolve())


def _sweep(fail: Callable[[str, str], CdsimError], sweep: Sweep, study: Path,
           components: str | None, game: GameSpec) -> Sweep:
    """A [[sweep]] resolved by its game's sweeps: its values, each merged on its base
    (default: the study's components; the game's name of its shipped set: that set)."""
    where = f"sweep {sweep.name!r}"
    assert game.sweeps is not None  # refused before: a game without sweeps
    base = (components if sweep.base is None else None if sweep.base == game.sweeps.default
            else _components(fail, sweep.base, study, f"{where}: base", game))
    return expand(f"{study}: {where}", sweep, base, game)


__all__ = ["FIRST_SHARE", "Cell", "Job", "Population", "Study", "Sweep", "Variant", "load_study",
           "question_budget", "spelled"]
