"""What the Python side knows of one game (``GameSpec``): each game declares its own, typed,
in its module or package (``SPEC``), every hook named (a feature it lacks is None), so a
hook left out is a type error; ``cdsim.games`` registers them by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.features import (
    CardTable,
    ComponentFiles,
    ComponentUse,
    Entry,
    EntryChange,
    FailedCost,
    Family,
    KeySets,
    PlayedGame,
    PlayRequest,
    Sweeps,
)
from cdsim.games.players import PlayerSpec, Roster, did_you_mean
from cdsim.games.training import Training
from cdsim.games.views import GameView, RecordedView

# the game a command plays when it names none (whose records leave their game out)
DEFAULT_GAME = "carpe-diem"


@dataclass(frozen=True)
class GameSpec:
    """What the Python side needs to know of one registered game."""

    name: str
    title: str
    player_counts: tuple[int, ...]
    # the count a command plays when it is given none (`simulate`, `power`), one of those
    default_players: int
    # the rulebook's starting VP per seat for n players (its compensation for seat order)
    start_vp: Callable[[int], tuple[int, ...]]
    # its built-in players' names (the core's registry makes them) and the scripted ones a
    # study's population plays
    player_names: Callable[[], tuple[str, ...]]
    scripted: tuple[str, ...]
    # the core's copy of the component set at ``path`` (None: the built-in set)
    load_components: Callable[[str | None], Any]
    # a study judges every vector with each seat within ±radius of the rulebook's
    radius: int
    # (digest, is the built-in set) of the component set at ``path``: identifies the set
    # a run was played with
    components_digest: Callable[[str | None], tuple[str, bool]]
    # how ties on VP are broken (the re-ranking under other starting VP needs it): the row
    # columns it reads, and each seat's key from their (games, seats) grids, lowest wins
    tiebreak: tuple[tuple[str, ...], Callable[..., Any]]
    # where its rules are numbered (docs/...) and the rule that breaks a tie on VP
    rules_doc: str
    tie_rule: str
    # what its reports say of it in its own words: the rule numbers a page names as examples
    # of those in ``rules_doc`` (none: "rule numbers refer to ..." alone), the built-in
    # component set as a run report's "component set" line names it, and in a few words,
    # where a line says no more (the ladder page's "component set", the components page's
    # title; ``features.BUILT_IN_SET`` for most games)
    rule_examples: tuple[str, ...]
    builtin_set_words: str
    builtin_set_name: str
    # its players as shared code reads them (cdsim.games.players): parsing and checking a
    # name, its settings, parameters and learned weights, users' Python strategies at its
    # tables, and what a folder records of its scripted players (Carpe Diem's roster; a
    # game of core registry names without settings: cdsim.games.core_players.CoreRoster)
    roster: Roster
    # what its run report reads beyond the VP sources: the row's VP after each scoring phase
    # (the "game shape"; none: not logged), the row's count of a seat's scored cards that
    # failed and how many it scores a game (none: no such cards), and the words of its
    # tie-break
    phases: tuple[str, ...]
    failed_cards: tuple[str, int] | None
    # the cards that fail, what a failed one costs and the rule that says so, as its pages
    # say them (None: no such cards)
    failed_cost: FailedCost | None
    # what a seat's VP after a scoring phase holds, as the game shape's chart says it (""
    # for a game with no ``phases``)
    phase_vp: str
    tiebreak_rule: str
    # every column of its seat row in the order runs write them, where the game declares
    # them in Python (None: the core's columns, ``columns``, then the run's, ``run_columns``)
    row_order: tuple[str, ...] | None
    # Every field below is what a game may have beyond that (cdsim.games.features; None: no
    # such feature, which the callers refuse or skip); a game's spec names each, None or not.
    # what one component set changes from another, as (entry, line), for a game whose
    # changes no card figures follow (None: it has card_changes, or no diff)
    diff: Callable[[str | None, str | None], list[tuple[str, str]]] | None
    # the table of card rows its runs write beside the seat rows
    cards: CardTable | None
    # the families of its component set's uncertain entries, each perturbed by one step (the
    # variants of ``cdsim components sensitivity``)
    families: Callable[[], list[Family]] | None
    # one key of a component entry tried over a list of values (a study's [[sweep]], whatif's
    # --set on its files)
    sweeps: Sweeps | None
    # what one component set changes from another, each change with the card it changes,
    # whose figures a variant's report follows (the card table's)
    card_changes: Callable[[str | None, str | None], list[EntryChange]] | None
    # whatif's --set on JSON tables (a game without sweeps)
    set_keys: KeySets | None
    # who sits in every seat in whatif's strong play (None: it has no strong play yet)
    strong: tuple[str, ...] | None
    # the games a side whatif's intervals are designed for, by kind of play, where the
    # game's games are cheaper than Carpe Diem's (None: cdsim.study.whatif.DESIGN)
    whatif_games: Mapping[str, int] | None
    # its players' recorded CPU ms a seat per game by kind (random, scripted, learned,
    # mcts) and its core's own ms per game (cdsim.batch.cost says what a run takes by them)
    seat_ms: Mapping[str, Mapping[int, float]]
    table_ms: float
    # the playouts its mcts plays a decision unless told (``mcts@N`` scales ``seat_ms``'s
    # mcts cost by N over it; None: it has no mcts)
    mcts_playouts: int | None
    # its built-in players in a line each, by name (`cdsim strategies --game`; None: a game
    # whose players cdsim.players describes, Carpe Diem's)
    player_words: Mapping[str, str] | None
    # what "use" of a changed component means in its rows, by entry as a change names it
    # ("tile.L-bakery", "part.3", "villa_table", "cards.farm"): the verdict line of any
    # component (None: the game says nothing of use; each style's effect is still given)
    component_use: Callable[[str], ComponentUse] | None
    # every entry of the component set at a path (None: the built-in set), each with what a
    # transcription from the box reads and whether it is the box's (``components
    # transcribe`` and ``check``; None: a game whose entries are not tagged)
    entries: Callable[[str | None], list[Entry]] | None
    # -- the commands' own hooks (cliseam, issue 60): a game's command code behind its spec
    # (cdsim.games.features' last block; None: the path every game has) ------------------
    # `cdsim components check/show/export/diff` of a set of files with overrides (None: its
    # set is JSON tables, read through ``set_keys``)
    component_files: ComponentFiles | None
    # `cdsim play` at its own table: Python strategies and settings among its players, its
    # events' trace, its replay's data (None: the core's recorded game, cdsim.games.recorded,
    # told by its view's ``recorded``)
    play: Callable[[PlayRequest], PlayedGame] | None
    # what it looks like to a person (cdsim.games.views): its replay page's own files in its
    # package, its recorded games in words, its JSON set's sheet (None: no view yet; the
    # commands that draw it say so in one line)
    view: GameView | None
    # `cdsim score POSITION`, its rules console: a position file's final scoring and what each
    # listed card pays, given the set's path and --json, in lines (None: no rules console)
    score: Callable[[Path, str | None, bool], list[str]] | None
    # `cdsim cards`: its cards with their stable ids, given the set's path and --json, in
    # lines (None: a game without such cards)
    card_list: Callable[[str | None, bool], list[str]] | None
    # `cdsim strategies`: its players and their settings in lines, where its players are more
    # than built-in names (None: ``player_words`` says each)
    strategy_lines: Callable[[], list[str]] | None
    # where `cdsim train` writes its learned player's weights unless --out names a file
    weights_file: Path
    # `cdsim train`'s label source and fit for its learned player (cdsim.games.training;
    # None: the seam's, search labels of its own learned player, cdsim.train.seam)
    training: Training | None
    # its shipped studies (files in its package), by the name `cdsim study run NAME` takes
    studies: Mapping[str, Path]
    # the shipped study that asks its designer's question, which `cdsim study init --template`
    # writes by the game's name (None: it ships none)
    study: Path | None
    # the other study files `cdsim study init --template NAME` writes, by name (each with the
    # override files its variants name, relative to it, in its package)
    templates: Mapping[str, Path]
    # -- end of the commands' own hooks --------------------------------------------------

    @property
    def default(self) -> bool:
        """Whether it is the default game (whose records leave their game out)."""
        return self.name == DEFAULT_GAME

    def rules_said(self, examples: int | None = None) -> str:
        """Where its rule numbers are, as a report's "rules" line says it, with its first
        ``examples`` rule numbers (None: all of them) as examples."""
        shown = self.rule_examples[:examples]
        such = f" such as {' and '.join(shown)}" if shown else ""
        return f"rule numbers{such} refer to {self.rules_doc} in the cdsim repository"

    def said(self, form: str) -> str:
        """``form`` with this game's ``{name}`` and ``{title}`` filled in, where a command, a
        folder's name or a sentence names a game other than the default; "" for the default
        game, whose commands and records read as they did before there were other games."""
        return "" if self.default else form.format(name=self.name, title=self.title)

    def game_flag(self) -> list[str]:
        """``--game NAME`` as a command names this game (none for the default game)."""
        said = self.said("--game {name}")
        return [said] if said else []

    def game_key(self) -> dict[str, str]:
        """A record's ``game`` key for this game (none for the default game, as
        ``cdsim.games.without_default_game`` writes records)."""
        return {} if self.default else {"game": self.name}

    def columns(self) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The seat row's columns as ``(name, type)`` and the VP sources of final VP
        (``cdsim._core.game_columns``): those every game writes (``shared_columns``) around
        the game's own (``own_columns``)."""
        return _columns(self.name)

    def own_columns(self) -> tuple[tuple[str, str], ...]:
        """The seat row's columns the game adds to those every game writes, in order: its
        ``vp_<source>`` columns, then the rest of its own."""
        shared = set(shared_columns())
        return tuple(c for c in self.columns()[0] if c not in shared)

    def breakdown(self) -> tuple[str, ...]:
        """The VP sources of final VP (each a ``vp_<source>`` column)."""
        return self.columns()[1]

    def row_fields(self) -> tuple[str, ...]:
        """Every column of a seat row, in the order runs write them."""
        if self.row_order is not None:
            return self.row_order
        seat = tuple(c for c, _ in self.columns()[0])
        return seat + tuple(c for c, _ in run_columns() if c not in seat)

    def settings(self, player: str) -> tuple[tuple[str, str, str], ...]:
        """A built-in player's settings as the core declares them (name, kind, help)."""
        module = core.module()
        declared = getattr(module, "PLAYER_SETTINGS", {}) if module is not None else {}
        return tuple(declared.get(player, ()))

    @property
    def python_players(self) -> bool:
        """Whether users' Python strategies may sit at its tables (its roster's)."""
        return self.roster.python

    def check_players(self, n: int, flag: str = "--players") -> None:
        if n not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise CdsimError(f"{flag}: {self.name} is played by {counts} players, not {n}")

    def parse_player(self, text: str, flag: str = "--strategies") -> PlayerSpec:
        """A player of this game as spelled (its roster's), or a CdsimError naming ``flag``."""
        try:
            spec = self.roster.parse(text)
        except CdsimError as exc:
            raise CdsimError(f"{flag}: {exc}") from None
        self.check_player(spec, flag)
        return spec

    def check_player(self, spec: PlayerSpec, flag: str = "--strategies") -> None:
        """``spec`` is one of this game's players (a record that names no game reads its
        players with the default game's roster: another game's name is refused here), or a
        CdsimError naming ``flag``."""
        self.roster.check(spec, flag)

    def drawn(self, flag: str) -> GameView:
        """Its view, or one CdsimError line naming ``flag`` (a game with no view yet)."""
        if self.view is None:
            raise CdsimError(f"{flag}: cdsim draws no pages of {self.name} yet")
        return self.view

    def told(self) -> RecordedView:
        """How its recorded games are told (``cdsim play`` of a game without a table of its
        own), or one CdsimError line."""
        view = self.view.recorded if self.view is not None else None
        if view is None:
            raise CdsimError(f"--game {self.name}: no replay view for this game yet")
        return view

    def check_strategy(self, name: str, flag: str = "--strategies") -> None:
        """A built-in player of this game, or a CdsimError naming ``flag`` and the known."""
        known = self.player_names()
        base = name.split("@", 1)[0]
        if base not in known:
            raise CdsimError(f"{flag}: {base!r} is not a {self.name} player (known: "
                             f"{', '.join(known)}){did_you_mean(base, known)}")


def _core_module() -> Any:
    module = core.module()
    if module is None:
        raise CdsimError("a game's rows need the compiled core (make install)")
    return module


@cache
def shared_columns() -> tuple[tuple[str, str], ...]:
    """The seat-row columns every game writes, as ``(name, type)`` in their order (seat,
    strategy, start VP, final VP, rank, won, seed, players, tie-break), declared once in the
    core (``games::rows``, ``cdsim._core.SHARED_COLUMNS``); a game's own stand around them."""
    return tuple((str(c), str(t)) for c, t in _core_module().SHARED_COLUMNS)


@cache
def run_columns() -> tuple[tuple[str, str], ...]:
    """The columns a run adds to every seat row (the game's id in the run, its deal group;
    ``cdsim._core.RUN_COLUMNS``)."""
    return tuple((str(c), str(t)) for c, t in _core_module().RUN_COLUMNS)


@cache
def _columns(name: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    module = core.module()
    if module is None:
        raise CdsimError(f"the game {name!r} needs the compiled core (make install)")
    columns, breakdown = module.game_columns(name)
    return tuple((str(c), str(t)) for c, t in columns), tuple(map(str, breakdown))


__all__ = ["DEFAULT_GAME", "GameSpec", "run_columns", "shared_columns"]
