"""Each recorded game's view by its game's name (``cdsim play --game NAME`` for a game
other than Carpe Diem): its final table, its decisions in words, its replay page's data and
the page. Adding a game's replay: its module beside these and one line here."""

from __future__ import annotations

from types import ModuleType

from cdsim.errors import CdsimError
from cdsim.view import castles, mediterranean

VIEWS: dict[str, ModuleType] = {"castles": castles, "mediterranean": mediterranean}


def view_of(game: str) -> ModuleType:
    """The view module of ``game``: ``summary_lines``, ``decision_lines``, ``replay_data``
    and ``page``; a game without one is one line."""
    view = VIEWS.get(game)
    if view is None:
        raise CdsimError(f"--game {game}: no replay view for this game yet")
    return view


__all__ = ["VIEWS", "view_of"]
