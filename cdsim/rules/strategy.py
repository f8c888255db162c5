"""The player interface: the Strategy protocol, the seats the rules ask, and the one place a
decision meets a strategy's method (``ask``).

Each decision a strategy takes is one readable method, ``choose_<decision>``, that
receives the seat's observation (``cdsim.rules.observation``: what that seat may know) and
the legal options (``cdsim.rules.options``), and returns one of those options. The engine
never offers an illegal option and refuses anything not offered.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from cdsim.rules.cards import Payment
from cdsim.rules.components import ObjectiveCard
from cdsim.rules.observation import HiddenInformation, Observation
from cdsim.rules.options import (
    DECISIONS,
    CircleChoice,
    Decision,
    Edges,
    FountainChoice,
    Move,
    SealBuild,
    Take,
    method_name,
)

if TYPE_CHECKING:
    from cdsim.rules.game import GameState

T = TypeVar("T")

# The name strategies have always typed their first argument with.
PlayerView = Observation


@runtime_checkable
class Strategy(Protocol):
    """A player. Built-in strategies have ``reads_scores = False`` (docs/rules.md R2.7);
    the observation enforces it (docs/strategies.md)."""

    name: str
    reads_scores: bool

    def choose_start(self, view: Observation, options: Sequence[int]) -> int: ...

    def choose_move(self, view: Observation, options: Sequence[Move]) -> Move: ...

    def choose_take(self, view: Observation, options: Sequence[Take]) -> Take: ...

    def choose_seal(self, view: Observation, options: Sequence[SealBuild]) -> SealBuild: ...

    def choose_fountain(self, view: Observation,
                        options: Sequence[FountainChoice]) -> FountainChoice: ...

    def choose_circle(self, view: Observation,
                      options: Sequence[CircleChoice]) -> CircleChoice: ...

    def choose_payment(self, view: Observation, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment: ...


def ask(strategy: Strategy, decision: Decision, view: Observation, options: Sequence[Any],
        card: ObjectiveCard | None = None) -> Any:
    """The strategy's choice: the one place a decision kind meets its ``choose_*`` method.
    The options are handed over as a tuple, so the strategy cannot reorder the rules' list;
    ``card`` is the objective card a payment is for (R8.4)."""
    method = getattr(strategy, method_name(decision))
    offered = tuple(options)
    if decision == "payment":
        return method(view, card, offered)
    return method(view, offered)


def find(choice: object, options: Sequence[object]) -> int | None:
    """Where ``choice`` is among ``options``: the same object first, then an equal one of
    the same type (the engine goes on with its own); None if it was not offered."""
    for i, o in enumerate(options):
        if o is choice:
            return i
    for i, o in enumerate(options):
        if o == choice and type(o) is type(choice):
            return i
    return None


class Seat(ABC):
    """Who takes one seat's decisions when the rules should not call a Strategy directly:
    the table's seats (cdsim.engine.table), which decide on the core. ``decide`` returns
    the index of the chosen option."""

    name: str
    reads_scores: bool

    @abstractmethod
    def decide(self, state: GameState, seat: int, decision: Decision, options: Sequence[Any],
               card: ObjectiveCard | None) -> int: ...


__all__ = ["DECISIONS", "CircleChoice", "Decision", "Edges", "FountainChoice",
           "HiddenInformation", "Move", "Observation", "Payment", "PlayerView", "SealBuild",
           "Seat", "Strategy", "Take", "ask", "find"]
