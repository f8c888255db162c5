"""Load and validate a component set (docs/rules.md C1–C10) into immutable tables.

The default set lives in ``cdsim/data/*.toml``. A user set is a folder holding any
of ``tiles.toml``, ``cards.toml``, ``frames.toml``, ``boards.toml`` and
``scoring.toml`` (files it lacks come from the default set), or one such file, or an
override file: a base and only the entries it changes (``cdsim.rules.overrides``).
Each file's schema (its tables, keys, types and the ranges the core holds) is declared once
with pydantic (``_schemas``); every problem is reported as one line naming the file, the
entry, the key and what is allowed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim.errors import ComponentError, read_toml
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

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
FILES = ("tiles", "cards", "frames", "boards", "scoring")
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
    def last_scroll_space(self) -> int:
        return len(self.scroll_points) - 1


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


@cache
def _schemas() -> dict[str, Any]:
    """Each component file's schema, declared once: its tables and keys, their types
    (strict) and the ranges the core holds; a table's own rules as its validators."""
    from typing import Annotated, Literal

    from pydantic import AfterValidator, Field, model_validator

    from cdsim.schema import Table, one_of

    def edge_codes(text: str) -> str:
        _edges(text)
        return text

    Points = Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)]
    Id = Annotated[int, Field(ge=-MAX_ID, le=MAX_ID)]
    Provenance = Annotated[str, one_of(PROVENANCES)]
    Feature = Annotated[str, one_of(FEATURE_CODES)]
    Reward = Annotated[int, Field(ge=0, le=MAX_REWARD)]

    class Tile(Table):
        id: str
        deck: Literal["light", "dark"]
        edges: Annotated[str, AfterValidator(edge_codes)]
        chimneys: Annotated[int, Field(ge=0, le=MAX_CHIMNEYS)] = 0
        building: Annotated[str, one_of(BUILDING_CODES)] | None = None
        count: Annotated[int, Field(ge=1, le=LIGHT_TILES)]
        provenance: Provenance

        @model_validator(mode="after")
        def _shape(self) -> Tile:
            edges = _edges(self.edges)
            building = BUILDING_CODES[self.building] if self.building else 0
            check_tile_shape(edges, self.chimneys, building, lambda _, text: ValueError(text), "")
            kinds = {k for k in edges if k != MEADOW}
            if not kinds and not building:
                raise ValueError("an all-meadow tile needs a building (market, bakery, fountain)")
            if VILLA in kinds and self.chimneys < 1:
                raise ValueError("a villa part needs at least one chimney")
            if self.deck == "dark" and len(kinds) + (1 if building else 0) != 1:
                raise ValueError("dark tiles show exactly one building or landscape (R1.1)")
            return self

    class Rewards(Table):
        vp: Annotated[int, Field(ge=0, le=MAX_POINTS)] = 0
        coins: Reward = 0
        bread: Reward = 0
        steps: Reward = 0

    class Objective(Table):
        id: str
        deck: Annotated[str, one_of(MOST_DRAWN)]
        type: Literal["pay", "have"]
        requires: Annotated[dict[str, Annotated[int, Field(ge=1, le=MAX_REQUIRE)]],
                            Field(min_length=1)]
        reward: Rewards
        provenance: Provenance

        @model_validator(mode="after")
        def _card(self) -> Objective:
            keys = GOOD_CODES if self.type == "pay" else HAVE_INDEX
            for key in self.requires:
                if key not in keys:
                    raise ValueError(f"unknown {self.type} requirement {_short(key)} (known: "
                                     f"{' '.join(keys)})")
            r = self.reward
            if not (r.vp or r.coins or r.bread or r.steps):
                raise ValueError("a card with no reward")
            # A multiple must not give back more coins + bread than it costs (goods or coins
            # for a red card, 3 bread on any card, R7.1): else cards could pay for each other
            # without limit, and a game's payment choices grow without bound.
            cost, gain = sum(self.requires.values()), r.coins + r.bread
            most = min(cost, 3) if self.type == "pay" else 3
            if gain > most:
                paid = f"{cost} goods/coins or 3 bread" if self.type == "pay" else "3 bread"
                raise ValueError(f"its reward (coins + bread = {gain} per multiple) is more than "
                                 f"a multiple costs ({paid}): at most {most}")
            return self

    class Fountain(Table):
        id: str
        goal: Feature
        vp: Points
        provenance: Provenance

    class Goal(Table):
        kind: Feature
        vp: Points
        line: Annotated[int, Field(ge=0, le=SIZE - 1)]

    class Part(Table):
        id: Id
        goals: Annotated[list[Goal], Field(min_length=2, max_length=2)]
        provenance: Provenance

    def board_rows(rows: list[str]) -> list[str]:
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

    class Board(Table):
        id: Id
        rows: Annotated[list[str], AfterValidator(board_rows)]
        provenance: Provenance

    class Track(Table):
        points: Annotated[list[Points], Field(min_length=1, max_length=MAX_SCROLL_SPACES)]
        provenance: Provenance

    class Villas(Table):
        points: Annotated[list[Points], Field(min_length=1, max_length=MAX_VILLA_TABLE)]
        per_extra_chimney: Points
        provenance: Provenance

        @model_validator(mode="after")
        def _rulebook(self) -> Villas:
            if len(self.points) < 6 or self.points[3] != 3 or self.points[5] != 7:
                raise ValueError("the rulebook fixes 3 chimneys -> 3 VP and 5 -> 7 VP (R10.1)")
            return self

    class Tiles(Table):
        tile: Annotated[list[Tile], Field(min_length=1, max_length=MAX_TABLE)]

    class Cards(Table):
        objective: Annotated[list[Objective], Field(min_length=1)]
        fountain: Annotated[list[Fountain], Field(min_length=1)]

    class Frames(Table):
        part: Annotated[list[Part], Field(min_length=1, max_length=MAX_TABLE)]

    class Boards(Table):
        board: Annotated[list[Board], Field(min_length=1)]

    class Scoring(Table):
        scroll_track: Track
        villa_table: Villas

    return {"tiles": Tiles, "cards": Cards, "frames": Frames, "boards": Boards,
            "scoring": Scoring}


def _validated(name: str, file: str, data: dict[str, Any]) -> Any:
    """A component file's tables checked against its schema; else one line naming the
    file, the entry and the key."""
    from pydantic import ValidationError

    from cdsim.schema import problem

    schema = _schemas()[name]
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ComponentError(f"{file}: {problem(exc, schema, data, ENTRIES, 'id')}") from None


def _unique(file: str, label: str, ids: list[Any]) -> None:
    for i, x in enumerate(ids):
        if x in ids[:i]:
            raise ComponentError(f"{file}: {label} {_short(x)}: duplicate id")


def _tiles(file: str, tiles: Any) -> tuple[tuple[TileType, ...], list[int], list[int]]:
    types: list[TileType] = []
    light: list[int] = []
    dark: list[int] = []
    _unique(file, "tile", [t.id for t in tiles.tile])
    for raw in tiles.tile:
        edges = _edges(raw.edges)
        orients: list[Edges] = []
        for r in range(4):
            o = rotate(edges, r)
            if o not in orients:
                orients.append(o)
        index = len(types)
        types.append(TileType(raw.id, raw.deck == "dark", edges, raw.chimneys,
                              BUILDING_CODES[raw.building] if raw.building else 0,
                              tuple(orients), raw.provenance))
        (dark if raw.deck == "dark" else light).extend([index] * raw.count)
    if len(light) != LIGHT_TILES:
        raise ComponentError(f"{file}: {len(light)} light tiles, the game has {LIGHT_TILES} (R1.1)")
    if len(dark) != DARK_TILES:
        raise ComponentError(f"{file}: {len(dark)} dark tiles, the game has {DARK_TILES} (R1.1)")
    return tuple(types), light, dark


def _cards(file: str, cards: Any) -> tuple[
        dict[str, ObjectiveCard], dict[str, tuple[str, ...]], dict[str, FountainCard]]:
    _unique(file, "objective card", [c.id for c in cards.objective])
    objectives: dict[str, ObjectiveCard] = {}
    for raw in cards.objective:
        keys = GOOD_CODES if raw.type == "pay" else HAVE_INDEX
        r = raw.reward
        objectives[raw.id] = ObjectiveCard(
            raw.id, raw.deck, raw.type == "pay",
            tuple((keys[k], n) for k, n in raw.requires.items()),
            r.vp, r.coins, r.bread, r.steps, raw.provenance)
    if len(objectives) != OBJECTIVE_CARDS:
        raise ComponentError(f"{file}: {len(objectives)} objective cards, the game has 60 (R1.4)")
    decks = {d: tuple(c.id for c in objectives.values() if c.deck == d) for d in MOST_DRAWN}
    for d, n in MOST_DRAWN.items():
        if len(decks[d]) < n:
            raise ComponentError(f"{file}: deck {d} has {len(decks[d])} cards, 4 players draw {n} (R2.2)")
    _unique(file, "fountain card", [*objectives, *(f.id for f in cards.fountain)])
    fountains = {f.id: FountainCard(f.id, FEATURE_CODES[f.goal], f.vp, f.provenance)
                 for f in cards.fountain}
    if len(fountains) != FOUNTAIN_CARDS:
        raise ComponentError(f"{file}: {len(fountains)} fountain cards, the game has 24 (R1.4)")
    return objectives, decks, fountains


def _frames(file: str, frames: Any) -> dict[int, FramePart]:
    _unique(file, "frame part", [p.id for p in frames.part])
    parts = {p.id: FramePart(p.id, tuple(FrameGoal(FEATURE_CODES[g.kind], g.vp, g.line)
                                         for g in p.goals), p.provenance)
             for p in frames.part}
    if len(parts) < 16:
        raise ComponentError(f"{file}: {len(parts)} frame parts, 4 players need 16 (R2.1)")
    return parts


def _boards(file: str, boards: Any) -> tuple[Board, ...]:
    out = []
    for raw in boards.board:
        text = "".join(raw.rows)
        out.append(Board(raw.id, text.index("X"),
                         frozenset(i for i, ch in enumerate(text) if ch == "S"), raw.provenance))
    if len(out) < 4:
        raise ComponentError(f"{file}: {len(out)} district boards, 4 players need 4 (R2.1)")
    return tuple(out)


def _read(path: Path) -> dict[str, Any]:
    return read_toml(path, ComponentError)


@dataclass(frozen=True, slots=True)
class _File:
    """One file of a set: its tables as read (merged, for an override), validated, and the
    bytes the set's digest reads."""

    label: str  # names the file in a line
    tables: dict[str, Any]
    model: Any
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
    names = [n for n in FILES if old[n].text != new[n].text]
    return differences({n: old[n].model.model_dump() for n in names},
                       {n: new[n].model.model_dump() for n in names})


@cache
def _load(path: Path | None) -> Components:
    files, base, base_files = _files(path)
    labels = {name: f.label for name, f in files.items()}
    data = {name: f.model for name, f in files.items()}
    types, light, dark = _tiles(labels["tiles"], data["tiles"])
    objectives, decks, fountains = _cards(labels["cards"], data["cards"])
    frames = _frames(labels["frames"], data["frames"])
    boards = _boards(labels["boards"], data["boards"])
    scoring = data["scoring"]
    scroll, villa = tuple(scoring.scroll_track.points), tuple(scoring.villa_table.points)
    extra = scoring.villa_table.per_extra_chimney
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(files[name].text)
    default = all(f.default for f in files.values())
    changes = _changes(base_files, files) if base_files is not None else ()
    return Components(types, tuple(light), tuple(dark), objectives, decks, fountains, frames,
                      boards, scroll, villa, extra, digest.hexdigest(), default, changes, base)
