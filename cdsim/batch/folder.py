"""The folders commands write, as one type: ``RunFolder``.

A run folder holds ``manifest.json``, ``games/part-NNNNN.parquet`` (one part per
chunk: the seat rows) and, from run format 2 on, ``cards/part-NNNNN.parquet`` (the
chunk's card rows; a folder of their own, so that ``games/*.parquet`` stays the seat
rows); a study or a ladder folder holds its manifest and ``cells/``, one run folder per
cell or pairing. What they share is here, once:

- **one writer**: an OS lock on a file inside the folder, held for the whole command
  (released by the OS on any exit); nothing is read, deleted or written before it is held;
- **claiming**: a new folder, ``--resume`` of the one it holds, or ``--force`` over it;
  never overwriting without ``--force``. A folder stopped before its manifest was written
  holds nothing and starts again, with or without ``--resume``;
- **manifests** written atomically and read back checked against their schema;
- for runs, **parts**: written atomically by the driver only, read back, then recorded in
  the manifest (a kill or a full disk between the two only replays the chunk); a part is
  checked to hold its chunk's games of this run before it is read or resumed.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, cast, overload

import numpy as np
from typing_extensions import TypeVar

from cdsim import __version__
from cdsim.batch.config import RunConfig, chunk_plan, engine_for
from cdsim.batch.manifest import RUN_FORMAT, Manifest, RunManifest
from cdsim.batch.parts import check_parts
from cdsim.batch.uses import USES, check_use_parts
from cdsim.digest import digest_rows
from cdsim.errors import CdsimError, user_text
from cdsim.games.played import PROFILES_COPY

if TYPE_CHECKING:  # polars is imported where parts are written: the commands start without it
    from polars import DataFrame

MANIFEST = "manifest.json"
STUDY_MANIFEST = "study-manifest.json"  # a study folder's (cdsim/study/store.py)
LADDER_MANIFEST = "ladder-manifest.json"  # a ladder folder's (cdsim/ladder.py)
# Each kind of folder by its manifest, and what reads one: a folder given to a command for
# another kind is named as what it is, with that command.
READERS = {MANIFEST: ("run", "cdsim report {path}"),
           STUDY_MANIFEST: ("study", "cdsim study report {path}"),
           LADDER_MANIFEST: ("ladder", "its ladder.html (cdsim ladder --out {path} --resume "
                                       "rewrites it)")}
PARTS = "games"
CARDS = "cards"  # a run's card parts (format 2 on)
CELLS = "cells"
LOCK = ".cdsim.lock"
# What a folder holds before its manifest exists (a kill there leaves only these): such a
# folder is started again, by a plain rerun or --resume, as if it were new.
UNSTARTED = {LOCK, PARTS, CARDS, USES, CELLS, "study.toml", PROFILES_COPY}

K = TypeVar("K", bound=Manifest)  # a kind's manifest: its model


@dataclass(frozen=True)
class Kind(Generic[K]):
    """What a kind of folder is called, where its manifest and content are, and its
    manifest's model: ``check(path, data)`` makes it from the file's JSON object or raises
    one line (the model's own loader); its ``record()`` is the object its file holds."""

    name: str  # "run", "study", "ladder": in messages
    manifest: str  # the manifest's file name
    holds: str  # its content: PARTS (Parquet parts) or CELLS (run folders)
    make: str  # the command that makes one
    keys: tuple[str, ...]  # fields every manifest of this kind has
    check: Callable[[Path, dict[str, object]], K]  # the file's JSON object -> its model


M = TypeVar("M", bound=Manifest, default=RunManifest)  # the manifest of a folder's kind (a run's by default)


class RunFolder(Generic[M]):
    """A run, study or ladder folder (``kind``) at ``path``; its manifest is its kind's
    model (``RunManifest`` for a run)."""

    @overload
    def __init__(self: RunFolder[RunManifest], path: Path) -> None: ...

    @overload
    def __init__(self, path: Path, kind: Kind[M]) -> None: ...

    def __init__(self, path: Path, kind: Kind[Any] | None = None) -> None:
        self.path = Path(path)
        self.kind = cast(Kind[M], kind or RUN)  # RUN: the first overload, a run's

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
    def lock(self) -> Iterator[RunFolder[M]]:
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
                    for old in [*(root / PARTS).glob("part-*.parquet"),
                                *(root / CARDS).glob("part-*.parquet"),
                                *(root / USES).glob("part-*.parquet")]:
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

    def read(self) -> M:
        """The manifest as its kind's model, checked against its schema, or one line
        naming the problem."""
        kind, path = self.kind, self.manifest_path
        if not self.path.is_dir():
            raise CdsimError(f"{self.path}: no such {kind.name} folder (make one with "
                             f"{kind.make})")
        if not path.is_file():
            other = next((READERS[m] for m in READERS if (self.path / m).is_file()), None)
            if other is not None:
                name, reads = other
                raise CdsimError(f"{self.path} is a {name} folder, not a {kind.name} folder: "
                                 f"{reads.format(path=self.path)} reads it (each of its "
                                 f"{CELLS}/* is a run folder)")
            raise CdsimError(f"{self.path}: not a {kind.name} folder (no {kind.manifest}); "
                             f"make one with {kind.make}")
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError, RecursionError) as exc:
            raise CdsimError(f"{path}: unreadable {kind.name} manifest "
                             f"({str(exc)[:200]})") from None
        if not isinstance(data, dict) or any(k not in data for k in kind.keys):
            raise CdsimError(f"{path}: not a cdsim {kind.name} manifest")
        return kind.check(path, data)

    def write(self, manifest: M) -> None:
        """The manifest, atomically, or one error line."""
        write_json(self.path, self.kind.manifest, manifest.record())

    # -- a run's parts -----------------------------------------------------------------

    def part(self, index: int) -> Path:
        return self.path / PARTS / f"part-{index:05d}.parquet"

    def card_part(self, index: int) -> Path:
        """The chunk's card rows (run format 2 on)."""
        return self.path / CARDS / f"part-{index:05d}.parquet"

    def use_part(self, index: int) -> Path:
        """The chunk's use rows (a run that watches components: cdsim.batch.uses)."""
        return self.path / USES / f"part-{index:05d}.parquet"

    def check_parts(self: RunFolder[RunManifest], manifest: RunManifest) -> None:
        """Every finished chunk's part is there and holds that chunk's games of this run,
        and so does its use part where the run records uses (it watches components and
        plays on the core); or one line."""
        check_parts([(i, self.part(i)) for i in manifest.finished], manifest.chunks,
                    manifest.config)
        config = manifest.config
        if config.watched and engine_for(config) == "rust":
            check_use_parts([(i, self.use_part(i)) for i in manifest.finished],
                            manifest.chunks, config.players, config.watched)

    def save_chunk(self: RunFolder[RunManifest], manifest: RunManifest, index: int,
                   frames: tuple[DataFrame, DataFrame | None]
                   | tuple[DataFrame, DataFrame | None, DataFrame | None],
                   seconds: float) -> None:
        """The driver's side of one finished chunk (polars DataFrames of its seat rows and
        card rows): the card part, then the part, are written atomically and read back, then
        the manifest records the chunk. ``seconds``: the wall time to add to the run's. A
        part or manifest that cannot be written (a full disk) is one line; what was
        finished before stays recorded. A game without a card table (``frames[1]`` None)
        writes the part alone; a run that records uses writes its use part first
        (``frames[2]``: cdsim.batch.uses)."""
        kept = "finished chunks are kept, --resume continues"
        uses = frames[2] if len(frames) > 2 else None
        for path, frame in ((self.use_part(index), uses), (self.card_part(index), frames[1]),
                            (self.part(index), frames[0])):
            if frame is None:
                continue
            try:
                path.parent.mkdir(exist_ok=True)
                atomic_write(path, partial(_write_part, frame))
            except Exception as exc:  # polars says a full disk in words of its own
                raise CdsimError(f"{path}: cannot write: {_reason(exc)}; {kept}") from None
        finished = sorted([*manifest.finished, index])
        wall = round(manifest.wall_seconds + seconds, 3)
        try:
            self.write(manifest.model_copy(update={"finished": finished, "wall_seconds": wall}))
        except CdsimError as exc:
            raise CdsimError(f"{exc}; {kept}") from None
        # the caller's manifest follows the file (the queue holds it for the next chunk)
        manifest.finished, manifest.wall_seconds = finished, wall

    def games_done(self: RunFolder[RunManifest]) -> int:
        """Games in its finished chunks (0 before its manifest exists)."""
        return self.read().games_done if self.started() else 0

    def complete(self: RunFolder[RunManifest]) -> bool:
        """A started run whose every chunk is finished."""
        return self.started() and self.read().complete

    def rows(self) -> list[dict[str, object]]:
        """All rows, sorted by game and seat."""
        import polars as pl

        parts = sorted((self.path / PARTS).glob("part-*.parquet"))
        if not parts:
            return []
        return pl.concat([pl.read_parquet(p) for p in parts]).sort(["game", "seat"]).to_dicts()

    def digest(self) -> str:
        """Digest of the sorted rows: equal for equal runs, whatever the history."""
        return digest_rows(self.rows())

    def begin(self: RunFolder[RunManifest], config: RunConfig, resume: bool, force: bool
              ) -> RunManifest:
        """Claim this run folder for ``config`` (new, resumed, or forced over) and return
        its manifest. --resume refuses other settings (naming them), other learned weights,
        or a finished part that is not this run's."""
        engine_for(config)  # a player the core cannot play: refused before any manifest
        digest, default = config.spec.components_digest(config.components)
        config = config.model_copy(update={"components_digest": digest})
        roster = config.spec.roster  # the game's players (cdsim.games.players)
        weights = roster.weights(config.lineup, config.components)
        # read at play time (a user's strategy is made to ask it): reports need no user code
        reads = roster.reads_scores(config.lineup)
        if self.started() and resume:  # its players as it played them (its profiles file)
            self.read()
        # its scripted players' tables when one is not the shipped one (cdsim.games.played)
        profiles = roster.profiles(config.lineup)
        if self.claim(resume, force):
            manifest = self.read()
            if manifest.config_identity != config.identity():
                changed = settings_changed(manifest.config_identity, config.identity())
                raise CdsimError(f"{self.path}: --resume: this run was made with {changed}: "
                                 "use a new --out, or --force to start over")
            if manifest.weights != weights:
                raise CdsimError(f"{self.path}: the learned player's weights changed since "
                                 "this run began; use a new --out, or --force to start over")
            roster.changed(self.path, manifest.profiles, profiles)
            self.check_parts(manifest)
            manifest.config = manifest.config.model_copy(  # this command's time limit
                update={"decision_timeout": config.decision_timeout})
            if "reads_scores" not in manifest.model_fields_set:  # a run begun before it was
                manifest.reads_scores = reads                      # recorded
            return manifest
        manifest = RunManifest(
            config=config, config_identity=config.identity(), seed=config.seed,
            versions=versions(), components_digest=digest,
            components_default=default, chunks=chunk_plan(config), finished=[],
            wall_seconds=0.0, command=" ".join(sys.argv), reads_scores=reads, format=RUN_FORMAT)
        if weights:  # which weights the learned player played with (cdsim.train)
            manifest.weights = weights
        if profiles is not None:  # the profiles file it plays, kept beside the manifest
            manifest.profiles = profiles
            roster.keep(self.path, profiles)
        self.write(manifest)
        return manifest


SHOWN_CHANGES = 4  # settings named in a --resume refusal; the rest counted


def settings_changed(before: Mapping[str, object], now: Mapping[str, object]) -> str:
    """The settings that differ, in words: ``games=1000, seed=1; now games=2000, seed=2``
    (the first ``SHOWN_CHANGES``, then how many more)."""
    keys = [k for k in dict.fromkeys([*before, *now]) if before.get(k) != now.get(k)]
    more = f" (and {len(keys) - SHOWN_CHANGES} more)" if len(keys) > SHOWN_CHANGES else ""

    def side(values: Mapping[str, object]) -> str:
        return ", ".join(f"{k}={_shown(values.get(k))}" for k in keys[:SHOWN_CHANGES]) + more

    return f"{side(before)}; now {side(now)}"


def _shown(value: Any, limit: int = 60) -> str:
    """A setting as a user would write it, short: lists comma-separated, a digest cut."""
    if value is None or value == []:
        return "(not set)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        text = ",".join(f"[{_shown(x)}]" if isinstance(x, list) else _shown(x) for x in value)
    elif isinstance(value, dict):
        text = " ".join(f"{k}:{_shown(v)}" for k, v in value.items())
    elif isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef"
                                                            for c in value):
        text = value[:12]  # a components digest
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_out(folder: Path, flag: str = "--out") -> Path:
    """A folder name this system can hold (each part at most 255 bytes) under folders, not
    under a file (``--out notes.txt/run``), or one line."""
    for part in folder.parts:
        if len(os.fsencode(part)) > 255:
            raise CdsimError(f"{flag}: a folder name is at most 255 bytes, got "
                             f"{len(os.fsencode(part))} ({part[:20]}...)")
    if len(os.fsencode(str(folder))) > 4000:
        raise CdsimError(f"{flag}: a path of at most 4000 bytes, got {len(os.fsencode(str(folder)))}")
    for parent in folder.parents:  # the nearest one that exists must be a folder
        if parent.exists():
            if not parent.is_dir():
                raise CdsimError(f"{flag} {folder}: {parent} is a file, not a folder: name "
                                 "another folder")
            break
    return folder


def atomic_write(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file, fsync, rename: a reader never sees half a file, and a
    write that fails (a full disk) leaves no temporary file behind."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_part(frame: DataFrame, path: Path) -> None:
    """A chunk's rows as Parquet, read back: a write cut short must not pass for a part."""
    import polars as pl

    frame.write_parquet(path)
    if pl.scan_parquet(path).select(pl.len()).collect().item() != frame.height:
        raise OSError(f"{path.name} reads back other than written")


def _reason(exc: Exception) -> str:
    """Why a write failed, in one short line."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc)
    if "os error 28" in text or "No space left" in text:
        return "No space left on device"
    return user_text(text.splitlines()[0] if text else type(exc).__name__, str, 200)


def write_json(folder: Path, name: str, data: dict[str, object]) -> None:
    """A JSON file (a manifest), atomically, or one error line."""
    text = json.dumps(data, indent=1, sort_keys=True)
    try:
        atomic_write(folder / name, lambda p: p.write_text(text))
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write {name}: {exc.strerror or exc}") from None


def versions() -> dict[str, str]:
    """The versions a manifest records (joblib's read from its metadata: importing it costs
    a threaded run's start some 80 ms)."""
    from importlib.metadata import version

    import polars

    return {"cdsim": __version__, "python": platform.python_version(),
            "numpy": np.__version__, "polars": polars.__version__, "joblib": version("joblib")}


RUN = Kind("run", MANIFEST, PARTS, "cdsim simulate", ("config",), RunManifest.load)

__all__ = ["CARDS", "CELLS", "LADDER_MANIFEST", "LOCK", "MANIFEST", "PARTS", "READERS", "RUN",
           "RUN_FORMAT", "STUDY_MANIFEST", "Kind", "RunFolder", "RunManifest", "atomic_write",
           "check_out", "settings_changed", "versions", "write_json"]
