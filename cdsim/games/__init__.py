"""The games cdsim plays, by name (OpenSpiel's ``register_game``): one ``GameSpec`` per
game, beside the core's registry (``cdsim._core.GAMES``) that plays them. The commands,
run and study files name a game (``--game``, ``game = "..."``; default ``carpe-diem``) and
read here what differs between games: player counts, the components' loader, the row's
columns, the rulebook's starting VP, the candidates a study tries, the players and their
settings. Adding a game is its module beside these (``castles.py``: its name, title,
scripted players, components' loader and digest, starting VP and tie-break), one name in
the registering loop below, and one line in the core's ``games::registry``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError, user_text
from cdsim.games import carpe_diem, castles, mediterranean
from cdsim.games.features import CardTable, EntryChange, Family, KeySets, Sweeps
from cdsim.players.registry import PlayerSpec, did_you_mean
from cdsim.players.registry import other_games_players as other_players

DEFAULT_GAME = carpe_diem.NAME


@dataclass(frozen=True)
class GameSpec:
    """What the Python side needs to know of one registered game."""

    name: str
    title: str
    player_counts: tuple[int, ...]
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
    rules_doc: str = "docs/rules.md"
    tie_rule: str = "R10.6"
    # whether its players are cdsim.players' (settings, weights, users' strategies): only
    # Carpe Diem's; another game's are its core registry's names, taking no settings
    python_players: bool = False
    # what its run report reads beyond the VP sources: the row's VP after each scoring phase
    # (the "game shape"; none: not logged), the row's count of a seat's scored cards that
    # failed and how many it scores a game (none: no such cards), and the words of its
    # tie-break
    # what one component set changes from another, as (entry, line), for a game whose
    # changes no card figures follow (None: it has card_changes, or no diff)
    diff: Callable[[str | None, str | None], list[tuple[str, str]]] | None = None
    phases: tuple[str, ...] = ()
    failed_cards: tuple[str, int] | None = None
    tiebreak_rule: str = ""
    # what a game may have beyond that (cdsim.games.features; None: no such feature, which
    # the callers refuse or skip): the table of card rows its runs write beside the seat rows
    cards: CardTable | None = None
    # the families of its component set's uncertain entries, each perturbed by one step (the
    # variants of ``cdsim components sensitivity``)
    families: Callable[[], list[Family]] | None = None
    # one key of a component entry tried over a list of values (a study's [[sweep]], whatif's
    # --set on its files)
    sweeps: Sweeps | None = None
    # what one component set changes from another, each change with the card it changes,
    # whose figures a variant's report follows (the card table's)
    card_changes: Callable[[str | None, str | None], list[EntryChange]] | None = None
    # whatif's --set on JSON tables (a game without sweeps)
    set_keys: KeySets | None = None
    # who sits in every seat in whatif's strong play (None: it has no strong play yet)
    strong: tuple[str, ...] | None = None
    # the games a side whatif's intervals are designed for, by kind of play, where the
    # game's games are cheaper than Carpe Diem's (None: cdsim.study.whatif.DESIGN)
    whatif_games: Mapping[str, int] | None = None
    # its players' recorded CPU ms a seat per game by kind (random, scripted, mcts) and its
    # core's own ms per game (None: cdsim.batch.cost's SEAT_MS and TABLE_MS, Carpe Diem's)
    seat_ms: Mapping[str, Mapping[int, float]] | None = None
    table_ms: float | None = None
    # its built-in players in a line each, by name (`cdsim strategies --game`; None: a game
    # whose players cdsim.players describes, Carpe Diem's)
    player_words: Mapping[str, str] | None = None

    @property
    def default(self) -> bool:
        return self.name == DEFAULT_GAME

    def columns(self) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The seat row's columns as ``(name, type)`` and the VP sources of final VP
        (``cdsim._core.game_columns``)."""
        return _columns(self.name)

    def breakdown(self) -> tuple[str, ...]:
        """The VP sources of final VP (each a ``vp_<source>`` column)."""
        return self.columns()[1]

    def row_fields(self) -> tuple[str, ...]:
        """Every column of a seat row, in the order runs write them."""
        if self.default:
            from cdsim.rules.records import ROW_FIELDS

            return ROW_FIELDS
        seat = tuple(c for c, _ in self.columns()[0])
        return seat + tuple(c for c in ("game", "setup") if c not in seat)

    def settings(self, player: str) -> tuple[tuple[str, str, str], ...]:
        """A built-in player's settings as the core declares them (name, kind, help)."""
        module = core.module()
        declared = getattr(module, "PLAYER_SETTINGS", {}) if module is not None else {}
        return tuple(declared.get(player, ()))

    def check_players(self, n: int, flag: str = "--players") -> None:
        if n not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise CdsimError(f"{flag}: {self.name} is played by {counts} players, not {n}")

    def parse_player(self, text: str, flag: str = "--strategies") -> PlayerSpec:
        """A player of this game as spelled, or a CdsimError naming ``flag``."""
        spec = PlayerSpec.parse(text)
        self.check_player(spec, flag)
        return spec

    def check_player(self, spec: PlayerSpec, flag: str = "--strategies") -> None:
        """``spec`` is one of this game's players (any of Carpe Diem's, users' strategies
        included; another game's built-in names, without settings), or a CdsimError naming
        ``flag``."""
        if self.python_players and spec.base not in other_players():
            return
        if not spec.builtin:
            raise CdsimError(f"{flag}: {spec.spelling!r}: {self.name} is played by its "
                             f"built-in players only (known: {', '.join(self.player_names())})")
        self.check_strategy(spec.base, flag)
        if spec.settings or spec.weights:
            raise CdsimError(f"{flag}: {spec.spelling!r}: {self.name} players take no settings")

    def check_strategy(self, name: str, flag: str = "--strategies") -> None:
        """A built-in player of this game, or a CdsimError naming ``flag`` and the known."""
        known = self.player_names()
        base = name.split("@", 1)[0]
        if base not in known:
            raise CdsimError(f"{flag}: {base!r} is not a {self.name} player (known: "
                             f"{', '.join(known)}){did_you_mean(base, known)}")


def any_counts() -> tuple[int, ...]:
    """Every player count some game takes: what a record's field accepts before it knows
    its game (the game's own counts are checked where it does)."""
    return tuple(sorted({n for spec in GAMES.values() for n in spec.player_counts}))


def said_counts(counts: tuple[int, ...]) -> str:
    """Player counts in words: "2, 3 or 4"."""
    *most, last = map(str, counts)
    return f"{', '.join(most)} or {last}" if most else last


@cache
def _columns(name: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    module = core.module()
    if module is None:
        raise CdsimError(f"the game {name!r} needs the compiled core (make install)")
    columns, breakdown = module.game_columns(name)
    return tuple((str(c), str(t)) for c, t in columns), tuple(map(str, breakdown))


GAMES: dict[str, GameSpec] = {}


def _register(spec: GameSpec) -> None:
    GAMES[spec.name] = spec


def _owner(path: str, loaders: Mapping[str, Callable[[str | None], Any]]) -> str | None:
    """The game among ``loaders`` (by name) that reads the component set at ``path``."""
    for name, load in loaders.items():
        try:
            load(path)
        except CdsimError:
            continue
        return name
    return None


def _naming_the_owner(name: str, load: Callable[[str | None], Any],
                      loaders: Mapping[str, Callable[[str | None], Any]]
                      ) -> Callable[[str | None], Any]:
    """``load`` (game ``name``'s), where a set it refuses that another game reads says so
    and names that game's --game: Carpe Diem said "not valid TOML" of a Castles file."""
    def load_or_name_the_owner(path: str | None) -> Any:
        try:
            return load(path)
        except CdsimError:
            others = {n: other for n, other in loaders.items() if n != name}
            owner = None if path is None else _owner(path, others)
            if owner is None:
                raise
            raise CdsimError(f"{path}: a component set of {GAMES[owner].title}, not of "
                             f"{GAMES[name].title}: add --game {owner}") from None
    return load_or_name_the_owner


_MODULES = (carpe_diem, castles, mediterranean)  # adding a game: its module here
_LOADERS = {game.NAME: game.load_components for game in _MODULES}
for game in _MODULES:
    _register(GameSpec(game.NAME, game.TITLE, getattr(game, "PLAYER_COUNTS", (2, 3, 4)),
                       game.start_vp, game.players,
                       game.SCRIPTED,
                       _naming_the_owner(game.NAME, game.load_components, _LOADERS), radius=4,
                       components_digest=_naming_the_owner(game.NAME, game.components_digest,
                                                           _LOADERS),
                       tiebreak=(game.TIEBREAK_COLUMNS, game.tiebreak),
                       rules_doc=game.RULES_DOC, tie_rule=game.TIE_RULE,
                       python_players=game is carpe_diem, phases=game.PHASES,
                       failed_cards=game.FAILED_CARDS, tiebreak_rule=game.TIEBREAK_WORDS,
                       diff=getattr(game, "diff", None),
                       # what a game may have beyond: a module without it leaves it out
                       cards=getattr(game, "CARDS", None),
                       families=getattr(game, "families", None),
                       sweeps=getattr(game, "SWEEPS", None),
                       card_changes=getattr(game, "card_changes", None),
                       set_keys=getattr(game, "SET_KEYS", None),
                       strong=getattr(game, "STRONG", None),
                       whatif_games=getattr(game, "WHATIF_GAMES", None),
                       seat_ms=getattr(game, "SEAT_MS", None),
                       table_ms=getattr(game, "TABLE_MS", None),
                       player_words=getattr(game, "PLAYER_WORDS", None)))


def without_default_game(record: Any) -> Any:
    """A record as written (a model's dump), its ``game`` left out when it is the default:
    Carpe Diem's records are what they were before there were games."""
    if isinstance(record, dict) and record.get("game") == DEFAULT_GAME:
        del record["game"]
    return record


def game_spec(name: str | None, flag: str | None = "--game") -> GameSpec:
    """The game called ``name`` (None: the default), or a CdsimError naming ``flag`` (None:
    the bare sentence, for a record's validator to name the key)."""
    if name is None:
        name = DEFAULT_GAME
    spec = GAMES.get(name)
    if spec is None:
        said = f"{flag}: " if flag else ""
        raise CdsimError(f"{said}unknown game {user_text(name, repr, 40)} (known: "
                         f"{', '.join(GAMES)}){did_you_mean(name, list(GAMES))}")
    return spec


__all__ = ["DEFAULT_GAME", "GAMES", "GameSpec", "any_counts", "game_spec", "said_counts",
           "without_default_game"]
