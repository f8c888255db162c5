"""Load and validate a component set (docs/rules.md C1–C10) into immutable tables.

The default set lives in ``cdsim/games/carpe_diem/data/*.toml``. A user set is a folder holding any
of ``tiles.toml``, ``cards.toml``, ``frames.toml``, ``boards.toml`` and
``scoring.toml`` (files it lacks come from the default set), or one such file, or an
override file: a base and only the entries it changes (``cdsim.games.carpe_diem.rules.overrides``).
Each record (a tile type, a card, a frame part, a board, the scoring tables) and each file
is declared once, as the frozen dataclass the rules play with
(``cdsim.games.carpe_diem.rules.component_records``). pydantic checks a file against them only when one is
read; here the set is then checked as a whole (the rulebook's counts, unique ids) and
identified (its digest, what it changes from its base). Every problem is reported as one
line naming the file, the entry, the key and what is allowed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim.errors import ComponentError, read_toml
from cdsim.file_records import FileRecord
from cdsim.games.carpe_diem.rules.component_records import (
    DARK_TILES,
    FOUNTAIN_CARDS,
    HAVE_INDEX,
    HAVE_KEYS,
    LIGHT_TILES,
    MAX_CHIMNEYS,
    MOST_DRAWN,
    OBJECTIVE_CARDS,
    REWARD_KEYS,
    SCHEMAS,
    Board,
    Boards,
    CardReward,
    Cards,
    Edges,
    FountainCard,
    FrameGoal,
    FramePart,
    Frames,
    ObjectiveCard,
    Scoring,
    ScrollTrack,
    Tiles,
    TileType,
    VillaTable,
    check_tile_shape,
    short_repr,
)
from cdsim.games.carpe_diem.rules.overrides import (
    DEFAULT,
    ENTRIES,
    FILE_KEYS,
    Change,
    differences,
    merge,
    toml_text,
)

DATA_DIR = Path(__file__).resolve().parents[1] / "data"  # cdsim/games/carpe_diem/data
FILES = ("tiles", "cards", "frames", "boards", "scoring")


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


def _validated(name: str, file: str, data: dict[str, object]) -> FileRecord:
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
            raise ComponentError(f"{file}: {label} {short_repr(x)}: duplicate id")


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


def _read(path: Path) -> dict[str, object]:
    return read_toml(path, ComponentError)


@dataclass(frozen=True, slots=True)
class _File:
    """One file of a set: its tables as read (merged, for an override), validated, and the
    bytes the set's digest reads."""

    label: str  # names the file in a line
    tables: dict[str, object]  # as read (TOML), or merged: its record says what they hold
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


def _override(path: Path, tables: dict[str, object], chain: tuple[Path, ...]
              ) -> tuple[Files, str, Files]:
    """An override file's set: its base's files with its tables merged in (rules/overrides.py).
    A file it leaves as it was keeps the base's bytes, so the digest is the base's."""
    if path in chain:
        loop = " -> ".join(str(p) for p in (*chain[chain.index(path):], path))
        raise ComponentError(f"{path}: base: the bases go round in a cycle ({loop})")
    written = tables.pop("base")
    if not isinstance(written, str) or not written.strip():
        raise ComponentError(f"{path}: base must be \"{DEFAULT}\" or a component folder or "
                             f"file, got {short_repr(written)}")
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


# The records are ``cdsim.games.carpe_diem.rules.component_records``'; given here too, where the rules, the
# strategies and the docs have always read them.
__all__ = ["DARK_TILES", "DATA_DIR", "FILES", "FOUNTAIN_CARDS", "HAVE_INDEX", "HAVE_KEYS",
           "LIGHT_TILES", "MAX_CHIMNEYS", "MOST_DRAWN", "OBJECTIVE_CARDS", "REWARD_KEYS",
           "SCHEMAS", "Board", "Boards", "CardReward", "Cards", "Components", "Edges",
           "FountainCard", "FrameGoal", "FramePart", "Frames", "ObjectiveCard", "Scoring",
           "ScrollTrack", "TileType", "Tiles", "VillaTable", "check_tile_shape", "compare",
           "component_texts", "load_components"]
