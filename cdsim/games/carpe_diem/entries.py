"""Carpe Diem's component entries as a transcription from the box reads them (``cdsim
components transcribe``, ``components check``'s count): every entry of the set's five files
(62 tile kinds, 60 objective and 24 fountain cards, 16 frame parts, 4 boards, the scroll
track and the villa table), named as the sensitivity families name them
(``cdsim.games.carpe_diem.families``), with what to read off the box and where it goes in
an override file. An entry is the box's when it is tagged ``provenance = "rulebook"`` (as
printed); a transcription states the values read and that tag in an override."""

from __future__ import annotations

import tomllib

from cdsim.games.carpe_diem.rules.components import component_texts
from cdsim.games.carpe_diem.rules.overrides import toml_value
from cdsim.games.features import Entry

PRINTED = "rulebook"
# each table of the component files: (its file, how a family names its entries, what to read
# off the box)
TABLES: dict[str, tuple[str, str, str]] = {
    "tile": ("tiles", "tile", "how many copies of this tile the deck holds (count), its "
             "edges as drawn and its chimneys"),
    "objective": ("cards", "objective card", "its deck, pay or have, its requirement and its "
                  "reward"),
    "fountain": ("cards", "fountain card", "what it counts and its VP"),
    "part": ("frames", "frame part", "each goal: its feature, its VP and its line"),
    "board": ("boards", "board", "where the scroll spaces (S) and the start (X) are"),
    "scroll_track": ("scoring", "scroll_track", "the VP of every space of the scroll track"),
    "villa_table": ("scoring", "villa_table", "the VP for each count of chimneys"),
}
HIDDEN = ("id", "provenance")  # keys that are not read off the box


def entries(path: str | None) -> list[Entry]:
    """Every entry of the set at ``path`` (None: the shipped set), file by file in the
    files' order; a set that does not load is one line naming it."""
    texts = component_texts(path)
    out: list[Entry] = []
    for table, (file, name, read) in TABLES.items():
        found = tomllib.loads(texts[file].decode("utf-8")).get(table)
        rows: list[dict[str, object]] = (found if isinstance(found, list) else
                                      [found] if isinstance(found, dict) else [])
        for row in rows:
            values = ", ".join(f"{k} = {toml_value(v)}" for k, v in row.items()
                               if k not in HIDDEN)
            if "id" in row:
                out.append(Entry(f"{name} {row['id']}", table, f"{table}.{row['id']}",
                                 read, values,
                                 f"[[{table}]] with id = {toml_value(row['id'])} and "
                                 f'provenance = "{PRINTED}"',
                                 row.get("provenance") == PRINTED))
            else:
                out.append(Entry(name, table, table, read, values,
                                 f'[{table}] with provenance = "{PRINTED}"',
                                 row.get("provenance") == PRINTED))
    return out


__all__ = ["PRINTED", "TABLES", "entries"]
