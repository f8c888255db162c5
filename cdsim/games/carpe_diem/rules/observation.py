"""What one seat may know: the observation a Python strategy decides on (OpenSpiel's
``observation_string(player)``), made in one place, ``Observer.observe``, for every decision.

Public in Carpe Diem, so in every seat's observation (docs/strategies.md has the table):
- the central board: the tiles on the depots and the seal row (face up, R2.4), the card
  grid (face up, R2.2) and the discs on its circles (R8.3), every pawn (R2.5), every scroll
  disc and its place in a stack (R2.6, R5.4, R8.2), the phase, round and starting player (R3);
- every district as built (R5), with its board and frame parts (R2.1);
- [decision, the rulebook is silent] goods, coins and bread lie in the open (it hides only
  the VP cards, R9.1); so does the number of stored tiles (face down, R4.5), of kept
  fountain cards and of failed objective cards (R8.5, resolved in the open);
- how many tiles and fountain cards the face-down decks still hold (R2.3, R2.4).
Hidden:
- the order of the light, dark and fountain decks (face down, R2.3, R2.4): the future;
- [decision, R6.5 is silent] another seat's fountain cards: drawn from the face-down deck
  and scored only at the end, like the VP cards of R9.1 (a seat sees its own);
- VP totals and the starting VP (R9.1), except to a strategy declaring
  ``reads_scores = True``: re-ranking a batch's scores under other starting VP is exact
  only for players whose decisions never depend on them (R2.7), so the rule is enforced
  here, not merely asked for.

An observation is a copy made for one decision, of frozen dataclasses, tuples and read-only
mappings: a write is refused with an error and can never change the game, and nothing in
it leads back to the game's state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

import numpy as np

from cdsim.games.carpe_diem.rules.components import Board, Components, FramePart, ObjectiveCard
from cdsim.games.carpe_diem.rules.district import District, Feature

Edges = tuple[int, int, int, int]
K = TypeVar("K")
V = TypeVar("V")

SCORES_HIDDEN = ("VP totals and the starting VP are hidden (R9.1) from a strategy with "
                 "reads_scores = False: re-ranking its games under other starting VP is exact "
                 "only if its decisions never depend on them (R2.7)")


class HiddenInformation(PermissionError):
    """A strategy asked for what its seat may not know; the message names the rule."""


class FrozenMap(Mapping[K, V]):
    """A read-only copy of a mapping (``m[k] = v`` is a TypeError); unlike
    ``types.MappingProxyType`` it pickles and deep-copies, as strategies may."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[K, V]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"FrozenMap({self._items!r})"


def read_only_components(c: Components) -> Components:
    """The component set with its tables as read-only copies (its entries are frozen
    already): a strategy that writes ``objectives["A01"] = ...`` gets a TypeError instead of
    changing the rules' cards."""
    # Any: read-only mappings where Components types its tables as dicts
    frozen: dict[str, Any] = {name: FrozenMap(getattr(c, name))
                              for name in ("objectives", "decks", "fountains", "frame_parts")}
    return dataclasses.replace(c, **frozen)


def seat_stream(seed: np.random.SeedSequence) -> np.random.Generator:
    """A seat's own random stream (``np.random.default_rng(seed)``'s draws) without the
    seed: from the game's seed a strategy could deal the game again and read the decks."""
    bits = np.random.PCG64(0)
    bits.state = np.random.PCG64(seed).state
    return np.random.Generator(bits)


History = tuple[tuple[int, Edges, int, int], ...]  # (cell, edges, chimneys, building) each
DISTRICT_FIELDS = ("board", "frame", "edges", "chimneys_at", "scrolls", "frontier", "have",
                   "complete_count", "complete_mask", "villa_chimneys", "features", "history")
# The last district built again from a history, by (board, frame): a later history of the
# same district goes on from it (``DistrictView.later``). Never handed to a strategy.
_REPLAYED: dict[tuple[object, tuple[int, ...]], District] = {}
REPLAYED_KEPT = 16  # a long run meets many boards and frames: keep the latest only


def _replay(board: Board | None, frame: tuple[FramePart, ...], history: History) -> District:
    """The district these tiles make, built in this order (from the last one built again
    for this board and frame when its history starts this one's)."""
    key = (board.id if board is not None else "", tuple(p.id for p in frame))
    d = _REPLAYED.get(key)
    if d is None or len(d.history) > len(history) or \
            tuple(d.history) != history[:len(d.history)]:
        _REPLAYED.pop(key, None)
        d = _REPLAYED[key] = District(board, frame)
        while len(_REPLAYED) > REPLAYED_KEPT:  # the oldest first: a game holds 4 at most
            del _REPLAYED[next(iter(_REPLAYED))]
    for cell, edges, chimneys, building in history[len(d.history):]:
        d.place(cell, edges, chimneys, building)
    return d


class DistrictView:
    """A district as every player sees it: what is built where (R5), its board (spade and
    scroll spaces) and frame (R2.1), and what it completed (R6). Read-only, like the rest
    of an observation; a view made from the core's state (``later``) works its fields out
    from the tiles built the first time one is read.

    - ``board``: Board | None; ``frame``: tuple[FramePart, ...]
    - ``edges``: per cell (row * 6 + column), N E S W kinds, or None if empty
    - ``chimneys_at``: per cell; ``scrolls``: frozenset of the cells whose scroll token is
      still on the board (R5.4); ``frontier``: bit mask of the cells a tile may go on (R5.1)
    - ``have``: complete features by HAVE_KEYS (what green cards count, R8.4);
      ``complete_count`` by feature kind; ``complete_mask`` by feature kind, a bit mask of
      the cells (R10.5); ``villa_chimneys``: chimneys of each complete villa (R10.1)
    - ``features``: complete features, in the order they completed; ``history``: (cell,
      edges, chimneys, building) of each tile, in the order built
    """

    __slots__ = ("_later", "_values")
    _fields = DISTRICT_FIELDS
    _values: tuple[Any, ...] | None
    _later: tuple[Board | None, tuple[FramePart, ...], History] | None

    def __init__(self, board: Board | None, frame: tuple[FramePart, ...],
                 edges: tuple[Edges | None, ...], chimneys_at: tuple[int, ...],
                 scrolls: frozenset[int], frontier: int, have: tuple[int, ...],
                 complete_count: tuple[int, ...], complete_mask: tuple[int, ...],
                 villa_chimneys: tuple[int, ...], features: tuple[Feature, ...],
                 history: History) -> None:
        object.__setattr__(self, "_values", (
            board, frame, edges, chimneys_at, scrolls, frontier, have, complete_count,
            complete_mask, villa_chimneys, features, history))
        object.__setattr__(self, "_later", None)

    @classmethod
    def of(cls, d: District) -> DistrictView:
        return cls(d.board, d.frame, tuple(d.edges), tuple(d.chimneys_at), frozenset(d.scrolls),
                   d.frontier, tuple(d.have), tuple(d.complete_count), tuple(d.complete_mask),
                   tuple(d.villa_chimneys), tuple(d.features), tuple(d.history))

    @classmethod
    def later(cls, board: Board | None, frame: tuple[FramePart, ...],
              history: History) -> DistrictView:
        """The view of the district these tiles make, worked out when first read."""
        view = cls.__new__(cls)
        object.__setattr__(view, "_values", None)
        object.__setattr__(view, "_later", (board, frame, history))
        return view

    def _get(self) -> tuple[Any, ...]:
        values: tuple[Any, ...] | None = self._values
        if values is None:
            assert self._later is not None
            values = DistrictView.of(_replay(*self._later))._get()
            object.__setattr__(self, "_values", values)
            object.__setattr__(self, "_later", None)
        return values

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DistrictView):
            return NotImplemented
        return self._get() == other._get()

    def __hash__(self) -> int:
        return hash(self._get())

    def __repr__(self) -> str:
        return "DistrictView(" + ", ".join(
            f"{n}={v!r}" for n, v in zip(DISTRICT_FIELDS, self._get(), strict=True)) + ")"

    def __reduce__(self) -> tuple[type[DistrictView], tuple[Any, ...]]:
        return DistrictView, self._get()

    @property
    def board(self) -> Board | None:
        return self._get()[0]  # type: ignore[no-any-return]

    @property
    def frame(self) -> tuple[FramePart, ...]:
        return self._get()[1]  # type: ignore[no-any-return]

    @property
    def edges(self) -> tuple[Edges | None, ...]:
        return self._get()[2]  # type: ignore[no-any-return]

    @property
    def chimneys_at(self) -> tuple[int, ...]:
        return self._get()[3]  # type: ignore[no-any-return]

    @property
    def scrolls(self) -> frozenset[int]:
        return self._get()[4]  # type: ignore[no-any-return]

    @property
    def frontier(self) -> int:
        return self._get()[5]  # type: ignore[no-any-return]

    @property
    def have(self) -> tuple[int, ...]:
        return self._get()[6]  # type: ignore[no-any-return]

    @property
    def complete_count(self) -> tuple[int, ...]:
        return self._get()[7]  # type: ignore[no-any-return]

    @property
    def complete_mask(self) -> tuple[int, ...]:
        return self._get()[8]  # type: ignore[no-any-return]

    @property
    def villa_chimneys(self) -> tuple[int, ...]:
        return self._get()[9]  # type: ignore[no-any-return]

    @property
    def features(self) -> tuple[Feature, ...]:
        return self._get()[10]  # type: ignore[no-any-return]

    @property
    def history(self) -> History:
        return self._get()[11]  # type: ignore[no-any-return]

    @property
    def built(self) -> int:
        return len(self.history)

    def frontier_cells(self) -> list[int]:
        return [c for c in range(len(self.edges)) if self.frontier >> c & 1]

    def district(self) -> District:
        """A private, changeable copy (the tiles built again in order) to try placements on:
        ``placements(orientations)``, ``place(...)``, ``around(cell)``."""
        copy = District(self.board, self.frame)
        for cell, edges, chimneys, building in self.history:
            copy.place(cell, edges, chimneys, building)
        return copy

    def render(self) -> list[str]:
        return self.district().render()


@dataclass(frozen=True, slots=True)
class Holdings:
    """What every player sees of one seat: its pawn, scroll disc, district and what lies in
    front of it. VP totals are not here (R9.1): see ``Observation.scores``."""

    seat: int
    pawn: int  # patrician space, -1 before it is placed (R2.5)
    scroll: int  # scroll-track space (R5.4)
    stamp: int  # higher = higher in the stack on a shared scroll space (R2.6, R8.2)
    goods: tuple[int, ...]  # grapes, herbs, chickens, fish (kinds.GOOD_CODES)
    coins: int
    bread: int
    stored: int  # tiles in storage, face down (R4.5)
    fountain_count: int  # fountain cards kept; which ones only the seat itself knows
    tiles_built: int
    bread_moves: int
    failed_cards: int  # objective cards it could not fulfil (R8.5)
    artisan_lost: int  # artisan rewards lost: no seal tile fitted (R6.3)
    taken: tuple[int, ...]  # tiles taken in each phase so far (R4.6)
    district: DistrictView

    @property
    def leftover_items(self) -> int:
        """R10.2: goods, coins, bread and stored tiles."""
        return sum(self.goods) + self.coins + self.bread + self.stored

    @property
    def current_vp(self) -> NoReturn:
        raise HiddenInformation(f"{SCORES_HIDDEN}; a strategy with reads_scores = True reads "
                                "them with view.scores()")


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``seat`` may know when it decides (see the module's text for what is
    public and why); ``rng`` is the seat's own random stream (a strategy's chance never
    moves the game's). Tile types are indices into ``components.tile_types``."""

    seat: int
    players: int
    phase: int  # 0-3 (R3.1)
    round: int  # 0-6 (R3.1)
    start_player: int  # the phase's starting player (R3.3)
    components: Components = field(repr=False)  # the box: tiles, cards, boards, tables
    depots: tuple[tuple[int, ...], ...]  # tile types on each patrician space's depot (R2.4)
    depot_taken: tuple[int, ...]  # tiles taken from each depot this phase (R4.6)
    seal: tuple[int | None, ...]  # the seal row's tile types, None once built (R6.3)
    grid: tuple[str | None, ...]  # objective card ids on the 3 x 4 card grid (R2.2, R8.1)
    circles: tuple[tuple[int, int], ...]  # each scoring circle's two grid slots (R8.1)
    circle_owner: tuple[int, ...]  # the seat whose disc is on each circle, or -1 (R8.3)
    light_left: int  # tiles in the face-down light deck (its order is hidden)
    dark_left: int
    fountain_left: int  # cards in the face-down fountain deck (R2.3)
    discarded: int  # tiles discarded by depot thinning (R4.6)
    seats: tuple[Holdings, ...]  # every seat's public holdings, by seat
    fountain_cards: tuple[str, ...]  # this seat's own kept fountain cards (R6.5)
    rng: np.random.Generator = field(repr=False)
    _scores: tuple[int, ...] | None = field(repr=False)  # None unless reads_scores
    _start_vp: tuple[int, ...] | None = field(repr=False)
    decision: str = ""  # the decision pending (cdsim.games.carpe_diem.rules.options.Decision)
    card: ObjectiveCard | None = None  # the objective card a payment decision is for (R8.4)

    @property
    def me(self) -> Holdings:
        return self.seats[self.seat]

    def scores(self) -> tuple[int, ...]:
        """Every seat's VP total now (start + objective cards + scroll overflow, R6.6),
        for a strategy declaring ``reads_scores = True`` only."""
        if self._scores is None:
            raise HiddenInformation(SCORES_HIDDEN)
        return self._scores

    @property
    def start_vp(self) -> tuple[int, ...]:
        """The starting VP by seat (R2.7), for a strategy declaring ``reads_scores = True``."""
        if self._start_vp is None:
            raise HiddenInformation(SCORES_HIDDEN)
        return self._start_vp

    @property
    def state(self) -> NoReturn:
        raise HiddenInformation(
            "view.state (the whole game, the decks' order included) is no longer given: a "
            "strategy sees what its seat may know (view.me, view.seats, view.depots, ...: "
            "docs/strategies.md)")


class Observer:
    """Makes the observations of one game's seats: the one place that decides what a seat
    may know, for the core's state and the Python rules' alike (both give their facts in
    the shape of the core's ``State.observe()``)."""

    def __init__(self, components: Components, rngs: Sequence[np.random.Generator],
                 reads_scores: Sequence[bool]) -> None:
        self.components = read_only_components(components)
        self.rngs = tuple(rngs)
        self.reads_scores = tuple(reads_scores)
        self._districts: dict[int, tuple[tuple[int, int], DistrictView]] = {}
        # each seat's last facts and holdings: a seat that did not change keeps its record
        self._holdings: dict[int, tuple[Any, DistrictView, Holdings]] = {}

    def district(self, seat: int, d: District) -> DistrictView:
        """The view of seat ``seat``'s district ``d``, kept until a tile is built there."""
        key = (len(d.history), d.frontier)
        kept = self._districts.get(seat)
        if kept is None or kept[0] != key:
            kept = self._districts[seat] = (key, DistrictView.of(d))
        return kept[1]

    def observe(self, fields: tuple[Any, ...], districts: Sequence[DistrictView],
                circles: tuple[tuple[int, int], ...], seat: int, decision: str = "",
                card: ObjectiveCard | None = None) -> Observation:
        """Seat ``seat``'s observation, deciding ``decision``, of a state's facts (the core's
        ``State.observe()``, or ``cdsim.games.carpe_diem.rules.game.GameState.facts``) and each seat's
        district view (``cdsim.games.carpe_diem.engine.table``, ``district``)."""
        (phase, round_, start_player, depots, depot_taken, seal, grid, circle_owner,
         (light, dark, fountain, discarded), seats) = fields
        holdings = []
        kept = self._holdings
        for s, facts in enumerate(seats):
            last = kept.get(s)
            if last is not None and last[0] == facts and last[1] is districts[s]:
                holdings.append(last[2])  # nothing of the seat changed: the same record
                continue
            ((pawn, scroll, stamp, goods, coins, bread, stored),
             (cards, built, moves, failed, lost, taken), _) = facts
            made = Holdings(s, pawn, scroll, stamp, tuple(goods), coins, bread, stored,
                            len(cards), built, moves, failed, lost, tuple(taken), districts[s])
            kept[s] = (facts, districts[s], made)
            holdings.append(made)
        scores = start = None
        if self.reads_scores[seat]:
            scores = tuple(vp for _, _, (vp, _, _, _) in seats)
            start = tuple(vp for _, _, (_, vp, _, _) in seats)
        return Observation(
            seat, len(seats), phase, round_, start_player, self.components,
            tuple(tuple(d) for d in depots), tuple(depot_taken), tuple(seal), tuple(grid),
            circles, tuple(circle_owner), light, dark, fountain, discarded, tuple(holdings),
            tuple(seats[seat][1][0]), self.rngs[seat], scores, start, decision, card)


__all__ = ["DistrictView", "FrozenMap", "HiddenInformation", "Holdings", "Observation",
           "Observer", "read_only_components", "seat_stream"]
