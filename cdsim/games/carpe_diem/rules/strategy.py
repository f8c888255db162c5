"""The player interface: the Strategy protocol and the one place a decision meets a strategy
(``ask``).

A strategy has one method, ``choose(view, options)``: ``view`` is the seat's observation
(``cdsim.games.carpe_diem.rules.observation``: what that seat may know; ``view.decision`` names the pending
decision and ``view.card`` the objective card a payment is for), ``options`` the legal
options, each an ``Action`` record (``cdsim.games.carpe_diem.rules.options``), and it returns one of them,
as python-chess's ``legal_moves`` and OpenSpiel's ``step`` do. The engine never offers an
illegal option and refuses anything not offered. A class written in the form before one
``choose`` (a ``choose_<decision>`` method per kind) is refused when it is loaded, in one
line that names the form to write (``refusal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from cdsim.games.carpe_diem.rules.observation import HiddenInformation, Observation
from cdsim.games.carpe_diem.rules.options import (
    DECISIONS,
    Action,
    CircleChoice,
    Decision,
    Edges,
    FountainChoice,
    Move,
    Payment,
    SealBuild,
    Start,
    Take,
)

# The name strategies have always typed their first argument with.
PlayerView = Observation

# Where a strategy's failure happened, as error lines name it.
CHOOSE = "choose ({} decision)"


@runtime_checkable
class Strategy(Protocol):
    """A player: ``choose`` returns one of the options offered. Built-in strategies have
    ``reads_scores = False`` (docs/rules.md R2.7); the observation enforces it
    (docs/strategies.md)."""

    name: str
    reads_scores: bool

    def choose(self, view: Observation, options: Sequence[Action]) -> Action: ...


def refusal(strategy: object) -> str | None:
    """Why ``strategy`` cannot play, in words that end a one-line error (None: it can). A
    method per decision kind (``choose_move``, ...) is the form before one ``choose``: it
    is never called, so a class that has one is refused rather than played without it."""
    game = getattr(strategy, "game", None)
    if isinstance(game, str) and game != "carpe-diem":  # a seam game's (cdsim.games.strategy)
        return (f"is written for {game}, not carpe-diem (its game = {game!r}); a Carpe Diem "
                "strategy has choose(view, options), as docs/strategies.md shows")
    hooks = [f"choose_{d}" for d in DECISIONS if hasattr(strategy, f"choose_{d}")]
    if hooks:
        return (f"has {', '.join(hooks)}: cdsim no longer calls a method per decision; one "
                "choose(view, options) takes every decision (view.decision names it), as "
                "docs/strategies.md shows")
    if not isinstance(strategy, Strategy):
        return ("does not implement the Strategy protocol (name, reads_scores and "
                "choose(view, options): docs/strategies.md)")
    return None


def ask(strategy: Strategy, decision: Decision, view: Observation,
        options: Sequence[Action]) -> Any:
    """The strategy's choice among ``options``, the ``Action`` records the rules offer for
    ``decision``: the one place a decision meets a strategy. The options are handed over
    as a tuple, so the strategy cannot reorder the rules' list. A start answered by its
    space number is taken as that ``Start``, as it always was."""
    offered = tuple(options)
    choice = strategy.choose(view, offered)
    if decision == "start" and type(choice) is not Start:
        found = find(choice, [o.space if isinstance(o, Start) else None for o in offered])
        return choice if found is None else offered[found]
    return choice


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


__all__ = ["CHOOSE", "DECISIONS", "Action", "CircleChoice", "Decision", "Edges",
           "FountainChoice", "HiddenInformation", "Move", "Observation", "Payment", "PlayerView",
           "SealBuild", "Start", "Strategy", "Take", "ask", "find", "refusal"]
