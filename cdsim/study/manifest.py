"""The study manifest's records, declared once (pydantic): each cell's state as ``plan``
writes it (its stages and, once decided, its verdict: ``anytime.Verdict``, the value
``decide`` returns) and the manifest around the cells, checked when a study folder is read
(one line naming the key)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_serializer,
    model_serializer,
)

from cdsim.analysis.anytime import Verdict
from cdsim.batch.config import MAX_GAMES
from cdsim.batch.manifest import Manifest
from cdsim.errors import CdsimError
from cdsim.games import DEFAULT_GAME, PLAYER_COUNTS, adopt_players, without_default_game
from cdsim.games.played import ProfilesRecord
from cdsim.schema import READ_BACK, problem
from cdsim.study.file import Population, StudySettings, Sweep, Variant
from cdsim.study.machine import Machine, machine_now

Key = Annotated[str, Field(pattern=r"^[A-Za-z0-9_@=.,+-]+$", max_length=200)]
GameCount = Annotated[int, Field(ge=0, le=MAX_GAMES)]
# A study's identity (``Study.identity``) as a folder recorded it: JSON compared key by key with
# the study file's (--resume; ``settings_changed`` names what differs), whatever cdsim version
# wrote it, so it stays the file's JSON object rather than a model of today's keys
Identity = dict[str, Any]


# a player count some game takes (the study checks its game's own)

class StageRuns(BaseModel):
    """One stage of a cell in the study manifest: its seed, games and run folders."""

    model_config = ConfigDict(strict=True, extra="forbid")
    stage: Annotated[int, Field(ge=0)]
    seed: Annotated[int, Field(ge=0)]
    games: GameCount
    runs: list[Key]


# a player count some game is played by (the cell's game says which of them it takes)
PlayerCount = Annotated[int, Field(ge=min(PLAYER_COUNTS), le=max(PLAYER_COUNTS))]

class CellState(BaseModel):
    """A cell as the study manifest holds it, declared once: ``plan`` makes it, readers
    check it (its stages so far and, once decided, its verdict)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    key: Key
    players: PlayerCount
    population: str
    variant: str | None
    floor: bool
    method: Literal["re-ranking", "rulebook only"]
    games: Annotated[int, Field(ge=1, le=MAX_GAMES)]
    design_games: Annotated[int, Field(ge=1, le=MAX_GAMES)]
    lineups: list[list[str]]
    pool: list[str]
    rotate_seats: bool
    rulebook: list[int]
    radius: Annotated[int, Field(ge=0, le=10)]
    schedule: list[GameCount]
    stages: list[StageRuns] = Field(default_factory=list)
    decision: Verdict | None = None
    # the game its runs play: written only when it is not Carpe Diem (whose manifests are
    # what they were before there were games)
    game: str = DEFAULT_GAME

    @model_serializer(mode="wrap")
    def _written(self, write: SerializerFunctionWrapHandler) -> Any:
        return without_default_game(write(self))


class ReadsCellState:
    """What a record holding a cell's manifest ``state`` reads through it, never copies
    (the plan's ``Cell``, the report's ``CellResult``)."""

    state: CellState

    @property
    def key(self) -> str:
        """Its name (and its run folders' prefix) under cells/: ``4p.random`` or
        ``4p.random.B05-at-6``."""
        return self.state.key

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def rulebook(self) -> tuple[int, ...]:
        return tuple(self.state.rulebook)

    @property
    def radius(self) -> int:
        return self.state.radius


class WhatIfComparison(BaseModel):
    """One of ``cdsim whatif``'s paired comparisons as the study manifest holds it: a
    variant against its base at one player count and play (``paired.Comparison``), each
    seat's change with its anytime interval."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    players: PlayerCount
    play: str
    variant: str
    outcome: str
    games: GameCount
    deals: GameCount
    seats: list[tuple[float, float, float]]  # change, low, high, seat 1 first
    # deals the change altered, for each seat and for some seat (issue 62: an answer on too
    # few of them says so; None in a whatif recorded before)
    changed: list[int] | None = None
    changed_deals: int | None = None


class WhatIf(BaseModel):
    """What ``cdsim whatif`` adds to the study manifest: its command, its precision, its
    card margin and its comparisons."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    command: str
    precision: float
    comparisons: list[WhatIfComparison]
    # --card-margin, the takers' win difference a card line judges at (None: recorded
    # before it was, which judged at cards.CARD_MARGIN)
    card_margin: float | None = None


class PlayRate(BaseModel):
    """The rate a run measured (``cdsim.study.clock``): its games, their recorded cost and
    the wall time playing them and judging their stages; a page's "N more games take T
    here" is priced at it."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    games: Annotated[int, Field(ge=1)]
    weighed_ms: Annotated[float, Field(gt=0)]
    seconds: Annotated[float, Field(gt=0)]

    def seconds_for(self, games: int, ms_per_game: float) -> float:
        return games * ms_per_game * self.seconds / self.weighed_ms


class PlayedPopulation(Population):
    """A population as the study manifest holds it (``Population``'s keys, its players as
    spelled) with whether its players read the scores, as recorded when it was played:
    reading it back makes no player."""

    scores_read: bool = Field(alias="reads_scores")

    @property
    def reads_scores(self) -> bool:
        return self.scores_read

    @classmethod
    def played(cls, population: Population, game: str | None) -> PlayedPopulation:
        """``population`` as a study of ``game`` plays it (its players made: whether they
        read the scores), with the keys the manifest records of it."""
        recorded = population.model_dump(mode="json", include=RECORDED_POPULATION)
        return cls.model_validate_json(json.dumps(recorded | {
            "reads_scores": population.reads_scores_in(game)}), context=READ_BACK)


# what the manifest records of a population besides whether it reads the scores (its
# budgets and chunks are the identity's and the cells')
RECORDED_POPULATION = {"name", "description", "lineup", "pool", "lineups", "rotate_seats",
                       "floor"}


class StudyManifest(Manifest, StudySettings):
    """A study manifest as ``open_folder`` makes it and ``cdsim study run``, ``cdsim whatif``
    and the sensitivity study add to: what its report reads, checked, and the value that
    travels (``RunFolder.read`` returns it, ``write`` takes it; ``cdsim.study.results``
    reads it). A key a study folder made before it was recorded reads as its default and is
    written back only once set; a key not declared is kept as it is (``Manifest``)."""

    # its settings (seed, radius, tolerance, zone, name_within_zone, alpha, tested) are the
    # study file's, declared once (StudySettings); a folder made before the zone reads zone 0
    name: str = ""
    description: str = ""
    source: str = ""  # the study file as given on the command line
    identity: Identity
    players: list[PlayerCount] = Field(default_factory=list)
    # the study file's populations, variants and sweeps, as the study played them (read
    # back: their loaded keys too, a sweep's value a variant)
    populations: list[PlayedPopulation] = Field(default_factory=list)
    variants: list[Variant] = Field(default_factory=list)
    sweeps: list[Sweep] = Field(default_factory=list)
    cells: list[CellState]
    versions: dict[str, str] = Field(default_factory=dict)
    command: str = ""
    # one run's figures, said the same in the terminal, the pages and study.json, summed
    # over the commands that played it (a resume adds its own): the wall time from each
    # command's start to the end of its play (its pages not included), the part of it
    # spent playing games (inside the work queue), and the games of its finished chunks
    wall_seconds: Annotated[float, Field(ge=0)] = 0.0
    play_seconds: Annotated[float, Field(ge=0)] = 0.0
    games_played: Annotated[int, Field(ge=0)] = 0
    finished: str | None = None  # when the last run finished (ISO 8601, UTC)
    # cores, architecture, CPU name, load average when play began and ended (study/machine.py)
    machine: Machine | None = None
    whatif: WhatIf | None = None
    # why play stopped before every cell was decided ("interrupted", "its time budget of
    # 3 min"); absent once it ends: its report is provisional while it is set
    stopped: str | None = None
    resume: str = ""  # the command that continues it (as its stop printed it)
    rate: PlayRate | None = None  # the last run's measured rate
    # its scripted players' tables when one is not the shipped one (cdsim.games.played)
    profiles: ProfilesRecord | None = None

    def record(self) -> dict[str, object]:
        """The manifest as its file holds it (``Manifest.record``; a population's
        ``reads_scores`` by its key), without ``stopped`` once play has ended."""
        keys = self.model_fields_set - ({"stopped"} if self.stopped is None else set())
        return self.model_dump(mode="json", include=keys, by_alias=True)

    @field_serializer("populations")
    def _populations(self, populations: list[PlayedPopulation]) -> list[dict[str, object]]:
        # the keys each was recorded with (an older study's as they were)
        return [p.model_dump(mode="json", by_alias=True, exclude_unset=True)
                for p in populations]

    @field_serializer("variants")
    def _variants(self, variants: list[Variant]) -> list[dict[str, object]]:
        # a file's variant without the sweep's keys (None)
        return [v.model_dump(mode="json", exclude_none=True) for v in variants]

    def stamp(self, start: float, wall_seconds: float | None = None,
              load_start: float | None = None) -> None:
        """Its play stamped: ``wall_seconds`` (default: the recorded) with the play since
        ``start`` (a perf_counter), when it finished and on what machine, with the load
        when play began (``load_start``) and now (its pages show them)."""
        before = self.wall_seconds if wall_seconds is None else wall_seconds
        self.wall_seconds = round(before + time.perf_counter() - start, 3)
        self.finished = datetime.now(UTC).isoformat(timespec="seconds")
        self.machine = machine_now(load_start)

    def played(self, games: int, seconds: float) -> None:
        """A command's games (finished chunks) and play time (inside the work queue) added
        to the run's."""
        self.games_played += games
        self.play_seconds = round(self.play_seconds + seconds, 3)


def study_manifest(path: Path, manifest: object) -> StudyManifest:
    """A study manifest's JSON object as its model (one line naming the key when it is
    not one): the study kind's loader. A study played with a profiles file of one's own
    plays its folder's copy from now on (``cdsim.games.adopt_players``)."""
    # a study made before the indifference zone (no zone): zone 0, its verdicts against the
    # tolerance alone, the key still absent when it is written back
    zoneless = isinstance(manifest, dict) and "zone" not in manifest
    given = manifest | {"zone": 0.0} if zoneless and isinstance(manifest, dict) else manifest
    adopt_players(path, manifest)  # the profiles file it was played with, if its own
    try:
        found = StudyManifest.model_validate_json(json.dumps(given), context=READ_BACK)
    except ValidationError as exc:
        raise CdsimError(f"{path}: {problem(exc, StudyManifest, given)}") from None
    if zoneless:
        found.__pydantic_fields_set__.discard("zone")
    for cell in found.cells:
        if set(cell.key) == {"."}:  # names a folder under cells/: never . or ..
            raise CdsimError(f"{path}: cells: bad key {cell.key!r}")
    return found


__all__ = ["CellState", "Identity", "PlayRate", "PlayedPopulation", "StageRuns", "StudyManifest",
           "WhatIf", "WhatIfComparison", "study_manifest"]
