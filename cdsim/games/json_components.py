"""A component set kept as JSON by the core (Castles', the Mediterranean's): the built-in set
as the core hands it over, an override file's top-level tables merged over it, its digest,
the core's copy of it, what the core finds wrong with a set, and whatif's ``--set`` of one
whole-number key (``colour_bonus.castle.first``, ``rules.start_gold.value``) and its
tagged entries as a transcription from the box reads them. Each game
makes one ``JsonSet`` with its name and how ``--set`` names an entry of a list table, and
hands its bound methods to its spec; every error is one line naming the file or the
``--set``."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.features import DEFAULT_SET, Entry

# an entry's own notes, which ``--set`` never sets and a change does not count
NOTES = ("source", "note")


@dataclass(frozen=True)
class JsonSet:
    """One game's JSON component set: ``name`` as the core's registry spells it."""

    name: str
    # how ``--set`` names an entry of a list table ("" where it has no name: its number)
    entry_id: Callable[[Mapping[str, object]], str]
    # the set's identity, not tables an override may change
    fixed: tuple[str, ...] = ()
    # what a component file is, as the line for a file that is not says it
    shape: str = "a JSON object"
    # what every whole-number key holds where none may be negative, as the line for a
    # negative ``--set`` value says it (None: some are signed, and the core judges the set)
    unsigned: str | None = None

    def builtin_text(self) -> str:
        """The built-in component set as the core hands it over (JSON)."""
        module = core.module()
        if module is None:
            raise CdsimError(f"{self.name} needs the compiled core (make install)")
        text: str = module.builtin_components(self.name)
        return text

    @staticmethod
    def builtin(path: str | None) -> bool:
        """Whether ``path`` names the built-in set: none, or "default" (as for Carpe Diem)."""
        return path is None or path == DEFAULT_SET

    def tables(self, base: Mapping[str, object]) -> list[str]:
        """The tables of the set ``base`` an override or ``--set`` may change."""
        return sorted(k for k in base if k not in self.fixed)

    def components_text(self, path: str | None) -> str:
        """The set as the core reads it: the built-in JSON, or a JSON file of overrides (its
        top-level tables replace the built-in set's); a file that changes nothing (one
        ``components export`` wrote) is the built-in set."""
        return _text(self, path)

    def load_components(self, path: str | None) -> Any:
        """The core's copy of the set at ``path``, or one line naming the file and the entry
        the core refuses."""
        return _load(self, path)

    def components_digest(self, path: str | None) -> tuple[str, bool]:
        """sha256 over the set's JSON (the built-in one's, or the override merged over it)."""
        self.load_components(path)  # a set the core refuses is one line here
        return hashlib.sha256(self.components_text(path).encode()).hexdigest(), self.builtin(path)

    def entries(self, path: str | None, read: Mapping[str, str]) -> list[Entry]:
        """Every tagged entry of the set at ``path`` (None: the built-in set), table by
        table, as ``--set`` names it (``colour_bonus.castle``, ``rules.start_gold``,
        ``distance_tiles.coastal.3``) with ``read[table]``, what to read off the box: a
        JSON override replaces a table whole, so an entry goes in its whole table,
        ``"source": "rulebook"`` on it when its values are the box's."""
        out: list[Entry] = []
        for table, value in json.loads(self.components_text(path)).items():
            if table in self.fixed:
                continue
            for address, row in self._tagged(table, value):
                values = ", ".join(f"{k} = {json.dumps(v)}" for k, v in row.items()
                                   if k not in NOTES)
                out.append(Entry(address.replace(".", " ", 1), table, address,
                                 read.get(table, "its values"), values,
                                 f'the "{table}" table of a JSON override (a table is '
                                 'replaced whole: write all its entries), with "source": '
                                 '"rulebook" on this one', row.get("source") == "rulebook"))
        return out

    def _tagged(self, address: str, value: Any) -> list[tuple[str, Mapping[str, object]]]:
        """The entries (JSON objects with a ``source``) of ``value`` at ``address``: a list's
        by their ``entry_id`` (else their number), an object's keys' in turn."""
        if isinstance(value, list):
            return [(f"{address}.{self.entry_id(row) or i + 1}", row)
                    for i, row in enumerate(value) if isinstance(row, dict)]
        if isinstance(value, dict):
            if "source" in value:
                return [(address, value)]
            return [e for k, v in value.items() for e in self._tagged(f"{address}.{k}", v)]
        return []

    def set_problem(self, text: str) -> str | None:
        """What the core finds wrong with the set whose JSON is ``text`` (every table), in its
        words without a place in that generated text; None: it loads."""
        try:
            core.module().Components(text, game=self.name)  # type: ignore[union-attr]
        except ValueError as e:
            return re.sub(r" at line \d+ column \d+", "", str(e))
        return None

    def set_value(self, base: Mapping[str, object], table: str, address: list[str], value: int,
                  spelled: str) -> dict[str, object]:
        """The table ``table`` of the set ``base`` (its JSON, every table) with one
        whole-number key set, as an override: an entry of a list table by its name
        (``entry_id``) or its number, a list's value by its number (``area_vp.vp.3``, the 3rd);
        anything else is one line naming the ``--set``."""
        known = self.tables(base)
        if table not in known:
            raise CdsimError(f"--set {spelled!r}: unknown table {table!r} (known: "
                             f"{', '.join(known)})")
        data = json.loads(json.dumps(base[table]))  # a copy to change
        if not address:
            raise CdsimError(f"--set {spelled!r}: name a key of {table}"
                             f"{self._said(f'{table}.', data)}")
        where: Any = data
        for i, step in enumerate(address):
            last = i == len(address) - 1
            if isinstance(where, list) and where and isinstance(where[0], dict):
                where = self._entry(where, step, table, spelled)
                if last:
                    raise CdsimError(f"--set {spelled!r}: name a key of the entry"
                                     f"{self._said(spelled.split('=', 1)[0] + '.', where)}")
                continue
            if isinstance(where, list) and step.isdigit() and 1 <= int(step) <= len(where):
                key: Any = int(step) - 1
            elif isinstance(where, dict) and step in where and step not in NOTES:
                key = step
            else:
                said = (f"1-{len(where)}" if isinstance(where, list) else
                        ", ".join(k for k in where if k not in NOTES)
                        if isinstance(where, dict) else "none")
                raise CdsimError(f"--set {spelled!r}: no key {step!r} there (known: {said})")
            if last:
                if not isinstance(where[key], int) or isinstance(where[key], bool):
                    raise CdsimError(f"--set {spelled!r}: {step} is not a whole number to set")
                if value < 0 and self.unsigned:  # the core reads them unsigned
                    raise CdsimError(f"--set {spelled!r}: {step} is {self.unsigned}, 0 or "
                                     f"more, got {value}")
                where[key] = value
            else:
                where = where[key]
        return {table: data}

    def _entry(self, data: list[Any], wanted: str, table: str, spelled: str) -> Any:
        """The entry of the list table ``data`` that ``wanted`` names (its id, or its
        number), or one line listing the ids that name one entry each."""
        ids = [self.entry_id(e) if isinstance(e, dict) else "" for e in data]
        found = [i for i, x in enumerate(ids) if x and x == wanted]
        if not found and wanted.isdigit() and 1 <= int(wanted) <= len(data):
            found = [int(wanted) - 1]
        if len(found) != 1:
            named = [x for x in dict.fromkeys(ids) if x and ids.count(x) == 1]
            said = f"its entries: {', '.join(named)}; or " if named else ""
            raise CdsimError(f"--set {spelled!r}: {table} has no entry {wanted!r} ({said}its "
                             f"number, 1-{len(data)})")
        return data[found[0]]

    def _said(self, prefix: str, data: Any) -> str:
        """", e.g. <prefix><a key down to a whole number>=5", or that there is none."""
        example = self._example(data)
        return f", e.g. {prefix}{example}=5" if example else ("; it holds no whole number "
                                                             "--set can change")

    def _example(self, data: Any) -> str:
        """The first key of ``data`` (a table) down to a whole number that ``--set`` can
        name, for a line that asks for one ("" where there is none)."""
        if isinstance(data, bool):
            return ""
        if isinstance(data, int):
            return "."
        steps: list[tuple[str, Any]] = []
        if isinstance(data, dict):
            steps = [(k, v) for k, v in data.items() if k not in NOTES]
        elif isinstance(data, list):
            steps = [(self.entry_id(v) if isinstance(v, dict) and self.entry_id(v) else str(i + 1),
                      v) for i, v in enumerate(data)]
        for step, value in steps:
            rest = self._example(value)
            if rest:
                return step if rest == "." else f"{step}.{rest}"
        return ""


@cache
def _text(components: JsonSet, path: str | None) -> str:
    text = components.builtin_text()
    if components.builtin(path):
        return text
    assert path is not None
    base = json.loads(text)
    override = _read(components.name, path)
    if not isinstance(override, dict):
        raise CdsimError(f"{path}: a {components.name} component file is {components.shape}")
    for key in components.fixed:  # the set's identity: as the built-in set's, or refused
        if key in override and override.pop(key) != base[key]:
            raise CdsimError(f"{path}: {key} must be {json.dumps(base[key])} (a "
                             f"{components.name} set)")
    known = components.tables(base)
    unknown = sorted(k for k in override if k not in known)
    if unknown:
        raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(known)})")
    merged = {**base, **override}
    return text if merged == base else json.dumps(merged)


def _read(name: str, path: str) -> Any:
    """The JSON at ``path``: a file, or the folder ``components export`` wrote (its
    ``<name>.json``)."""
    if os.path.isdir(path):
        inside = os.path.join(path, f"{name}.json")
        if not os.path.isfile(inside):
            raise CdsimError(f"{path}: a folder without {name}.json; give the {name} "
                             "component file (JSON), as components export writes it")
        path = inside
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CdsimError(f"{path}: not a {name} component file ({e})") from None
    except RecursionError:  # lists or objects nested thousands deep
        raise CdsimError(f"{path}: not a {name} component file (lists or objects nested "
                         "too deep)") from None


@cache
def _load(components: JsonSet, path: str | None) -> Any:
    text = components.components_text(path)
    try:
        return core.module().Components(text, game=components.name)  # type: ignore[union-attr]
    except ValueError as e:
        raise CdsimError(f"{path or f'{components.name} built-in components'}: {e}") from None


__all__ = ["NOTES", "JsonSet"]
