"""``cdsim study run``: player counts x player populations (x design variants) in one go.

A designer's question is never one run: "for 2, 3 and 4 players, which starting VP make the
seats fair, and does that hold for weak, scripted and strong play? what does my change to a
card do to it?". A study file names the player counts, the populations (who sits at the
table) and, optionally, component variants; every combination is a *cell*, played as an
ordinary run folder (``cdsim report`` and ``cdsim balance`` work on each):

    STUDY/study.toml                  the study file as given
    STUDY/study-manifest.json         the normalised study (what --resume must match), the
                                      cells, and the vector recommended for each
    STUDY/cells/4p.random/            a cell's fitting games at the current starting VP
    STUDY/cells/4p.random.B05-at-6/   the same games (seeds, deals, line-ups) on a variant
    STUDY/cells/4p.random+confirm/    the recommended vector on fresh seeds
    STUDY/cells/4p.peeker+resim1/     populations that read scores: re-simulation rounds

Reproducibility: every fitting cell plays the study seed (a variant's cell plays exactly its
base cell's games: common random numbers); confirmations play ``confirm_seed`` (by default
derived from the seed, never equal to it). Chunks of every cell go into one joblib work
queue; only the driver writes (``runner.save_chunk``), so the rows are the same for any
--jobs and any kill-and-resume history. What is played next follows from the finished
rows alone (the fitting is deterministic), so a resumed study re-derives its plan.

This module knows nothing of reports: the recommendation is computed by a ``Fitter``
that the command line passes in (``reports.study.Fitter``).
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from cdsim.components import load_components
from cdsim.errors import CdsimError, read_toml
from cdsim.game import DEFAULT_START_VP
from cdsim.runner import (
    MAX_CHUNK_SIZE,
    MAX_GAMES,
    RunConfig,
    _versions,
    atomic_write,
    play_queue,
    prepare,
    read_folder_manifest,
    read_manifest,
    unstarted,
    write_json,
)
from strategies.registry import make_strategy, parse_params

STUDY_MANIFEST = "study-manifest.json"
STUDY_FILE = "study.toml"
CELLS = "cells"
SHIPPED = Path(__file__).parent / "studies"  # `cdsim study run default`
MAX_RESIM = 3  # re-simulation rounds for a population that reads scores
NAME = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")

TOP_KEYS = ("name", "description", "seed", "confirm_seed", "games", "confirm_games", "players",
            "start_vp", "chunk_size", "radius", "tolerance", "resamples", "strategy_params",
            "components", "population", "variant", "cell")
POPULATION_KEYS = ("name", "description", "lineup", "pool", "rotate_seats", "games",
                   "confirm_games", "strategy_params")
VARIANT_KEYS = ("name", "description", "components")
CELL_KEYS = ("players", "population", "games", "confirm_games")


@dataclass(frozen=True)
class Population:
    name: str
    lineup: tuple[str, ...]  # one name fills every seat; else seats take the first N
    pool: tuple[str, ...]  # or: each seat draws from this pool per game
    rotate_seats: bool
    strategy_params: str | None
    reads_scores: bool  # some player reads VP totals: fitted by re-simulation
    description: str = ""

    def seats(self, players: int) -> tuple[str, ...]:
        if not self.lineup:
            return ()
        return self.lineup * players if len(self.lineup) == 1 else self.lineup[:players]


@dataclass(frozen=True)
class Variant:
    name: str
    components: str  # absolute path of the component folder or file
    digest: str
    description: str = ""


@dataclass(frozen=True)
class Cell:
    players: int
    population: Population
    variant: Variant | None
    games: int
    confirm_games: int

    @property
    def key(self) -> str:
        """Its run folder's name under cells/: ``4p.random`` or ``4p.random.B05-at-6``."""
        parts = [f"{self.players}p", self.population.name]
        return ".".join([*parts, self.variant.name] if self.variant else parts)

    @property
    def base_key(self) -> str:
        return f"{self.players}p.{self.population.name}"


@dataclass(frozen=True)
class Study:
    name: str
    seed: int
    confirm_seed: int
    players: tuple[int, ...]
    populations: tuple[Population, ...]
    variants: tuple[Variant, ...]
    cells: tuple[Cell, ...]
    start_vp: dict[int, tuple[int, ...]]
    chunk_size: int
    radius: int
    tolerance: float
    resamples: int
    components: str | None
    components_digest: str
    strategy_params: str | None
    description: str = ""
    source: str = ""
    text: str = field(default="", repr=False)

    def run_config(self, cell: Cell, start_vp: tuple[int, ...] | None = None,
                   confirm: bool = False) -> RunConfig:
        """The run a cell plays: its fitting games, a re-simulation round at ``start_vp``
        (same seeds), or with ``confirm`` its confirmation (fresh seeds)."""
        pop = cell.population
        params = ",".join(p for p in (self.strategy_params, pop.strategy_params) if p) or None
        return RunConfig(
            players=cell.players, games=cell.confirm_games if confirm else cell.games,
            seed=self.confirm_seed if confirm else self.seed,
            strategies=pop.seats(cell.players), strategy_pool=pop.pool,
            start_vp=start_vp or self.start_vp[cell.players], rotate_seats=pop.rotate_seats,
            components=cell.variant.components if cell.variant else self.components,
            chunk_size=self.chunk_size, strategy_params=params)

    def identity(self) -> dict[str, Any]:
        """What must match for --resume to continue a study (what decides its rows and its
        recommendations; not the report's tolerance or resamples)."""
        identity: dict[str, Any] = json.loads(json.dumps({
            "seed": self.seed, "confirm_seed": self.confirm_seed,
            "chunk_size": self.chunk_size, "radius": self.radius,
            "components_digest": self.components_digest,
            "start_vp": {str(k): list(v) for k, v in sorted(self.start_vp.items())},
            "strategy_params": self.strategy_params,
            "cells": [{"key": c.key, "games": c.games, "confirm_games": c.confirm_games,
                       "lineup": list(c.population.seats(c.players)),
                       "pool": list(c.population.pool), "rotate": c.population.rotate_seats,
                       "params": c.population.strategy_params,
                       "variant": c.variant.digest if c.variant else None}
                      for c in self.cells]}))
        return identity


# -- reading and validating a study file -----------------------------------------------

def resolve(arg: str | Path) -> Path:
    """A study file: a path, or the name of a shipped study (``default``)."""
    path = Path(arg)
    if path.exists() or path.suffix:
        return path
    shipped = SHIPPED / f"{path.name}.toml"
    if shipped.is_file():
        return shipped
    names = ", ".join(sorted(p.stem for p in SHIPPED.glob("*.toml")))
    raise CdsimError(f"{arg}: no such study file (shipped studies: {names})")


class _Check:
    """Typed reads from a study file's tables; every problem is one line naming the file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> CdsimError:
        return CdsimError(f"{self.path}: {where}{': ' if where else ''}{problem}")

    def keys(self, table: Any, known: tuple[str, ...], where: str) -> dict[str, Any]:
        if not isinstance(table, dict):
            raise self.fail(where, f"must be a table, got {table!r}")
        for key in table:
            if key not in known:
                close = difflib.get_close_matches(key, known, 1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise self.fail(where, f"unknown key {key!r} ({hint}known: {', '.join(known)})")
        return table

    def integer(self, table: dict[str, Any], key: str, where: str, default: int | None,
                minimum: int = 0, maximum: int | None = None) -> int:
        value = table.get(key, default)
        if value is None:
            raise self.fail(where, f"{key} is required")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"{key} must be an integer, got {value!r}")
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
            raise self.fail(where, f"{key} must be {bound}, got {value}")
        return value

    def text(self, table: dict[str, Any], key: str, where: str, default: str | None = None
             ) -> str | None:
        value = table.get(key, default)
        if value is not None and not isinstance(value, str):
            raise self.fail(where, f"{key} must be a string, got {value!r}")
        return value

    def name(self, table: dict[str, Any], where: str) -> str:
        value = self.text(table, "name", where)
        if value is None:
            raise self.fail(where, "name is required")
        if not NAME.match(value):
            raise self.fail(where, f"name {value!r} must be 1-40 letters, digits, '-' or '_' "
                            "(it names folders)")
        return value

    def names(self, table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if isinstance(value, str):
            value = [x for x in value.split(",")]
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise self.fail(where, f"{key} must be a list of strategy names, got {value!r}")
        return tuple(x.strip() for x in value if x.strip())


def load_study(path: Path) -> Study:
    """Read and validate a study file: anything wrong is one CdsimError line, before any
    game is played (strategies, parameters and component folders are all loaded here)."""

    ck = _Check(path)
    raw = ck.keys(read_toml(path), TOP_KEYS, "")
    name = ck.name(raw, "")
    seed = ck.integer(raw, "seed", "", 0)
    default_confirm = _derived_seed(seed)
    confirm_seed = ck.integer(raw, "confirm_seed", "", default_confirm)
    if confirm_seed == seed:
        raise ck.fail("", "confirm_seed must differ from seed (confirmations play fresh games)")
    games = ck.integer(raw, "games", "", 1000, 1, MAX_GAMES)
    # confirmation games: as many as the cell's fitting games unless given (at any level)
    confirm_games = (ck.integer(raw, "confirm_games", "", 0, 1, MAX_GAMES)
                     if "confirm_games" in raw else None)
    chunk_size = ck.integer(raw, "chunk_size", "", 250, 1, MAX_CHUNK_SIZE)
    radius = ck.integer(raw, "radius", "", 6, 0, 10)
    resamples = ck.integer(raw, "resamples", "", 200, 200, 100_000)
    tolerance = raw.get("tolerance", 0.02)
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float) \
            or not 0 < tolerance < 1:
        raise ck.fail("", f"tolerance must be a share between 0 and 1 (e.g. 0.02), got {tolerance!r}")

    players_raw = raw.get("players", [2, 3, 4])
    players_list = [players_raw] if isinstance(players_raw, int) else players_raw
    if (not isinstance(players_list, list) or not players_list
            or any(isinstance(p, bool) or not isinstance(p, int) for p in players_list)):
        raise ck.fail("", f"players must be a list of player counts (2, 3, 4), got {players_raw!r}")
    for p in players_list:
        if p not in (2, 3, 4):
            raise ck.fail("", f"players: {p} is not a player count (Carpe Diem plays 2, 3 or 4)")
    if len(set(players_list)) != len(players_list):
        raise ck.fail("", f"players lists a player count twice: {players_list}")
    players = tuple(players_list)

    start_vp = {p: tuple(DEFAULT_START_VP[p]) for p in players}
    given_vp = raw.get("start_vp", {})
    if not isinstance(given_vp, dict):
        raise ck.fail("", 'start_vp must be a table by player count, e.g. start_vp = { 4 = '
                      '[8, 9, 10, 11] } (TOML: [start_vp] then "4" = [8, 9, 10, 11])')
    for key, vector in given_vp.items():
        if key not in {str(p) for p in players}:
            raise ck.fail("start_vp", f"{key!r} is not one of the studied player counts {list(players)}")
        p = int(key)
        if (not isinstance(vector, list) or len(vector) != p
                or any(isinstance(v, bool) or not isinstance(v, int) for v in vector)):
            raise ck.fail("start_vp", f"{key} players need {p} integers, got {vector!r}")
        start_vp[p] = tuple(vector)

    def params(table: dict[str, Any], where: str) -> str | None:
        text = ck.text(table, "strategy_params", where)
        try:
            parse_params(text)
        except CdsimError as exc:
            raise ck.fail(where, str(exc)) from None
        return text

    strategy_params = params(raw, "")
    components = _components(ck, raw.get("components"), path, "components")
    base_digest = load_components(components).digest

    populations: list[Population] = []
    pop_games: dict[str, tuple[int, int | None]] = {}
    pops_raw = raw.get("population", [])
    if not isinstance(pops_raw, list) or not pops_raw:
        raise ck.fail("", "a study needs at least one [[population]] (name, lineup)")
    most = max(players)
    for i, table in enumerate(pops_raw):
        where = f"population {i + 1}"
        table = ck.keys(table, POPULATION_KEYS, where)
        pname = ck.name(table, where)
        where = f"population {pname!r}"
        if pname in {p.name for p in populations}:
            raise ck.fail(where, "a population of this name comes twice")
        lineup, pool = ck.names(table, "lineup", where), ck.names(table, "pool", where)
        if not lineup and not pool:
            raise ck.fail(where, "empty: give lineup = [...] (one name fills every seat; else "
                          "seat N plays the Nth) or pool = [...]")
        if lineup and pool:
            raise ck.fail(where, "give lineup or pool, not both")
        if 1 < len(lineup) < most:
            raise ck.fail(where, f"lineup names {len(lineup)} players, but the study has "
                          f"{most}-player games (give one name for every seat, or at least {most})")
        reads = False
        for strategy in (*lineup, *pool):
            try:
                made = make_strategy(strategy)
            except CdsimError as exc:
                raise ck.fail(where, str(exc)) from None
            except Exception as exc:  # a user module that fails to import
                raise ck.fail(where, f"cannot load strategy {strategy!r} "
                              f"({type(exc).__name__}: {exc})") from None
            reads = reads or bool(getattr(made, "reads_scores", True))
        rotate = table.get("rotate_seats", False)
        if not isinstance(rotate, bool):
            raise ck.fail(where, f"rotate_seats must be true or false, got {rotate!r}")
        if rotate and len(set(lineup)) == 1:
            raise ck.fail(where, "rotate_seats with the same player in every seat would replay "
                          "each deal identically (a seat's choices come from the seat's own "
                          "stream): drop it")
        pop_games[pname] = (ck.integer(table, "games", where, games, 1, MAX_GAMES),
                            ck.integer(table, "confirm_games", where, 0, 1, MAX_GAMES)
                            if "confirm_games" in table else confirm_games)
        populations.append(Population(pname, lineup, pool, rotate, params(table, where), reads,
                                      ck.text(table, "description", where) or ""))

    variants: list[Variant] = []
    vars_raw = raw.get("variant", [])
    if not isinstance(vars_raw, list):
        raise ck.fail("", "variant must be an array of tables: [[variant]] name, components")
    for i, table in enumerate(vars_raw):
        where = f"variant {i + 1}"
        table = ck.keys(table, VARIANT_KEYS, where)
        vname = ck.name(table, where)
        where = f"variant {vname!r}"
        if vname in {v.name for v in variants}:
            raise ck.fail(where, "a variant of this name comes twice")
        if "components" not in table:
            raise ck.fail(where, "components is required (a component folder, as --components takes)")
        folder = _components(ck, table["components"], path, f"{where}: components")
        assert folder is not None
        variants.append(Variant(vname, folder, load_components(folder).digest,
                                ck.text(table, "description", where) or ""))

    overrides: dict[tuple[int, str], tuple[int, int | None]] = {}
    cells_raw = raw.get("cell", [])
    if not isinstance(cells_raw, list):
        raise ck.fail("", "cell must be an array of tables: [[cell]] players, population, games")
    for i, table in enumerate(cells_raw):
        where = f"cell {i + 1}"
        table = ck.keys(table, CELL_KEYS, where)
        p = ck.integer(table, "players", where, None)
        cpop = ck.text(table, "population", where) or ""
        if p not in players:
            raise ck.fail(where, f"players = {p} is not one of the studied player counts {list(players)}")
        if cpop not in pop_games:
            raise ck.fail(where, f"population {cpop!r} is not one of the study's "
                          f"({', '.join(pop_games)})")
        overrides[(p, cpop)] = (ck.integer(table, "games", where, pop_games[cpop][0], 1, MAX_GAMES),
                                ck.integer(table, "confirm_games", where, 0, 1, MAX_GAMES)
                                if "confirm_games" in table else pop_games[cpop][1])

    cells = []
    for p in players:
        for pop in populations:
            g, given = overrides.get((p, pop.name), pop_games[pop.name])
            cg = given or g
            if pop.rotate_seats:  # whole rotations: round up to a multiple of the players
                g, cg = -(-g // p) * p, -(-cg // p) * p
            for variant in (None, *variants):
                cells.append(Cell(p, pop, variant, g, cg))
    study = Study(name=name, seed=seed, confirm_seed=confirm_seed, players=players,
                  populations=tuple(populations), variants=tuple(variants), cells=tuple(cells),
                  start_vp=start_vp, chunk_size=chunk_size, radius=radius,
                  tolerance=float(tolerance), resamples=resamples, components=components,
                  components_digest=base_digest, strategy_params=strategy_params,
                  description=ck.text(raw, "description", "") or "", source=str(path),
                  text=path.read_text())
    for cell in study.cells:  # RunConfig's own checks, now rather than in a worker
        try:
            study.run_config(cell).validate()
        except CdsimError as exc:
            raise ck.fail(f"cell {cell.key}", str(exc)) from None
    return study


def _derived_seed(seed: int) -> int:
    """The default confirmation seed: a fresh stream derived from the study seed."""
    state = np.random.SeedSequence([seed, 0xC0F1]).generate_state(1)
    derived = int(state[0]) & 0x7FFFFFFF
    return derived if derived != seed else derived ^ 1


def _components(ck: _Check, value: Any, study: Path, where: str) -> str | None:
    """A component path of the study file, relative to the file's folder."""

    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ck.fail("", f"{where} must be a path, got {value!r}")
    target = Path(value).expanduser()
    target = target if target.is_absolute() else study.resolve().parent / target
    try:
        load_components(target)
    except CdsimError as exc:
        raise ck.fail("", f"{where}: unreadable component set: {exc}") from None
    return str(target.resolve())


# -- the plan: which runs to play next --------------------------------------------------

class Fitter(Protocol):
    """Chooses starting-VP vectors from finished runs (reports.study.Fitter)."""

    def rerank_best(self, run: Path, radius: int) -> tuple[int, ...]:
        """The most equal vector within ±radius of the run's, by re-ranking its games."""

    def simulated_best(self, runs: Sequence[Path]) -> tuple[int, ...]:
        """The most equal of the vectors these runs (same games) actually played."""


@dataclass(frozen=True)
class Job:
    key: str  # run folder name under cells/
    config: RunConfig


def run_folder(root: Path, key: str) -> Path:
    return root / CELLS / key


def complete(run: Path) -> bool:
    """A run folder whose every chunk is finished."""
    if not (run / "manifest.json").is_file():
        return False
    manifest = read_manifest(run)
    return len(set(manifest["finished"])) == len(manifest["chunks"])


def plan(study: Study, root: Path, fitter: Fitter) -> tuple[list[Job], list[dict[str, Any]]]:
    """The runs to play now (every one whose configuration is known and which is not yet
    complete) and each cell's state as far as known. Depends only on the finished rows."""
    jobs: list[Job] = []
    cells: list[dict[str, Any]] = []
    for cell in study.cells:
        fit = Job(cell.key, study.run_config(cell))
        method = "re-simulation" if cell.population.reads_scores else "re-ranking"
        state: dict[str, Any] = {
            "key": cell.key, "players": cell.players, "population": cell.population.name,
            "variant": cell.variant.name if cell.variant else None, "games": cell.games,
            "method": method, "fit": cell.key, "resim": [], "recommended": None,
            "confirm": None}
        cells.append(state)
        if not complete(run_folder(root, fit.key)):
            jobs.append(fit)
            continue
        chain = [fit]
        recommended: tuple[int, ...] | None = None
        if not cell.population.reads_scores:
            recommended = fitter.rerank_best(run_folder(root, fit.key), study.radius)
        else:  # proposals by (approximate) re-ranking, each played for real on the same games
            while True:
                paths = [run_folder(root, j.key) for j in chain]
                if not complete(paths[-1]):
                    jobs.append(chain[-1])
                    break
                proposal = fitter.rerank_best(paths[-1], study.radius)
                if len(chain) > MAX_RESIM or proposal in {j.config.start_vp for j in chain}:
                    recommended = fitter.simulated_best(paths)
                    break
                chain.append(Job(f"{cell.key}+resim{len(chain)}",
                                 study.run_config(cell, start_vp=proposal)))
            state["resim"] = [j.key for j in chain[1:]]
        if recommended is None:
            continue
        state["recommended"] = list(recommended)
        confirm = Job(f"{cell.key}+confirm", study.run_config(cell, recommended, confirm=True))
        state["confirm"] = confirm.key
        if not complete(run_folder(root, confirm.key)):
            jobs.append(confirm)
    return jobs, cells


def games_total(study: Study, root: Path, jobs: Sequence[Job]) -> tuple[int, int]:
    """(games the study will play as far as known, games already finished)."""
    planned = {c.key: c.games for c in study.cells}
    planned |= {f"{c.key}+confirm": c.confirm_games for c in study.cells}
    planned |= {j.key: j.config.games for j in jobs}
    folder = root / CELLS
    done = 0
    for run in (folder.iterdir() if folder.is_dir() else ()):
        if (run / "manifest.json").is_file():
            m = read_manifest(run)
            planned.setdefault(run.name, int(m["config"]["games"]))
            done += sum(b - a for i, (a, b) in enumerate(m["chunks"]) if i in set(m["finished"]))
    return sum(planned.values()), done


# -- the study folder -----------------------------------------------------------------

def claim_folder(root: Path, kind: str, manifest: str, resume: bool, force: bool) -> bool:
    """A folder of many runs (a study, a ladder): True if it holds one to resume (the caller
    checks it is the same); False once it is ready for a new one (its ``cells/`` made,
    an old one's removed under --force). Never overwrites without --force. The caller
    holds the folder's lock (runner.folder_lock). A folder stopped before its manifest
    was written holds nothing: it starts again, with or without --resume."""
    if root.exists() and not root.is_dir():
        raise CdsimError(f"{root} is a file, not a {kind} folder: choose another --out")
    if (root / manifest).is_file():
        if resume:
            return True
        if not force:
            raise CdsimError(f"{root} already holds a {kind}: --resume to continue it, --force "
                             "to overwrite, or choose another --out")
        try:  # the manifest first: a kill meanwhile leaves an unstarted folder
            (root / manifest).unlink()
        except OSError as exc:
            raise CdsimError(f"{root}: cannot remove the old {kind}: {exc.strerror or exc}") from None
        shutil.rmtree(root / CELLS, ignore_errors=True)
    elif root.exists() and unstarted(root):
        pass
    elif resume:
        raise CdsimError(f"{root}: no {kind} to resume (no {manifest}); drop --resume to "
                         "start one")
    elif root.exists() and not force:
        raise CdsimError(f"{root} exists and is not empty: choose another --out or --force")
    try:
        (root / CELLS).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CdsimError(f"{root}: cannot create the {kind} folder: {exc.strerror or exc}") from None
    return False


def open_folder(root: Path, study: Study, resume: bool, force: bool) -> dict[str, Any]:
    """Create or reopen a study folder; returns its manifest. Never overwrites a study
    without --force, and --resume refuses a different study."""

    if claim_folder(root, "study", STUDY_MANIFEST, resume, force):
        manifest = read_study_manifest(root)
        if manifest.get("identity") != study.identity():
            raise CdsimError(f"{root}: this study folder was made with another study file "
                             "(or other components); use a new --out, or --force to start over")
        # what only the report reads may change between runs: the latest file's
        manifest |= _described(study) | {"command": " ".join(sys.argv)}
        _write_text(root / STUDY_FILE, study.text)
        write_study_manifest(root, manifest)
        return manifest
    _write_text(root / STUDY_FILE, study.text)
    manifest = {"name": study.name, "seed": study.seed, "confirm_seed": study.confirm_seed,
                "identity": study.identity(), "radius": study.radius,
                "players": list(study.players), "cells": [], "versions": _versions(),
                "wall_seconds": 0.0, "command": " ".join(sys.argv)} | _described(study)
    write_study_manifest(root, manifest)
    return manifest


def _described(study: Study) -> dict[str, Any]:
    """The manifest's account of a study for the report (not part of its identity)."""
    return {"description": study.description, "source": study.source,
            "tolerance": study.tolerance, "resamples": study.resamples,
            "populations": [{"name": p.name, "description": p.description,
                             "lineup": list(p.lineup), "pool": list(p.pool),
                             "rotate_seats": p.rotate_seats, "reads_scores": p.reads_scores}
                            for p in study.populations],
            "variants": [{"name": v.name, "description": v.description,
                          "components": v.components, "digest": v.digest}
                         for v in study.variants]}


def _write_text(path: Path, text: str) -> None:
    try:
        atomic_write(path, lambda tmp: tmp.write_text(text))
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None


def write_study_manifest(root: Path, manifest: dict[str, Any]) -> None:
    write_json(root, STUDY_MANIFEST, manifest)


def _cell_schema() -> Any:
    """One entry of a study manifest's ``cells`` (as ``plan`` writes it), declared once."""
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

    Key = Annotated[str, Field(pattern=r"^[A-Za-z0-9_@=.,+-]+$", max_length=200)]

    class CellState(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        key: Key
        players: Annotated[int, Field(ge=2, le=4)]
        population: str
        variant: str | None
        games: Annotated[int, Field(ge=1, le=MAX_GAMES)]
        method: str
        fit: Key
        resim: list[Key]
        recommended: list[int] | None
        confirm: Key | None

    return TypeAdapter(list[CellState])


def read_study_manifest(root: Path) -> dict[str, Any]:
    """A study folder's manifest, its cells checked against their schema (one line)."""
    from pydantic import ValidationError

    manifest = read_folder_manifest(root, STUDY_MANIFEST, "study", "cdsim study run",
                                    ("identity", "cells"))
    try:
        _cell_schema().validate_json(json.dumps(manifest["cells"]))
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise CdsimError(f"{root / STUDY_MANIFEST}: cells{'.' if where else ''}{where}: "
                         f"{err['msg'].lower()}") from None
    for cell in manifest["cells"]:
        if set(cell["key"]) == {"."}:  # names a folder under cells/: never . or ..
            raise CdsimError(f"{root / STUDY_MANIFEST}: cells: bad key {cell['key']!r}")
    return manifest


# -- playing: one work queue over every run's chunks --------------------------------------

OnChunk = Callable[[str, int], None]  # (run key, games in the chunk)
OnPlan = Callable[[int, int], None]  # (games planned as far as known, games finished)


def run(study: Study, root: Path, fitter: Fitter, jobs: int = -1, backend: str = "loky",
        resume: bool = False, force: bool = False, on_chunk: OnChunk | None = None,
        on_plan: OnPlan | None = None) -> dict[str, Any]:
    """Play the whole study into ``root``: the fitting cells, then (as their rows decide
    them) re-simulation rounds and confirmations, each stage's chunks in one queue."""
    manifest = open_folder(root, study, resume, force)
    start = time.perf_counter()
    while True:
        todo, cells = plan(study, root, fitter)
        manifest["cells"] = cells
        write_study_manifest(root, manifest)
        if on_plan is not None:
            on_plan(*games_total(study, root, todo))
        if not todo:
            break
        try:
            play(root, todo, jobs, backend, on_chunk)
        finally:
            manifest["wall_seconds"] = round(manifest["wall_seconds"] + time.perf_counter()
                                             - start, 3)
            start = time.perf_counter()
            write_study_manifest(root, manifest)
    return manifest


def _prepare(root: Path, job: Job) -> dict[str, Any]:
    folder = run_folder(root, job.key)
    exists = (folder / "manifest.json").is_file()
    try:  # a cell folder without a manifest holds nothing (a kill before its first write)
        return prepare(folder, job.config, resume=exists, force=not exists)
    except CdsimError as exc:
        raise CdsimError(f"cell {job.key}: {exc}") from None


def play(root: Path, todo: Sequence[Job], jobs: int, backend: str,
         on_chunk: OnChunk | None = None) -> None:
    """Play the unfinished chunks of every run in ``todo`` (folders under ``root/cells``) in
    the one work queue (``runner.play_queue``); used by studies and ladders."""
    runs = {job.key: (run_folder(root, job.key), _prepare(root, job)) for job in todo}
    tick = None if on_chunk is None else (lambda key, _index, games: on_chunk(key, games))
    play_queue(runs, jobs, backend, tick, f"finished chunks are kept in {root}")


def write_template(path: Path) -> None:
    """``cdsim study init``: the shipped default study, to edit."""
    if path.exists():
        raise CdsimError(f"{path} exists: choose another file name")
    try:
        path.write_text((SHIPPED / "default.toml").read_text())
    except OSError as exc:
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None


__all__ = ["Cell", "Fitter", "Job", "Population", "Study", "Variant", "complete",
           "load_study", "open_folder", "plan", "read_study_manifest", "resolve", "run",
           "run_folder", "write_template"]
