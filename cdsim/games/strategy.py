"""A user's Python strategy for a game played through the seam (The Castles of Tuscany,
the Mediterranean, any game registered in the core beside them; Carpe Diem's has its own
richer protocol, ``cdsim.games.carpe_diem.rules.strategy``): one method,
``choose(view) -> int``, the index of one of ``view.options``. The view is what that seat
may know at that moment (the core's ``Game::observe``: no other seat's hidden choice, no
face-down card, never the starting VP), the pending decision's name and its options in words, as the
replay pages name them. docs/strategies.md says what each game's observation holds."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol, TypeAlias

import numpy as np

# An observation's data as the core hands it over, read-only: a JSON object is a read-only
# mapping, an array a tuple.
Json: TypeAlias = "bool | int | float | str | tuple[Json, ...] | Mapping[str, Json] | None"

# Where a seam strategy's failure happened, as error lines name it.
CHOOSE = "choose ({} decision)"


def observation(value: object) -> Mapping[str, Any]:
    """The core's observation (``_core.GameTable.observe``: read-only all the way down, a
    JSON object a read-only mapping, an array a tuple), checked to be a mapping; typed
    ``Any`` within so that a strategy reads ``obs["seats"][0]["gold"]`` as it would
    ``json.loads``' data."""
    if not isinstance(value, MappingProxyType):
        raise TypeError(f"an observation is a read-only mapping, not {type(value).__name__}")
    made: Mapping[str, Any] = value
    return made


@dataclass(frozen=True)
class GameView:
    """What one seat is handed for one decision: its game and seat (from 0), the player
    count, the pending decision's name (the core's: ``turn``, ``rowing-card``, ...), the
    seat's observation (read-only JSON-like data: mappings, tuples, numbers, strings,
    None), the legal options in words, in the engine's order (``choose`` returns the index
    of one), and the seat's own random stream (draw chance from it: the same seed then
    plays the same game)."""

    game: str
    seat: int
    players: int
    decision: str
    observation: Mapping[str, Any]
    options: tuple[str, ...]
    rng: np.random.Generator


class GameStrategy(Protocol):
    """A strategy for a seam game: ``game`` names the game it plays (a registered name,
    ``castles``, ``mediterranean``), ``choose`` returns the index of one of
    ``view.options``. No observation holds the starting VP, so no choice can depend on them
    and its games re-rank exactly under other starting VP (the exact re-ranking of
    docs/statistics.md)."""

    name: str
    game: str

    def choose(self, view: GameView) -> int: ...


def _positional(method: object) -> int | None:
    """How many positional arguments ``method`` requires (None: it cannot be read)."""
    try:
        params = inspect.signature(method).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return sum(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in params)


def refusal(strategy: object, game: str) -> str | None:
    """Why ``strategy`` cannot play ``game``, in words that end a one-line error (None: it
    can): a strategy of another game (its ``game``), Carpe Diem's form
    (``choose(view, options)``), or no ``choose(view)``."""
    choose = getattr(strategy, "choose", None)
    written = getattr(strategy, "game", None)
    if isinstance(written, str) and written != game:
        return f"is written for {written}, not {game} (its game = {written!r})"
    if not callable(choose):
        return (f"has no choose(view) method: a {game} strategy has game = {game!r} and "
                "choose(view) -> int (docs/strategies.md)")
    if _positional(choose) == 2 or (written is None and hasattr(strategy, "reads_scores")):
        return (f"is a Carpe Diem strategy (choose(view, options)), not a {game} one: a "
                f"{game} strategy has game = {game!r} and choose(view) -> int "
                "(docs/strategies.md)")
    if written is None:
        return (f"does not say its game: a {game} strategy has game = {game!r} and "
                "choose(view) -> int (docs/strategies.md)")
    if _positional(choose) not in (1, None):
        return (f"has choose with {_positional(choose)} arguments: a {game} strategy's is "
                "choose(view) -> int (docs/strategies.md)")
    return None


__all__ = ["CHOOSE", "GameStrategy", "GameView", "Json", "observation", "refusal"]
