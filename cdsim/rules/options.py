"""The decisions of Carpe Diem and the legal options each one offers: one vocabulary for the
rules, the table and the strategies.

The seven decision kinds are the core's names (``State.decision()``): a new kind is a name
in ``Decision``, its option type here, a ``choose_*`` method in the Strategy protocol
(``cdsim.rules.strategy``) and the rule that offers it. Options are immutable: a strategy
returns one of the objects it was offered, and the engine goes on with its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple, get_args

from cdsim.rules.cards import Payment

Edges = tuple[int, int, int, int]

# R2.5 start (a patrician space), R4.2-R4.4 move, R4.5 take, R6.3 seal (the artisan's seal
# tile), R6.5 fountain, R8.3 circle, R8.4-R8.5 payment (how often a card is fulfilled).
Decision = Literal["start", "move", "take", "seal", "fountain", "circle", "payment"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)


def method_name(decision: Decision) -> str:
    """The Strategy method that takes this decision, as error lines name it."""
    return f"choose_{decision}"


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


__all__ = ["DECISIONS", "CircleChoice", "Decision", "Edges", "FountainChoice", "Move",
           "Payment", "SealBuild", "Take", "method_name"]
