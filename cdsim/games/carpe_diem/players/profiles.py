"""The scripted profiles: one table each of ``strategies/profiles.toml`` (or of the copy
the environment variable ``CDSIM_PROFILES`` names), over its ``[defaults]`` weights of the
shared value model. A new scripted player is one table (docs/guide.md). The file is read
once per process; ``core_profiles`` hands its tables to the compiled core in each process
that plays, so an added or edited table plays without rebuilding the core. A file that
does not read is said when a Carpe Diem player is named or played (``loaded``), not as
cdsim starts: a report of a run made without it, or another game's command, runs."""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.players import STRATEGIES_DIR as STRATEGIES_DIR  # the data a person edits

# The scripted profiles: strategies/profiles.toml, or the file CDSIM_PROFILES names (a
# new scripted player is one table of it: docs/guide.md, "Scripted players"). The core plays the tables
# of this file, handed to it by ``core_profiles`` in each process that plays.
PROFILES_FILE = Path(os.environ.get("CDSIM_PROFILES") or STRATEGIES_DIR / "profiles.toml")


# Any: profiles.toml's tables as TOML reads them (each checked when its player is made)
def _profiles() -> tuple[str, dict[str, float], dict[str, dict[str, Any]]]:
    """(the file's text, the value model's default weights, each scripted profile's
    table); an unreadable file or one without [defaults] is one line naming it."""
    try:
        text = PROFILES_FILE.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        defaults = {k: float(v) for k, v in data.pop("defaults").items()}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError,
            ValueError, AttributeError) as exc:
        why = "no [defaults] table" if isinstance(exc, KeyError) else str(exc)
        raise CdsimError(f"{PROFILES_FILE}: not a profiles file ({why})") from None
    return text, defaults, data


_PROBLEM: str | None = None  # why the file does not read (said by ``loaded``)
try:
    PROFILES_TEXT, WEIGHTS, PROFILES = _profiles()
except CdsimError as exc:  # nothing read: said where a Carpe Diem player is named
    PROFILES_TEXT, WEIGHTS, PROFILES, _PROBLEM = "", {}, {}, str(exc)


def loaded() -> None:
    """The profiles file this process plays has been read, or its one line (a file that
    does not read is said where a Carpe Diem player is named, not before)."""
    if _PROBLEM is not None:
        raise CdsimError(_PROBLEM)


def readable() -> bool:
    """Whether the profiles file this process plays has been read."""
    return _PROBLEM is None


@cache
def shipped_names() -> tuple[str, ...]:
    """The scripted players of the shipped strategies/profiles.toml (a name read back from
    a folder is known as a built-in player by these, whatever CDSIM_PROFILES names)."""
    data = tomllib.loads((STRATEGIES_DIR / "profiles.toml").read_text(encoding="utf-8"))
    return tuple(name for name in data if name != "defaults")


@cache
def core_profiles() -> ModuleType | None:
    """The compiled core, handed this process's profiles file (its scripted players are
    that file's tables; the one-line error names the file and the table at fault)."""
    loaded()
    module = core.module()
    if module is not None:
        try:
            module.scripted_profiles(PROFILES_TEXT)
        except ValueError as exc:
            raise CdsimError(f"{PROFILES_FILE}: {exc}") from None
    return module


def use_file(path: Path | None) -> None:
    """Play the profiles of ``path`` (None: the shipped file) in this process and in the
    worker processes it starts from now on: a run folder's own copy, read back when the
    folder is resumed or reported (``cdsim.games.carpe_diem.players.played``)."""
    global PROFILES_FILE, PROFILES_TEXT, _PROBLEM
    before, PROFILES_FILE = PROFILES_FILE, path or STRATEGIES_DIR / "profiles.toml"
    try:
        PROFILES_TEXT, defaults, tables = _profiles()
    except CdsimError:
        PROFILES_FILE = before
        raise
    _PROBLEM = None
    WEIGHTS.clear()
    WEIGHTS.update(defaults)
    PROFILES.clear()  # in place: the registry holds these mappings
    PROFILES.update(tables)
    core_profiles.cache_clear()
    if path is None:
        os.environ.pop("CDSIM_PROFILES", None)
    else:
        os.environ["CDSIM_PROFILES"] = str(path)  # the workers read it when they start
