"""A player's position from a TOML file, for the rules console ``cdsim score``.

Format (all keys but ``[[tile]]`` optional)::

    scroll = 0
    fountain_cards = ["F05"]
    frame = [1, 5, 9, 13]       # frame part ids on the top, right, bottom, left sides
    cards = ["A06", "B05"]      # objective cards to evaluate
    [supply]
    grapes = 0                  # also herbs chickens fish coins bread stored_tiles
    [[tile]]
    cell = [0, 0]               # [row, column], row 0 at the top
    edges = "G V G G"           # N E S W as placed
    chimneys = 1                # villa parts only
    building = "market"         # market / bakery / fountain tiles only
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cdsim.errors import PositionError, read_toml
from cdsim.games.carpe_diem.rules.cards import CardOutcome, best_payment, payment_options, settle
from cdsim.games.carpe_diem.rules.components import MAX_CHIMNEYS, Components, check_tile_shape
from cdsim.games.carpe_diem.rules.district import District
from cdsim.games.carpe_diem.rules.kinds import BUILDING_CODES, EDGE_CODES, GOOD_NAMES, SIZE

SUPPLY_KEYS = (*GOOD_NAMES, "coins", "bread", "stored_tiles")
TILE_KEYS = ("cell", "edges", "chimneys", "building")
MAX_SUPPLY = 500  # of each good, coins, bread: a card's payment options grow with the square


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class Position:
    district: District
    goods: list[int]
    coins: int
    bread: int
    stored: int
    scroll: int
    fountain_cards: list[str]
    cards: list[str]


def _int(raw: Any, what: str, fail: Any, low: int = 0, high: int | None = None) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < low:
        raise fail(f"{what} must be an integer >= {low}, got {_short(raw)}")
    if high is not None and raw > high:
        raise fail(f"{what} must be between {low} and {high}, got {_short(raw)}")
    return raw


def load_position(path: Path, components: Components) -> Position:
    def fail(problem: str) -> PositionError:
        return PositionError(f"{path}: {problem}")

    data = read_toml(path, PositionError)
    known = {"scroll", "fountain_cards", "frame", "cards", "supply", "tile"}
    for key in data:
        if key not in known:
            raise fail(f"unknown key {key!r} (known: {', '.join(sorted(known))})")
    frame_ids = data.get("frame", [])
    if frame_ids and (not isinstance(frame_ids, list) or len(frame_ids) != 4):
        raise fail("frame must list 4 frame part ids (top, right, bottom, left)")
    for pid in frame_ids:
        if isinstance(pid, bool) or not isinstance(pid, int) or pid not in components.frame_parts:
            raise fail(f"unknown frame part {_short(pid)} in frame")
    district = District(None, tuple(components.frame_parts[p] for p in frame_ids))
    supply = data.get("supply", {})
    if not isinstance(supply, dict):
        raise fail("[supply] must be a table")
    for key in supply:
        if key not in SUPPLY_KEYS:
            raise fail(f"unknown supply {key!r} (known: {', '.join(SUPPLY_KEYS)})")
    amounts = {k: _int(supply.get(k, 0), f"supply {k}", fail, 0, MAX_SUPPLY) for k in SUPPLY_KEYS}
    for key, table in (("fountain_cards", components.fountains),
                       ("cards", components.objectives)):
        ids = data.get(key, [])
        if not isinstance(ids, list):
            raise fail(f"{key} must be a list of card ids")
        for cid in ids:
            if not isinstance(cid, str) or cid not in table:
                raise fail(f"unknown card id {_short(cid)} in {key}")
    scroll = _int(data.get("scroll", 0), "scroll", fail)
    if scroll > components.last_scroll_space:
        raise fail(f"scroll must be 0-{components.last_scroll_space}, got {scroll}")
    _place_tiles(data.get("tile", []), district, fail)
    return Position(district, [amounts[g] for g in GOOD_NAMES], amounts["coins"],
                    amounts["bread"], amounts["stored_tiles"], scroll,
                    list(data.get("fountain_cards", [])), list(data.get("cards", [])))


def _place_tiles(tiles: Any, district: District, fail: Any) -> None:
    if not isinstance(tiles, list):
        raise fail("[[tile]] entries must be tables")
    for i, raw in enumerate(tiles, 1):
        where = f"tile {i}"
        if not isinstance(raw, dict):
            raise fail(f"{where}: must be a table")
        for key in raw:
            if key not in TILE_KEYS:  # a misspelt key would be dropped without a word
                raise fail(f"{where}: unknown key {_short(key)} (known: {', '.join(TILE_KEYS)})")
        cell = raw.get("cell")
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < SIZE
                           for x in cell)):
            raise fail(f"{where}: cell must be [row, column] with values 0-5, got {_short(cell)}")
        index = cell[0] * SIZE + cell[1]
        if district.edges[index] is not None:
            raise fail(f"{where}: cell {cell} already has a tile")
        edges_raw = raw.get("edges", "")
        codes = edges_raw.split() if isinstance(edges_raw, str) else []
        if len(codes) != 4 or any(c not in EDGE_CODES for c in codes):
            raise fail(f"{where}: edges must be 4 codes of {' '.join(EDGE_CODES)}, "
                       f"got {_short(edges_raw)}")
        edges = (EDGE_CODES[codes[0]], EDGE_CODES[codes[1]], EDGE_CODES[codes[2]],
                 EDGE_CODES[codes[3]])
        chimneys = _int(raw.get("chimneys", 0), f"{where}: chimneys", fail, 0, MAX_CHIMNEYS)
        bname = raw.get("building")
        if bname is not None and (not isinstance(bname, str) or bname not in BUILDING_CODES):
            raise fail(f"{where}: unknown building {_short(bname)} (market, bakery, fountain)")
        building = BUILDING_CODES[bname] if bname else 0
        check_tile_shape(edges, chimneys, building,
                         lambda entry, problem: fail(f"{entry}: {problem}"), where)
        if not district.matches(index, edges):  # R5.2, R5.3
            raise fail(f"{where} at {cell}: its edges do not match a neighbour or the frame "
                       "(frame sides must be meadow)")
        if district.oversized_landscape(index, edges):
            raise fail(f"{where} at {cell}: a landscape of more than 4 tiles (R6.2)")
        district.place(index, edges, chimneys, building)


@dataclass(frozen=True)
class PositionScore:
    final: dict[str, int]
    cards: list[CardOutcome]


def score_position(pos: Position, components: Components) -> PositionScore:
    """R10 final scoring of the position, and each listed card at its most multiples (R8.4)."""
    d = pos.district
    fountains = components.fountains
    final = {
        "villas": sum(components.villa_points(c) for c in d.villa_chimneys),
        "leftovers": (sum(pos.goods) + pos.coins + pos.bread + pos.stored) // 2,
        "scroll": components.scroll_points[pos.scroll],
        "fountains": sum(fountains[f].vp * d.complete_count[fountains[f].goal]
                         for f in pos.fountain_cards),
        "frame": d.frame_points(),
    }
    final["total"] = sum(final.values())
    outcomes = []
    for cid in pos.cards:
        card = components.objectives[cid]
        options = payment_options(card, d.have, pos.goods, pos.coins, pos.bread)
        outcomes.append(settle(card, best_payment(options), pos.goods, pos.coins))
    return PositionScore(final, outcomes)
