"""Carpe Diem's sweeps: one key of a component set's entry tried over a list of values,
each value an override file of the base (a study's ``[[sweep]]``, ``cdsim whatif --set``).

A sweep names an entry of a component set (``objective.B05``: the table and the id;
``scroll_track``: a table without ids), a dotted key inside it (``reward.vp``; a list's
items by place, ``points.2``) and the integers to try. Each value becomes an override of
the sweep's base (``base = "default"`` or a component folder or file) that changes that one
key, validated as a whole like any override (``cdsim.games.carpe_diem.rules.overrides``). The study's record
of a sweep and where its files go are the study's (``cdsim.study.sweeps``); this module is
what the game's spec hands it (``SWEEPS``, a ``cdsim.games.features.Sweeps``).
"""

from __future__ import annotations

import copy
import difflib
import re
import tempfile
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError, read_toml, user_text
from cdsim.games.carpe_diem.changes import CARD_TABLES
from cdsim.games.carpe_diem.rules.components import component_texts, load_components
from cdsim.games.carpe_diem.rules.overrides import DEFAULT, ENTRIES, FILE_KEYS, did_you_mean, toml_text
from cdsim.games.features import Expanded, SetChange, Sweeps


def expand(where: str, entry: str, key: str, values: Sequence[int], base: str | None
           ) -> Expanded:
    """The sweep of ``entry``'s ``key`` over ``values`` resolved on ``base`` (None: the
    default set): its values as override texts, each merged on the base and validated; any
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
        out.append(toml_text({"base": written, **body}))
    digests = tuple(_digest(f"{where}: {key} = {value}", text)
                    for value, text in zip(values, out, strict=True))
    return Expanded(written, current, load_components(base).digest, tuple(out), digests)


def combine(where: str, changes: Sequence[SetChange], override: str | None) -> str:
    """Several changes made together (each ``(the --set as spelled, entry, key, value)``),
    on ``override`` (an override file: its changes and these together; a component folder
    or file: these on top of it; None: on the default set), as one override text: every
    change applied, then the whole set validated once, so that a swap that keeps a total
    (two tiles' counts, one up and one down) is accepted. A change that names no entry or
    key is one line naming its ``--set``; the set's problem one line starting with
    ``where``."""
    out: dict[str, object] = {}  # the override's tables, as TOML reads them
    base = written = DEFAULT if override is None else override
    if override is not None and Path(override).is_file():
        tables = read_toml(Path(override))
        own = tables.get("base")
        if isinstance(own, str) and own.strip():  # an override file: checked with the sets
            out = tables
            del out["base"]
            written = own if own == DEFAULT else str(
                (Path(override).parent / Path(own).expanduser()).resolve())
            base = written
    texts = component_texts(None if base == DEFAULT else base)
    for spelled, entry, key, value in changes:
        at = f"--set {spelled}"
        table, ident = _split_entry(at, entry)
        row = _find(at, entry, table, ident, tomllib.loads(texts[FILE_KEYS[table]].decode()))
        held = out.get(table)
        if ident is None:  # a table without ids: its keys
            mine = held if isinstance(held, dict) else {}
            out[table] = mine
        else:  # its rows, by id: this entry's, or a new one
            rows = held if isinstance(held, list) else []
            out[table] = rows
            found = [r for r in rows if isinstance(r, dict) and str(r.get("id")) == ident]
            mine = found[0] if found else {"id": row["id"]}
            if not found:
                rows.append(mine)
        current = {**row, **mine}  # an override replaces a top-level key whole
        parts = key.split(".")
        _leaf(at, key, current, parts)
        top: Any = value if len(parts) == 1 else copy.deepcopy(current[parts[0]])
        node = top
        for part in parts[1:-1]:
            node = node[_step(part, node)]
        if len(parts) > 1:
            node[_step(parts[-1], node)] = value
        mine[parts[0]] = top
    text = toml_text({"base": written, **out})
    _digest(where, text)
    return text


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


def split_set(spelled: str, parts: list[str]) -> tuple[str, str]:
    """``--set``'s dotted name (``parts``: ``objective.B05.reward.vp`` split at the dots) as
    (entry, key): ``("objective.B05", "reward.vp")``, ``("villa_table", "points.4")``; an
    unknown table or a missing key is one line naming the ``--set`` (``spelled``)."""
    table = parts[0]
    if table not in FILE_KEYS:
        raise CdsimError(f"--set {spelled!r}: unknown table {table!r} (known: "
                         f"{', '.join(FILE_KEYS)})")
    head = 2 if table in ENTRIES else 1
    if len(parts) <= head:
        raise CdsimError(f"--set {spelled!r}: name a key of the entry, e.g. "
                         f"{'.'.join(parts[:head] or [table])}.reward.vp=6")
    return ".".join(parts[:head]), ".".join(parts[head:])


# `cdsim study init` shows it beside the variant example (the shipped study has no sweep)
STUDY_EXAMPLE = """
# [[sweep]]                  # one component value tried over a list: each value a variant
# name = "B05-reward"        # its variants are B05-reward=6, ... (cells 4p.scripted.B05-reward=6)
# entry = "objective.B05"    # the table and the id (scroll_track, villa_table: no id)
# key = "reward.vp"          # a dotted key inside the entry, holding an integer
# values = [6, 7, 8, 9]      # study.html: each seat's fair offset against the value
# base = "default"           # what each value changes (default: the study's components)
"""

# the sweeps the study and whatif make of Carpe Diem's component files; the objective and
# fountain cards are what the card table follows (a swept card's figures)
SWEEPS = Sweeps(default=DEFAULT, expand=expand, split_set=split_set,
                example="objective.B05.reward.vp", study_example=STUDY_EXAMPLE,
                card_tables=CARD_TABLES, combine=combine)

__all__ = ["SWEEPS", "combine", "expand", "split_set"]
