"""The study manifest's records, declared once (pydantic): each cell's state as ``plan``
writes it (its stages and, once decided, its verdict: ``anytime.Verdict``, the value
``decide`` returns) and the manifest around the cells, checked when a study folder is read
(one line naming the key)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cdsim.analysis.anytime import Verdict
from cdsim.batch.config import MAX_GAMES
from cdsim.errors import CdsimError
from cdsim.schema import problem

Key = Annotated[str, Field(pattern=r"^[A-Za-z0-9_@=.,+-]+$", max_length=200)]
GameCount = Annotated[int, Field(ge=0, le=MAX_GAMES)]


class StageRuns(BaseModel):
    """One stage of a cell in the study manifest: its seed, games and run folders."""

    model_config = ConfigDict(strict=True, extra="forbid")
    stage: Annotated[int, Field(ge=0)]
    seed: Annotated[int, Field(ge=0)]
    games: GameCount
    runs: list[Key]


class CellState(BaseModel):
    """A cell as the study manifest holds it, declared once: ``plan`` makes it, readers
    check it (its stages so far and, once decided, its verdict)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    key: Key
    players: Annotated[int, Field(ge=2, le=4)]
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


class StudyManifest(BaseModel):
    """A study manifest as ``open_folder`` writes it: what its report reads, checked (the
    rest, such as ``versions`` and ``command``, kept as it is)."""

    model_config = ConfigDict(strict=True, extra="allow")
    name: str = ""
    identity: dict[str, Any]
    players: list[Annotated[int, Field(ge=2, le=4)]] = Field(default_factory=list)
    radius: Annotated[int, Field(ge=0, le=10)] = 6
    tolerance: Annotated[float, Field(gt=0, lt=1)] = 0.02
    alpha: Annotated[float, Field(gt=0, lt=0.5)] = 0.05
    tested: Annotated[int, Field(ge=1, le=20)] = 3
    cells: list[CellState]


def check_study_manifest(path: Path, manifest: dict[str, Any]) -> dict[str, Any]:
    """A study manifest checked against its schema (one line naming the key)."""
    try:
        StudyManifest.model_validate_json(json.dumps(manifest))
    except ValidationError as exc:
        raise CdsimError(f"{path}: {problem(exc, StudyManifest, manifest)}") from None
    for cell in manifest["cells"]:
        if set(cell["key"]) == {"."}:  # names a folder under cells/: never . or ..
            raise CdsimError(f"{path}: cells: bad key {cell['key']!r}")
    return manifest


__all__ = ["CellState", "StageRuns", "StudyManifest", "check_study_manifest"]
