"""What "use" of a changed Mediterranean table means in its rows (``cdsim whatif``'s verdict
line for any component; docs/guide.md, "A verdict for any component"). A change names a
whole table (``rules``, ``points_tiles``: the game's ``diff``).

- **Shared by every seat alike**: the rules' numbers (``rules``: coins, starting gold and
  wind, rounds, ...), the map (``regions``, ``cities``, ``routes``, ``distance_tiles``) and
  the goods' names: every seat plays with them as they are, so no seat uses them and
  another not, and they truly have no verdict line (said so); their verdict is the
  effect on each style.
- **The cards and tiles** (``city_cards``, ``goods_cards``, ``rowing_cards``,
  ``individual_rowing_cards``, ``points_tiles``, ``bonus_tiles``): taken, played or scored
  by some seats; the rows hold a seat's VP by source (temples, the gold temple, bonus
  tiles), not which cards or tiles it used, so their use is not recorded yet (said so),
  beside the change of the VP source a tile scores through.
"""

from __future__ import annotations

from cdsim.games.features import ComponentUse

SHARED = {"rules": "plays by the same rules' numbers",
          "regions": "plays on the same map", "cities": "plays on the same map",
          "routes": "plays on the same map", "distance_tiles": "sails the same routes' miles",
          "goods": "trades the same goods"}
USED = {"city_cards": "took one (a contract, its goods and points)",
        "goods_cards": "drew one", "rowing_cards": "played one",
        "individual_rowing_cards": "played its own",
        "points_tiles": "scored from one at a temple", "bonus_tiles": "took one"}
SOURCES = {"points_tiles": ("vp_temples", "temple VP"), "bonus_tiles": ("vp_bonus", "bonus VP")}
NOT_BY_ENTRY = ("the rows hold a seat's VP by source (temples, the gold temple, bonus tiles), "
                "not which cards or tiles it took or played")


def component_use(entry: str) -> ComponentUse:
    """What use of the changed table ``entry`` means in the rows."""
    table = entry.partition(".")[0]
    noun = f"the {table.replace('_', ' ')}"
    if table in SHARED:
        return ComponentUse(noun, SHARED[table], why="every seat plays with it alike",
                            shared=True)
    source = SOURCES.get(table)
    return ComponentUse(noun, USED.get(table, "used it"), why=NOT_BY_ENTRY,
                        source=source and source[0], source_words=source[1] if source else "")


__all__ = ["component_use"]
