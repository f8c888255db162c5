"""The Castles of Tuscany's component set as cdsim reads it (cdsim.games.json_components):
the core's built-in set (core/src/castles/builtin.json, every entry with its provenance) as
JSON, an override file's top-level keys merged over it, its digest, whatif's ``--set`` on
one whole-number key (``colour_bonus.castle.first``, ``cards.farm.count``), what one set
changes from another, and its entries as a transcription from the box reads them."""

from __future__ import annotations

import json
from collections.abc import Mapping

from cdsim.games.features import Entry, KeySets
from cdsim.games.json_components import JsonSet

NAME = "castles"


def entry_id(entry: Mapping[str, object]) -> str:
    """How ``--set`` names an entry of a list table: its name, else its colour, kind or
    reward, with its crops (``farm-olive-vineyard``) that tell farms apart."""
    for key in ("name", "colour", "kind", "reward"):
        name = entry.get(key)
        if isinstance(name, str):
            crops = entry.get("crops")
            return "-".join([name, *map(str, crops if isinstance(crops, list) else [])])
    return ""


COMPONENTS = JsonSet(NAME, entry_id, unsigned="a count or VP")
# the spec's hooks (and the text its diff and entries read)
components_text, load_components = COMPONENTS.components_text, COMPONENTS.load_components
components_digest = COMPONENTS.components_digest


def diff(old: str | None, new: str | None) -> list[tuple[str, str]]:
    """What the set at ``new`` changes from the one at ``old`` (None: the built-in set), as
    (entry, line): ``("colour_bonus.castle", "colour_bonus castle: first 4 -> 8")``; a
    table whose entries were added or removed is one line for the whole table."""
    a, b = json.loads(components_text(old)), json.loads(components_text(new))
    out: list[tuple[str, str]] = []
    for table in b:
        before, after = a.get(table), b[table]
        if before == after:
            continue
        if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
            for x, y in zip(before, after, strict=True):
                keys = [k for k in dict.fromkeys([*x, *y]) if k != "source" and x.get(k) != y.get(k)]
                if keys:
                    said = ", ".join(f"{k} {x.get(k)} -> {y.get(k)}" for k in keys)
                    out.append((f"{table}.{entry_id(y)}", f"{table} {entry_id(y)}: {said}"))
        elif isinstance(before, dict) and isinstance(after, dict):
            keys = [k for k in after if k != "source" and before.get(k) != after.get(k)]
            out.append((table, f"{table}: " + ", ".join(f"{k} {before.get(k)} -> {after.get(k)}"
                                                      for k in keys)))
        else:
            out.append((table, f"{table}: {len(before or [])} entries -> {len(after)}"))
    return out



# -- its entries as a transcription from the box reads them (``components transcribe``) ------

# what to read off the box for an entry of each table
READ = {
    "player_tiles": "how many of this tile a player's set holds (count)",
    "neutral_tiles": "how many of this tile the neutral supply holds (count)",
    "cards": "how many cards of this colour the deck holds (count)",
    "harvest": "this harvest tile's reward, its amount and how many there are",
    "bonus_tokens": "how many bonus tokens of this kind there are (count)",
    "colour_bonus": "the VP for the first and the second to fill this colour",
    "pieces": "this territory piece's two rows of five hexes",
    "area_vp": "the VP for each area completed",
}


def entries(path: str | None) -> list[Entry]:
    """Every entry of the set at ``path`` (None: the built-in set), table by table, with
    what to read off the box for it (``JsonSet.entries``)."""
    return COMPONENTS.entries(path, READ)


# whatif's --set on its JSON tables (it has no sweeps: a list of values is one variant each)
SET_KEYS = KeySets(components_text, COMPONENTS.set_value, COMPONENTS.set_problem,
                   example="colour_bonus.castle.first")
