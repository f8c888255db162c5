"""``cdsim ladder``: every pairing of a list of strategies, played on the same deals, so that
one fit (``reports.ladder``) puts them all on one rating scale.

A *pairing* is one line-up of N strategies, played as an ordinary run folder with its seats
rotated (each deal in all N cyclic rotations):

- 2 players: every unordered pair {a, b} of the list, line-up (a, b): each deal both ways;
- 3-4 players: every combination of N distinct strategies when the list has at least N;
  with fewer, every line-up of N seats that holds each strategy at least once (e.g. a, b
  for 4 players: aaab, aabb, abbb). Either set is closed under renaming the strategies, so
  each strategy appears equally often.

    LADDER/ladder-manifest.json        the ladder (what --resume must match) and its pairings
    LADDER/cells/greedy-vs-villa/      a pairing's run folder (`cdsim report` works on it)
    LADDER/ladder.html, ladder.md, ladder.json, charts/   written by reports.ladder

Every pairing plays the ladder's seed, so deal d is the same deal in every pairing (common
random numbers: the pairings differ only in who sits at the table). The chunks of every
pairing go into the one joblib work queue (``cdsim.batch.queue.play_queue``); only the driver writes
(``RunFolder.save_chunk``), so the rows are the same for any --jobs and any kill-and-resume
history.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cdsim.batch.config import RunConfig, engine_for
from cdsim.batch.folder import CELLS, Kind, RunFolder, versions
from cdsim.errors import CdsimError
from cdsim.players.registry import make_strategy, parse_params
from cdsim.players.weights import weights_record
from cdsim.rules.components import load_components
from cdsim.schema import problem
from cdsim.study.cells import (
    Job,
    OnChunk,
    play,  # prepares the run folders; their chunks go into the one work queue
    run_folder,
)

LADDER_MANIFEST = "ladder-manifest.json"
OnPlan = Callable[[int, int], None]  # (games in the ladder, games already finished)


@dataclass(frozen=True)
class Ladder:
    """Everything that decides a ladder's rows (written whole into its manifest)."""

    players: int
    strategies: tuple[str, ...]  # as spelled: built-in names, name@setting, module:Class
    games: int  # per pairing
    seed: int = 0
    chunk_size: int = 100
    strategy_params: str | None = None
    components: str | None = None

    def validate(self) -> None:
        """Every problem a user can cause, as one error line, before anything is written."""

        if self.players not in (2, 3, 4):
            raise CdsimError(f"--players must be 2, 3 or 4, got {self.players}")
        if len(self.strategies) < 2:
            raise CdsimError(f"a ladder needs at least 2 strategies, got "
                             f"{len(self.strategies)}: --strategies a,b[,c...]")
        twice = sorted({s for s in self.strategies if self.strategies.count(s) > 1})
        if twice:
            raise CdsimError(f"--strategies names {', '.join(twice)} twice (give each player once; "
                             "name@setting makes another entry of the same player)")
        for name in self.strategies:
            make_strategy(name)  # an unknown name or a bad @ spelling fails now
        parse_params(self.strategy_params)
        if self.games < 1 or self.games % self.players:
            raise CdsimError(f"--games (per pairing) must be a positive multiple of "
                             f"{self.players}: each deal is played in all {self.players} seat "
                             f"rotations; got {self.games}")
        for job in self.jobs():
            job.config.validate()
            engine_for(job.config)  # e.g. the core is not installed

    def lineups(self) -> list[tuple[str, ...]]:
        return lineups(self.strategies, self.players)

    def jobs(self) -> list[Job]:
        """One run per pairing: its folder name under cells/ and its configuration."""
        keys: set[str] = set()
        out = []
        for lineup in self.lineups():
            key = "-vs-".join(_safe(name) for name in lineup)
            while key in keys:  # two spellings that sanitise alike
                key += "_"
            keys.add(key)
            out.append(Job(key, RunConfig(
                players=self.players, games=self.games, seed=self.seed, strategies=lineup,
                rotate_seats=True, components=self.components, chunk_size=self.chunk_size,
                strategy_params=self.strategy_params)))
        return out

    def identity(self, components_digest: str) -> dict[str, Any]:
        """What must match for --resume to continue a ladder."""
        identity: dict[str, Any] = json.loads(json.dumps(
            {**asdict(self), "components": None, "components_digest": components_digest,
             "pairings": [[job.key, *job.config.strategies] for job in self.jobs()]}))
        return identity


def lineups(strategies: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    """The balanced line-ups: every N distinct strategies, or with fewer strategies than
    seats, every N-seat line-up holding each of them at least once (list order kept)."""
    if len(strategies) >= players:
        return list(itertools.combinations(strategies, players))
    return [c for c in itertools.combinations_with_replacement(strategies, players)
            if len(set(c)) == len(strategies)]


def _safe(name: str) -> str:
    """A strategy's spelling as part of a folder name (module:Class has a colon)."""
    return re.sub(r"[^A-Za-z0-9_.@=+-]", "_", name)


def from_manifest(manifest: dict[str, Any]) -> Ladder:
    raw = dict(manifest["ladder"])
    raw["strategies"] = tuple(raw["strategies"])
    return Ladder(**raw)


# -- the ladder folder -------------------------------------------------------------------

def open_folder(root: Path, ladder: Ladder, resume: bool, force: bool) -> dict[str, Any]:
    """Create or reopen a ladder folder; returns its manifest. Never overwrites a ladder
    without --force, and --resume refuses another ladder."""

    ladder.validate()
    components = load_components(ladder.components)
    digest = components.digest
    identity = ladder.identity(digest)
    weights = weights_record(ladder.strategies, digest)  # the weights each learned spelling plays
    folder = RunFolder(root, LADDER)
    if folder.claim(resume, force):
        manifest = folder.read()
        if manifest.get("identity") != identity:
            raise CdsimError(f"{root}: this ladder folder was made with other strategies, "
                             "games, seed or settings; use a new --out, or --force to start over")
        if manifest.get("weights", {}) != weights:
            raise CdsimError(f"{root}: the learned player's weights changed since this ladder "
                             "began; use a new --out, or --force to start over")
        manifest["command"] = " ".join(sys.argv)
        write_ladder_manifest(root, manifest)
        return manifest
    manifest = {"ladder": json.loads(json.dumps(asdict(ladder))), "identity": identity,
                "components_digest": digest, "components_default": components.is_default,
                "pairings": [{"key": job.key, "lineup": list(job.config.strategies),
                              "run": str(Path(CELLS) / job.key)} for job in ladder.jobs()],
                "versions": versions(), "wall_seconds": 0.0, "command": " ".join(sys.argv)}
    if weights:
        manifest["weights"] = weights
    write_ladder_manifest(root, manifest)
    return manifest


def _check_ladder_manifest(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """A ladder manifest's settings and pairings checked against their schema (one line
    naming the key): each pairing a run folder under cells/ with its line-up."""
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, Field, ValidationError

    Key = Annotated[str, Field(pattern=r"^[A-Za-z0-9_@=.,+-]+$", max_length=1000)]

    class Settings(BaseModel):  # manifest["ladder"]: a Ladder
        model_config = ConfigDict(strict=True, extra="forbid")
        players: Annotated[int, Field(ge=2, le=4)]
        strategies: list[str]
        games: Annotated[int, Field(ge=1)]
        seed: Annotated[int, Field(ge=0)]
        chunk_size: Annotated[int, Field(ge=1)]
        strategy_params: str | None
        components: str | None

    class Pairing(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        key: Key
        lineup: Annotated[list[str], Field(min_length=2, max_length=4)]
        run: str

    class Manifest(BaseModel):
        model_config = ConfigDict(strict=True, extra="allow")
        ladder: Settings
        pairings: list[Pairing]

    try:
        Manifest.model_validate_json(json.dumps(manifest))
    except ValidationError as exc:
        raise CdsimError(f"{path}: {problem(exc, Manifest, manifest)}") from None
    for pairing in manifest["pairings"]:
        if set(pairing["key"]) == {"."} or pairing["run"] != f"{CELLS}/{pairing['key']}":
            raise CdsimError(f"{path}: pairings: bad key or run {pairing['key']!r}")
    return manifest


LADDER = Kind("ladder", LADDER_MANIFEST, CELLS, "cdsim ladder", ("ladder", "pairings"),
              _check_ladder_manifest)


def write_ladder_manifest(root: Path, manifest: dict[str, Any]) -> None:
    RunFolder(root, LADDER).write(manifest)


def read_ladder_manifest(root: Path) -> dict[str, Any]:
    return RunFolder(root, LADDER).read()


def games_done(root: Path, jobs: list[Job]) -> int:
    """Games already finished in the pairings' run folders."""
    return sum(RunFolder(run_folder(root, job.key)).games_done() for job in jobs)


# -- playing -----------------------------------------------------------------------------

def run(ladder: Ladder, root: Path, jobs: int = -1, backend: str = "loky", resume: bool = False,
        force: bool = False, on_chunk: OnChunk | None = None, on_plan: OnPlan | None = None
        ) -> dict[str, Any]:
    """Play every unfinished pairing of ``ladder`` into ``root``, all chunks in one queue."""

    manifest = open_folder(root, ladder, resume, force)
    pairings = ladder.jobs()
    todo = [job for job in pairings if not RunFolder(run_folder(root, job.key)).complete()]
    if on_plan is not None:
        on_plan(ladder.games * len(pairings), games_done(root, pairings))
    start = time.perf_counter()
    try:
        if todo:
            play(root, todo, jobs, backend, on_chunk)
    finally:
        manifest["wall_seconds"] = round(manifest["wall_seconds"] + time.perf_counter() - start, 3)
        write_ladder_manifest(root, manifest)
    return manifest


__all__ = ["LADDER", "LADDER_MANIFEST", "Ladder", "from_manifest", "lineups", "open_folder",
           "read_ladder_manifest", "run"]
