"""Load and validate a component set (docs/rules.md C1–C10) into immutable tables.

The default set lives in ``cdsim/data/*.toml``. A user set is a folder holding any
of ``tiles.toml``, ``cards.toml``, ``frames.toml``, ``boards.toml`` and
``scoring.toml`` (files it lacks come from the default set), or one such file, or an
override file: a base and only the entries it changes (``cdsim.rules.overrides``).
Each record (a tile type, a card, a frame part, a board, the scoring tables) and each file
is declared once, as the frozen dataclass the rules play with: its fields are the file's
keys, with their types (strict) and the ranges the core holds beside them
(``cdsim.rules.file_records``), and its own rules in ``__post_init__``. pydantic checks a
file against them only when one is read; every problem is reported as one line naming the
file, the entry, the key and what is allowed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from cdsim.errors import ComponentError, read_toml
from cdsim.rules.file_records import Between, Check, Entries, FileRecord, Named, OneOf, Text
from cdsim.rules.kinds import (
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
from cdsim.rules.overrides import (
    DEFAULT,
    ENTRIES,
    FILE_KEYS,
    Change,
    differences,
    merge,
    toml_text,
)

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler
    from pydantic_core import CoreSchema

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
FILES = ("tiles", "cards", "frames", "boards", "scoring")

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

Edges = tuple[int, int, int, int]
Provenance = Literal["rulebook", "reconstructed"]
PROVENANCES: tuple[str, ...] = get_args(Provenance)
Points = Annotated[int, Between(-MAX_POINTS, MAX_POINTS)]
Id = Annotated[int, Between(-MAX_ID, MAX_ID)]
Feature = Annotated[int, Named(FEATURE_CODES)]  # a feature kind's name in a file ("pond")
Given = Annotated[int, Between(0, MAX_REWARD)]  # per multiple


def _short(value: Any) -> str:
    """A value for an error line: repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _edges(text: str) -> Edges:
    codes = text.split()
    if len(codes) != 4:
        raise ValueError(f"4 codes are needed (N E S W), got {_short(text)}")
    for code in codes:
        if code not in EDGE_CODES:
            raise ValueError(f"unknown edge code {_short(code)} (known: {' '.join(EDGE_CODES)})")
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
                    raise ValueError(f"unknown {kind} requirement {_short(key)} (known: "
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

    def written(self, tables: dict[str, Any]) -> dict[str, Any]:
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
    scroll_track: ScrollTrack
    villa_table: VillaTable
    digest: str  # sha256 over the files' bytes (an override's: its merged files'): identifies the set
    is_default: bool
    changes: tuple[Change, ...] = ()  # from its base: an override's, else the default set
    base: str = ""  # that base as written ("default", an override's path); "": the default set

    def villa_points(self, chimneys: int) -> int:
        """VP of one complete villa (R10.1, docs/rules.md C6)."""
        table = self.villa_points_table
        if chimneys < len(table):
            return table[chimneys]
        return table[-1] + (chimneys - len(table) + 1) * self.villa_points_per_extra

    @property
    def scroll_points(self) -> tuple[int, ...]:
        return self.scroll_track.points

    @property
    def villa_points_table(self) -> tuple[int, ...]:
        return self.villa_table.points

    @property
    def villa_points_per_extra(self) -> int:
        return self.villa_table.per_extra_chimney

    @property
    def last_scroll_space(self) -> int:
        return len(self.scroll_points) - 1


def _validated(name: str, file: str, data: dict[str, Any]) -> FileRecord:
    """A component file's tables checked against its record; else one line naming the
    file, the entry and the key."""
    from pydantic import ValidationError

    from cdsim.schema import problem, validate

    record = SCHEMAS[name]
    try:
        return validate(record, data)
    except ValidationError as exc:
        raise ComponentError(f"{file}: {problem(exc, record, data, ENTRIES, 'id')}") from None


def _unique(file: str, label: str, ids: list[Any]) -> None:
    for i, x in enumerate(ids):
        if x in ids[:i]:
            raise ComponentError(f"{file}: {label} {_short(x)}: duplicate id")


def _tiles(file: str, tiles: Tiles) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tile type of each physical light and dark tile."""
    _unique(file, "tile", [t.id for t in tiles.tile])
    light = tuple(i for i, t in enumerate(tiles.tile) if not t.dark for _ in range(t.count))
    dark = tuple(i for i, t in enumerate(tiles.tile) if t.dark for _ in range(t.count))
    if len(light) != LIGHT_TILES:
        raise ComponentError(f"{file}: {len(light)} light tiles, the game has {LIGHT_TILES} (R1.1)")
    if len(dark) != DARK_TILES:
        raise ComponentError(f"{file}: {len(dark)} dark tiles, the game has {DARK_TILES} (R1.1)")
    return light, dark


def _cards(file: str, cards: Cards) -> tuple[
        dict[str, ObjectiveCard], dict[str, tuple[str, ...]], dict[str, FountainCard]]:
    _unique(file, "objective card", [c.id for c in cards.objective])
    objectives = {c.id: c for c in cards.objective}
    if len(objectives) != OBJECTIVE_CARDS:
        raise ComponentError(f"{file}: {len(objectives)} objective cards, the game has 60 (R1.4)")
    decks = {d: tuple(c.id for c in objectives.values() if c.deck == d) for d in MOST_DRAWN}
    for d, n in MOST_DRAWN.items():
        if len(decks[d]) < n:
            raise ComponentError(f"{file}: deck {d} has {len(decks[d])} cards, 4 players draw {n} (R2.2)")
    _unique(file, "fountain card", [*objectives, *(f.id for f in cards.fountain)])
    fountains = {f.id: f for f in cards.fountain}
    if len(fountains) != FOUNTAIN_CARDS:
        raise ComponentError(f"{file}: {len(fountains)} fountain cards, the game has 24 (R1.4)")
    return objectives, decks, fountains


def _frames(file: str, frames: Frames) -> dict[int, FramePart]:
    _unique(file, "frame part", [p.id for p in frames.part])
    parts = {p.id: p for p in frames.part}
    if len(parts) < 16:
        raise ComponentError(f"{file}: {len(parts)} frame parts, 4 players need 16 (R2.1)")
    return parts


def _boards(file: str, boards: Boards) -> tuple[Board, ...]:
    if len(boards.board) < 4:
        raise ComponentError(f"{file}: {len(boards.board)} district boards, 4 players need 4 (R2.1)")
    return boards.board


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path, ComponentError)


@dataclass(frozen=True, slots=True)
class _File:
    """One file of a set: its tables as read (merged, for an override), validated, and the
    bytes the set's digest reads."""

    label: str  # names the file in a line
    tables: dict[str, Any]
    model: FileRecord
    text: bytes
    default: bool  # the shipped file's bytes (a copy of it too: the same set)


Files = dict[str, _File]


def _file(name: str, path: Path, label: str) -> _File:
    tables = _read(path)
    if "base" in tables:
        raise ComponentError(f"{label}: base: an override is a file of its own, not part of a "
                             f"folder (give --components {label})")
    text = path.read_bytes()
    return _File(label, tables, _validated(name, label, tables), text,
                 text == (DATA_DIR / f"{name}.toml").read_bytes())


@cache
def _default_files() -> Files:
    return {n: _file(n, DATA_DIR / f"{n}.toml", f"default {n}.toml") for n in FILES}


def _files(path: Path | None, chain: tuple[Path, ...] = ()) -> tuple[Files, str, Files | None]:
    """A set's files, the base it changes as written ("" for the default set itself) and
    that base's files; ``chain``: the overrides that led here (a cycle is refused)."""
    default = _default_files()
    if path is None:
        return default, "", None
    if path.is_dir():
        found = [n for n in FILES if (path / f"{n}.toml").is_file()]
        if not found:
            raise ComponentError(
                f"{path}: no component files (expected any of {', '.join(f + '.toml' for f in FILES)})")
        return {**default, **{n: _file(n, path / f"{n}.toml", str(path / f"{n}.toml"))
                              for n in found}}, DEFAULT, default
    if not path.is_file():
        raise ComponentError(f"{path}: no such component file or folder")
    tables = _read(path)
    if "base" in tables:
        return _override(path, tables, chain)
    kinds = {FILE_KEYS[k] for k in tables if k in FILE_KEYS}
    if len(kinds) != 1:
        raise ComponentError(f"{path}: cannot tell which component file this is "
                             "(expected [[tile]], [[objective]], [[part]], [[board]] or "
                             "[scroll_track]; or base = \"default\" to change only some entries)")
    name = kinds.pop()
    try:
        return {**default, name: _file(name, path, str(path))}, DEFAULT, default
    except ComponentError as exc:
        if " is required" not in str(exc):
            raise
        raise ComponentError(f"{exc} (to change only some entries, start the file with "
                             f"base = \"default\": docs/components.md)") from None


def _override(path: Path, tables: dict[str, Any], chain: tuple[Path, ...]
              ) -> tuple[Files, str, Files]:
    """An override file's set: its base's files with its tables merged in (rules/overrides.py).
    A file it leaves as it was keeps the base's bytes, so the digest is the base's."""
    if path in chain:
        loop = " -> ".join(str(p) for p in (*chain[chain.index(path):], path))
        raise ComponentError(f"{path}: base: the bases go round in a cycle ({loop})")
    written = tables.pop("base")
    if not isinstance(written, str) or not written.strip():
        raise ComponentError(f"{path}: base must be \"{DEFAULT}\" or a component folder or "
                             f"file, got {_short(written)}")
    target = None if written == DEFAULT else (path.parent / Path(written).expanduser()).resolve()
    if target is not None and not target.exists():
        raise ComponentError(f"{path}: base {written!r}: no such component file or folder "
                             f"({target})")
    base, _, _ = _files(target, (*chain, path))
    files = dict(base)
    for name, merged in merge(str(path), {n: f.tables for n, f in base.items()}, tables).items():
        model = _validated(name, str(path), merged)
        if model != base[name].model:
            files[name] = _File(str(path), merged, model, toml_text(merged).encode(), False)
    return files, written, base


def _where(path: Path | str | None) -> Path | None:
    """A set as given (None or "default": the shipped set) as the path it is loaded by."""
    return None if path is None or str(path) == DEFAULT else Path(path).expanduser().resolve()


def load_components(path: Path | str | None = None) -> Components:
    """Load and validate a component set: the default set when path is None or "default",
    else a folder, a single component file or an override file."""
    return _load(_where(path))


def component_texts(path: Path | str | None = None) -> dict[str, bytes]:
    """Each file of a valid set as its digest reads it: the shipped files' own text, an
    override's merged files as TOML (what ``components export`` writes)."""
    load_components(path)
    return {n: f.text for n, f in _files(_where(path))[0].items()}


def compare(old: Path | str | None, new: Path | str | None) -> tuple[Change, ...]:
    """What changes from one valid set to another, key by key (``components diff``)."""
    load_components(old)
    load_components(new)
    a, b = _files(_where(old))[0], _files(_where(new))[0]
    return _changes(a, b)


def _changes(old: Files, new: Files) -> tuple[Change, ...]:
    from cdsim.schema import dump

    names = [n for n in FILES if old[n].text != new[n].text]
    return differences({n: dump(old[n].model) for n in names},
                       {n: dump(new[n].model) for n in names})


@cache
def _load(path: Path | None) -> Components:
    files, base, base_files = _files(path)
    labels = {name: f.label for name, f in files.items()}
    tiles, cards, frames, boards, scoring = (files[n].model for n in FILES)
    assert isinstance(tiles, Tiles) and isinstance(cards, Cards) and isinstance(frames, Frames)
    assert isinstance(boards, Boards) and isinstance(scoring, Scoring)
    light, dark = _tiles(labels["tiles"], tiles)
    objectives, decks, fountains = _cards(labels["cards"], cards)
    parts = _frames(labels["frames"], frames)
    districts = _boards(labels["boards"], boards)
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(files[name].text)
    default = all(f.default for f in files.values())
    changes = _changes(base_files, files) if base_files is not None else ()
    return Components(tiles.tile, light, dark, objectives, decks, fountains, parts,
                      districts, scoring.scroll_track, scoring.villa_table,
                      digest.hexdigest(), default, changes, base)
