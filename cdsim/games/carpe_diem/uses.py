"""What "use" of a changed Carpe Diem component means in its rows (``cdsim whatif``'s verdict
line for any component; docs/guide.md, "A verdict for any component"): the seat row's
column or the run's use rows that count a seat's uses of it, or why the rows do not record
them yet.

- **A tile with a building** (market, bakery, fountain, R1.1): *placed* in the seat's
  district. The seat row counts the buildings of each kind a seat placed (``markets``,
  ``bakeries``, ``fountains``), not which tile carried them: a bakery of either deck
  (L-bakery or D-bakery) is a use of the bakery tiles.
- **A frame part**: a goal of it *scored* at the end (R10.5), and a **villa-table row**:
  a complete villa *scored at* that chimney count (R10.1): a run that judges a change of
  them records them in its use rows (``cdsim.batch.uses``: the part's goals the seat
  scored, the seat's complete villas at each chimney count); the verdict shows beside it
  the change of the VP source they score through (the seat's frame VP, its villa VP).
- **Any other tile**, the **scroll track** and a **district board**: the rows hold a
  seat's totals (its villas and landscapes, its villa and scroll VP in all), not which
  tile kind or space they came from; their use is not recorded yet (said so), and their
  verdict is the effect on each style, beside the change of the VP source they score
  through where they have one (a villa tile: its villa VP; the scroll track: its scroll
  VP).

Cards have their own table (``cdsim.games.carpe_diem.cards``) and their own line.
"""

from __future__ import annotations

from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.rules.component_records import TileType
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.rules.kinds import BUILDING_CODES, VILLA
from cdsim.games.features import ComponentUse

# a building's seat-row column: the buildings of that kind a seat placed in its district
BUILT = {"market": "markets", "bakery": "bakeries", "fountain": "fountains"}
NOT_BY_PART = ("its runs hold no use rows (only cdsim whatif's runs record them, and not with "
               "a Python strategy): their seat rows hold a seat's frame VP in all, not which "
               "of its 4 frame parts scored it")
NOT_BY_ROW = ("its runs hold no use rows (only cdsim whatif's runs record them, and not with "
              "a Python strategy): their seat rows hold a seat's complete villas and their "
              "chimneys in all, not each villa's chimney count")
NOT_BY_TILE = ("the rows count a seat's villas, landscapes and dwellings, not which tile "
               "kinds it placed")


def component_use(entry: str) -> ComponentUse:
    """What use of ``entry`` (``tile.L-bakery``, ``part.3``, ``villa_table``, as a change
    names it) means in the rows, on the shipped set's tiles."""
    table, _, ident = entry.partition(".")
    if table == "tile":
        building = _building(ident)
        if building is not None:
            return ComponentUse(f"the {ident} tile", f"placed a {building} in their district "
                                f"(a {building} tile of either deck)", BUILT[building],
                                unit=BUILT[building])
        villa = _villa(ident)
        return ComponentUse(f"the {ident} tile", "placed it in their district", why=NOT_BY_TILE,
                            source="vp_villas" if villa else None,
                            source_words="villa VP" if villa else "")
    if table == "part":
        return ComponentUse(f"frame part {ident}", "scored a goal of it (R10.5)",
                            why=NOT_BY_PART, unit="goals", source="vp_frame",
                            source_words="frame VP", uses=entry)
    if table == "villa_table":
        return ComponentUse("the villa table", "scored a complete villa at a changed chimney "
                            "count (R10.1)", why=NOT_BY_ROW, unit="villas",
                            source="vp_villas", source_words="villa VP", uses=table)
    if table == "scroll_track":
        return ComponentUse("the scroll track", "scored on a changed space (R10.3)",
                            why="the rows hold a seat's final space, not the track's values",
                            source="vp_scroll", source_words="scroll VP")
    noun = f"{table} {ident}" if ident else table
    return ComponentUse(noun, "used it", why=f"the rows do not record a seat's use of {noun}")


def _tile(ident: str) -> TileType | None:
    """The shipped tile ``ident`` (None: no such tile)."""
    try:
        tiles = load_components(None).tile_types
    except CdsimError:  # the shipped set always loads; a broken install says nothing more
        return None
    return next((tile for tile in tiles if tile.id == ident), None)


def _building(ident: str) -> str | None:
    """The building the shipped tile ``ident`` carries (None: none, or no such tile)."""
    tile = _tile(ident)
    names = {code: name for name, code in BUILDING_CODES.items()}
    return None if tile is None else names.get(tile.building)


def _villa(ident: str) -> bool:
    """Whether the shipped tile ``ident`` shows a villa part (it scores through villas)."""
    tile = _tile(ident)
    return tile is not None and VILLA in tile.edges


__all__ = ["BUILT", "component_use"]
