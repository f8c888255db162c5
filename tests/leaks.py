"""A strategy that looks for what its seat may not know in everything it is handed, for
tests/test_observation.py: in-process, and copied as a user's module into a folder for the
worker processes of ``simulate`` and ``study run`` (so it imports only cdsim).

It walks the observation, the options and the card (attributes, ``__slots__``, ``vars``,
dataclass fields, properties, the observation's own zero-argument methods, sequences,
mappings and sets; no ``gc``) and compares what it reaches with the game's real state at
that moment, which it takes from the engine's stack frames (a test's view of the oracle,
not the strategy's): the light, dark and fountain decks' order, the starting VP and the VP
totals, the game's seed, and any object of the live state. A finding fails the decision,
so the run fails with the strategy's one error line.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import GeneratorType
from typing import Any

import numpy as np

from cdsim.games.carpe_diem.engine.table import Table
from cdsim.games.carpe_diem.engine.table import _Seat as TableSeat
from cdsim.games.carpe_diem.rules.game import DEFAULT_START_VP, GameState, Pending, PlayerState
from cdsim.games.carpe_diem.rules.observation import _REPLAYED, HiddenInformation, Observer

DEPTH = 10
# Observations hold no integer this low: pawns, circle owners and failed counts are -1 at
# least, goods and masks are >= 0. A game whose every starting VP is below FAR_BELOW has VP
# totals below -1000 (a game moves them by far less), so finding such an integer is
# finding a VP total or a starting VP.
FAR_BELOW = -100_000
LOW = -1_000
# A seed this large is in no observation by chance; smaller ones are not looked for.
DISTINCT_SEED = 2**40
# Shorter runs of tile types could match a window of a shuffled deck by chance.
TILE_RUN = 6
CARD_RUN = 3
# numpy's bit generator hands out FFI handles (pointers, not game data) under these names.
FFI = {"capsule", "cffi", "ctypes"}
PRIMITIVE = (int, float, complex, str, bytes, bool, type(None))


def _own_methods(value: Any) -> bool:
    """A method of the observation's own types, called with no argument by the walk."""
    owner = getattr(value, "__self__", None)
    module = type(owner).__module__ if owner is not None else ""
    if not module.startswith("cdsim.games.carpe_diem.rules.observation"):
        return False
    try:
        params = inspect.signature(value).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in params)


def _names(obj: Any) -> list[str]:
    names: set[str] = set()
    if hasattr(obj, "__dict__"):
        names |= set(vars(obj))
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        names |= {slots} if isinstance(slots, str) else set(slots)
    if dataclasses.is_dataclass(obj):
        names |= {f.name for f in dataclasses.fields(obj)}
    names |= {n for n in dir(obj) if not n.startswith("__")}
    return sorted(names - FFI - {"__weakref__", "__dict__"})


def _children(obj: Any, path: str, refused: list[str]) -> Iterator[tuple[str, Any]]:
    if isinstance(obj, Mapping):
        for key, value in list(obj.items()):
            yield f"{path}[{key!r}]", key
            yield f"{path}[{key!r}]", value
    if isinstance(obj, list | tuple):
        yield from ((f"{path}[{i}]", v) for i, v in enumerate(obj))
        if not hasattr(obj, "_fields"):  # a named tuple's fields are walked below
            return
    if isinstance(obj, set | frozenset):
        yield from ((f"{path}{{}}", v) for v in list(obj))
        return
    if isinstance(obj, np.ndarray):  # its attributes are new arrays at every look
        yield f"{path}.tolist()", obj.tolist()
        return
    if isinstance(obj, type | type(sys)) or inspect.isroutine(obj):
        return
    for name in _names(obj):
        try:
            value = getattr(obj, name)
            if callable(value):
                if not _own_methods(value):
                    continue
                value = value()
                name += "()"
        except HiddenInformation as exc:
            refused.append(f"{path}.{name}: {exc}")
            continue
        except Exception:  # a property that cannot answer gives nothing away
            continue
        yield f"{path}.{name}", value


def walk(roots: Mapping[str, Any], depth: int = DEPTH, refused: list[str] | None = None,
         prune: tuple[type, ...] = (), walked: Sequence[Any] = ()) -> Iterator[tuple[str, Any]]:
    """(path, object) for everything reachable from ``roots``, each object once (not
    into instances of ``prune``, nor into the objects ``walked`` already)."""
    refused = [] if refused is None else refused
    keep: list[Any] = []  # alive while walking, so that no id is reused
    seen: set[int] = {id(obj) for obj in walked}
    level = list(roots.items())
    for _ in range(depth + 1):
        nxt: list[tuple[str, Any]] = []
        for path, obj in level:
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            keep.append(obj)
            yield path, obj
            if not isinstance(obj, PRIMITIVE + prune):
                nxt.extend(_children(obj, path, refused))
        level = nxt


@dataclasses.dataclass
class Truth:
    """What the game's seats may not know, as the engine holds it at this decision."""

    light_deck: list[int]
    dark_deck: list[int]
    fountain_deck: list[str]
    start_vp: tuple[int, ...]
    vp: tuple[int, ...]
    live: dict[int, Any]  # the live game's changeable parts, by id
    sample: Any  # one of them (a test's leak)


def _mutables(roots: Mapping[str, Any]) -> dict[int, Any]:
    """The changeable parts (lists, dicts, sets, districts) under ``roots``, by id, kept
    alive while the check runs (a freed one's id could be a fresh copy's): an observation
    holding one of them leads back into the game. Not the observer's: it makes the
    observations, and what it shares with them (the read-only component tables, each
    seat's stream) it shares by design; nor the pending decision's (its options are the
    records the seat is handed, the rules going on with their own), nor the suspended
    rules' frames (what they hold of the game is the state's, walked from it)."""
    return {id(obj): obj for _, obj in walk(roots, depth=4, prune=(Observer, Pending,
                                                                   GeneratorType))
            if isinstance(obj, list | dict | set) or type(obj).__name__ == "District"}


def state_truth(state: GameState) -> Truth:
    """The truth of a game the Python rules play (lock step with the core, checking). The
    pending decision's list of options is the rules' own: a seat is handed a copy."""
    live = _mutables({"state": state, "players": state.players})
    if state.pending is not None:
        live[id(state.pending.options)] = state.pending.options
    return Truth(list(state.light_deck), list(state.dark_deck), list(state.fountain_deck),
                 tuple(p._start_vp for p in state.players),
                 tuple(p.current_vp for p in state.players), live, state.light_deck)


def table_truth(table: Table) -> Truth:
    """The truth of a game the core drives (``Table.driver``): its state's snapshot, and
    the driver's own changeable parts (the districts it builds again)."""
    assert table.driver is not None
    snap = json.loads(table.core.snapshot())
    n = len(snap["players"])
    return Truth(snap["light_deck"], snap["dark_deck"], snap["fountain_deck"],
                 tuple(table.start_vp) or DEFAULT_START_VP[n],
                 tuple(p["vp"] for p in snap["players"]),
                 _mutables({"driver": table.driver, "replayed": dict(_REPLAYED)}),
                 table.driver.districts)


def _on_stack(want: Callable[[Any], bool]) -> Any:
    frame = sys._getframe(2)
    while frame is not None:
        for value in frame.f_locals.values():
            if want(value):
                return value
        frame = frame.f_back  # type: ignore[assignment]
    raise AssertionError("no game on the stack")


def live_state() -> GameState:
    """The Python rules' state of the game the calling strategy decides in (lock step)."""
    state: GameState = _on_stack(lambda v: isinstance(v, GameState))
    return state


def live_truth() -> Truth:
    """The game the calling strategy decides in, from the engine's frames: the Python
    rules' state (lock step, checking) or the table whose core drives the game."""
    found = _on_stack(lambda v: isinstance(v, GameState) or (
        isinstance(v, Table) and v.driver is not None))
    return state_truth(found) if isinstance(found, GameState) else table_truth(found)


def _windows(seq: Sequence[Any], n: int) -> set[tuple[Any, ...]]:
    runs = {tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)}
    return runs | {run[::-1] for run in runs}


def leaks(given: Mapping[str, Any], truth: Truth, scores_allowed: bool = False,
          seed: int | None = None, walked: Sequence[Any] = ()) -> tuple[list[str], list[str]]:
    """(what ``given`` reveals that its seat may not know, what it refused to give);
    ``walked``: unchanging objects found clean before, not walked again."""
    found: list[str] = []
    refused: list[str] = []
    live = truth.live
    banned_types = (GameState, PlayerState, TableSeat, Observer, Table)
    tiles = _windows(truth.light_deck, TILE_RUN) | _windows(truth.dark_deck, TILE_RUN)
    cards = _windows(truth.fountain_deck, CARD_RUN)
    distinct = all(vp < FAR_BELOW for vp in truth.start_vp)
    for path, obj in walk(given, refused=refused, walked=walked):
        if isinstance(obj, banned_types) or id(obj) in live:
            found.append(f"{path}: a live {type(obj).__name__} of the game")
        if isinstance(obj, bool):
            continue
        if isinstance(obj, int):
            if distinct and obj < LOW and not scores_allowed:
                found.append(f"{path}: {obj}, a VP total or starting VP")
            if seed is not None and seed >= DISTINCT_SEED and obj == seed:
                found.append(f"{path}: the game's seed")
        elif isinstance(obj, list | tuple) and len(obj) >= CARD_RUN:
            items = tuple(obj)
            ints = all(isinstance(x, int) and not isinstance(x, bool) for x in items)
            strs = all(isinstance(x, str) for x in items)
            if ints and any(run in tiles for run in _windows(items, TILE_RUN)):
                found.append(f"{path}: a run of the face-down tile decks' order")
            if strs and any(run in cards for run in _windows(items, CARD_RUN)):
                found.append(f"{path}: a run of the fountain deck's order")
    return found, refused


class Spy:
    """Plays uniformly at random (from its own stream) and fails the decision if anything
    it is handed reveals what its seat may not know. ``checks`` counts the decisions it
    checked; ``refusals`` keeps what was refused (scores, start VP, the state)."""

    name = "spy"
    reads_scores = False

    def __init__(self) -> None:
        self.checks = 0
        self.refusals: set[str] = set()
        self.clean: list[Any] = []  # the game's components, once walked (they never change)

    def _look(self, view: Any, options: Sequence[Any], card: Any = None) -> Any:
        truth = live_truth()
        seed = _seed_on_stack()
        if self.clean and self.clean[0] is not view.components:  # another game
            self.clean.clear()
        found, refused = leaks({"view": view, "options": options, "card": card}, truth,
                               self.reads_scores, seed, self.clean)
        if found:
            raise AssertionError(f"seat {view.seat + 1} may not know: {'; '.join(found[:3])}")
        said = dict(r.split(": ", 1) for r in refused)
        must = ["view.state", "view.me.current_vp"]
        if not self.reads_scores:
            must += ["view.scores", "view.start_vp"]
        for path in must:
            if path not in said or (path != "view.state" and "R9.1" not in said[path]):
                raise AssertionError(f"{path} was not refused naming R9.1: {said.get(path)}")
        if self.reads_scores:
            want = truth.vp
            if view.scores() != want or view.start_vp != truth.start_vp:
                raise AssertionError(f"scores {view.scores()} are not the game's {want}")
        self.checks += 1
        self.refusals |= set(said)
        self.clean[:] = [view.components]
        return options[int(view.rng.integers(len(options)))]

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        return self._look(view, options, view.card)


class SparseSpy(Spy):
    """Walks one decision in ``every`` (from each worker's first), plays at random from its
    own stream between them: a study's first stage (60 games) walked at every decision
    takes minutes, and every decision is handed over the same way."""

    name = "sparse-spy"
    every = 8

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0

    def choose(self, view: Any, options: Sequence[Any]) -> Any:
        self.seen += 1
        if self.seen % self.every != 1:
            return options[int(view.rng.integers(len(options)))]
        return self._look(view, options, view.card)


class ScoreReader(Spy):
    """Declares reads_scores = True: it must see the VP totals and the starting VP."""

    name = "score-reader"
    reads_scores = True


def _seed_on_stack() -> int | None:
    """The table's seed (cdsim.games.carpe_diem.engine.table.Table), if the game is played on one."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value).__name__ == "Table" and hasattr(value, "seed"):
                return int(value.seed)
        frame = frame.f_back  # type: ignore[assignment]
    return None
