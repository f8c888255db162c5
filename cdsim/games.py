"""The games cdsim plays, by name (OpenSpiel's ``register_game``): one ``GameSpec`` per
game, beside the core's registry (``cdsim._core.GAMES``) that plays them. The commands,
run and study files name a game (``--game``, ``game = "..."``; default ``carpe-diem``) and
read here what differs between games: player counts, the components' loader, the row's
columns, the rulebook's starting VP, the candidates a study tries, the players and their
settings. Adding a game is one ``_register`` line here and one line in the core's
``games::registry``."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.players.registry import BUILTIN, did_you_mean
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

    def columns(self) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
        """The seat row's columns as ``(name, type)`` and the VP sources of final VP
        (``cdsim._core.game_columns``)."""
        return _columns(self.name)

    def settings(self, player: str) -> tuple[tuple[str, str, str], ...]:
        """A built-in player's settings as the core declares them (name, kind, help)."""
        module = core.module()
        declared = getattr(module, "PLAYER_SETTINGS", {}) if module is not None else {}
        return tuple(declared.get(player, ()))

    def check_players(self, n: int, flag: str = "--players") -> None:
        if n not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise CdsimError(f"{flag}: {self.name} is played by {counts} players, not {n}")

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
def _castles_components(path: str | None) -> Any:
    """Castles' component set: the core's built-in set, or a JSON file of overrides
    (``castles::Components``' serde JSON, keys merged over the built-in set)."""
    module = core.module()
    if module is None:
        raise CdsimError("castles needs the compiled core (make install)")
    text = module.builtin_components("castles")
    if path is not None:
        base = json.loads(text)
        try:
            with open(path, encoding="utf-8") as f:
                override = json.load(f)
        except (OSError, json.JSONDecodeError) as e:
            raise CdsimError(f"{path}: not a castles component file ({e})") from None
        if not isinstance(override, dict):
            raise CdsimError(f"{path}: a castles component file is a JSON object")
        unknown = sorted(set(override) - set(base))
        if unknown:
            raise CdsimError(f"{path}: unknown key {unknown[0]!r} (known: "
                             f"{', '.join(sorted(base))})")
        text = json.dumps({**base, **override})
    try:
        return module.Components(text, game="castles")
    except ValueError as e:
        raise CdsimError(f"{path or 'castles built-in components'}: {e}") from None


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
                   core.core_components, radius=4))
# the rulebook gives no VP compensation (seat order only picks the bonus tokens): zeros
_register(GameSpec("castles", "The Castles of Tuscany", (2, 3, 4), _no_compensation,
                   _castles_players, ("greedy", "castle-monastery", "trade-workers",
                                      "animal-farms"),
                   _castles_components, radius=4))


def game_spec(name: str | None, flag: str = "--game") -> GameSpec:
    """The game called ``name`` (None: the default), or a CdsimError naming ``flag``."""
    if name is None:
        name = DEFAULT_GAME
    spec = GAMES.get(name)
    if spec is None:
        raise CdsimError(f"{flag}: unknown game {name!r} (known: {', '.join(GAMES)})"
                         f"{did_you_mean(name, list(GAMES))}")
    return spec


__all__ = ["DEFAULT_GAME", "GAMES", "GameSpec", "game_spec"]
