"""``cdsim ladder``: every pairing of a list of strategies, played on the same deals, so that
one fit (``cdsim.analysis.ratings``) puts them all on one rating scale.

A *pairing* is one line-up of N strategies, played as an ordinary run folder with its seats
rotated (each deal in all N cyclic rotations):

- 2 players: every unordered pair {a, b} of the list, line-up (a, b): each deal both ways;
- 3 or more players: every combination of N distinct strategies when the list has at least N;
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
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import polars as pl
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from cdsim.analysis.ratings import (
    ANCHOR,
    RESAMPLES,
    Games,
    LadderFit,
    Sweep,
    anchor_of,
    check_resamples,
    fit_ladder,
    sweeps,
)
from cdsim.batch.config import (
    MAX_GAMES,
    PlaySettings,
    RunConfig,
    between,
    engine_for,
    sentence,
)
from cdsim.batch.config import Players as PlayerList
from cdsim.batch.folder import CELLS, LADDER_MANIFEST, Kind, RunFolder, versions
from cdsim.batch.manifest import PlayedManifest
from cdsim.batch.read import open_run
from cdsim.errors import CdsimError
from cdsim.games import PLAYER_COUNTS, adopt_players
from cdsim.games.played import ProfilesRecord
from cdsim.games.players import PlayerSpec
from cdsim.study.model import Job
from cdsim.study.play import (
    OnChunk,
    play,  # prepares the run folders; their chunks go into the one work queue
)
from cdsim.study.store import run_folder

OnPlan = Callable[[int, int], None]  # (games in the ladder, games already finished)


def _each_once(players: tuple[PlayerSpec, ...]) -> tuple[PlayerSpec, ...]:
    """Each player once: two spellings of one player (``villa@chimney=1`` and
    ``villa@chimney=1.0``) are the same entry twice."""
    if len(players) < 2:
        raise ValueError(f"must name at least 2 strategies, got {len(players)}: a ladder "
                         "rates them against each other (--strategies a,b[,c...])")
    for i, spec in enumerate(players):
        if spec in players[:i]:
            first = players[players.index(spec)].spelling
            also = "" if first == spec.spelling else f" (as {first!r} and {spec.spelling!r})"
            raise ValueError(f"names {first} twice{also}: give each player once; "
                             "name@setting with another value makes another entry")
    return players


class Ladder(PlaySettings):
    """Everything that decides a ladder's rows, declared once: the play settings every
    pairing's run shares (``PlaySettings``), the strategies and the games per pairing. Read
    from the command's flags and from its manifest (``ladder``), written whole into the
    manifest. Its own checks here; ``check`` loads what it names (user strategies, the
    core)."""

    # as spelled: built-in names, name@setting, module:Class
    strategies: Annotated[PlayerList, AfterValidator(_each_once)]
    games: Annotated[int, between(1, MAX_GAMES)]  # per pairing

    @model_validator(mode="after")
    def _rotations(self) -> Ladder:
        if self.games % self.players:
            raise sentence(f"--games (per pairing) must be a positive multiple of "
                           f"{self.players}: each deal is played in all {self.players} seat "
                           f"rotations; got {self.games}")
        return self

    @property
    def names(self) -> tuple[str, ...]:
        """The players as spelled (their names in the rows)."""
        return tuple(spec.spelling for spec in self.strategies)

    def check(self) -> None:
        """What it names loads, before anything is written: each player (a user's module
        imported), the parameters, each pairing's run and the core."""
        for spec in self.strategies:
            self.spec.roster.load(spec)
        for job in self.jobs():
            engine_for(job.config)  # e.g. the core is not installed

    def lineups(self) -> list[tuple[PlayerSpec, ...]]:
        return lineups(self.strategies, self.players)

    def jobs(self) -> list[Job]:
        """One run per pairing: its folder name under cells/ and its configuration."""
        keys: set[str] = set()
        out = []
        for lineup in self.lineups():
            key = "-vs-".join(_safe(spec.spelling) for spec in lineup)
            while key in keys:  # two spellings that sanitise alike
                key += "_"
            keys.add(key)
            out.append(Job(key, RunConfig.checked(
                game=self.game, players=self.players, games=self.games, seed=self.seed, strategies=lineup,
                rotate_seats=True, components=self.components, chunk_size=self.chunk_size,
                strategy_params=self.strategy_params)))
        return out

    def identity(self, components_digest: str) -> dict[str, object]:
        """What must match for --resume to continue a ladder."""
        return {**self.record(), "components": None, "components_digest": components_digest,
                "pairings": [[job.key, *(s.spelling for s in job.config.strategies)]
                             for job in self.jobs()]}


def lineups(strategies: tuple[PlayerSpec, ...], players: int) -> list[tuple[PlayerSpec, ...]]:
    """The balanced line-ups: every N distinct strategies, or with fewer strategies than
    seats, every N-seat line-up holding each of them at least once (list order kept)."""
    if len(strategies) >= players:
        return list(itertools.combinations(strategies, players))
    return [c for c in itertools.combinations_with_replacement(strategies, players)
            if len(set(c)) == len(strategies)]


def _safe(name: str) -> str:
    """A strategy's spelling as part of a folder name (module:Class has a colon)."""
    return re.sub(r"[^A-Za-z0-9_.@=+-]", "_", name)


# -- the ladder folder -------------------------------------------------------------------

def open_folder(root: Path, ladder: Ladder, resume: bool, force: bool) -> LadderManifest:
    """Create or reopen a ladder folder; returns its manifest. Never overwrites a ladder
    without --force, and --resume refuses another ladder."""

    ladder.check()
    digest, default = ladder.spec.components_digest(ladder.components)
    identity = ladder.identity(digest)
    roster = ladder.spec.roster  # the game's players (cdsim.games.players)
    # the weights each learned spelling plays
    weights = roster.weights(ladder.strategies, ladder.components)
    folder = RunFolder(root, LADDER)

    def profiles() -> ProfilesRecord | None:  # after a resumed folder is read
        return roster.profiles(ladder.strategies)

    if folder.claim(resume, force):
        manifest = folder.read()
        roster.changed(root, manifest.profiles, profiles())
        if manifest.identity != identity:
            raise CdsimError(f"{root}: this ladder folder was made with other strategies, "
                             "games, seed or settings; use a new --out, or --force to start over")
        if manifest.weights != weights:
            raise CdsimError(f"{root}: the learned player's weights changed since this ladder "
                             "began; use a new --out, or --force to start over")
        manifest.command = " ".join(sys.argv)
        folder.write(manifest)
        return manifest
    manifest = LadderManifest(
        ladder=ladder, identity=identity, components_digest=digest,
        components_default=default,
        pairings=[Pairing(key=job.key, lineup=[s.spelling for s in job.config.strategies],
                          run=str(Path(CELLS) / job.key)) for job in ladder.jobs()],
        versions=versions(), wall_seconds=0.0, command=" ".join(sys.argv))
    if weights:  # which weights each learned spelling plays: only when one plays
        manifest.weights = weights
    kept = profiles()
    if kept is not None:  # the profiles file it plays, kept beside the manifest
        manifest.profiles = kept
    roster.keep(root, kept)
    folder.write(manifest)
    return manifest


Key = Annotated[str, Field(pattern=r"^[A-Za-z0-9_@=.,+-]+$", max_length=1000)]


class Pairing(BaseModel):
    """One pairing of a ladder manifest: a run folder under cells/ and its line-up."""

    model_config = ConfigDict(strict=True, extra="forbid")
    key: Key
    lineup: Annotated[list[str], Field(min_length=min(PLAYER_COUNTS),
                                       max_length=max(PLAYER_COUNTS))]
    run: str


class LadderManifest(PlayedManifest):
    """A ladder manifest as ``open_folder`` writes it: the ladder (written whole, as
    ``Ladder.record``), what --resume must match, its pairings and what it was played with
    (keys it does not declare kept as they are)."""

    ladder: Ladder
    pairings: list[Pairing]
    # Ladder.identity() as recorded: compared whole with this command's on --resume
    identity: dict[str, object] | None = None
    wall_seconds: float = 0.0

    @classmethod
    def load(cls, path: Path, data: object) -> LadderManifest:
        """A ladder manifest's settings and pairings checked against their schema (one line
        naming the key): each pairing a run folder under cells/ with its line-up. The
        profiles file it was played with, when it kept its own, is played from now on."""
        adopt_players(path, data)
        manifest = cls.checked(path, data, "")
        for pairing in manifest.pairings:
            if set(pairing.key) == {"."} or pairing.run != f"{CELLS}/{pairing.key}":
                raise CdsimError(f"{path}: pairings: bad key or run {pairing.key!r}")
        return manifest


LADDER = Kind("ladder", LADDER_MANIFEST, CELLS, "cdsim ladder", ("ladder", "pairings"),
              LadderManifest.load)


def read_ladder_manifest(root: Path) -> LadderManifest:
    return RunFolder(root, LADDER).read()


def games_done(root: Path, jobs: list[Job]) -> int:
    """Games already finished in the pairings' run folders."""
    return sum(RunFolder(run_folder(root, job.key)).games_done() for job in jobs)


def read_games(root: Path, names: tuple[str, ...], pairings: list[Pairing]) -> Games:
    """Every game of the ladder in ``root``, pairing after pairing (``pairings``: its
    manifest's), strategies numbered in the order of ``names``: what its ratings are fitted
    on (``cdsim.analysis.ratings``)."""
    frames = []
    for p, pairing in enumerate(pairings):
        run = open_run(run_folder(root, pairing.key))
        failed = run.config.spec.failed_cards  # (its column, cards a game) or None
        rows = run.scan(("game", "setup", "seat", "strategy", "rank", "won", "final_vp",
                         *((failed[0],) if failed else ()))).collect()
        rows = rows.with_columns((pl.col(failed[0]) if failed else  # no such cards: no rate
                                  pl.lit(float("nan"))).alias("failed_cards"))
        frames.append(rows.with_columns(pl.lit(p).alias("pairing")))
    return Games.of_rows(pl.concat(frames), names, len(pairings[0].lineup))


@dataclass(frozen=True)
class LadderResult:
    """What the ladder report shows, computed: the ladder's manifest, its strategies in its
    order, the anchor of the scale (``random``, or None: the mean is 0), the fit and the
    pairs one of which finished ahead in every meeting (``sweeps``)."""

    root: Path
    manifest: LadderManifest
    players: int
    names: tuple[str, ...]  # in the ladder's order
    anchor: str | None
    fit: LadderFit
    sweeps: tuple[Sweep, ...]  # strongest first

    @property
    def method(self) -> str:
        return "Bradley-Terry" if self.players == 2 else "Plackett-Luce"


def read_results(root: Path, resamples: int = RESAMPLES) -> LadderResult:
    """Every figure of the ladder in ``root``: its games read and fitted
    (``cdsim.analysis.ratings``); an unfinished pairing is one line naming --resume."""
    check_resamples(resamples)
    manifest = read_ladder_manifest(root)
    ladder = manifest.ladder
    missing = [p.key for p in manifest.pairings if not RunFolder(run_folder(root, p.key)).complete()]
    if missing:
        raise CdsimError(f"{root}: {len(missing)} pairings are unfinished ({', '.join(missing[:3])}"
                         f"{', ...' if len(missing) > 3 else ''}); continue with cdsim ladder "
                         f"--out {root} --resume")
    names = ladder.names
    games = read_games(root, names, manifest.pairings)
    failed = ladder.spec.failed_cards
    fit = fit_ladder(games, names, ladder.seed, resamples, len(manifest.pairings),
                     failed[1] if failed else None)
    return LadderResult(root=root, manifest=manifest, players=ladder.players, names=names,
                        anchor=ANCHOR if anchor_of(names) is not None else None, fit=fit,
                        sweeps=tuple(sweeps(fit)))


# -- playing -----------------------------------------------------------------------------

def run(ladder: Ladder, root: Path, jobs: int = -1, backend: str = "loky", resume: bool = False,
        force: bool = False, on_chunk: OnChunk | None = None, on_plan: OnPlan | None = None
        ) -> LadderManifest:
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
        manifest.wall_seconds = round(manifest.wall_seconds + time.perf_counter() - start, 3)
        RunFolder(root, LADDER).write(manifest)
    return manifest


__all__ = ["LADDER", "LADDER_MANIFEST", "Ladder", "LadderManifest", "LadderResult", "Pairing",
           "lineups", "open_folder", "read_games", "read_ladder_manifest",
           "read_results", "run"]
