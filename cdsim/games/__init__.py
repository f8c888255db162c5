"""The games cdsim plays, by name (OpenSpiel's ``register_game``): one ``GameSpec`` per
game, beside the core's registry (``cdsim._core.GAMES``) that plays them. The commands,
run and study files name a game (``--game``, ``game = "..."``; default ``carpe-diem``) and
read here what differs between games: player counts, the components' loader, the row's
columns, the rulebook's starting VP, the candidates a study tries, the players and their
settings. Adding a game is its package beside these (``castles/``,
``carpe_diem/``) ending with its typed spec (``SPEC``, a ``cdsim.games.spec.GameSpec``),
its spec in the registering line below, and one line in the core's ``games::registry``."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cdsim.errors import CdsimError, user_text
from cdsim.games.players import did_you_mean
from cdsim.games.spec import DEFAULT_GAME, GameSpec

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
        except CdsimError as exc:
            others = {n: other for n, other in loaders.items() if n != name}
            owner = None if path is None else _owner(path, others)
            if owner is None:
                hint = "" if path is None else _json_hint(name, path)
                if not hint:
                    raise
                raise type(exc)(f"{exc}{hint}") from None
            raise CdsimError(f"{path}: a component set of {GAMES[owner].title}, not of "
                             f"{GAMES[name].title}: add --game {owner}") from None
    return load_or_name_the_owner


def _json_hint(name: str, path: str) -> str:
    """Where game ``name``'s sets are not JSON and the file at ``path`` is a JSON object
    that no game reads (a bad one), the games whose sets are JSON, as a line's end: "(a
    JSON set? give --game A or --game B)"; else ""."""
    json_games = [n for n, spec in GAMES.items() if spec.component_files is None]
    if name in json_games or not json_games or not os.path.isfile(path):
        return ""
    try:
        with open(path, encoding="utf-8") as f:
            if not isinstance(json.load(f), dict):
                return ""
    except (OSError, ValueError, RecursionError):
        return ""
    return f" (a JSON set? give {' or '.join(f'--game {n}' for n in json_games)})"


from cdsim.games import carpe_diem, castles, mediterranean, names, players  # noqa: E402 (specs name GameSpec)

_SPECS = (carpe_diem.SPEC, castles.SPEC, mediterranean.SPEC)  # adding a game: its spec here
_LOADERS = {spec.name: spec.load_components for spec in _SPECS}
for _spec in _SPECS:
    # a set another game reads is named as that game's, by its loader and its digest alike
    _register(dataclasses.replace(
        _spec, load_components=_naming_the_owner(_spec.name, _spec.load_components, _LOADERS),
        components_digest=_naming_the_owner(_spec.name, _spec.components_digest, _LOADERS)))


players.DEFAULT_ROSTER[:] = [GAMES[DEFAULT_GAME].roster]  # PlayerSpec.parse's, a game unsaid
names.BUILTIN[:] = [lambda: [n for spec in GAMES.values() for n in spec.player_names()]]

# every player count some game is played by (a record's bound before its game is known)
PLAYER_COUNTS: tuple[int, ...] = tuple(sorted({n for s in GAMES.values() for n in s.player_counts}))


def counts_said(counts: tuple[int, ...] = PLAYER_COUNTS) -> str:
    """Player counts as a sentence says them: ``2, 3 or 4``."""
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def players_said() -> str:
    """``--players``'s help: every game's counts, and the count a command plays when it is
    given none (each game's ``default_players``: one figure when every game's is the same)."""
    defaults = {spec.default_players for spec in GAMES.values()}
    default = (str(min(defaults)) if len(defaults) == 1 else "the game's: " + ", ".join(
        f"{spec.default_players} for {spec.name}" for spec in GAMES.values()))
    return f"{counts_said()}, as the game allows (default: {default})."


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


def adopt_players(where: Path, data: object) -> None:
    """Before a folder's manifest (its JSON object ``data``, at ``where``) is read: the
    scripted players it recorded (``cdsim.games.played``; one line naming a bad key) played
    from now on, by each game's roster (only one whose scripted players are a profiles
    file's has any: the others' do nothing)."""
    from cdsim.games.played import recorded  # pydantic: only a folder's reader pays for it

    record = recorded(where, data)
    for spec in GAMES.values():
        spec.roster.adopt(where, record)


__all__ = ["DEFAULT_GAME", "GAMES", "PLAYER_COUNTS", "GameSpec", "adopt_players", "counts_said",
           "game_spec", "without_default_game"]
