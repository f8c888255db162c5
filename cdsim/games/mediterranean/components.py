"""The Mediterranean trading game's component set as cdsim reads it
(cdsim.games.json_components): the core's built-in set (core/src/mediterranean/components.json,
every entry tagged ``rulebook`` or ``reconstructed``; docs/rules-mediterranean.md MC1-MC9) as
JSON, an override file's top-level tables merged over it, its digest, whatif's ``--set``
on one whole-number key (``rules.start_gold.value=6``, ``bonus_tiles.1.points=3``), and its
entries as a transcription from the box reads them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from cdsim.games.features import Entry, KeySets
from cdsim.games.json_components import JsonSet

NAME = "mediterranean"


def entry_id(entry: Mapping[str, object]) -> str:
    """How ``--set`` names an entry of a list table: its name (region, city, good), a goods
    card's good, a points tile's temple and round (``Hispania-B``), a route's two ends
    (``Roma-Neapolis``); else only its number (a city card is named by its city and its
    place among that city's cards, ``Saguntum-2``: ``city_cards.py``)."""
    for key in ("name", "good"):
        if isinstance(entry.get(key), str):
            return str(entry[key])
    if isinstance(entry.get("temple"), str):
        return f"{entry['temple']}-{entry.get('round')}"
    if isinstance(entry.get("a"), str) and isinstance(entry.get("b"), str):
        return f"{entry['a']}-{entry['b']}"
    return ""


COMPONENTS = JsonSet(NAME, entry_id, fixed=("game",), shape="a JSON object of tables")
# the spec's hooks (and the text its diff and entries read)
components_text, load_components = COMPONENTS.components_text, COMPONENTS.load_components
components_digest = COMPONENTS.components_digest


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


# -- its entries as a transcription from the box reads them (``components transcribe``) ------

# what to read off the box for an entry of each table
READ = {
    "regions": "the region's name and its temple's colour",
    "cities": "the city's name and its region",
    "routes": "the sea route between these two cities and whether it is coastal or open sea",
    "distance_tiles": "how many distance tiles of these miles there are (count)",
    "goods": "the good's name",
    "city_cards": "this city card's gold and temple points for each good",
    "goods_cards": "how many goods cards of this good the deck holds (count)",
    "rowing_cards": "this rowing card's power and wind, and how many there are",
    "individual_rowing_cards": "this individual rowing card's power and wind",
    "points_tiles": "the points on this temple's tiles for this round",
    "bonus_tiles": "the bonus tiles' points and how many there are",
    "rules": "the rulebook's value for this rule",
}


def entries(path: str | None) -> list[Entry]:
    """Every entry of the set at ``path`` (None: the built-in set), table by table, with
    what to read off the box for it (``JsonSet.entries``)."""
    return COMPONENTS.entries(path, READ)


# whatif's --set on its JSON tables (it has no sweeps: a list of values is one variant each)
SET_KEYS = KeySets(components_text, COMPONENTS.set_value, COMPONENTS.set_problem,
                   example="rules.start_gold.value")
