"""The decisions of Carpe Diem and the legal options each one offers: one vocabulary for the
rules, the table and the strategies, mirroring the core's ``Action`` (core/src/carpe_diem/game/options.rs).

An ``Action`` is one of seven records of one shape: a frozen dataclass whose decision kind
is its class's ``kind``: ``Start``, ``Move``, ``Take``, ``SealBuild``, ``FountainChoice``,
``CircleChoice``, ``Payment``. A strategy's one ``choose(view, options)`` gets the pending
decision's options (``view.decision`` names it) and returns one of them; the engine goes
on with its own. A new kind is a name in ``Decision``, its record here and the rule that
offers it (docs/architecture.md has the recipe).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

Edges = tuple[int, int, int, int]

# R2.5 start (a patrician space), R4.2-R4.4 move, R4.5 take, R6.3 seal (the artisan's seal
# tile), R6.5 fountain, R8.3 circle, R8.4-R8.5 payment (how often a card is fulfilled).
Decision = Literal["start", "move", "take", "seal", "fountain", "circle", "payment"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)


@dataclass(frozen=True, slots=True)
class Start:
    """R2.5: put the pawn on patrician space ``space``."""

    space: int
    kind: ClassVar[Decision] = "start"


@dataclass(frozen=True, slots=True)
class Move:
    """R4.2-R4.4: go to ``dest``; ``bread`` = pay 1 bread to go anywhere (R4.4)."""

    dest: int
    bread: bool
    kind: ClassVar[Decision] = "move"


@dataclass(frozen=True, slots=True)
class Take:
    """R4.5: take tile ``slot`` of the depot and build it at ``cell`` (-1 = store it)."""

    slot: int
    tile_type: int
    cell: int
    edges: Edges | None
    kind: ClassVar[Decision] = "take"

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
    kind: ClassVar[Decision] = "seal"


@dataclass(frozen=True, slots=True)
class FountainChoice:
    """R6.5: the drawn cards to keep, and the card that goes under the deck."""

    keep: tuple[str, ...]
    give_back: str | None
    kind: ClassVar[Decision] = "fountain"


@dataclass(frozen=True, slots=True)
class CircleChoice:
    """R8.3: a scoring circle and the order of its two cards (grid slots)."""

    circle: int
    first: int
    second: int
    kind: ClassVar[Decision] = "circle"


@dataclass(frozen=True, slots=True)
class Payment:
    """R8.4-R8.5: how a card is fulfilled: multiples by goods and coins (or by having),
    and by 3 bread each (``cdsim.games.carpe_diem.rules.cards`` lists the legal ones)."""

    paid: int
    bread: int
    kind: ClassVar[Decision] = "payment"

    @property
    def multiples(self) -> int:
        return self.paid + self.bread


# One decision's option: what ``choose`` gets and returns (the core's ``Action``).
Action = Start | Move | Take | SealBuild | FountainChoice | CircleChoice | Payment


__all__ = ["DECISIONS", "Action", "CircleChoice", "Decision", "Edges", "FountainChoice",
           "Move", "Payment", "SealBuild", "Start", "Take"]
