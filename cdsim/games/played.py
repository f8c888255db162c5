"""What a folder's manifest records of the scripted players it was played with (issue 61
item 6), as every kind of manifest holds it (a run's, a study's, a ladder's): each scripted
player's table as it played and the file they come from, kept beside the manifest as a copy
(``PROFILES_COPY``). Only a game whose scripted players are tables of a profiles file
records one (Carpe Diem's: ``cdsim/games/carpe_diem/players/played.py`` makes, keeps and
plays it; its roster is how shared code reaches that); a folder whose scripted players are
all the shipped ones records nothing (its manifest is what it was before)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from cdsim.errors import CdsimError
from cdsim.games.features import PROFILES_COPY


class ScriptedTable(BaseModel):
    """One scripted player as it played: every weight of the value model (the file's
    ``[defaults]`` with its table's own on top) and the feature kinds whose fountain cards
    it favours (sorted); its description is not part of how it plays."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    weights: dict[str, float]
    favoured: list[str]


class ProfilesRecord(BaseModel):
    """The scripted players of a folder played with a profiles file of one's own."""

    model_config = ConfigDict(strict=True, frozen=True, extra="forbid")
    file: str  # the profiles file it was played with (CDSIM_PROFILES), as named then
    digest: str  # sha256 of that file's text, kept beside the manifest (PROFILES_COPY)
    players: dict[str, ScriptedTable]  # each scripted player of the folder, by name


def recorded(where: Path, data: object) -> ProfilesRecord | None:
    """A manifest's ``profiles`` (its JSON object ``data``), checked: one line naming the key."""
    raw = data.get("profiles") if isinstance(data, dict) else None
    if raw is None:
        return None
    try:
        return ProfilesRecord.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = ".".join(str(x) for x in ("profiles", *err["loc"]))
        raise CdsimError(f"{where}: {key}: {err['msg']}") from None


__all__ = ["PROFILES_COPY", "ProfilesRecord", "ScriptedTable", "recorded"]
