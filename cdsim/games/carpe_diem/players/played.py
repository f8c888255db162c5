"""The scripted players a folder was played with, kept in it (issue 61 item 6): a run or a
study made with a profiles file of one's own (``CDSIM_PROFILES``) records in its manifest
each scripted player's table as it played (``ProfilesRecord``) and keeps a copy of the
file beside it (``profiles.toml``), so that ``--resume``, ``report``, ``balance`` and the
replay commands read the folder alone, with no variable. A folder whose scripted players
are all the shipped ones records nothing (its manifest is what it was before).

Reading such a folder back plays its copy in this process (``adopt``), unless
``CDSIM_PROFILES`` names a file whose tables for those players are others: then one line
naming the strategy and the file, never two players mixed under one name.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.players import profiles
from cdsim.games.played import PROFILES_COPY, ProfilesRecord, ScriptedTable, recorded
from cdsim.games.players import PlayerSpec

# the file the user named when this process started (None: the shipped one); a folder read
# back may make the process play its copy, never in place of the user's own file
USER_FILE = os.environ.get("CDSIM_PROFILES") or None
_ADOPTED: list[Path] = []  # the copy this process plays, once it has taken one


def differs(record: ProfilesRecord, other: ProfilesRecord | None) -> str | None:
    """The first of ``record``'s players that ``other`` plays otherwise (None: shipped), or
    None."""
    for name, table in record.players.items():
        then = shipped_table(name) if other is None else other.players.get(name)
        if then is not None and then != table:
            return name
    return None


def _table(name: str, defaults: Mapping[str, float], tables: Mapping[str, object]
           ) -> ScriptedTable | None:
    table = tables.get(name)
    if not isinstance(table, dict):
        return None
    own = {k: float(v) for k, v in table.items()  # a value of another kind: the core says
           if isinstance(v, int | float) and not isinstance(v, bool)}
    favoured = table.get("favoured", [])  # a faulty one: the core refuses it, naming it
    return ScriptedTable(weights={**defaults, **own}, favoured=sorted(
        {str(x) for x in favoured} if isinstance(favoured, list) else {str(favoured)}))


@cache
def _shipped() -> tuple[dict[str, float], dict[str, object]]:
    data = tomllib.loads((profiles.STRATEGIES_DIR / "profiles.toml").read_text("utf-8"))
    return {k: float(v) for k, v in data.pop("defaults").items()}, data


def shipped_table(name: str) -> ScriptedTable | None:
    """``name``'s table in the shipped strategies/profiles.toml (None: not one of its)."""
    return _table(name, *_shipped())


def current_table(name: str) -> ScriptedTable | None:
    """``name``'s table in the profiles file this process plays."""
    return _table(name, profiles.WEIGHTS, profiles.PROFILES)


def profiles_record(players: Iterable[PlayerSpec]) -> ProfilesRecord | None:
    """What a folder of these players records: None when every scripted player among them
    is the shipped one, else each scripted player's table and the file they come from; a
    profiles file that does not read is one line here, before any folder is claimed."""
    players = list(players)
    if any(p.builtin for p in players):
        profiles.loaded()
    names = list(dict.fromkeys(p.base for p in players
                               if p.builtin and p.base in profiles.PROFILES))
    tables = {name: current_table(name) for name in names}
    if all(table == shipped_table(name) for name, table in tables.items()):
        return None
    text = profiles.PROFILES_TEXT
    return ProfilesRecord(file=str(Path(USER_FILE or profiles.PROFILES_FILE).resolve()),
                          digest=hashlib.sha256(text.encode()).hexdigest(),
                          players={n: t for n, t in tables.items() if t is not None})


def keep(folder: Path, record: ProfilesRecord | None) -> None:
    """The profiles file a new folder was played with, copied beside its manifest (written
    through a temporary file), and played from that copy from now on; none for a folder
    of shipped players (an older run's copy in a folder started over is removed)."""
    path, tmp = folder / PROFILES_COPY, folder / f".{PROFILES_COPY}.tmp"
    if record is None:
        path.unlink(missing_ok=True)
        return
    try:
        tmp.write_text(profiles.PROFILES_TEXT, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise CdsimError(f"{path}: cannot write it ({exc.strerror or exc})") from None
    _play(path)


def _play(path: Path) -> None:
    """Play the copy ``path`` (named absolute: the replay commands and the workers read it
    from any folder)."""
    whole = path.resolve()
    profiles.use_file(whole)
    _ADOPTED[:] = [whole]


def adopt(where: Path, record: ProfilesRecord | None) -> None:
    """Before a folder's players are read (``where``: its manifest): play the profiles it
    was played with. A folder that recorded none plays the shipped file (or the user's);
    one that did plays its copy, unless the process already plays those tables; when
    CDSIM_PROFILES names a file that plays one of them otherwise, one line naming it."""
    if record is None:
        if _ADOPTED and USER_FILE is None:  # another folder's copy: back to the shipped
            profiles.use_file(None)
            _ADOPTED.clear()
        return
    name = next((n for n, t in record.players.items() if current_table(n) != t), None)
    if name is None:
        return
    copy = where.parent / PROFILES_COPY
    if USER_FILE is not None:
        raise CdsimError(f"{where.parent}: strategy {name!r} of {USER_FILE} (CDSIM_PROFILES) "
                         f"is not the {name} this folder was played with (its table is kept "
                         f"in {copy}): unset CDSIM_PROFILES to use the folder's own, or play "
                         "the new table in a new folder")
    try:
        text = copy.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CdsimError(f"{copy}: cannot read the profiles file this folder was played with "
                         f"({getattr(exc, 'strerror', None) or exc}); its manifest names "
                         f"{record.file}: name that file with CDSIM_PROFILES") from None
    if hashlib.sha256(text.encode()).hexdigest() != record.digest:
        raise CdsimError(f"{copy}: not the profiles file this folder was played with (its "
                         f"digest differs from the manifest's); its manifest names "
                         f"{record.file}")
    _play(copy)


def changed(where: Path, before: ProfilesRecord | None, now: ProfilesRecord | None) -> None:
    """Refuse to go on with a folder (``where``) whose scripted players now play otherwise
    than when it began (``before``: as recorded; None: the shipped tables)."""
    name = differs(now, before) if now is not None else (
        differs(before, None) if before is not None else None)
    if name is None:
        return
    was = f"the table kept in {where / PROFILES_COPY}" if before is not None and \
        name in before.players else "the shipped strategies/profiles.toml's"
    file = now.file if now is not None else str(profiles.PROFILES_FILE)
    raise CdsimError(f"{where}: --resume: strategy {name!r} of {file} is not the {name} this "
                     f"folder was played with ({was}): continue it without CDSIM_PROFILES, "
                     "or play the new table in a new folder")


__all__ = ["PROFILES_COPY", "ProfilesRecord", "ScriptedTable", "adopt", "changed",
           "current_table", "differs", "keep", "profiles_record", "recorded", "shipped_table"]
