"""The records of a component set (docs/rules.md C1–C10), each declared once as the frozen
dataclass the rules play with: a tile type, an objective card, a fountain card, a frame part
and its goals, a district board, the scroll track and the villa table (each a ``[[table]]``
entry of a component file), and each file as its tables (``SCHEMAS``). Their fields are the
file's keys, with their types (strict) and the ranges the core holds beside them
(``cdsim.file_records``), and their own rules in ``__post_init__``; with them, the
counts the rulebook prints and the limits the core holds. Loading a set and checking it as a
whole is ``cdsim.games.carpe_diem.rules.components``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from cdsim.file_records import Between, Check, Entries, FileRecord, Named, OneOf, Text
from cdsim.games.carpe_diem.rules.kinds import (
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

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

# R1.1, R1.4: counts printed in the rulebook.
LIGHT_TILES = 84
DARK_TILES = 39
OBJECTIVE_CARDS = 60
FOUNTAIN_CARDS = 24
# R2.2: the most cards drawn from each deck (4 players draw 3A 3B 2C 4D, 3 players 3B 3D).
MOST_DRAWN = {"A": 3, "B": 3, "C": 2, "D": 4}
SCROLL_SPACES_PER_BOARD = 9  # R1.3

# What the compiled core holds (core/src/carpe_diem/components.rs mirrors these) and what keeps a game
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

Edges = tuple[int, int, int, int]
Provenance = Literal["rulebook", "reconstructed"]
PROVENANCES: tuple[str, ...] = get_args(Provenance)
Points = Annotated[int, Between(-MAX_POINTS, MAX_POINTS)]
Id = Annotated[int, Between(-MAX_ID, MAX_ID)]
Feature = Annotated[int, Named(FEATURE_CODES)]  # a feature kind's name in a file ("pond")
Given = Annotated[int, Between(0, MAX_REWARD)]  # per multiple


def short_repr(value: Any) -> str:
    """A value for an error line: repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _edges(text: str) -> Edges:
    codes = text.split()
    if len(codes) != 4:
        raise ValueError(f"4 codes are needed (N E S W), got {short_repr(text)}")
    for code in codes:
        if code not in EDGE_CODES:
            raise ValueError(f"unknown edge code {short_repr(code)} (known: {' '.join(EDGE_CODES)})")
    e = [EDGE_CODES[c] for c in codes]
    return (e[0], e[1], e[2], e[3])


def _edge_text(edges: Edges) -> str:
    return " ".join(EDGE_NAMES[k] for k in edges)


EDGE_NAMES = {v: k for k, v in EDGE_CODES.items()}


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


# -- the records: each a [[table]] entry of a file, as the rules read it ---------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class TileType(FileRecord):
    id: str
    deck: Literal["light", "dark"]
    edges: Annotated[Edges, Text(_edges, _edge_text)]  # N E S W as printed ("V G G G")
    chimneys: Annotated[int, Between(0, MAX_CHIMNEYS)] = 0
    building: Annotated[int, Named(BUILDING_CODES)] = 0  # 0, or MARKET / BAKERY / FOUNTAIN
    count: Annotated[int, Between(1, LIGHT_TILES)]  # copies in the box
    provenance: Provenance
    orientations: tuple[Edges, ...] = field(init=False, compare=False)  # distinct rotations (R5.2)

    def __post_init__(self) -> None:
        check_tile_shape(self.edges, self.chimneys, self.building,
                         lambda _, text: ValueError(text), "")
        kinds = {k for k in self.edges if k != MEADOW}
        if not kinds and not self.building:
            raise ValueError("an all-meadow tile needs a building (market, bakery, fountain)")
        if VILLA in kinds and self.chimneys < 1:
            raise ValueError("a villa part needs at least one chimney")
        if self.dark and len(kinds) + (1 if self.building else 0) != 1:
            raise ValueError("dark tiles show exactly one building or landscape (R1.1)")
        turns = dict.fromkeys(rotate(self.edges, r) for r in range(4))
        object.__setattr__(self, "orientations", tuple(turns))

    @property
    def dark(self) -> bool:
        return self.deck == "dark"


@dataclass(frozen=True, slots=True, kw_only=True)
class CardReward(FileRecord):
    """What one multiple of a card gives; it reads as its four numbers (REWARD_KEYS)."""

    vp: Annotated[int, Between(0, MAX_POINTS)] = 0
    coins: Given = 0
    bread: Given = 0
    steps: Given = 0

    def __iter__(self) -> Iterator[int]:
        return (getattr(self, key) for key in REWARD_KEYS)


REWARD_KEYS = tuple(f.name for f in fields(CardReward))


class _Requires:
    """A card's ``requires`` as printed (a table: name -> amount per multiple), held as
    (good index or HAVE_INDEX, amount) pairs: the card's ``type``, read before it, says
    which names it takes. ObjectiveCard writes the names back."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler
                                     ) -> CoreSchema:
        from pydantic_core import core_schema as cs

        def pairs(named: dict[str, int], info: Any) -> tuple[tuple[int, int], ...]:
            kind = info.data.get("type")
            if kind is None:  # the type is wrong: that is the line
                return ()
            keys = GOOD_CODES if kind == "pay" else HAVE_INDEX
            for key in named:
                if key not in keys:
                    raise ValueError(f"unknown {kind} requirement {short_repr(key)} (known: "
                                     f"{' '.join(keys)})")
            return tuple((keys[k], n) for k, n in named.items())

        named = handler.generate_schema(
            Annotated[dict[str, Annotated[int, Between(1, MAX_REQUIRE)]], Entries(1)])
        return cs.with_info_after_validator_function(  # written back by ObjectiveCard.written
            pairs, named, serialization=cs.plain_serializer_function_ser_schema(list))


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectiveCard(FileRecord):
    id: str
    deck: Annotated[str, OneOf(MOST_DRAWN)]
    type: Literal["pay", "have"]  # red: goods are paid; green ("have"): features are counted
    requires: Annotated[tuple[tuple[int, int], ...], _Requires()]
    reward: CardReward
    provenance: Provenance

    def __post_init__(self) -> None:
        r = self.reward
        if not any(r):
            raise ValueError("a card with no reward")
        # A multiple must not give back more coins + bread than it costs (goods or coins
        # for a red card, 3 bread on any card, R7.1): else cards could pay for each other
        # without limit, and a game's payment choices grow without bound.
        cost, gain = sum(n for _, n in self.requires), r.coins + r.bread
        most = min(cost, 3) if self.pay else 3
        if gain > most:
            paid = f"{cost} goods/coins or 3 bread" if self.pay else "3 bread"
            raise ValueError(f"its reward (coins + bread = {gain} per multiple) is more than "
                             f"a multiple costs ({paid}): at most {most}")

    def written(self, tables: dict[str, object]) -> dict[str, object]:
        return {**tables, "requires": self.named_requires()}

    @property
    def pay(self) -> bool:
        return self.type == "pay"

    @property
    def vp(self) -> int:
        return self.reward.vp

    @property
    def coins(self) -> int:
        return self.reward.coins

    @property
    def bread(self) -> int:
        return self.reward.bread

    @property
    def steps(self) -> int:
        return self.reward.steps

    def named_requires(self) -> dict[str, int]:
        """``requires`` as the card prints it."""
        names = GOOD_NAMES_BY_INDEX if self.pay else HAVE_KEYS
        return {names[k]: n for k, n in self.requires}

    def describe(self) -> str:
        need = " + ".join(f"{n} {name}" for name, n in self.named_requires().items())
        gets = " + ".join(f"{v} {k}" for k, v in zip(REWARD_KEYS, self.reward, strict=True) if v)
        return f"{self.type} {need} -> {gets}"


GOOD_NAMES_BY_INDEX = {v: k for k, v in GOOD_CODES.items()}


@dataclass(frozen=True, slots=True, kw_only=True)
class FountainCard(FileRecord):
    id: str
    goal: Feature
    vp: Points
    provenance: Provenance


@dataclass(frozen=True, slots=True, kw_only=True)
class FrameGoal(FileRecord):
    kind: Feature
    vp: Points
    line: Annotated[int, Between(0, SIZE - 1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class FramePart(FileRecord):
    id: Id
    goals: Annotated[tuple[FrameGoal, ...], Entries(2, 2)]
    provenance: Provenance


def _board_rows(rows: tuple[str, ...]) -> tuple[str, ...]:
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError(f"a board is {SIZE} strings of {SIZE} characters")
    text = "".join(rows)
    if set(text) - set(".SX"):
        raise ValueError("use only '.', 'S' (scroll) and 'X' (spade)")
    if text.count("X") != 1:
        raise ValueError("a board has exactly one spade space 'X'")
    if text.count("S") != SCROLL_SPACES_PER_BOARD:
        raise ValueError(f"a board has {SCROLL_SPACES_PER_BOARD} scroll spaces, got "
                         f"{text.count('S')} (R1.3)")
    return rows


@dataclass(frozen=True, slots=True, kw_only=True)
class Board(FileRecord):
    id: Id
    rows: Annotated[tuple[str, ...], Entries(), Check(_board_rows)]  # '.', 'S' scroll, 'X' spade
    provenance: Provenance
    spade: int = field(init=False, compare=False)  # its cell
    scrolls: frozenset[int] = field(init=False, compare=False)  # cells with a scroll token

    def __post_init__(self) -> None:
        text = "".join(_board_rows(self.rows))
        object.__setattr__(self, "spade", text.index("X"))
        object.__setattr__(self, "scrolls", frozenset(i for i, ch in enumerate(text) if ch == "S"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ScrollTrack(FileRecord):
    points: Annotated[tuple[Points, ...], Entries(1, MAX_SCROLL_SPACES)]  # VP of each space
    provenance: Provenance


@dataclass(frozen=True, slots=True, kw_only=True)
class VillaTable(FileRecord):
    points: Annotated[tuple[Points, ...], Entries(1, MAX_VILLA_TABLE)]  # VP by chimneys
    per_extra_chimney: Points
    provenance: Provenance

    def __post_init__(self) -> None:
        if len(self.points) < 6 or self.points[3] != 3 or self.points[5] != 7:
            raise ValueError("the rulebook fixes 3 chimneys -> 3 VP and 5 -> 7 VP (R10.1)")


# -- the files: each its tables ----------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class Tiles(FileRecord):
    tile: Annotated[tuple[TileType, ...], Entries(1, MAX_TABLE)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Cards(FileRecord):
    objective: Annotated[tuple[ObjectiveCard, ...], Entries(1)]
    fountain: Annotated[tuple[FountainCard, ...], Entries(1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Frames(FileRecord):
    part: Annotated[tuple[FramePart, ...], Entries(1, MAX_TABLE)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Boards(FileRecord):
    board: Annotated[tuple[Board, ...], Entries(1)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Scoring(FileRecord):
    scroll_track: ScrollTrack
    villa_table: VillaTable


SCHEMAS: dict[str, type[FileRecord]] = {
    "tiles": Tiles, "cards": Cards, "frames": Frames, "boards": Boards, "scoring": Scoring}
