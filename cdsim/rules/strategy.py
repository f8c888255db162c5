"""The player interface: the Strategy protocol and the one place a decision meets a strategy
(``ask``). (The table's seats, which decide on the core, are ``cdsim.rules.game.Seat``.)

A strategy has one method, ``choose(view, options)``: ``view`` is the seat's observation
(``cdsim.rules.observation``: what that seat may know; ``view.decision`` names the pending
decision and ``view.card`` the objective card a payment is for), ``options`` the legal
options, each an ``Action`` record (``cdsim.rules.options``), and it returns one of them,
as python-chess's ``legal_moves`` and OpenSpiel's ``step`` do. The engine never offers an
illegal option and refuses anything not offered.

Per-kind hooks are dispatched here too, in one place: a strategy that defines
``choose_<decision>`` (``choose_start`` gets the space numbers, ``choose_payment`` the card
before the options) has that decision sent there, and its ``choose`` gets the rest. The
seven-method form without ``choose`` (before 0.9) still plays this way, with a
deprecation note when it is loaded (``cdsim.players.registry``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from cdsim.rules.cards import Payment
from cdsim.rules.components import ObjectiveCard
from cdsim.rules.observation import HiddenInformation, Observation
from cdsim.rules.options import (
    DECISIONS,
    Action,
    CircleChoice,
    Decision,
    Edges,
    FountainChoice,
    Move,
    SealBuild,
    Start,
    Take,
)

T = TypeVar("T")

# The name strategies have always typed their first argument with.
PlayerView = Observation


@runtime_checkable
class Strategy(Protocol):
    """A player: ``choose`` returns one of the options offered. Built-in strategies have
    ``reads_scores = False`` (docs/rules.md R2.7); the observation enforces it
    (docs/strategies.md)."""

    name: str
    reads_scores: bool

    def choose(self, view: Observation, options: Sequence[Action]) -> Action: ...


@runtime_checkable
class SevenMethods(Protocol):
    """The strategy form before one ``choose``: a method per decision kind. It still plays
    (``ask`` dispatches to it), with a deprecation note when loaded."""

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


def plays(strategy: object) -> bool:
    """It can take every decision: one ``choose``, or the seven per-kind methods."""
    return isinstance(strategy, Strategy | SevenMethods)


def ask(strategy: Any, decision: Decision, view: Observation, options: Sequence[Any],
        card: ObjectiveCard | None = None) -> Any:
    """The strategy's choice among ``options``, the ``Action`` records the rules offer: the
    one place a decision meets a strategy. Its hook ``choose_<decision>`` if it has one
    (``choose_start`` gets the space numbers and answers one, as it always has), else its
    ``choose`` with the records (a start answered by its space number is taken as that
    ``Start``, as it always was). The options are handed over as a tuple, so the strategy
    cannot reorder the rules' list; ``card`` is the objective card a payment is for
    (R8.4)."""
    offered = tuple(options)
    hook = getattr(strategy, f"choose_{decision}", None)
    if decision == "start":
        spaces = tuple(start.space for start in offered)
        choice = hook(view, spaces) if hook is not None else strategy.choose(view, offered)
        found = None if type(choice) is Start else find(choice, spaces)
        return choice if found is None else offered[found]
    if hook is not None:
        return hook(view, card, offered) if decision == "payment" else hook(view, offered)
    return strategy.choose(view, offered)


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


__all__ = ["DECISIONS", "Action", "CircleChoice", "Decision", "Edges", "FountainChoice",
           "HiddenInformation", "Move", "Observation", "Payment", "PlayerView", "SealBuild",
           "SevenMethods", "Start", "Strategy", "Take", "ask", "find", "plays"]
