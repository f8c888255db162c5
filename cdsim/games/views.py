"""What a game looks like to a person, as the commands draw it: its spec's ``view`` hook
(``GameSpec.view``; None: a game with no view yet, which ``cdsim play --html`` and
``cdsim components show`` refuse in one line). Each game's view is its own, in its package
(its module ``view.py`` and its pages' files beside it, shipped as package data); the pages
are put together by the shared ring above the games (``cdsim.view.pages``: the style, the
step controls, ``common.js``, the step player ``stepper.js``), which reaches a game's view
only through here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources

from cdsim.games.recorded import RecordedGame


@dataclass(frozen=True)
class PageFiles:
    """A page's own files, in its game's package: the template, whose ``{{title}}``,
    ``{{style}}``, ``{{data}}`` and ``{{script}}`` (and a replay's ``{{controls}}``) the
    shared page fills in; its scripts, inlined in order after the shared ones (the last draws
    the embedded data; any before it hold what its game's pages share); and its styles,
    inlined in order after the shared style."""

    package: str  # the package that holds them, as imported (a game's ``__name__``)
    template: str
    scripts: tuple[str, ...]
    styles: tuple[str, ...] = ()

    def text(self, name: str) -> str:
        """One of its files (its template, a script or a style), as its package ships it."""
        return resources.files(self.package).joinpath(name).read_text(encoding="utf-8")

    def files(self) -> tuple[str, ...]:
        """Every file of its own, the template first."""
        return (self.template, *self.scripts, *self.styles)


@dataclass(frozen=True)
class ReplayPage(PageFiles):
    """A game's replay page's own files; its last script draws a step and calls the shared
    ``stepper()`` once."""

    template: str = "replay.html"
    scripts: tuple[str, ...] = ("replay.js",)


@dataclass(frozen=True)
class SheetPage(PageFiles):
    """A game's components sheet's own files (``cdsim components show`` of a set of files
    with overrides): its last script draws every piece of the set from
    ``ComponentFiles.sheet``'s data."""

    template: str = "components.html"
    scripts: tuple[str, ...] = ("components.js",)


@dataclass(frozen=True)
class RecordedView:
    """``cdsim play`` of a game the core records (``GameSpec.play`` None: its built-in players
    on the core, ``cdsim.games.recorded.play_recorded``), in the game's own words."""

    # the final table: seat, player, VP by source, final VP, rank, the winner, in lines
    summary_lines: Callable[[RecordedGame], list[str]]
    # every decision in words, a line each (``--trace``)
    decision_lines: Callable[[RecordedGame], list[str]]
    # its replay page's data, given the game's title, the component set's digest, whether it
    # is the built-in set, and the VP sources (``GameSpec.breakdown``)
    replay_data: Callable[[RecordedGame, str, str, bool, tuple[str, ...]], dict[str, object]]


# `cdsim components show` of a set of JSON tables: the whole page, given the set's tables,
# the built-in set's, the set's name as the page says it and its digest
JsonSheet = Callable[[Mapping[str, object], Mapping[str, object], str, str], str]


@dataclass(frozen=True)
class GameView:
    """A game's view: its replay page, its components sheet, and what the shared commands
    cannot say of it."""

    # its replay page's own files (the page's data: ``recorded.replay_data``, or its own
    # table's ``PlayedGame.replay``)
    replay: ReplayPage
    # `cdsim play` of its recorded games (None: a game with a table of its own,
    # ``GameSpec.play``, whose ``PlayedGame`` holds its lines and its replay's data)
    recorded: RecordedView | None
    # `cdsim components show` of its JSON tables (None: a set of files with overrides, whose
    # ``ComponentFiles.sheet`` data its ``sheet_page`` draws)
    components_page: JsonSheet | None
    # `cdsim components show` of its set of files with overrides: its sheet's own files, put
    # together with the shared style and ``common.js`` (None: its set is JSON tables, whose
    # whole page ``components_page`` writes)
    sheet_page: SheetPage | None


__all__ = ["GameView", "JsonSheet", "PageFiles", "RecordedView", "ReplayPage", "SheetPage"]
