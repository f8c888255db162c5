"""The folders commands write, as one type: ``RunFolder``.

A run folder holds ``manifest.json`` and ``games/part-NNNNN.parquet`` (one part per
chunk); a study or a ladder folder holds its manifest and ``cells/``, one run folder per
cell or pairing. What they share is here, once:

- **one writer**: an OS lock on a file inside the folder, held for the whole command
  (released by the OS on any exit); nothing is read, deleted or written before it is held;
- **claiming**: a new folder, ``--resume`` of the one it holds, or ``--force`` over it;
  never overwriting without ``--force``. A folder stopped before its manifest was written
  holds nothing and starts again, with or without ``--resume``;
- **manifests** written atomically and read back checked against their schema;
- for runs, **parts**: written atomically by the driver only, then recorded in the
  manifest (a kill between the two only replays the chunk).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from cdsim import __version__
from cdsim.batch.config import RunConfig, chunk_plan, config_from_manifest, engine_for
from cdsim.errors import CdsimError
from cdsim.players.weights import weights_record
from cdsim.rules.components import load_components
from cdsim.rules.records import digest_rows
from cdsim.schema import problem

MANIFEST = "manifest.json"
PARTS = "games"
CELLS = "cells"
LOCK = ".cdsim.lock"
# What a folder holds before its manifest exists (a kill there leaves only these): such a
# folder is started again, by a plain rerun or --resume, as if it were new.
UNSTARTED = {LOCK, PARTS, CELLS, "study.toml"}

Check = Callable[[Path, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Kind:
    """What a kind of folder is called, where its manifest and content are, and how its
    manifest is checked on reading (``check(path, data)`` returns the data or raises one
    line)."""

    name: str  # "run", "study", "ladder": in messages
    manifest: str  # the manifest's file name
    holds: str  # its content: PARTS (Parquet parts) or CELLS (run folders)
    make: str  # the command that makes one
    keys: tuple[str, ...]  # fields every manifest of this kind has
    check: Check | None = None


class RunFolder:
    """A run, study or ladder folder (``kind``) at ``path``."""

    def __init__(self, path: Path, kind: Kind | None = None) -> None:
        self.path = Path(path)
        self.kind = kind or RUN

    def __repr__(self) -> str:
        return f"RunFolder({str(self.path)!r}, {self.kind.name})"

    @property
    def manifest_path(self) -> Path:
        return self.path / self.kind.manifest

    def started(self) -> bool:
        """True once its manifest exists (written before any game is played)."""
        return self.manifest_path.is_file()

    def unstarted(self) -> bool:
        """True if it holds nothing of value: only what a kill before its manifest leaves
        (a lock, empty folders, the copied study file)."""
        try:
            entries = list(self.path.iterdir())
            if any(e.name not in UNSTARTED for e in entries):
                return False
            return not any(p.suffix == ".parquet" or p.name.endswith("manifest.json")
                           for e in entries if e.is_dir() for p in e.rglob("*"))
        except OSError:
            return False

    # -- one writer --------------------------------------------------------------------

    @contextmanager
    def lock(self) -> Iterator[RunFolder]:
        """Own the folder (made if missing) for the block, or one error line if another
        process does."""
        from filelock import FileLock, Timeout

        folder, what = check_out(self.path), self.kind.name
        if folder.exists() and not folder.is_dir():
            raise CdsimError(f"{folder} is a file, not a {what} folder: choose another --out")
        made = not folder.exists()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CdsimError(f"{folder}: cannot create the {what} folder: "
                             f"{exc.strerror or exc}") from None
        try:
            lock = FileLock(folder / LOCK, timeout=0)
            lock.acquire()
        except Timeout:
            raise CdsimError(f"{folder}: another cdsim process is writing this {what} folder; "
                             "wait for it (or stop it), then continue with --resume") from None
        except OSError as exc:
            raise CdsimError(f"{folder}: cannot lock the {what} folder: "
                             f"{exc.strerror or exc}") from None
        try:
            yield self
        finally:
            if made and self.unstarted():  # refused or stopped before it began: leave nothing
                shutil.rmtree(folder, ignore_errors=True)
            lock.release()

    def claim(self, resume: bool, force: bool) -> bool:
        """True if the folder holds one to resume (the caller checks it is the same);
        False once it is ready for a new one (its content folder made, an old one's
        removed under --force). The caller holds the lock."""
        root, what = self.path, self.kind.name
        if root.exists() and not root.is_dir():
            raise CdsimError(f"{root} is a file, not a {what} folder: choose another --out")
        if self.started():
            if resume:
                return True
            if not force:
                raise CdsimError(f"{root} already holds a {what}: --resume to continue it, "
                                 "--force to overwrite, or choose another --out")
            try:  # the manifest first: a kill meanwhile leaves an unstarted folder
                self.manifest_path.unlink()
                if self.kind.holds == PARTS:
                    for old in (root / PARTS).glob("part-*.parquet"):
                        old.unlink()
                else:
                    shutil.rmtree(root / self.kind.holds, ignore_errors=True)
            except OSError as exc:
                raise CdsimError(f"{root}: cannot remove the old {what}: "
                                 f"{exc.strerror or exc}") from None
        elif root.exists() and self.unstarted():
            pass
        elif resume:
            raise CdsimError(f"{root}: no {what} to resume (no {self.kind.manifest}); drop "
                             "--resume to start one")
        elif root.exists() and not force:
            raise CdsimError(f"{root} exists and is not empty: choose another --out or --force")
        try:
            (root / self.kind.holds).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CdsimError(f"{root}: cannot create the {what} folder: "
                             f"{exc.strerror or exc}") from None
        return False

    # -- the manifest ------------------------------------------------------------------

    def read(self) -> dict[str, Any]:
        """The manifest, checked against its kind's schema, or one line naming the
        problem."""
        kind, path = self.kind, self.manifest_path
        if not self.path.is_dir():
            raise CdsimError(f"{self.path}: no such {kind.name} folder (make one with "
                             f"{kind.make})")
        if not path.is_file():
            raise CdsimError(f"{self.path}: not a {kind.name} folder (no {kind.manifest}); "
                             f"make one with {kind.make}")
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError, RecursionError) as exc:
            raise CdsimError(f"{path}: unreadable {kind.name} manifest "
                             f"({str(exc)[:200]})") from None
        if not isinstance(data, dict) or any(k not in data for k in kind.keys):
            raise CdsimError(f"{path}: not a cdsim {kind.name} manifest")
        return kind.check(path, data) if kind.check is not None else data

    def write(self, manifest: dict[str, Any]) -> None:
        """The manifest, atomically, or one error line."""
        write_json(self.path, self.kind.manifest, manifest)

    # -- a run's parts -----------------------------------------------------------------

    def part(self, index: int) -> Path:
        return self.path / PARTS / f"part-{index:05d}.parquet"

    def check_parts(self, finished: list[int]) -> None:
        """Every finished chunk's part is there and readable, or one line."""
        for i in finished:
            part_schema(self.part(i))

    def save_chunk(self, manifest: dict[str, Any], index: int, frame: Any,
                   seconds: float) -> None:
        """The driver's side of one finished chunk (a polars DataFrame of its rows): the
        part is written atomically, then the manifest records it. ``seconds``: the wall
        time to add to the run's."""
        try:
            atomic_write(self.part(index), frame.write_parquet)
        except OSError as exc:
            raise CdsimError(f"{self.part(index)}: cannot write: {exc.strerror or exc}; "
                             "finished chunks are kept, --resume continues") from None
        manifest["finished"] = sorted([*manifest["finished"], index])
        manifest["wall_seconds"] = round(manifest["wall_seconds"] + seconds, 3)
        self.write(manifest)

    def games_done(self) -> int:
        """Games in its finished chunks (0 before its manifest exists)."""
        if not self.started():
            return 0
        m = self.read()
        finished = set(m["finished"])
        return sum(b - a for i, (a, b) in enumerate(m["chunks"]) if i in finished)

    def complete(self) -> bool:
        """A started run whose every chunk is finished."""
        if not self.started():
            return False
        m = self.read()
        return len(set(m["finished"])) == len(m["chunks"])

    def rows(self) -> list[dict[str, Any]]:
        """All rows, sorted by game and seat."""
        import polars as pl

        parts = sorted((self.path / PARTS).glob("part-*.parquet"))
        if not parts:
            return []
        return pl.concat([pl.read_parquet(p) for p in parts]).sort(["game", "seat"]).to_dicts()

    def digest(self) -> str:
        """Digest of the sorted rows: equal for equal runs, whatever the history."""
        return digest_rows(self.rows())

    def prepare(self, config: RunConfig, resume: bool, force: bool) -> dict[str, Any]:
        """Claim this run folder for ``config`` (new, resumed, or forced over) and return
        its manifest. --resume refuses another configuration or other learned weights."""
        config.validate()
        engine_for(config)  # a player the core cannot play: refused before any manifest
        components = load_components(config.components)
        digest = components.digest
        config = RunConfig(**{**asdict(config), "components_digest": digest})
        weights = weights_record(config.strategies or config.strategy_pool, digest)
        if self.claim(resume, force):
            manifest = self.read()
            if manifest["config_identity"] != _jsonable(config.identity()):
                raise CdsimError(f"{self.path}: its manifest was made with another "
                                 "configuration; use a new --out, or --force to start over")
            if manifest.get("weights", {}) != weights:
                raise CdsimError(f"{self.path}: the learned player's weights changed since "
                                 "this run began; use a new --out, or --force to start over")
            self.check_parts(manifest["finished"])
            manifest["config"]["decision_timeout"] = config.decision_timeout  # this command's
            return manifest
        manifest = {
            "config": _jsonable(asdict(config)), "config_identity": _jsonable(config.identity()),
            "seed": config.seed, "versions": versions(), "components_digest": digest,
            "components_default": components.is_default,
            "chunks": chunk_plan(config), "finished": [], "wall_seconds": 0.0,
            "command": " ".join(sys.argv),
        }
        if weights:  # which weights the learned player played with (cdsim.train)
            manifest["weights"] = weights
        self.write(manifest)
        return manifest


def check_out(folder: Path, flag: str = "--out") -> Path:
    """A folder name this system can hold (each part at most 255 bytes), or one line."""
    for part in folder.parts:
        if len(os.fsencode(part)) > 255:
            raise CdsimError(f"{flag}: a folder name is at most 255 bytes, got "
                             f"{len(os.fsencode(part))} ({part[:20]}...)")
    if len(os.fsencode(str(folder))) > 4000:
        raise CdsimError(f"{flag}: a path of at most 4000 bytes, got {len(os.fsencode(str(folder)))}")
    return folder


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file, fsync, rename: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def write_json(folder: Path, name: str, data: dict[str, Any]) -> None:
    """A JSON file (a manifest), atomically, or one error line."""
    text = json.dumps(data, indent=1, sort_keys=True)
    try:
        atomic_write(folder / name, lambda p: p.write_text(text))
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write {name}: {exc.strerror or exc}") from None


def versions() -> dict[str, str]:
    """The versions a manifest records."""
    import joblib
    import polars

    return {"cdsim": __version__, "python": platform.python_version(),
            "numpy": np.__version__, "polars": polars.__version__, "joblib": joblib.__version__}


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


@cache  # built once per process: manifests are read for every run of a study
def _run_schema() -> Any:
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

    return Manifest


def check_run_manifest(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """A run manifest's data, checked against its schema and itself: a whole chunk plan
    for the configuration, each finished chunk listed once; else one line naming the key."""
    from pydantic import ValidationError

    schema = _run_schema()
    try:
        model = schema.model_validate_json(json.dumps(data))
    except ValidationError as exc:
        raise CdsimError(f"{path}: not a valid run manifest: {problem(exc, schema, data)}") from None
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
    return data


def part_schema(path: Path) -> dict[str, Any]:
    """A part file's column types, or one error line if it is missing or corrupt."""
    import polars as pl

    try:
        return dict(pl.read_parquet_schema(path))
    except Exception as exc:
        raise CdsimError(f"{path}: corrupt or missing part file ({type(exc).__name__}); "
                         "delete it and its chunk from manifest.json, then --resume") from None


RUN = Kind("run", MANIFEST, PARTS, "cdsim simulate", ("config",), check_run_manifest)

__all__ = ["CELLS", "LOCK", "MANIFEST", "PARTS", "RUN", "Kind", "RunFolder", "atomic_write",
           "check_out", "check_run_manifest", "part_schema", "versions",
           "write_json"]
