"""The Mediterranean trading game's component set as cdsim reads it: the core's built-in set
(core/src/mediterranean/components.json, every entry tagged ``rulebook`` or
``reconstructed``; docs/rules-mediterranean.md MC1-MC9) as JSON, an override file's
top-level tables merged over it, its digest, and whatif's ``--set`` on one whole-number key
(``rules.start_gold.value=6``, ``bonus_tiles.1.points=3``)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.features import KeySets
from cdsim.rules.overrides import DEFAULT

NAME = "mediterranean"
# the set's identity, not tables an override may change
FIXED = ("game",)


def builtin_text() -> str:
    """The built-in component set as the core hands it over (JSON)."""
    module = core.module()
    if module is None:
        raise CdsimError(f"{NAME} needs the compiled core (make install)")
    text: str = module.builtin_components(NAME)
    return text


def builtin(path: str | None) -> bool:
    """Whether ``path`` names the built-in set: none, or "default" (as for Carpe Diem)."""
    return path is None or path == DEFAULT


def _read(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CdsimError(f"{path}: not a {NAME} component file ({e})") from None
    except RecursionError:  # lists or objects nested thousands deep
        raise CdsimError(f"{path}: not a {NAME} component file (lists or objects nested "
                         "too deep)") from None


@cache
def components_text(path: str | None) -> str:
    """The set as the core reads it: the built-in JSON, or a JSON file of overrides (its
    top-level tables replace the built-in set's)."""
    text = builtin_text()
    if builtin(path):
        return text
    assert path is not None
    base = json.loads(text)
    override = _read(path)
    if not isinstance(override, dict):
        raise CdsimError(f"{path}: a {NAME} component file is a JSON object of tables")
    known = sorted(k for k in base if k not in FIXED)
    unknown = sorted(k for k in override if k not in known)
    if unknown:
        raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(known)})")
    return json.dumps({**base, **override})


@cache
def load_components(path: str | None) -> Any:
    """The core's copy of the set at ``path``, or one line naming the file and the entry the
    core refuses."""
    text = components_text(path)
    try:
        return core.module().Components(text, game=NAME)  # type: ignore[union-attr]
    except ValueError as e:
        raise CdsimError(f"{path or f'{NAME} built-in components'}: {e}") from None


def components_digest(path: str | None) -> tuple[str, bool]:
    """sha256 over the set's JSON (the built-in one's, or the override merged over it)."""
    load_components(path)  # a set the core refuses is one line here
    return hashlib.sha256(components_text(path).encode()).hexdigest(), builtin(path)


def set_problem(text: str) -> str | None:
    """What the core finds wrong with the set whose JSON is ``text``; None: it loads."""
    try:
        core.module().Components(text, game=NAME)  # type: ignore[union-attr]
    except ValueError as e:
        return re.sub(r" at line \d+ column \d+", "", str(e))
    return None


def entry_id(entry: Mapping[str, object]) -> str:
    """How ``--set`` names an entry of a list table: its name (region, city, good), a city
    card's city, a goods card's good, a points tile's temple and round
    (``Hispania-B``), a route's two ends (``Roma-Neapolis``); else only its number."""
    for key in ("name", "good"):
        if isinstance(entry.get(key), str):
            return str(entry[key])
    if isinstance(entry.get("temple"), str):
        return f"{entry['temple']}-{entry.get('round')}"
    if isinstance(entry.get("a"), str) and isinstance(entry.get("b"), str):
        return f"{entry['a']}-{entry['b']}"
    return ""


def _entry(data: list[Any], wanted: str, table: str, spelled: str) -> Any:
    ids = [entry_id(e) if isinstance(e, dict) else "" for e in data]
    found = [i for i, x in enumerate(ids) if x and x == wanted]
    if not found and wanted.isdigit() and 1 <= int(wanted) <= len(data):
        found = [int(wanted) - 1]
    if len(found) != 1:
        named = sorted({x for x in ids if x and ids.count(x) == 1})
        said = f"its entries: {', '.join(named)}; or " if named else ""
        raise CdsimError(f"--set {spelled!r}: {table} has no entry {wanted!r} ({said}its "
                         f"number, 1-{len(data)})")
    return data[found[0]]


def set_value(base: Mapping[str, object], table: str, address: list[str], value: int,
              spelled: str) -> dict[str, object]:
    """The table ``table`` of the set ``base`` with one whole-number key set, as an
    override: ``rules.start_gold.value``, ``bonus_tiles.1.points``,
    ``points_tiles.Hispania-B.points.1``, ``distance_tiles.coastal.1.count``; anything
    else is one line naming the ``--set``."""
    known_tables = sorted(k for k in base if k not in FIXED)
    if table not in known_tables:
        raise CdsimError(f"--set {spelled!r}: unknown table {table!r} (known: "
                         f"{', '.join(known_tables)})")
    if not address:
        raise CdsimError(f"--set {spelled!r}: name a key of {table}, e.g. "
                         "rules.start_gold.value=6")
    data = json.loads(json.dumps(base[table]))  # a copy to change
    where: Any = data
    for i, step in enumerate(address):
        last = i == len(address) - 1
        if isinstance(where, list) and where and isinstance(where[0], dict) and not last:
            where = _entry(where, step, table, spelled)
            continue
        if isinstance(where, list) and step.isdigit() and 1 <= int(step) <= len(where):
            key: Any = int(step) - 1
        elif isinstance(where, dict) and step in where and step not in ("source", "note"):
            key = step
        else:
            known = (f"1-{len(where)}" if isinstance(where, list) else
                     ", ".join(k for k in where if k not in ("source", "note"))
                     if isinstance(where, dict) else "none")
            raise CdsimError(f"--set {spelled!r}: no key {step!r} there (known: {known})")
        if last:
            if not isinstance(where[key], int) or isinstance(where[key], bool):
                raise CdsimError(f"--set {spelled!r}: {step} is not a whole number to set")
            where[key] = value
        else:
            where = where[key]
    return {table: data}


def diff(old: str | None, new: str | None) -> list[tuple[str, str]]:
    """What the set at ``new`` changes from the one at ``old`` (None: the built-in set), as
    (entry, line), one line a changed table."""
    a, b = json.loads(components_text(old)), json.loads(components_text(new))
    return [(table, f"{table}: changed ({_summary(a.get(table), b[table])})")
            for table in b if a.get(table) != b[table]]


def _summary(before: Any, after: Any) -> str:
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        changed = [entry_id(y) or str(i + 1)
                   for i, (x, y) in enumerate(zip(before, after, strict=True)) if x != y]
        return "entries " + ", ".join(changed)
    if isinstance(before, dict) and isinstance(after, dict):
        return "keys " + ", ".join(k for k in after if before.get(k) != after[k])
    return f"{len(before or [])} entries -> {len(after)}"


# whatif's --set on its JSON tables (it has no sweeps: a list of values is one variant each)
SET_KEYS = KeySets(components_text, set_value, set_problem, example="rules.start_gold.value")
