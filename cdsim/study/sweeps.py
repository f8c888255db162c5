"""A study's sweeps: one component value tried over a list, each value a variant.

``[[sweep]]`` names an entry of a component set (``objective.B05``: the table and the id;
``scroll_track``: a table without ids), a dotted key inside it (``reward.vp``; a list's
items by place, ``points.2``) and the integers to try. Each value becomes an override of
the sweep's base (``base = "default"`` or a component folder or file; default: the study's
``components``) that changes that one key, validated as a whole like any override
(``cdsim.rules.overrides``), and then plays as a ``[[variant]]`` named ``NAME=VALUE``: on
the same deals as the base cells. The override files are written into the study folder
(``sweeps/NAME=VALUE.toml``) so that its run folders name files that stay. The sweep's
record is the file's ``cdsim.study.file.Sweep``, which ``expand`` resolves.
"""

from __future__ import annotations

import copy
import difflib
import re
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError, user_text
from cdsim.rules.components import component_texts, load_components
from cdsim.rules.overrides import DEFAULT, ENTRIES, FILE_KEYS, did_you_mean, toml_text
from cdsim.study.file import Sweep

SWEEPS = "sweeps"  # the override files' folder inside a study folder


def expand(where: str, sweep: Sweep, base: str | None) -> Sweep:
    """The sweep resolved on ``base`` (None: the default set): its values as override
    texts, each merged on the base and validated; any problem is one CdsimError line
    starting with ``where`` (the file and the sweep)."""
    entry, key = sweep.entry, sweep.key
    table, ident = _split_entry(where, entry)
    texts = component_texts(base)
    tables = tomllib.loads(texts[FILE_KEYS[table]].decode())
    row = _find(where, entry, table, ident, tables)
    parts = key.split(".")
    current = _leaf(where, key, row, parts)
    written = DEFAULT if base is None else base
    out = []
    for value in sweep.values:
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
        out.append(toml_text({"base": written, **body}))
    digests = tuple(_digest(f"{where}: {key} = {value}", text)
                    for value, text in zip(sweep.values, out, strict=True))
    return sweep.model_copy(update={"base": written, "base_value": current,
                                    "base_digest": load_components(base).digest,
                                    "texts": tuple(out), "digests": digests})


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


# Any: a component set's TOML tables: any shape until the swept key is found
def _find(where: str, entry: str, table: str, ident: str | None, tables: dict[str, Any]
          ) -> dict[str, Any]:
    """The base's entry (ids compared as written: ``tile.3`` finds id 3)."""
    if ident is None:
        found: dict[str, Any] = tables[table]  # a component set's TOML table
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


# Any: a component set's TOML row: any shape until the swept key is found
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
        for name, text in zip(sweep.variants, sweep.texts, strict=True):
            path = folder / f"{name}.toml"
            if not path.is_file() or path.read_text() != text:
                path.write_text(text)
            paths[name] = str(path.resolve())
    except OSError as exc:
        raise CdsimError(f"{folder}: cannot write the sweep's files ({exc.strerror or exc})"
                         ) from None
    return paths


__all__ = ["SWEEPS", "expand", "place"]
