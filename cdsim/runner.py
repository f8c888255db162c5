"""Batches of games: seeds, a chunk plan, joblib workers, Parquet parts, manifest, resume.

Reproducibility contract: game ``g`` of a run with seed ``S`` deals setup
``g // N`` (with --rotate-seats, N = players; else setup = g) from the core's seed
``(S, setup)`` (core/src/rng.rs); chunks are fixed ranges of game ids
(``chunk_size``), independent of ``--jobs``; workers return rows and only the
driver writes, one Parquet part per chunk, atomically. So the rows are the same
for any --jobs, backend, completion order, or kill-and-resume history.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cdsim import __version__, core
from cdsim.components import load_components
from cdsim.engine.table import Table, check_decision_timeout, decision_timeout
from cdsim.errors import CdsimError, StrategyFailure
from cdsim.game import DEFAULT_START_VP
from cdsim.records import SEAT_FIELDS, digest_rows
from cdsim.train import weights_record
from strategies.registry import BUILTIN, make_lineup, parse_params, spec_overrides

MANIFEST = "manifest.json"
PARTS = "games"
# What one run may ask for: its rows (games x players, about 300 bytes each on disk) and
# its chunk list (held in memory and in the manifest) must fit this machine.
MAX_GAMES = 100_000_000
MAX_CHUNK_SIZE = 100_000
MAX_CHUNKS = 100_000
MAX_START_VP = 1_000_000  # |starting VP| (the core holds VP as 32-bit integers)
MAX_JOBS = 256
# A folder (run, study, ladder) is written by one process at a time: it holds an OS lock on
# this file inside the folder for the whole command (released by the OS on any exit).
LOCK = ".cdsim.lock"
# What a folder holds before its manifest exists (a kill there leaves only these): such a
# folder is started again, by a plain rerun or --resume, as if it were new.
UNSTARTED = {LOCK, PARTS, "cells", "study.toml"}


@contextmanager
def folder_lock(folder: Path, what: str = "run") -> Iterator[None]:
    """Own ``folder`` (made if missing) for the block, or one error line if another process
    does: nothing is read, deleted or written before the lock is held."""
    from filelock import FileLock, Timeout

    check_out(folder)
    if folder.exists() and not folder.is_dir():
        raise CdsimError(f"{folder} is a file, not a {what} folder: choose another --out")
    made = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot create the {what} folder: {exc.strerror or exc}") from None
    try:
        lock = FileLock(folder / LOCK, timeout=0)
        lock.acquire()
    except Timeout:
        raise CdsimError(f"{folder}: another cdsim process is writing this {what} folder; wait "
                         "for it (or stop it), then continue with --resume") from None
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot lock the {what} folder: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        if made and unstarted(folder):  # refused or stopped before it began: leave nothing
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
        lock.release()


def check_out(folder: Path, flag: str = "--out") -> Path:
    """A folder name this system can hold (each part at most 255 bytes), or one line."""
    for part in folder.parts:
        if len(os.fsencode(part)) > 255:
            raise CdsimError(f"{flag}: a folder name is at most 255 bytes, got "
                             f"{len(os.fsencode(part))} ({part[:20]}...)")
    if len(os.fsencode(str(folder))) > 4000:
        raise CdsimError(f"{flag}: a path of at most 4000 bytes, got {len(os.fsencode(str(folder)))}")
    return folder


def unstarted(folder: Path) -> bool:
    """True if ``folder`` holds nothing a run, study or ladder made of value: only what a
    kill before its manifest leaves (a lock, empty folders, the copied study file)."""
    try:
        entries = list(folder.iterdir())
        if any(e.name not in UNSTARTED for e in entries):
            return False
        return not any(p.suffix == ".parquet" or p.name.endswith("manifest.json")
                       for e in entries if e.is_dir() for p in e.rglob("*"))
    except OSError:
        return False


def _die_with_driver() -> None:
    """Worker initializer: on Linux the kernel stops the worker when the process that
    started it dies, even by kill -9 (else loky workers play on for minutes)."""
    if sys.platform.startswith("linux"):
        import contextlib
        import ctypes
        import signal

        with contextlib.suppress(OSError, AttributeError):  # no prctl: they end when idle
            ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def worker_options(backend: str) -> dict[str, Any]:
    """parallel_config's extra settings for a backend's workers (loky: die with the driver)."""
    return {"initializer": _die_with_driver} if backend == "loky" else {}


def check_jobs(jobs: int, flag: str = "--jobs") -> int:
    """A worker count joblib takes: -1 (every core) or 1..MAX_JOBS, or one error line."""
    if jobs != -1 and not 1 <= jobs <= MAX_JOBS:
        raise CdsimError(f"{flag} must be a number of workers between 1 and {MAX_JOBS}, "
                         f"or -1 for every core, got {_cut(jobs)}")
    return jobs


def _cut(value: object) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's rows (written whole into the manifest)."""

    players: int
    games: int
    seed: int
    strategies: tuple[str, ...] = ()  # one per seat
    strategy_pool: tuple[str, ...] = ()  # or a pool sampled per game
    start_vp: tuple[int, ...] = ()
    rotate_seats: bool = False
    components: str | None = None
    chunk_size: int = 250
    strategy_params: str | None = None
    components_digest: str = field(default="", compare=False)
    # a user strategy's time limit per decision (s; 0: none): recorded, not the run's
    # identity (--resume may change it); the process's --decision-timeout by default
    decision_timeout: float = field(default_factory=decision_timeout, compare=False)

    def validate(self) -> None:
        if self.players not in (2, 3, 4):
            raise CdsimError(f"--players must be 2, 3 or 4, got {_cut(self.players)}")
        if not 1 <= self.games <= MAX_GAMES:
            raise CdsimError(f"--games must be between 1 and {MAX_GAMES:,} (a run's rows must "
                             f"fit this machine's memory and disk), got {_cut(self.games)}")
        if not 0 <= self.seed < 2**63:  # the rows' seed column is a 64-bit integer
            raise CdsimError(f"--seed must be between 0 and 2**63 - 1, got {_cut(self.seed)}")
        if not 1 <= self.chunk_size <= MAX_CHUNK_SIZE:
            raise CdsimError(f"--chunk-size must be between 1 and {MAX_CHUNK_SIZE:,}, "
                             f"got {_cut(self.chunk_size)}")
        chunks = -(-self.games // self.chunk_size)
        if chunks > MAX_CHUNKS:
            raise CdsimError(f"--games {self.games} in chunks of {self.chunk_size} makes "
                             f"{chunks:,} chunks, at most {MAX_CHUNKS:,}: raise --chunk-size")
        if self.start_vp and len(self.start_vp) != self.players:
            raise CdsimError(f"--start-vp needs {self.players} values (one per seat), "
                             f"got {len(self.start_vp)}")
        for vp in self.start_vp:
            if isinstance(vp, bool) or not isinstance(vp, int) or abs(vp) > MAX_START_VP:
                raise CdsimError(f"--start-vp values must be integers between -{MAX_START_VP:,} "
                                 f"and {MAX_START_VP:,}, got {_cut(vp)}")
        if not self.strategies and not self.strategy_pool:
            raise CdsimError("give the players: --strategies (one per seat, or one name for "
                             "all) or --strategy-pool")
        if self.strategies and self.strategy_pool:
            raise CdsimError("give --strategies (one per seat) or --strategy-pool, not both")
        if self.strategies and len(self.strategies) != self.players:
            raise CdsimError(f"--strategies names {len(self.strategies)} strategies for "
                             f"{self.players} players (one per seat)")
        check_decision_timeout(self.decision_timeout)
        if self.rotate_seats and self.games % self.players:
            raise CdsimError(f"--rotate-seats plays every setup in all {self.players} seat "
                             f"rotations: --games must be a multiple of {self.players}")

    def identity(self) -> dict[str, Any]:
        """What must match for --resume to continue a run."""
        d = asdict(self)
        d.pop("components")  # the path may move; the digest is what matters
        d.pop("decision_timeout")  # how long a strategy may think, not what it plays
        return d


def lineup_for(config: RunConfig, game: int) -> tuple[int, list[str]]:
    """(setup id, strategy names by seat) of one game of the run."""
    n = config.players
    setup = game // n if config.rotate_seats else game
    if config.strategy_pool:
        pool_rng = np.random.default_rng(np.random.SeedSequence(config.seed,
                                                                spawn_key=(setup, 1)))
        names = [config.strategy_pool[int(i)]
                 for i in pool_rng.integers(len(config.strategy_pool), size=n)]
    else:
        names = list(config.strategies)
    if config.rotate_seats:
        r = game % n
        names = names[r:] + names[:r]
    return setup, names


def replay_command(config: RunConfig, game: int) -> str:
    """The `cdsim play` command that replays one game of a run."""
    setup, names = lineup_for(config, game)
    parts = ["cdsim play", f"--players {config.players}", f"--seed {config.seed}",
             f"--setup {setup}", f"--strategies {','.join(names)}"]
    if config.start_vp:
        parts.append(f"--start-vp {','.join(map(str, config.start_vp))}")
    if config.strategy_params:
        parts.append(f"--strategy-params {config.strategy_params}")
    if config.components:
        parts.append(f"--components {config.components}")
    return " ".join(parts)


def play_chunk_table(config: RunConfig, first: int, last: int) -> list[dict[str, Any]]:
    """Games first..last-1 on the core, one at a time (worker side): a line-up with a
    user's Python strategy (``cdsim.engine.table``: built-in seats play natively, the
    Python strategy on the Python rules' view, in lock step). A strategy that fails
    (anything in its code, its time limit, a choice not offered) is a StrategyFailure
    naming the game, the decision and the command that replays it."""

    overrides = parse_params(config.strategy_params)
    rows: list[dict[str, Any]] = []
    watch = _watcher()
    for game in range(first, last):
        setup, names = lineup_for(config, game)
        table = None
        try:
            table = Table(config.components, make_lineup(names, config.players, overrides),
                          config.seed, setup, config.start_vp, where=f"game {game}",
                          decision_timeout=config.decision_timeout or None, watch=watch)
            record = table.play()
        except StrategyFailure as exc:  # named as the user gave it (module:Class)
            name = names[exc.seat] if exc.seat >= 0 else exc.strategy
            decision = "" if table is None else f" decision {table.core.decisions + 1}"
            raise exc.located(name, f", game {game} (setup {setup}){decision}; replay it "
                              f"with: {replay_command(config, game)}") from None
        for row in record.rows():
            row.update(game=game, setup=setup, seed=config.seed)
            rows.append(row)
    return rows


# A worker that dies (a crash, a kill, os._exit called another way) says nothing: so while a
# user strategy decides, a worker started by a cdsim driver keeps a one-line note of where
# it is in a file of its own (DRIVER_ENV names the driver), which the driver reads when
# joblib reports the worker dead (``dead_worker_note``; cdsim.cli.app sets DRIVER_ENV).
DRIVER_ENV = "CDSIM_DRIVER"
_NOTE: dict[str, int] = {}


def notes_folder(driver: int) -> Path:
    import tempfile

    return Path(tempfile.gettempdir()) / f"cdsim-{driver}-workers"


def _watcher() -> Callable[[str | None], None] | None:
    """The note keeper of this worker, or None where there is no driver to read notes
    (the driver itself, --jobs 1, or a worker of another kind)."""
    if os.environ.get(DRIVER_ENV) != str(os.getppid()):
        return None
    return _note


def _note(text: str | None) -> None:
    try:
        if "fd" not in _NOTE:
            folder = notes_folder(os.getppid())
            folder.mkdir(exist_ok=True)
            _NOTE["fd"] = os.open(folder / str(os.getpid()), os.O_CREAT | os.O_WRONLY, 0o600)
        data = (text or "").encode("utf-8", "replace")[:2000] + b"\n"
        os.pwrite(_NOTE["fd"], data.ljust(2048), 0)
    except OSError:
        pass  # a note is a courtesy: never fail a game for it


def dead_worker_note() -> str | None:
    """What a dead worker of this driver was doing, if it was in a user strategy's decision
    (the notes of workers that ended normally are empty): a last word ("!...", written by
    a worker that stopped itself) first, else the note left longest ago (loky stops the
    other workers after the first death)."""
    folder = notes_folder(os.getpid())
    notes: list[tuple[bool, float, str]] = []
    try:
        for path in folder.iterdir():
            line = path.read_text(errors="replace").split("\n", 1)[0].strip()
            if line:
                notes.append((not line.startswith("!"), path.stat().st_mtime, line))
    except OSError:
        pass
    return min(notes)[2].lstrip("!") if notes else None


def clear_notes() -> None:
    import shutil

    shutil.rmtree(notes_folder(os.getpid()), ignore_errors=True)


def core_chunk_frame(config: RunConfig, first: int, last: int, check: bool = False) -> Any:
    """Games first..last-1 played in the core a chunk at a time (every seat a built-in
    player), as rows: the same rows ``play_chunk_table`` gives, faster."""
    import polars as pl


    module = core.module()
    assert module is not None
    n = config.players
    games = np.arange(first, last, dtype=np.int64)
    setups = np.empty(len(games), dtype=np.int64)
    names = list(dict.fromkeys(config.strategies or config.strategy_pool))
    index = {name: i for i, name in enumerate(names)}
    lineups = np.empty(len(games) * n, dtype=np.uint8)
    for i, game in enumerate(range(first, last)):
        setups[i], seats = lineup_for(config, game)
        lineups[i * n:(i + 1) * n] = [index[s] for s in seats]
    overrides = parse_params(config.strategy_params)
    # the core plays built-in names; a name@setting spelling is its built-in with overrides
    strategies = [(base, sorted(mine.items()))
                  for base, mine in (spec_overrides(name, overrides) for name in names)]
    start_vp = list(config.start_vp or DEFAULT_START_VP[n])
    columns = module.play_chunk(core.core_components(config.components), n, start_vp,
                                config.seed, games, setups, lineups, strategies, check)
    strategy = pl.Series(names, dtype=pl.String).gather(columns.pop("strategy"))
    frame: dict[str, Any] = {"strategy": strategy}
    frame.update({k: pl.Series(k, v, dtype=pl.Boolean if v.dtype == np.bool_ else pl.Int64)
                  for k, v in columns.items()})
    order = [*SEAT_FIELDS, "seed", "players", "tiebreak", "game", "setup"]
    return pl.DataFrame({k: frame[k] for k in order})


def engine_for(config: RunConfig) -> str:
    """How a run plays on the core: ``rust`` (the core alone, a chunk at a time) when every
    seat is a built-in player; ``table`` (a game at a time, the Python rules beside the
    core for the Python strategies' view: cdsim.engine.table) when a seat is a user's
    strategy. Without the core nothing plays: one line."""

    if not core.available():
        raise CdsimError("the compiled core (cdsim._core) is not installed: run `make "
                         "install` (it builds it with the Rust toolchain)")
    names = config.strategies or config.strategy_pool
    return "rust" if all(n.partition("@")[0] in BUILTIN for n in names) else "table"


def chunk_plan(config: RunConfig) -> list[tuple[int, int]]:
    k = config.chunk_size
    return [(i, min(i + k, config.games)) for i in range(0, config.games, k)]


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file, fsync, rename: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _versions() -> dict[str, str]:
    import joblib
    import polars

    return {"cdsim": __version__, "python": platform.python_version(),
            "numpy": np.__version__, "polars": polars.__version__, "joblib": joblib.__version__}


def write_json(folder: Path, name: str, data: dict[str, Any]) -> None:
    """A manifest (a run's or a study's), atomically, or one error line."""
    text = json.dumps(data, indent=1, sort_keys=True)
    try:
        atomic_write(folder / name, lambda p: p.write_text(text))
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write {name}: {exc.strerror or exc}") from None


def read_folder_manifest(root: Path, name: str, what: str, make: str,
                         keys: tuple[str, ...]) -> dict[str, Any]:
    """The manifest of a ladder or study folder, or one error line naming the problem
    (``what``: "ladder"/"study", ``make``: the command that makes one, ``keys``: fields
    a manifest of that kind has)."""
    path = root / name
    if not root.is_dir():
        raise CdsimError(f"{root}: no such {what} folder (make one with {make})")
    if not path.is_file():
        raise CdsimError(f"{root}: not a {what} folder (no {name}); make one with {make}")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as exc:
        raise CdsimError(f"{path}: unreadable {what} manifest ({str(exc)[:200]})") from None
    if not isinstance(data, dict) or any(k not in data for k in keys):
        raise CdsimError(f"{path}: not a cdsim {what} manifest")
    return data


def write_manifest(run: Path, manifest: dict[str, Any]) -> None:
    write_json(run, MANIFEST, manifest)


def _schemas() -> tuple[Any, Any]:
    """The run manifest's schema, declared once (pydantic, strict: JSON types as written)."""
    from pydantic import BaseModel, ConfigDict

    class Settings(BaseModel):  # manifest["config"]: a RunConfig
        model_config = ConfigDict(strict=True, extra="forbid")
        players: int
        games: int
        seed: int
        strategies: list[str]
        strategy_pool: list[str]
        start_vp: list[int]
        rotate_seats: bool
        components: str | None
        chunk_size: int
        strategy_params: str | None
        components_digest: str = ""
        decision_timeout: float = 10.0  # manifests before it: the default

    class Manifest(BaseModel):
        model_config = ConfigDict(strict=True, extra="allow")
        config: Settings
        config_identity: dict[str, Any]
        chunks: list[tuple[int, int]]
        finished: list[int]
        wall_seconds: float

    return Settings, Manifest


def check_manifest(path: Path, text: str) -> dict[str, Any]:
    """A run manifest's data, checked against its schema and itself: a whole chunk plan for
    the configuration, each finished chunk listed once; else one line naming the key."""
    from pydantic import ValidationError

    from cdsim.schema import problem

    _, schema = _schemas()
    try:
        data = json.loads(text)
        model = schema.model_validate_json(text)
    except (ValueError, RecursionError) as exc:
        if isinstance(exc, ValidationError):
            raise CdsimError(f"{path}: not a valid run manifest: "
                             f"{problem(exc, schema, data)}") from None
        raise CdsimError(f"{path}: unreadable manifest ({str(exc)[:200]})") from None
    try:
        config = config_from_manifest(data)
        config.validate()
    except CdsimError as exc:
        raise CdsimError(f"{path}: config: {str(exc).replace('--', '')}") from None
    if [tuple(c) for c in model.chunks] != [tuple(c) for c in chunk_plan(config)]:
        raise CdsimError(f"{path}: chunks: not the chunk plan of {config.games} games in chunks "
                         f"of {config.chunk_size}")
    seen: set[int] = set()
    for i in model.finished:
        if not 0 <= i < len(model.chunks):
            raise CdsimError(f"{path}: finished: chunk {i} is not in the plan "
                             f"(0-{len(model.chunks) - 1})")
        if i in seen:
            raise CdsimError(f"{path}: finished: chunk {i} is listed twice")
        seen.add(i)
    return dict(data)


def read_manifest(run: Path) -> dict[str, Any]:
    path = run / MANIFEST
    if not path.is_file():
        raise CdsimError(f"{run}: not a run folder (no {MANIFEST})")
    try:
        text = path.read_text()
    except (OSError, ValueError) as exc:
        raise CdsimError(f"{path}: unreadable manifest ({exc})") from None
    try:
        head = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CdsimError(f"{path}: unreadable manifest ({str(exc)[:200]})") from None
    if not isinstance(head, dict) or "config" not in head:
        raise CdsimError(f"{path}: not a cdsim manifest")
    return check_manifest(path, text)


def part_path(run: Path, index: int) -> Path:
    return run / PARTS / f"part-{index:05d}.parquet"


def part_schema(path: Path) -> dict[str, Any]:
    """A part file's column types, or one error line if it is missing or corrupt."""
    import polars as pl

    try:
        return dict(pl.read_parquet_schema(path))
    except Exception as exc:
        raise CdsimError(f"{path}: corrupt or missing part file ({type(exc).__name__}); "
                         "delete it and its chunk from manifest.json, then --resume") from None


def _check_parts(run: Path, finished: list[int]) -> None:
    for i in finished:
        part_schema(part_path(run, i))


def prepare(run: Path, config: RunConfig, resume: bool, force: bool) -> dict[str, Any]:
    """Create or reopen the run folder; returns the manifest."""
    config.validate()
    engine_for(config)  # a player the core cannot play: refused before any folder
    components = load_components(config.components)
    digest = components.digest
    config = RunConfig(**{**asdict(config), "components_digest": digest})
    weights = weights_record(config.strategies or config.strategy_pool, digest)
    if run.is_dir() and (run / MANIFEST).exists():
        if resume:
            manifest = read_manifest(run)
            if manifest["config_identity"] != _jsonable(config.identity()):
                raise CdsimError(f"{run}: its manifest was made with another configuration; "
                                 "use a new --out, or --force to start over")
            if manifest.get("weights", {}) != weights:
                raise CdsimError(f"{run}: the learned player's weights changed since this run "
                                 "began; use a new --out, or --force to start over")
            _check_parts(run, manifest["finished"])
            manifest["config"]["decision_timeout"] = config.decision_timeout  # this command's
            return manifest
        if not force:
            raise CdsimError(f"{run} already holds a run: --resume to continue it, "
                             "--force to overwrite, or choose another --out")
        try:  # the old manifest first: a kill meanwhile leaves an unstarted folder
            (run / MANIFEST).unlink()
            for old in (run / PARTS).glob("part-*.parquet"):
                old.unlink()
        except OSError as exc:
            raise CdsimError(f"{run}: cannot remove the old run: {exc.strerror or exc}") from None
    elif run.exists() and not run.is_dir():
        raise CdsimError(f"{run} is a file, not a run folder: choose another --out")
    elif run.exists() and not unstarted(run) and not force:
        raise CdsimError(f"{run} exists and is not empty: choose another --out or --force")
    try:
        (run / PARTS).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CdsimError(f"{run}: cannot create the run folder: {exc.strerror or exc}") from None
    manifest = {
        "config": _jsonable(asdict(config)), "config_identity": _jsonable(config.identity()),
        "seed": config.seed, "versions": _versions(), "components_digest": digest,
        "components_default": components.is_default,
        "chunks": chunk_plan(config), "finished": [], "wall_seconds": 0.0,
        "command": " ".join(sys.argv),
    }
    if weights:  # which weights the learned player played with (cdsim.train)
        manifest["weights"] = weights
    write_manifest(run, manifest)
    return manifest


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def config_from_manifest(manifest: dict[str, Any]) -> RunConfig:
    raw = dict(manifest["config"])
    for key in ("strategies", "strategy_pool", "start_vp"):
        raw[key] = tuple(raw[key])
    return RunConfig(**raw)


OnChunk = Callable[[str, int, int], None]  # (run key, chunk index, games in the chunk)


def play_queue(runs: dict[str, tuple[Path, dict[str, Any]]], jobs: int, backend: str,
               on_chunk: OnChunk | None = None, where: str = "") -> None:
    """The one work queue (runs, studies and ladders): every unfinished chunk of every run in
    ``runs`` (key -> (run folder, its manifest from ``prepare``)) goes into one joblib queue;
    only the driver writes, each part as it arrives (``save_chunk``), so the rows are the
    same for any --jobs and any completion order. A strategy's failure in one chunk lets the
    others finish and be kept; then the first failure is raised, naming ``where`` (default:
    the run folder) as the place --resume continues from."""
    from joblib import Parallel, delayed, parallel_config

    configs = {key: config_from_manifest(m) for key, (_, m) in runs.items()}
    engines = {key: engine_for(config) for key, config in configs.items()}
    for key, (_, m) in runs.items():
        m["engine"] = engines[key]  # written with the run's first finished chunk

    def tasks() -> Iterator[Any]:
        for key, (_, m) in runs.items():
            finished = set(m["finished"])
            for index, (first, last) in enumerate(m["chunks"]):
                if index not in finished:
                    yield delayed(_indexed_chunk)(key, index, configs[key], first, last,
                                                  engines[key])

    failures: list[StrategyFailure] = []
    start = time.perf_counter()
    with parallel_config(backend=backend, n_jobs=jobs, **worker_options(backend)):
        results = Parallel(return_as="generator_unordered")(tasks())
        try:
            for key, index, rows in results:
                if isinstance(rows, StrategyFailure):  # the other chunks go on and are kept
                    failures.append(rows)
                    continue
                now = time.perf_counter()
                folder, manifest = runs[key]
                save_chunk(folder, manifest, index, rows, now - start)
                start = now
                if on_chunk is not None:
                    first, last = manifest["chunks"][index]
                    on_chunk(key, index, last - first)
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                import warnings

                with warnings.catch_warnings():  # joblib's note on cancelled tasks at a stop
                    warnings.simplefilter("ignore", UserWarning)
                    close()
    if failures:
        more = f"; {len(failures) - 1} more chunks failed" if len(failures) > 1 else ""
        if not where:
            (folder, manifest), = runs.values()
            where = f"{len(manifest['finished'])} finished chunks are kept in {folder}"
        raise failures[0].located(failures[0].strategy, f"{more}; {where} (--resume plays "
                                  "the rest)")


def run_chunks(run: Path, manifest: dict[str, Any], jobs: int, backend: str,
               on_chunk: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play every unfinished chunk of one run (``play_queue`` with one run);
    ``on_chunk(index, games)`` after each is written."""
    tick = None if on_chunk is None else (lambda _key, index, games: on_chunk(index, games))
    play_queue({str(run): (run, manifest)}, jobs, backend, tick)
    return manifest


def play_chunk_frame(config: RunConfig, first: int, last: int, engine: str = "") -> Any:
    """Games first..last-1 as a polars DataFrame of rows, on the engine the run plays on
    (the compiled core when every seat is a built-in player: the same rows, faster)."""
    import polars as pl


    if (engine or engine_for(config)) == "rust":
        return core_chunk_frame(config, first, last)
    return pl.DataFrame(play_chunk_table(config, first, last))


def _indexed_chunk(key: str, index: int, config: RunConfig, first: int, last: int,
                   engine: str = "") -> tuple[str, int, Any]:
    """Worker side: a chunk's rows, or the failure of a strategy in it (returned, not
    raised, so that the other chunks of the queue finish and are written)."""
    try:
        return key, index, play_chunk_frame(config, first, last, engine)
    except StrategyFailure as exc:
        return key, index, exc


def load_rows(run: Path) -> list[dict[str, Any]]:
    """All rows of a run folder, sorted by game and seat."""
    import polars as pl

    parts = sorted((run / PARTS).glob("part-*.parquet"))
    if not parts:
        return []
    return pl.concat([pl.read_parquet(p) for p in parts]).sort(["game", "seat"]).to_dicts()


def run_digest(run: Path) -> str:
    """Digest of a run's sorted rows: equal for equal runs, whatever the history."""

    return digest_rows(load_rows(run))


def save_chunk(run: Path, manifest: dict[str, Any], index: int, frame: Any,
               seconds: float) -> None:
    """The driver's side of one finished chunk (a polars DataFrame of its rows): the part is
    written atomically, then the manifest records it (a kill between the two only replays
    the chunk). ``seconds``: the wall time to add to the run's."""
    try:
        atomic_write(part_path(run, index), frame.write_parquet)
    except OSError as exc:
        raise CdsimError(f"{part_path(run, index)}: cannot write: {exc.strerror or exc}; "
                         "finished chunks are kept, --resume continues") from None
    manifest["finished"] = sorted([*manifest["finished"], index])
    manifest["wall_seconds"] = round(manifest["wall_seconds"] + seconds, 3)
    write_manifest(run, manifest)
