"""A study's sweeps: one component value tried over a list, each value a variant.

``[[sweep]]`` names an entry of a component set (``objective.B05``: the table and the id;
``scroll_track``: a table without ids), a dotted key inside it (``reward.vp``; a list's
items by place, ``points.2``) and the integers to try. Each value becomes an override of
the sweep's base (``base = "default"`` or a component folder or file; default: the study's
``components``) that changes that one key, validated as a whole like any override
(``cdsim.rules.overrides``), and then plays as a ``[[variant]]`` named ``NAME=VALUE``: on
the same deals as the base cells. The override files are written into the study folder
(``sweeps/NAME=VALUE.toml``) so that its run folders name files that stay.
"""

from __future__ import annotations

import copy
import difflib
import re
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError, user_text
from cdsim.rules.components import component_texts, load_components
from cdsim.rules.overrides import DEFAULT, ENTRIES, FILE_KEYS, did_you_mean, toml_text

SWEEPS = "sweeps"  # the override files' folder inside a study folder


@dataclass(frozen=True)
class SweepValue:
    """One value of a sweep: its override file's text and the merged set's digest."""

    name: str  # the variant's: NAME=VALUE
    value: int
    text: str
    digest: str


@dataclass(frozen=True)
class Sweep:
    name: str
    description: str
    entry: str  # as written: "objective.B05"
    key: str  # dotted, inside the entry: "reward.vp"
    base: str  # "default" or the base set's absolute path
    base_value: int  # the key's value in the base
    base_digest: str
    values: tuple[SweepValue, ...]

    def identity(self) -> dict[str, Any]:
        """What --resume checks (the values are the cells': one may be added)."""
        return {"name": self.name, "entry": self.entry, "key": self.key,
                "base": self.base_digest}

    def record(self) -> dict[str, Any]:
        """The manifest's account of the sweep, for the report."""
        return {"name": self.name, "description": self.description, "entry": self.entry,
                "key": self.key, "base": self.base, "base_value": self.base_value,
                "values": [v.value for v in self.values],
                "variants": [v.name for v in self.values]}


def expand(where: str, name: str, description: str, entry: str, key: str, base: str | None,
           values: list[int]) -> Sweep:
    """A sweep's values as override texts, each merged on ``base`` and validated; any
    problem is one CdsimError line starting with ``where`` (the file and the sweep)."""
    table, ident = _split_entry(where, entry)
    texts = component_texts(base)
    tables = tomllib.loads(texts[FILE_KEYS[table]].decode())
    row = _find(where, entry, table, ident, tables)
    parts = key.split(".")
    current = _leaf(where, key, row, parts)
    written = DEFAULT if base is None else base
    out = []
    for value in values:
        # an override replaces a top-level key whole: the rest of it as the base has it
        top: Any = value if len(parts) == 1 else copy.deepcopy(row[parts[0]])
        node = top
        for part in parts[1:-1]:
            node = node[_step(part, node)]
        if len(parts) > 1:
            node[_step(parts[-1], node)] = value
        change = {parts[0]: top}
        body = ({table: [{"id": row["id"], **change}]} if ident is not None
                else {table: change})
        text = toml_text({"base": written, **body})
        out.append(SweepValue(f"{name}={value}", value, text,
                              _digest(f"{where}: {key} = {value}", text)))
    return Sweep(name, description, entry, key, written, current,
                 load_components(base).digest, tuple(out))


def _split_entry(where: str, entry: str) -> tuple[str, str | None]:
    table, _, ident = entry.partition(".")
    if table not in FILE_KEYS:
        close = difflib.get_close_matches(table, list(FILE_KEYS), 1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise CdsimError(f"{where}: entry {user_text(entry, repr, 60)}: unknown table "
                         f"{user_text(table, repr, 40)} ({hint}known: {', '.join(FILE_KEYS)})")
    if (table in ENTRIES) != bool(ident):
        shape = f"{table}.ID (e.g. objective.B05)" if table in ENTRIES else table
        raise CdsimError(f"{where}: entry {user_text(entry, repr, 60)}: write it as {shape}")
    return table, ident or None


def _find(where: str, entry: str, table: str, ident: str | None, tables: dict[str, Any]
          ) -> dict[str, Any]:
    """The base's entry (ids compared as written: ``tile.3`` finds id 3)."""
    if ident is None:
        found: dict[str, Any] = tables[table]
        return found
    rows = tables.get(table, [])
    for row in rows:
        if str(row.get("id")) == ident:
            return dict(row)
    hint = did_you_mean(ident, [r.get("id") for r in rows])  # B5 and b05 mean B05
    raise CdsimError(f"{where}: entry {user_text(entry, repr, 60)}: the base has no "
                     f"{ENTRIES[table]} {ident!r}{hint}")


def _step(part: str, node: Any) -> Any:
    """The index ``part`` names in ``node`` (a key of a table, a place in a list), or None."""
    if isinstance(node, dict):
        return part if part in node and part != "id" else None
    if isinstance(node, list) and re.fullmatch(r"\d{1,6}", part) and int(part) < len(node):
        return int(part)
    return None


def _leaf(where: str, key: str, row: dict[str, Any], parts: list[str]) -> Any:
    """The value at ``parts`` inside ``row``; an integer when ``parts`` is the whole key."""
    node: Any = row
    for depth, part in enumerate(parts):
        step = _step(part, node)
        if step is None:
            known = ", ".join(k for k in node if k != "id") if isinstance(node, dict) else (
                f"0 to {len(node) - 1}" if isinstance(node, list) else "none")
            at = ".".join(parts[:depth]) or "the entry"
            raise CdsimError(f"{where}: key {user_text(key, repr, 60)}: {at} has no "
                             f"{user_text(part, repr, 40)} (it has: {known})")
        node = node[step]
    if len(parts) == len(key.split(".")) and (not isinstance(node, int) or isinstance(node, bool)):
        raise CdsimError(f"{where}: key {user_text(key, repr, 60)} holds "
                         f"{user_text(node, repr, 40)} in the base, not an integer (a sweep "
                         "tries integers)")
    return node


def _digest(where: str, text: str) -> str:
    """The merged set's digest, the override validated as a whole (as a file: the loader
    reads files; the line names the sweep and the value, not the scratch file)."""
    with tempfile.TemporaryDirectory(prefix="cdsim-sweep-") as folder:
        path = Path(folder) / "override.toml"
        path.write_text(text)
        try:
            return load_components(path).digest
        except CdsimError as exc:
            said = str(exc).replace(f"{path}: ", "").replace(str(path), "the override")
            raise CdsimError(f"{where}: {said}") from None


def place(root: Path, sweep: Sweep) -> dict[str, str]:
    """Write the sweep's override files into the study folder; each variant's path."""
    folder = root / SWEEPS
    paths = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for value in sweep.values:
            path = folder / f"{value.name}.toml"
            if not path.is_file() or path.read_text() != value.text:
                path.write_text(value.text)
            paths[value.name] = str(path.resolve())
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write the sweep's files ({exc.strerror or exc})"
                         ) from None
    return paths


__all__ = ["SWEEPS", "Sweep", "SweepValue", "expand", "place"]
