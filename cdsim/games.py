"""The games cdsim plays, by name (OpenSpiel's ``register_game``): one ``GameSpec`` per
game, beside the core's registry (``cdsim._core.GAMES``) that plays them. The commands,
run and study files name a game (``--game``, ``game = "..."``; default ``carpe-diem``) and
read here what differs between games: player counts, the components' loader, the row's
columns, the rulebook's starting VP, the candidates a study tries, the players and their
settings. Adding a game is one ``_register`` line here and one line in the core's
``games::registry``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from cdsim import core
from cdsim.errors import CdsimError, user_text
from cdsim.players.registry import BUILTIN, PlayerSpec, did_you_mean
from cdsim.rules.game import DEFAULT_START_VP

DEFAULT_GAME = "carpe-diem"


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
    # whether its players are cdsim.players' (settings, weights, users' strategies): only
    # Carpe Diem's; another game's are its core registry's names, taking no settings
    python_players: bool = False
    # what its run report reads beyond the VP sources: the row's VP after each scoring phase
    # (the "game shape"; none: not logged), the row's count of a seat's scored cards that
    # failed and how many it scores a game (none: no such cards), where its rules are and
    # the words of its tie-break
    phases: tuple[str, ...] = ()
    failed_cards: tuple[str, int] | None = None
    rules_doc: str = "docs/rules.md"
    tiebreak_rule: str = ""

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
        """A player of this game as spelled (``PlayerSpec.parse`` for Carpe Diem's), or a
        CdsimError naming ``flag``."""
        if self.python_players:
            return PlayerSpec.parse(text)
        spelled = text.strip()
        name, at, _ = spelled.partition("@")
        self.check_strategy(name, flag)
        if at:
            raise CdsimError(f"{flag}: {spelled!r}: {self.name} players take no settings")
        return PlayerSpec("builtin", name, (), None, spelled)

    def check_strategy(self, name: str, flag: str = "--strategies") -> None:
        """A built-in player of this game, or a CdsimError naming ``flag`` and the known."""
        known = self.player_names()
        base = name.split("@", 1)[0]
        if base not in known:
            raise CdsimError(f"{flag}: {base!r} is not a {self.name} player (known: "
                             f"{', '.join(known)}){did_you_mean(base, known)}")


@cache
def _columns(name: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    module = core.module()
    if module is None:
        raise CdsimError(f"the game {name!r} needs the compiled core (make install)")
    columns, breakdown = module.game_columns(name)
    return tuple((str(c), str(t)) for c, t in columns), tuple(map(str, breakdown))


def _no_compensation(n: int) -> tuple[int, ...]:
    return (0,) * n


def _carpe_diem_start(n: int) -> tuple[int, ...]:
    return DEFAULT_START_VP[n]


@cache
def _castles_text(path: str | None) -> str:
    """Castles' component set as the core reads it: the built-in set's JSON, or a JSON
    file of overrides (``castles::Components``' serde JSON, keys merged over the built-in
    set)."""
    module = core.module()
    if module is None:
        raise CdsimError("castles needs the compiled core (make install)")
    text: str = module.builtin_components("castles")
    if path is None:
        return text
    base = json.loads(text)
    try:
        with open(path, encoding="utf-8") as f:
            override = json.load(f)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CdsimError(f"{path}: not a castles component file ({e})") from None
    if not isinstance(override, dict):
        raise CdsimError(f"{path}: a castles component file is a JSON object")
    unknown = sorted(set(override) - set(base))
    if unknown:
        raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: "
                         f"{', '.join(sorted(base))})")
    return json.dumps({**base, **override})


@cache
def _castles_components(path: str | None) -> Any:
    """Castles' component set in the core (``_castles_text``), or one line naming the file."""
    text = _castles_text(path)
    try:
        return core.module().Components(text, game="castles")  # type: ignore[union-attr]
    except ValueError as e:
        raise CdsimError(f"{path or 'castles built-in components'}: {e}") from None


def _carpe_diem_tiebreak(n: int, scroll: Any, stack: Any) -> Any:
    return scroll * (n + 1) + stack  # R10.6: furthest behind on the scroll, then lower in the stack


def _castles_tiebreak(n: int, empty: Any, green: Any) -> Any:
    # T11.4: the most empty spaces, then the most green VP, then the later seat
    seat = np.arange(n)[None, :]
    return -((empty * 4096 + green) * 8 + seat)


def _carpe_diem_digest(path: str | None) -> tuple[str, bool]:
    from cdsim.rules.components import load_components

    comps = load_components(path)
    return comps.digest, comps.is_default


def _castles_digest(path: str | None) -> tuple[str, bool]:
    """sha256 over the JSON of the set (the built-in one's, or the override merged over it)."""
    _castles_components(path)  # a set the core refuses is one line here
    return hashlib.sha256(_castles_text(path).encode()).hexdigest(), path is None


def _castles_players() -> tuple[str, ...]:
    module = core.module()
    if module is None or not hasattr(module, "castles_players"):
        return ()
    return tuple(module.castles_players())


GAMES: dict[str, GameSpec] = {}


def _register(spec: GameSpec) -> None:
    GAMES[spec.name] = spec


_register(GameSpec("carpe-diem", "Carpe Diem", (2, 3, 4), _carpe_diem_start,
                   lambda: BUILTIN, ("greedy", "villa", "landscape", "bread"),
                   core.core_components, radius=4, components_digest=_carpe_diem_digest,
                   tiebreak=(("scroll", "stack"), _carpe_diem_tiebreak),
                   python_players=True,
                   phases=("vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4"),
                   failed_cards=("failed_cards", 8),  # R3.1, R8.3: 4 phases x 2 cards
                   tiebreak_rule="the R10.6 tie-break (scroll disc furthest behind, then lower "
                                 "in the stack)"))
# the rulebook gives no VP compensation (seat order only picks the bonus tokens): zeros
_register(GameSpec("castles", "The Castles of Tuscany", (2, 3, 4), _no_compensation,
                   _castles_players, ("greedy", "castle-monastery", "trade-workers",
                                      "animal-farms"),
                   _castles_components, radius=4, components_digest=_castles_digest,
                   tiebreak=(("empty_spaces", "green_vp"), _castles_tiebreak),
                   rules_doc="docs/rules-castles.md",
                   tiebreak_rule="the T13.2 tie-break (the most empty board spaces, then the "
                                 "most green VP, then the later seat)"))


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


__all__ = ["DEFAULT_GAME", "GAMES", "GameSpec", "game_spec"]
