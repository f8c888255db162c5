"""Overrides: a component set written as a base and only what changes, and the changes
between two sets (docs/components.md).

An override file names its ``base`` ("default", or a component folder or file relative to
the override's folder, itself possibly an override) and holds tables spelled as in the
component files. Entries of ``[[tile]]``, ``[[objective]]``, ``[[fountain]]``,
``[[part]]`` and ``[[board]]`` are matched by ``id``: each key given replaces the base
entry's key whole (``reward = { vp = 6 }`` is the whole reward, as it is printed on the
card); an entry whose id the base lacks is added (it needs every key the base's entries all
have), and ``remove = true`` removes one. ``[scroll_track]`` and ``[villa_table]`` have no
ids: their keys replace the base's. This module works on the files' tables as read (typed
``dict[str, object]``: what they hold is for the files' records to say); the merged set is
validated and built by ``cdsim.games.carpe_diem.rules.components``.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cdsim.errors import ComponentError, user_text

# Which file each top-level table belongs to.
FILE_KEYS = {
    "tile": "tiles", "objective": "cards", "fountain": "cards", "part": "frames",
    "board": "boards", "scroll_track": "scoring", "villa_table": "scoring",
}
# Tables whose entries carry an id, and how an entry is named in a line.
ENTRIES = {"tile": "tile", "objective": "objective card", "fountain": "fountain card",
           "part": "frame part", "board": "board"}
DEFAULT = "default"  # the base that names the shipped set


def _shown(value: Any) -> str:
    return user_text(value, repr, 60)


def _entry(table: str, ident: Any) -> str:
    return f"{ENTRIES[table]} {_shown(ident)}"


def merge(label: str, base: dict[str, dict[str, object]], override: dict[str, object]
          ) -> dict[str, dict[str, object]]:
    """The files ``override`` (its tables, ``base`` taken out) changes, merged onto
    ``base`` (each file's tables as read); ``base`` itself is left as it was. Every
    problem the merge itself can see is one line naming ``label``, the entry and the key;
    what the merged files hold is checked afterwards, against their schemas."""
    merged: dict[str, dict[str, object]] = {}
    for table, value in override.items():
        if table not in FILE_KEYS:
            close = difflib.get_close_matches(str(table), [*FILE_KEYS, "base"], 1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ComponentError(f"{label}: unknown table {_shown(table)} ({hint}known: base, "
                                 f"{', '.join(FILE_KEYS)})")
        name = FILE_KEYS[table]
        if name not in merged:
            merged[name] = copy.deepcopy(base[name])
        tables = merged[name]
        before = tables.get(table)
        if table in ENTRIES:
            assert before is None or isinstance(before, list)  # the base's, as read or dumped
            tables[table] = _merge_entries(label, table, before or [], value)
        elif isinstance(value, dict):
            assert before is None or isinstance(before, dict)
            tables[table] = {**(before or {}), **value}
        else:
            raise ComponentError(f"{label}: {table} must be a table ([{table}]), got {_shown(value)}")
    return merged


def _merge_entries(label: str, table: str, rows: list[dict[str, object]], changes: Any
                   ) -> list[dict[str, object]]:
    """The base's entries of ``table`` with ``changes`` (the override's [[table]]) applied:
    changed entries keep their place (the decks are drawn in file order), new ones go last."""
    if not isinstance(changes, list) or not all(isinstance(c, dict) for c in changes):
        raise ComponentError(f"{label}: {table} must be an array of tables ([[{table}]]), "
                             f"got {_shown(changes)}")
    place = {row.get("id"): i for i, row in enumerate(rows)}
    # A new entry needs what every base entry states (keys with defaults may be left out).
    needed = [k for k in rows[0] if k != "id" and all(k in r for r in rows)] if rows else []
    out: list[dict[str, object] | None] = list(rows)
    seen: list[Any] = []
    for n, change in enumerate(changes, 1):
        if "id" not in change:
            raise ComponentError(f"{label}: {ENTRIES[table]} {n}: id is required (an override "
                                 f"names the entry it changes by its id)")
        ident = change["id"]
        if not isinstance(ident, str | int) or isinstance(ident, bool):
            raise ComponentError(f"{label}: {ENTRIES[table]} {n}: id must be a string or an "
                                 f"integer, got {_shown(ident)}")
        where = f"{label}: {_entry(table, ident)}"
        if ident in seen:
            raise ComponentError(f"{where}: given twice")
        seen.append(ident)
        if "remove" in change:
            if change["remove"] is not True or set(change) != {"id", "remove"}:
                raise ComponentError(f"{where}: remove takes only remove = true and the id")
            if ident not in place:
                raise ComponentError(f"{where}: cannot remove it: the base has no such "
                                     f"{ENTRIES[table]}{did_you_mean(ident, place)}")
            out[place[ident]] = None
        elif ident in place:
            i = place[ident]
            out[i] = {**rows[i], **change}
        else:
            missing = [k for k in needed if k not in change]
            if missing:
                raise ComponentError(f"{where}: the base has no such {ENTRIES[table]}"
                                     f"{did_you_mean(ident, place)}; a new one needs "
                                     f"{', '.join(missing)}")
            out.append(dict(change))
    return [row for row in out if row is not None]


def _id_key(ident: object) -> str:
    """An entry id as a person may mistype it: case and leading zeros of its numbers
    dropped (``b5``, ``B5`` and ``b05`` are all ``B5``)."""
    return re.sub(r"\d+", lambda m: str(int(m.group())), str(ident).upper())


def closest_id(ident: object, known: Iterable[object]) -> str | None:
    """The known entry id ``ident`` most likely means: the one that differs only in case or
    leading zeros (``B5``, ``b05`` -> ``B05``), else the closest spelling, else None."""
    names = [str(k) for k in known]
    same = [k for k in names if _id_key(k) == _id_key(ident)]
    if same:
        return same[0]
    keys = {_id_key(k): k for k in names}
    close = difflib.get_close_matches(_id_key(ident), list(keys), 1)
    return keys[close[0]] if close else None


def did_you_mean(ident: object, known: Iterable[object]) -> str:
    """`` (did you mean 'B05'?)`` for an entry id not found among ``known``, or ""."""
    close = closest_id(ident, known)
    return f" (did you mean {close!r}?)" if close is not None else ""


# -- the changes between two sets -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Change:
    """One key of one entry that differs between two sets; ``key`` is empty when the whole
    entry is only in one of them."""

    table: str
    entry: Any  # the entry's id; None for [scroll_track] and [villa_table]
    key: str  # dotted, as the error lines spell it (reward.vp, goals.0.line)
    old: Any  # None: not there
    new: Any

    @property
    def where(self) -> str:
        return self.table if self.entry is None else _entry(self.table, self.entry)

    def line(self) -> str:
        if not self.key:
            return f"{self.where}: {'added' if self.old is None else 'removed'}"
        return f"{self.where}: {self.key}: {shown(self.old)} -> {shown(self.new)}"


def shown(value: Any) -> str:
    """A value as a component file spells it (``none`` where there is none)."""
    text = "none" if value is None else toml_value(value)
    return text if len(text) <= 60 else text[:57] + "..."


def differences(old: dict[str, dict[str, object]], new: dict[str, dict[str, object]]
                ) -> tuple[Change, ...]:
    """What changes from ``old`` to ``new`` (each file's tables, as validated and dumped,
    so that a key left at its default and the default written out are the same): entries
    matched by id, in file order, then those only ``old`` has."""
    out: list[Change] = []
    for name in new:
        for table, after in new[name].items():
            before = old[name].get(table)
            if table in ENTRIES:
                assert isinstance(after, list) and isinstance(before, list | None)
                earlier = {row["id"]: row for row in before or []}
                ids = [row["id"] for row in after]
                for row in after:
                    if row["id"] not in earlier:
                        out.append(Change(table, row["id"], "", None, row))
                    else:
                        out += (Change(table, row["id"], k, a, b)
                                for k, a, b in _keys(earlier[row["id"]], row))
                out += (Change(table, i, "", row, None) for i, row in earlier.items()
                        if i not in ids)
            else:
                out += (Change(table, None, k, a, b) for k, a, b in _keys(before, after))
    return tuple(out)


def _keys(old: Any, new: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(dotted key, old, new) of each leaf that differs; tables by key, lists by place."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in dict.fromkeys([*old, *new]):
            yield from _keys(old.get(k), new.get(k), f"{path}.{k}" if path else str(k))
    elif isinstance(old, list) and isinstance(new, list):
        for i in range(max(len(old), len(new))):
            yield from _keys(old[i] if i < len(old) else None, new[i] if i < len(new) else None,
                             f"{path}.{i}" if path else str(i))
    elif old != new or type(old) is not type(new):
        yield path, old, new


# -- writing a set's tables as TOML -----------------------------------------------------------

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")


def _key(key: str) -> str:
    return key if BARE_KEY.match(key) else json.dumps(key)


def toml_value(value: Any) -> str:
    """One value in TOML (JSON's string escapes are TOML's basic strings')."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {type(value).__name__}")


def toml_text(tables: dict[str, object]) -> str:
    """A component file's tables as TOML, the same text for the same tables (what the
    digest of a merged set reads, and what ``components export`` writes)."""
    lines = [f"{_key(k)} = {toml_value(v)}" for k, v in tables.items()
             if not isinstance(v, dict) and not _is_array_of_tables(v)]
    for k, v in tables.items():
        if isinstance(v, dict):
            lines += ["", f"[{_key(k)}]", *(f"{_key(a)} = {toml_value(b)}" for a, b in v.items())]
        elif isinstance(v, list) and _is_array_of_tables(v):
            for row in v:
                lines += ["", f"[[{_key(k)}]]",
                          *(f"{_key(a)} = {toml_value(b)}" for a, b in row.items())]
    return "\n".join(lines).lstrip("\n") + "\n"


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
