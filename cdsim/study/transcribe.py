"""The path to the real box (issue 61 item 8): how many entries of a component set are the
box's (``BoxCount``: ``cdsim components check``, the study pages, the README), and the
checklist of its reconstructed entries, most influential first (``checklist``: ``cdsim
components transcribe``). The entries come from the game's spec (``GameSpec.entries``),
so any game with tagged entries has both; the order from a ranking ``cdsim components
sensitivity`` wrote (its ``sensitivity.json``), else, said so, from the game's families of
entries (``GameSpec.families``) and then its tables.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from cdsim.errors import CdsimError
from cdsim.games import GameSpec
from cdsim.games.features import Entry

RANKING_FILE = "sensitivity.json"  # what cdsim components sensitivity writes in its folder
RANKING_FOLDER = Path("studies") / "sensitivity"  # its folder unless told


@dataclass(frozen=True)
class BoxCount:
    """How many entries of a game's set are the box's (tagged as printed), of all."""

    game: str  # the game's name (its --game)
    default: bool  # the default game (its commands need no --game)
    printed: int
    total: int

    def line(self) -> str:
        """"13 of 168 entries are the box's; the rest reconstructed (cdsim components
        transcribe lists them, most influential first)"."""
        flag = "" if self.default else f" --game {self.game}"
        if self.printed == self.total:
            return f"all {self.total} entries are the box's"
        return (f"{self.printed} of {self.total} entries are the box's; the rest "
                f"reconstructed (cdsim components transcribe{flag} lists them, most "
                "influential first)")


def box_count(spec: GameSpec, path: str | None) -> BoxCount | None:
    """The count for the set at ``path`` (None: the built-in set); None for a game whose
    entries are not tagged."""
    if spec.entries is None:
        return None
    spec.components_digest(path)  # another game's set: one line naming its --game
    found = spec.entries(path)
    return BoxCount(spec.name, spec.default, sum(e.printed for e in found), len(found))


@dataclass(frozen=True)
class Shift:
    """A family's largest fair-offset shift in the ranking: its seat and player count,
    the shift with its 95% interval in VP, and whether the family is beyond noise."""

    players: int
    seat: int
    shift: float
    low: float
    high: float
    clear: bool


@dataclass(frozen=True)
class Group:
    """Entries to transcribe together: a family of the game (ranked or not) or, for the
    entries in no family, a table."""

    name: str  # the family's name, or the table's
    title: str  # what to transcribe: "the fountain cards' VP"
    rank: int | None  # its place in the ranking (1: the most influential); None: not ranked
    shift: Shift | None  # its largest shift (a ranked family's)
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Checklist:
    """``cdsim components transcribe``'s record: the game, the set, the count, where the
    order comes from (the ranking file, or None: none has been run) and the groups."""

    title: str
    source: str  # the set as named ("the built-in set" when none)
    count: BoxCount
    ranking: Path | None
    games: int | None  # the ranking's games a side per player count (its largest)
    groups: tuple[Group, ...]


def checklist(spec: GameSpec, path: str | None, ranking: Path | None) -> Checklist:
    """The reconstructed entries of the set at ``path``, grouped and ordered: the ranked
    families first (the ranking in ``ranking``'s sensitivity.json, when it holds one for
    this game), then the game's other families in their order, then the entries in no
    family by table."""
    if spec.entries is None:
        raise CdsimError(f"{spec.title}'s component entries are not tagged as printed or "
                         "reconstructed: nothing to transcribe")
    count = box_count(spec, path)
    assert count is not None
    todo = {e.name: e for e in spec.entries(path) if not e.printed}
    families = {f.name: f for f in spec.families()} if spec.families is not None else {}
    ranked, games = _ranked(spec, ranking) if ranking is not None else ([], None)
    order = [name for name, _ in ranked if name in families]
    order += [name for name in families if name not in order]
    shifts = dict(ranked)
    groups: list[Group] = []
    for name in order:
        family = families[name]
        mine = tuple(todo.pop(n) for n in family.entries if n in todo)
        if mine:
            rank = order.index(name) + 1 if name in shifts else None
            groups.append(Group(name, family.title, rank, shifts.get(name), mine))
    tables: dict[str, list[Entry]] = {}
    for entry in todo.values():
        tables.setdefault(entry.table, []).append(entry)
    groups += [Group(table, f"the {table} table", None, None, tuple(rows))
               for table, rows in tables.items()]
    return Checklist(spec.title, path or "the built-in set", count,
                     ranking / RANKING_FILE if ranking is not None and ranked else None, games,
                     tuple(groups))


def _ranked(spec: GameSpec, folder: Path) -> tuple[list[tuple[str, Shift]], int | None]:
    """The families of the ranking in ``folder`` (rank order) with each one's largest
    shift, and its games a side; none when the folder holds no ranking or one of
    another game."""
    path = folder / RANKING_FILE
    if not path.is_file():
        return [], None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("game", spec.name if spec.default else None) != spec.name:
            return [], None
        out = [(str(e["family"]), _shift(e)) for e in data["ranking"]]
        games = max((int(v) for v in data.get("games", {}).values()), default=None)
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError,
            AttributeError) as exc:
        raise CdsimError(f"{path}: not a sensitivity ranking ({type(exc).__name__}: {exc}); "
                         "run cdsim components sensitivity again, or name another folder "
                         "with --ranking") from None
    return out, games


def _shift(effect: dict[str, object]) -> Shift:
    """A ranked family's largest shift (its ``players`` and ``seat``'s), read from its
    shifts."""
    players, seat = int(effect["players"]), int(effect["seat"])  # type: ignore[call-overload]
    for cell in effect["shifts"]:  # type: ignore[attr-defined]
        if cell["players"] == players:
            for s in cell["seats"]:
                if s["seat"] == seat:
                    return Shift(players, seat, _number(s["shift"]), _number(s["low"]),
                                 _number(s["high"]), bool(effect["clear"]))
    return Shift(players, seat, math.nan, math.nan, math.nan, bool(effect["clear"]))


def _number(x: object) -> float:
    """A figure of the JSON (null: NaN)."""
    return math.nan if x is None else float(x)  # type: ignore[arg-type]


__all__ = ["RANKING_FILE", "RANKING_FOLDER", "BoxCount", "Checklist", "Group", "Shift",
           "box_count", "checklist"]
