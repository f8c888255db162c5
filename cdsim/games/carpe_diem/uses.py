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
- **A tile without a building** (a villa, landscape or dwelling tile): *placed* in the
  seat's district, counted by its shape (its edge kinds in any rotation, its chimneys; the
  core's ``tile_shape`` use rows): a tile of either deck drawn alike is a use of it, as a
  bakery of either deck is of the bakery tiles (L-villa-end-2 and D-villa-end-2 are one
  shape). The shape is the shipped set's: a change of a tile's edges is judged by its old
  shape.
- **The scroll track**: *ended the game on* a changed space, whose points the seat scored
  (R10.3; a change of the whole track: every seat, so no verdict line), and a **district
  board**: *played on* it (dealt at random, R2.1).

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
NOT_BY_SHAPE = ("its runs hold no use rows (only cdsim whatif's runs record them, and not "
                "with a Python strategy): their seat rows count a seat's villas, landscapes and "
                "dwellings, not which tiles it placed")
NOT_BY_SPACE = ("its runs hold no use rows (only cdsim whatif's runs record them, and not "
                "with a Python strategy): read the seat rows' scroll column for a seat's final "
                "space")
NOT_BY_BOARD = ("its runs hold no use rows (only cdsim whatif's runs record them, and not "
                "with a Python strategy): their seat rows do not name a seat's board")


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
        villa, shape = _villa(ident), _shape(ident)
        return ComponentUse(f"the {ident} tile", "placed a tile of its shape in their district "
                            "(its edges and chimneys, of either deck)", why=NOT_BY_SHAPE,
                            unit="tiles", source="vp_villas" if villa else None,
                            source_words="villa VP" if villa else "",
                            uses=None if shape is None else f"tile_shape.{shape}")
    if table == "part":
        return ComponentUse(f"frame part {ident}", "scored a goal of it (R10.5)",
                            why=NOT_BY_PART, unit="goals", source="vp_frame",
                            source_words="frame VP", uses=entry)
    if table == "villa_table":
        return ComponentUse("the villa table", "scored a complete villa at a changed chimney "
                            "count (R10.1)", why=NOT_BY_ROW, unit="villas",
                            source="vp_villas", source_words="villa VP", uses=table)
    if table == "scroll_track":
        return ComponentUse("the scroll track", "ended the game on a changed space (R10.3)",
                            why=NOT_BY_SPACE, unit="ends", source="vp_scroll",
                            source_words="scroll VP", uses=table)
    if table == "board" and ident:
        return ComponentUse(f"district board {ident}", "played on it (dealt at random, R2.1)",
                            why=NOT_BY_BOARD, unit="games", uses=entry)
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


def tile_shape(edges: tuple[int, ...], chimneys: int, building: int) -> str:
    """A tile's shape as the core's use rows name it (``records::tile_shape``): its edge
    kinds in the rotation that reads least, its chimneys and its building, "0001-2-0"."""
    least = min(edges[r:] + edges[:r] for r in range(len(edges)))
    return f"{''.join(str(k) for k in least)}-{chimneys}-{building}"


def _shape(ident: str) -> str | None:
    """The shape of the shipped tile ``ident`` (None: no such tile)."""
    tile = _tile(ident)
    return None if tile is None else tile_shape(tuple(tile.edges), tile.chimneys,
                                                tile.building)


def _villa(ident: str) -> bool:
    """Whether the shipped tile ``ident`` shows a villa part (it scores through villas)."""
    tile = _tile(ident)
    return tile is not None and VILLA in tile.edges


__all__ = ["BUILT", "component_use", "tile_shape"]
