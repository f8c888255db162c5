"""A folder's manifest as the value that travels: ``Manifest``, the base every folder kind's
manifest model shares (read checked, written back with the keys it was read with), and a
run's, ``RunManifest``. ``RunFolder.read`` returns it and ``RunFolder.write`` takes it
(cdsim.batch.folder); callers read its attributes.

A manifest is written as it was read: the keys a model declares with a default are written
only when the file had them or the code set them, so a run folder made
by an older cdsim (no ``format``, no ``reads_scores``) keeps its bytes when it is resumed,
and keys a model does not declare are kept as they are (``extra="allow"``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cdsim.batch.config import Engine, RunConfig, chunk_plan, problem_line
from cdsim.errors import CdsimError
from cdsim.games import adopt_players
from cdsim.games.played import ProfilesRecord

# The run folder's format (the manifest's ``format``; docs/guide.md): 1 = seat rows only
# (a manifest without the key), 2 = with the card table. A resumed run keeps its format.
RUN_FORMAT = 2

# Each learned spelling's weights file and digest (``Roster.weights``).
Weights = dict[str, dict[str, str]]


class Manifest(BaseModel):
    """What every folder kind's manifest model shares: checked strictly on reading, its
    undeclared keys kept, and written back as it was read (``record``)."""

    model_config = ConfigDict(strict=True, extra="allow")

    def record(self) -> dict[str, object]:
        """The manifest as its file holds it: the keys it was read with or given, each
        nested record whole (a run's configuration as ``RunConfig.record``)."""
        return self.model_dump(mode="json", include=self.model_fields_set)

    @classmethod
    def checked(cls, path: Path, data: object, what: str) -> Self:
        """``data`` (a manifest file's JSON) as this model, or one line naming the key."""
        try:
            return cls.model_validate_json(json.dumps(data))
        except ValidationError as exc:
            line = problem_line(exc, cls, data).replace("--", "")
            raise CdsimError(f"{path}: {what}{line}") from None


class PlayedManifest(Manifest):
    """What the manifest of a folder of games says of how they were played, declared once
    for every kind that plays (a run's, a ladder's): the component set, the command, the
    versions and the learned players' weights."""

    components_digest: str = ""
    components_default: bool | None = None  # the shipped set
    command: str = ""
    versions: dict[str, str] = Field(default_factory=dict)
    weights: Weights = Field(default_factory=dict)  # written only when a learned player plays
    # written only when a scripted player was not the shipped one (cdsim.games.played)
    profiles: ProfilesRecord | None = None


class RunManifest(PlayedManifest):
    """A run's manifest as ``RunFolder.begin`` writes it: its configuration (written whole,
    as ``RunConfig.record``), the chunk plan and the chunks finished, what it was played
    with. Keys a run made by an older cdsim lacks have defaults and stay absent."""

    config: RunConfig
    # the settings --resume compares key by key with RunConfig.identity(), as a run of any
    # cdsim version recorded them (settings_changed names the ones that differ)
    config_identity: dict[str, object]
    chunks: list[tuple[int, int]]
    finished: list[int]
    wall_seconds: float
    seed: int | None = None  # the configuration's, recorded beside it
    reads_scores: dict[str, bool] | None = None  # runs before it: the players are asked
    format: int = 1  # RUN_FORMAT when written; manifests before it are format 1
    engine: Engine | None = None  # set when its chunks are played

    @classmethod
    def load(cls, path: Path, data: object) -> RunManifest:
        """A run manifest's data as the model, checked against its schema and itself: a
        whole chunk plan for the configuration, each finished chunk listed once; else one
        line naming the key. The profiles file it was played with, when it recorded one, is
        played from its folder's copy from now on (``cdsim.games.adopt_players``)."""
        adopt_players(path, data)
        model = cls.checked(path, data, "not a valid run manifest: ")
        config = model.config
        if [tuple(c) for c in model.chunks] != [tuple(c) for c in chunk_plan(config)]:
            raise CdsimError(f"{path}: chunks: not the chunk plan of {config.games} games in "
                             f"chunks of {config.chunk_size}")
        seen: set[int] = set()
        for i in model.finished:
            if not 0 <= i < len(model.chunks):
                raise CdsimError(f"{path}: finished: chunk {i} is not in the plan "
                                 f"(0-{len(model.chunks) - 1})")
            if i in seen:
                raise CdsimError(f"{path}: finished: chunk {i} is listed twice")
            seen.add(i)
        return model

    @property
    def games_done(self) -> int:
        """Games in its finished chunks."""
        finished = set(self.finished)
        return sum(b - a for i, (a, b) in enumerate(self.chunks) if i in finished)

    @property
    def complete(self) -> bool:
        """Every chunk finished."""
        return len(set(self.finished)) == len(self.chunks)

    def players_read_scores(self) -> dict[str, bool]:
        """Whether each player of the run reads VP totals (by spelling), as recorded when it
        was played; for a run made before cdsim recorded it, a built-in player never does
        and a user's strategy is made to ask it (its module imported, as reports did
        then)."""
        if self.reads_scores is not None:
            return dict(self.reads_scores)
        try:
            return self.config.spec.roster.reads_scores([*self.config.strategies,
                                                         *self.config.strategy_pool])
        except CdsimError as exc:
            raise CdsimError(f"cannot tell whether the players of this run read VP totals: "
                             f"{exc}") from None


__all__ = ["RUN_FORMAT", "Manifest", "PlayedManifest", "RunManifest", "Weights"]
