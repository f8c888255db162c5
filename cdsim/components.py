"""Load and validate a component set (docs/rules.md C1–C10) into immutable tables.

The default set lives in ``cdsim/data/*.toml``. A user set is a folder holding any
of ``tiles.toml``, ``cards.toml``, ``frames.toml``, ``boards.toml`` and
``scoring.toml`` (files it lacks come from the default set), or one such file.
Every problem is reported as one line naming the file, the entry and the problem.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim.errors import ComponentError, read_toml
from cdsim.kinds import (
    BUILDING_CODES,
    DWELLINGS,
    EDGE_CODES,
    FEATURE_CODES,
    GOOD_CODES,
    LANDSCAPES,
    MEADOW,
    SIZE,
    VILLA,
    rotate,
)

DATA_DIR = Path(__file__).parent / "data"
FILES = ("tiles", "cards", "frames", "boards", "scoring")
# Which top-level tables identify a single file given on its own.
FILE_KEYS = {
    "tile": "tiles", "objective": "cards", "fountain": "cards", "part": "frames",
    "board": "boards", "scroll_track": "scoring", "villa_table": "scoring",
}
PROVENANCES = ("rulebook", "reconstructed")

# R1.1, R1.4: counts printed in the rulebook.
LIGHT_TILES = 84
DARK_TILES = 39
OBJECTIVE_CARDS = 60
FOUNTAIN_CARDS = 24
# R2.2: the most cards drawn from each deck (4 players draw 3A 3B 2C 4D, 3 players 3B 3D).
MOST_DRAWN = {"A": 3, "B": 3, "C": 2, "D": 4}
SCROLL_SPACES_PER_BOARD = 9  # R1.3

# What the compiled core holds (core/src/components.rs mirrors these) and what keeps a game
# fast: every integer of a set is checked against these before anything plays.
MAX_CHIMNEYS = 9  # per tile (the core: u8; the villa table's range)
MAX_POINTS = 1000  # |VP| of a card reward, fountain card, frame goal, scroll or villa space
MAX_REQUIRE = 99  # a card's requirement per multiple
MAX_REWARD = 9  # coins, bread or scroll steps a card gives per multiple
MAX_SCROLL_SPACES = 256  # the core's scroll track (R6.6)
MAX_VILLA_TABLE = 256
MAX_TABLE = 255  # tile types, frame parts (the core indexes them with a byte)
MAX_ID = 2**63 - 1  # frame part and board ids (the core: i64)

# "have" requirement keys of green cards, as indices into District.have.
HAVE_KEYS = (
    "chimneys", "villas", "landscapes", "landscapes_3plus", "pond", "garden", "vineyard",
    "chicken_yard", "merchant", "baker", "administrator", "artisan", "dwellings",
    "market", "bakery", "fountain",
)
HAVE_INDEX = {k: i for i, k in enumerate(HAVE_KEYS)}
REWARD_KEYS = ("vp", "coins", "bread", "steps")

Edges = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class TileType:
    id: str
    dark: bool
    edges: Edges
    chimneys: int
    building: int  # 0, or MARKET / BAKERY / FOUNTAIN
    orientations: tuple[Edges, ...]  # distinct rotations, precomputed (R5.2)
    provenance: str


@dataclass(frozen=True, slots=True)
class ObjectiveCard:
    id: str
    deck: str
    pay: bool  # red card: goods are paid; green card ("have"): features are counted
    requires: tuple[tuple[int, int], ...]  # (good index or HAVE_INDEX, amount per multiple)
    vp: int
    coins: int
    bread: int
    steps: int
    provenance: str

    def describe(self) -> str:
        names = [GOOD_NAMES_BY_INDEX[k] if self.pay else HAVE_KEYS[k] for k, _ in self.requires]
        need = " + ".join(f"{n} {name}" for (_, n), name in zip(self.requires, names, strict=True))
        gets = " + ".join(f"{v} {k}" for k, v in zip(REWARD_KEYS, self.reward, strict=True) if v)
        return f"{'pay' if self.pay else 'have'} {need} -> {gets}"

    @property
    def reward(self) -> tuple[int, int, int, int]:
        return (self.vp, self.coins, self.bread, self.steps)


GOOD_NAMES_BY_INDEX = {v: k for k, v in GOOD_CODES.items()}


@dataclass(frozen=True, slots=True)
class FountainCard:
    id: str
    goal: int  # feature kind code
    vp: int
    provenance: str


@dataclass(frozen=True, slots=True)
class FrameGoal:
    kind: int
    vp: int
    line: int


@dataclass(frozen=True, slots=True)
class FramePart:
    id: int
    goals: tuple[FrameGoal, ...]
    provenance: str


@dataclass(frozen=True, slots=True)
class Board:
    id: int
    spade: int
    scrolls: frozenset[int]
    provenance: str


@dataclass(frozen=True, slots=True)
class Components:
    tile_types: tuple[TileType, ...]
    light: tuple[int, ...]  # tile-type index of each physical light tile
    dark: tuple[int, ...]
    objectives: dict[str, ObjectiveCard]
    decks: dict[str, tuple[str, ...]]
    fountains: dict[str, FountainCard]
    frame_parts: dict[int, FramePart]
    boards: tuple[Board, ...]
    scroll_points: tuple[int, ...]
    villa_points_table: tuple[int, ...]
    villa_points_per_extra: int
    digest: str  # sha256 over the files' bytes: identifies the component set
    is_default: bool

    def villa_points(self, chimneys: int) -> int:
        """VP of one complete villa (R10.1, docs/rules.md C6)."""
        table = self.villa_points_table
        if chimneys < len(table):
            return table[chimneys]
        return table[-1] + (chimneys - len(table) + 1) * self.villa_points_per_extra

    @property
    def last_scroll_space(self) -> int:
        return len(self.scroll_points) - 1


class _Checker:
    """Collects the context (file, entry) for one-line error messages."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, entry: str, problem: str) -> ComponentError:
        return ComponentError(f"{self.file}: {entry}: {problem}")

    def get(self, raw: dict[str, Any], key: str, kind: type, entry: str,
            low: int | None = None, high: int | None = None) -> Any:
        if key not in raw:
            raise self.fail(entry, f"missing field '{key}'")
        value = raw[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(entry, f"field '{key}' must be an integer, got {_short(value)}")
        if not isinstance(value, kind):
            raise self.fail(entry, f"field '{key}' must be a {kind.__name__}, got {_short(value)}")
        if isinstance(value, int):
            self.bounded(value, f"field '{key}'", entry, low, high)
        return value

    def bounded(self, value: int, what: str, entry: str, low: int | None, high: int | None) -> int:
        """An integer within [low, high] (the core's range), or one error line."""
        if (low is not None and value < low) or (high is not None and value > high):
            lo = "" if low is None else f"{low}"
            hi = "" if high is None else f"{high}"
            allowed = f"between {lo} and {hi}" if lo and hi else (f">= {lo}" if lo else f"<= {hi}")
            raise self.fail(entry, f"{what} must be {allowed}, got {_short(value)}")
        return value

    def provenance(self, raw: dict[str, Any], entry: str) -> str:
        prov = self.get(raw, "provenance", str, entry)
        if prov not in PROVENANCES:
            raise self.fail(entry, f"provenance must be one of {PROVENANCES}, got {prov!r}")
        return str(prov)

    def table(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        rows = data.get(key)
        if not isinstance(rows, list) or not rows:
            raise ComponentError(f"{self.file}: no [[{key}]] entries")
        for row in rows:
            if not isinstance(row, dict):
                raise ComponentError(f"{self.file}: [[{key}]] must be a table")
        return rows


def _short(value: Any) -> str:
    """A value for an error line: repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_edges(ck: _Checker, text: str, entry: str) -> Edges:
    codes = text.split()
    if len(codes) != 4:
        raise ck.fail(entry, f"edges must be 4 codes (N E S W), got {text!r}")
    for code in codes:
        if code not in EDGE_CODES:
            raise ck.fail(entry, f"unknown edge code {code!r} (known: {' '.join(EDGE_CODES)})")
    e = [EDGE_CODES[c] for c in codes]
    return (e[0], e[1], e[2], e[3])


def check_tile_shape(
    edges: Edges, chimneys: int, building: int, fail: Any, entry: str
) -> None:
    """Structural rules every tile (component or position) obeys (docs/rules.md C1)."""
    kinds = [k for k in edges if k != MEADOW]
    if chimneys < 0:
        raise fail(entry, "chimneys must be >= 0")
    if chimneys and VILLA not in kinds:
        raise fail(entry, "chimneys are only printed on villa parts")
    if building and kinds:
        raise fail(entry, "a market, bakery or fountain sits on an all-meadow tile")
    for kind in DWELLINGS:
        if kinds.count(kind) > 1:
            raise fail(entry, "a dwelling half has exactly one open edge (R6.3)")
    for kind in LANDSCAPES:
        sides = [d for d, k in enumerate(edges) if k == kind]
        if len(sides) > 2 or (len(sides) == 2 and sides[1] - sides[0] == 2):
            raise fail(entry, "landscape parts are only ends and corners")


def _tiles(ck: _Checker, data: dict[str, Any]) -> tuple[tuple[TileType, ...], list[int], list[int]]:
    types: list[TileType] = []
    light: list[int] = []
    dark: list[int] = []
    seen: set[str] = set()
    for raw in ck.table(data, "tile"):
        tid = raw.get("id", "?")
        entry = f"tile {tid!r}"
        tid = ck.get(raw, "id", str, entry)
        if tid in seen:
            raise ck.fail(entry, "duplicate id")
        seen.add(tid)
        deck = ck.get(raw, "deck", str, entry)
        if deck not in ("light", "dark"):
            raise ck.fail(entry, f"deck must be 'light' or 'dark', got {deck!r}")
        edges = _parse_edges(ck, ck.get(raw, "edges", str, entry), entry)
        chimneys = raw.get("chimneys", 0)
        if not isinstance(chimneys, int) or isinstance(chimneys, bool):
            raise ck.fail(entry, "chimneys must be an integer")
        ck.bounded(chimneys, "chimneys", entry, 0, MAX_CHIMNEYS)
        bname = raw.get("building")
        building = 0
        if bname is not None:
            if not isinstance(bname, str) or bname not in BUILDING_CODES:
                raise ck.fail(entry, f"unknown building {_short(bname)} (known: market bakery fountain)")
            building = BUILDING_CODES[bname]
        check_tile_shape(edges, chimneys, building, ck.fail, entry)
        kinds = {k for k in edges if k != MEADOW}
        if not kinds and not building:
            raise ck.fail(entry, "an all-meadow tile needs a building (market, bakery, fountain)")
        if VILLA in kinds and chimneys < 1:
            raise ck.fail(entry, "a villa part needs at least one chimney")
        if deck == "dark" and len(kinds) + (1 if building else 0) != 1:
            raise ck.fail(entry, "dark tiles show exactly one building or landscape (R1.1)")
        count = ck.get(raw, "count", int, entry, 1, DARK_TILES if deck == "dark" else LIGHT_TILES)
        orients: list[Edges] = []
        for r in range(4):
            o = rotate(edges, r)
            if o not in orients:
                orients.append(o)
        index = len(types)
        if index == MAX_TABLE:
            raise ck.fail(entry, f"more than {MAX_TABLE} tile types")
        types.append(TileType(tid, deck == "dark", edges, chimneys, building, tuple(orients),
                              ck.provenance(raw, entry)))
        (dark if deck == "dark" else light).extend([index] * count)
    if len(light) != LIGHT_TILES:
        raise ComponentError(f"{ck.file}: {len(light)} light tiles, the game has {LIGHT_TILES} (R1.1)")
    if len(dark) != DARK_TILES:
        raise ComponentError(f"{ck.file}: {len(dark)} dark tiles, the game has {DARK_TILES} (R1.1)")
    return tuple(types), light, dark


def _objective(ck: _Checker, raw: dict[str, Any]) -> ObjectiveCard:
    entry = f"objective card {raw.get('id', '?')!r}"
    cid = ck.get(raw, "id", str, entry)
    deck = ck.get(raw, "deck", str, entry)
    if deck not in MOST_DRAWN:
        raise ck.fail(entry, f"deck must be A, B, C or D, got {deck!r}")
    typ = ck.get(raw, "type", str, entry)
    if typ not in ("pay", "have"):
        raise ck.fail(entry, f"type must be 'pay' or 'have', got {typ!r}")
    keys = GOOD_CODES if typ == "pay" else HAVE_INDEX
    req = ck.get(raw, "requires", dict, entry)
    if not req:
        raise ck.fail(entry, "a card with no requirement")
    requires = []
    for key, n in req.items():
        if key not in keys:
            raise ck.fail(entry, f"unknown {typ} requirement {key!r} (known: {' '.join(keys)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ck.fail(entry, f"requirement {key!r} must be a positive integer")
        ck.bounded(n, f"requirement {key!r}", entry, 1, MAX_REQUIRE)
        requires.append((keys[key], n))
    reward = ck.get(raw, "reward", dict, entry)
    for key, n in reward.items():
        if key not in REWARD_KEYS:
            raise ck.fail(entry, f"unknown reward {key!r} (known: {' '.join(REWARD_KEYS)})")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ck.fail(entry, f"reward {key!r} must be a non-negative integer")
        ck.bounded(n, f"reward {key!r}", entry, 0, MAX_POINTS if key == "vp" else MAX_REWARD)
    if not any(reward.values()):
        raise ck.fail(entry, "a card with no reward")
    _check_no_pump(ck, entry, typ == "pay", sum(n for _, n in requires),
                   reward.get("coins", 0) + reward.get("bread", 0))
    return ObjectiveCard(cid, deck, typ == "pay", tuple(requires), reward.get("vp", 0),
                         reward.get("coins", 0), reward.get("bread", 0), reward.get("steps", 0),
                         ck.provenance(raw, entry))


def _check_no_pump(ck: _Checker, entry: str, pay: bool, cost: int, gain: int) -> None:
    """A multiple must not give back more coins + bread than it costs (goods or coins for a
    red card, 3 bread on any card, R7.1): else cards could pay for each other without
    limit, and a game's payment choices grow without bound."""
    most = min(cost, 3) if pay else 3
    if gain > most:
        paid = f"{cost} goods/coins or 3 bread" if pay else "3 bread"
        raise ck.fail(entry, f"its reward (coins + bread = {gain} per multiple) is more than "
                      f"a multiple costs ({paid}): at most {most}")


def _cards(ck: _Checker, data: dict[str, Any]) -> tuple[
        dict[str, ObjectiveCard], dict[str, tuple[str, ...]], dict[str, FountainCard]]:
    objectives: dict[str, ObjectiveCard] = {}
    for raw in ck.table(data, "objective"):
        card = _objective(ck, raw)
        if card.id in objectives:
            raise ck.fail(f"objective card {card.id!r}", "duplicate id")
        objectives[card.id] = card
    if len(objectives) != OBJECTIVE_CARDS:
        raise ComponentError(f"{ck.file}: {len(objectives)} objective cards, the game has 60 (R1.4)")
    decks = {d: tuple(c.id for c in objectives.values() if c.deck == d) for d in MOST_DRAWN}
    for d, n in MOST_DRAWN.items():
        if len(decks[d]) < n:
            raise ComponentError(f"{ck.file}: deck {d} has {len(decks[d])} cards, 4 players draw {n} (R2.2)")
    fountains: dict[str, FountainCard] = {}
    for raw in ck.table(data, "fountain"):
        entry = f"fountain card {raw.get('id', '?')!r}"
        fid = ck.get(raw, "id", str, entry)
        if fid in fountains or fid in objectives:
            raise ck.fail(entry, "duplicate id")
        goal = ck.get(raw, "goal", str, entry)
        if goal not in FEATURE_CODES:
            raise ck.fail(entry, f"unknown goal {goal!r} (known: {' '.join(FEATURE_CODES)})")
        vp = ck.get(raw, "vp", int, entry, -MAX_POINTS, MAX_POINTS)
        fountains[fid] = FountainCard(fid, FEATURE_CODES[goal], vp, ck.provenance(raw, entry))
    if len(fountains) != FOUNTAIN_CARDS:
        raise ComponentError(f"{ck.file}: {len(fountains)} fountain cards, the game has 24 (R1.4)")
    return objectives, decks, fountains


def _frames(ck: _Checker, data: dict[str, Any]) -> dict[int, FramePart]:
    parts: dict[int, FramePart] = {}
    for raw in ck.table(data, "part"):
        entry = f"frame part {raw.get('id', '?')!r}"
        pid = ck.get(raw, "id", int, entry, -MAX_ID, MAX_ID)
        if pid in parts:
            raise ck.fail(entry, "duplicate id")
        goals = []
        for g in ck.get(raw, "goals", list, entry):
            if not isinstance(g, dict):
                raise ck.fail(entry, "each goal is a table {kind, vp, line}")
            kind = ck.get(g, "kind", str, entry)
            if kind not in FEATURE_CODES:
                raise ck.fail(entry, f"unknown goal kind {kind!r} (known: {' '.join(FEATURE_CODES)})")
            line = ck.get(g, "line", int, entry)
            if not 0 <= line < SIZE:
                raise ck.fail(entry, f"goal line must be 0-5, got {line}")
            goals.append(FrameGoal(FEATURE_CODES[kind],
                                   ck.get(g, "vp", int, entry, -MAX_POINTS, MAX_POINTS), line))
        if len(goals) != 2:
            raise ck.fail(entry, f"a frame part has 2 goals, got {len(goals)}")
        parts[pid] = FramePart(pid, tuple(goals), ck.provenance(raw, entry))
        if len(parts) > MAX_TABLE:
            raise ck.fail(entry, f"more than {MAX_TABLE} frame parts")
    if len(parts) < 16:
        raise ComponentError(f"{ck.file}: {len(parts)} frame parts, 4 players need 16 (R2.1)")
    return parts


def _boards(ck: _Checker, data: dict[str, Any]) -> tuple[Board, ...]:
    boards: list[Board] = []
    for raw in ck.table(data, "board"):
        entry = f"board {raw.get('id', '?')!r}"
        bid = ck.get(raw, "id", int, entry, -MAX_ID, MAX_ID)
        rows = ck.get(raw, "rows", list, entry)
        if len(rows) != SIZE or any(not isinstance(r, str) or len(r) != SIZE for r in rows):
            raise ck.fail(entry, "rows must be 6 strings of 6 characters")
        text = "".join(rows)
        if set(text) - set(".SX"):
            raise ck.fail(entry, "rows use only '.', 'S' (scroll) and 'X' (spade)")
        if text.count("X") != 1:
            raise ck.fail(entry, "a board has exactly one spade space 'X'")
        scrolls = frozenset(i for i, ch in enumerate(text) if ch == "S")
        if len(scrolls) != SCROLL_SPACES_PER_BOARD:
            raise ck.fail(entry, f"a board has 9 scroll spaces, got {len(scrolls)} (R1.3)")
        boards.append(Board(bid, text.index("X"), scrolls, ck.provenance(raw, entry)))
    if len(boards) < 4:
        raise ComponentError(f"{ck.file}: {len(boards)} district boards, 4 players need 4 (R2.1)")
    return tuple(boards)


def _int_list(ck: _Checker, table: dict[str, Any], entry: str, most: int) -> tuple[int, ...]:
    points = ck.get(table, "points", list, entry)
    if not points or any(not isinstance(p, int) or isinstance(p, bool) for p in points):
        raise ck.fail(entry, "points must be a non-empty list of integers")
    if len(points) > most:
        raise ck.fail(entry, f"points must have at most {most} spaces, got {len(points)}")
    for i, p in enumerate(points):
        ck.bounded(p, f"points[{i}]", entry, -MAX_POINTS, MAX_POINTS)
    return tuple(points)


def _scoring(ck: _Checker, data: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    for key in ("scroll_track", "villa_table"):
        if not isinstance(data.get(key), dict):
            raise ComponentError(f"{ck.file}: missing [{key}] table")
    scroll = _int_list(ck, data["scroll_track"], "scroll_track", MAX_SCROLL_SPACES)
    villa = _int_list(ck, data["villa_table"], "villa_table", MAX_VILLA_TABLE)
    ck.provenance(data["scroll_track"], "scroll_track")
    ck.provenance(data["villa_table"], "villa_table")
    if len(villa) < 6 or villa[3] != 3 or villa[5] != 7:
        raise ck.fail("villa_table", "the rulebook fixes 3 chimneys -> 3 VP and 5 -> 7 VP (R10.1)")
    extra = ck.get(data["villa_table"], "per_extra_chimney", int, "villa_table", -MAX_POINTS, MAX_POINTS)
    return scroll, villa, extra


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path, ComponentError)


def _sources(path: Path | None) -> dict[str, Path]:
    sources = {name: DATA_DIR / f"{name}.toml" for name in FILES}
    if path is None:
        return sources
    if path.is_dir():
        found = [n for n in FILES if (path / f"{n}.toml").is_file()]
        if not found:
            raise ComponentError(
                f"{path}: no component files (expected any of {', '.join(f + '.toml' for f in FILES)})")
        sources.update({n: path / f"{n}.toml" for n in found})
        return sources
    if not path.is_file():
        raise ComponentError(f"{path}: no such component file or folder")
    data = _read(path)
    kinds = {FILE_KEYS[k] for k in data if k in FILE_KEYS}
    if len(kinds) != 1:
        raise ComponentError(f"{path}: cannot tell which component file this is "
                             "(expected [[tile]], [[objective]], [[part]], [[board]] or [scroll_track])")
    sources[kinds.pop()] = path
    return sources


def load_components(path: Path | str | None = None) -> Components:
    """Load and validate a component set; the default set when path is None."""
    return _load(None if path is None else Path(path).resolve())


@cache
def _load(path: Path | None) -> Components:
    sources = _sources(path)
    data = {name: _read(p) for name, p in sources.items()}
    ck = {name: _Checker(str(p) if path is not None else f"default {name}.toml")
          for name, p in sources.items()}
    types, light, dark = _tiles(ck["tiles"], data["tiles"])
    objectives, decks, fountains = _cards(ck["cards"], data["cards"])
    frames = _frames(ck["frames"], data["frames"])
    boards = _boards(ck["boards"], data["boards"])
    scroll, villa, extra = _scoring(ck["scoring"], data["scoring"])
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(sources[name].read_bytes())
    default = all(p == DATA_DIR / f"{n}.toml" for n, p in sources.items())
    return Components(types, tuple(light), tuple(dark), objectives, decks, fountains, frames,
                      boards, scroll, villa, extra, digest.hexdigest(), default)
