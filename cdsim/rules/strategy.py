"""The player interface: the legal options the engine offers, and the Strategy protocol.

Each decision a player makes is one method that receives a read-only view of the game
and the list of legal options, and returns one of those options (the same object).
The engine never offers an illegal option and rejects anything not offered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

import numpy as np

from cdsim.rules.cards import Payment
from cdsim.rules.components import ObjectiveCard

if TYPE_CHECKING:
    from cdsim.rules.game import GameState, PlayerState

Edges = tuple[int, int, int, int]


class Move(NamedTuple):
    """R4.2-R4.4: go to ``dest``; ``bread`` = pay 1 bread to go anywhere (R4.4).
    A named tuple, like Take: every turn offers several."""

    dest: int
    bread: bool


class Take(NamedTuple):
    """R4.5: take tile ``slot`` of the depot and build it at ``cell`` (-1 = store it).

    A named tuple (immutable, like the other options) because a turn offers dozens:
    it is built twice as fast as a frozen dataclass."""

    slot: int
    tile_type: int
    cell: int
    edges: Edges | None

    @property
    def stores(self) -> bool:
        return self.cell < 0


@dataclass(frozen=True, slots=True)
class SealBuild:
    """R6.3 artisan: build seal-row tile ``slot`` at ``cell`` with these edges."""

    slot: int
    tile_type: int
    cell: int
    edges: Edges


@dataclass(frozen=True, slots=True)
class FountainChoice:
    """R6.5: the drawn cards to keep, and the card that goes under the deck."""

    keep: tuple[str, ...]
    give_back: str | None


@dataclass(frozen=True, slots=True)
class CircleChoice:
    """R8.3: a scoring circle and the order of its two cards (grid slots)."""

    circle: int
    first: int
    second: int


class PlayerView:
    """What a strategy may look at. Victory-point totals only through ``scores()``."""

    __slots__ = ("_reads_scores", "rng", "seat", "state")

    def __init__(self, state: GameState, seat: int, rng: np.random.Generator,
                 reads_scores: bool) -> None:
        self.state = state
        self.seat = seat
        self.rng = rng  # the seat's own stream: a strategy's chance never moves the game's
        self._reads_scores = reads_scores

    @property
    def me(self) -> PlayerState:
        return self.state.players[self.seat]

    def scores(self) -> list[int]:
        """Current VP totals (start + cards + scroll overflow). Only for reads_scores strategies."""
        if not self._reads_scores:
            raise PermissionError("this strategy declared reads_scores = False")
        return [p.current_vp for p in self.state.players]


@runtime_checkable
class Strategy(Protocol):
    """A player. Built-in strategies have ``reads_scores = False`` (docs/rules.md R2.7)."""

    name: str
    reads_scores: bool

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int: ...

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move: ...

    def choose_take(self, view: PlayerView, options: Sequence[Take]) -> Take: ...

    def choose_seal(self, view: PlayerView, options: Sequence[SealBuild]) -> SealBuild: ...

    def choose_fountain(self, view: PlayerView,
                        options: Sequence[FountainChoice]) -> FountainChoice: ...

    def choose_circle(self, view: PlayerView,
                      options: Sequence[CircleChoice]) -> CircleChoice: ...

    def choose_payment(self, view: PlayerView, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment: ...
