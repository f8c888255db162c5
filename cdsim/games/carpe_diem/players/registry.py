"""The strategy registry: what a name at the table means.

Built-in players play natively on the compiled core (core/src/players): ``random``, the
scripted profiles of ``profiles.toml`` (one value model, four sets of weights), and the
core's other players (``CORE_ONLY``: the search player mcts, the learned player). A
built-in name may carry settings: ``villa@chimney=1.5`` (any parameter), ``mcts@1000``
(a budget) or ``learned@weights=PATH`` (a weights file). Anything else is a user's
strategy, ``package.module:ClassName`` (from the current folder or PYTHONPATH) or
``path/to/file.py:ClassName`` (from anywhere; recorded as its absolute path), which plays
in Python on a view of the same game (cdsim.games.carpe_diem.engine.table). A name is parsed once
(``parse``), into a ``PlayerSpec`` (``cdsim.games.players``): commands, run settings,
studies, ladders and the workers hold that value, not the string; shared code reaches this
registry through Carpe Diem's roster (``cdsim.games.carpe_diem.roster``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from cdsim import core
from cdsim.errors import CdsimError
from cdsim.games.carpe_diem.players import profiles as profiles_file
from cdsim.games.carpe_diem.players.profiles import PROFILES, WEIGHTS, core_profiles
from cdsim.games.carpe_diem.players.weights import check_components, load
from cdsim.games.carpe_diem.rules.strategy import Strategy, refusal
from cdsim.games.players import Overrides as Overrides
from cdsim.games.players import PlayerSpec as PlayerSpec
from cdsim.games.players import did_you_mean as did_you_mean
from cdsim.players.loading import made_by_user, user_base


@dataclass
class Lineup:
    """The players of one game by seat: a core ``Bot`` for a built-in name, or a user's
    Python strategy, and each one's name as spelled (``villa@chimney=1.5``, ``mod:Class``;
    ``make_lineup`` makes one from names)."""

    names: list[str]
    players: list[Any]  # cdsim._core.Bot | Strategy

    @property
    def strategies(self) -> list[Any]:
        """Each seat's Python strategy, or None where a built-in player (a core ``Bot``)
        sits (a type check: the Strategy protocol's isinstance is slow, and a table asks
        once per game)."""
        module = core.module()
        if module is None:
            return [p if isinstance(p, Strategy) else None for p in self.players]
        return [None if isinstance(p, module.Bot) else p for p in self.players]

    @property
    def all_builtin(self) -> bool:
        return not any(s is not None for s in self.strategies)


RANDOM_DESCRIPTION = "uniform over legal options (sanity floor)"

# The parameter that ``name@N`` sets: a search player's budget (mcts@1000 = 1000 playouts).
BUDGET: dict[str, str] = {"mcts": "playouts"}


@dataclass(frozen=True)
class CoreOnly:
    """A built-in player of the compiled core beyond random and the scripted profiles: what
    it does, and its settings as the core declares them (``_core.PLAYER_SETTINGS``, from
    core/src/players/settings.rs: the one declaration the core's parser reads too)."""

    summary: str
    params: dict[str, str]  # name -> "count" (a whole number >= 1), "whole" (>= 0),
    # "number" (>= 0), "share" (0-1), "switch" (0 or 1) or "path" (a file, spelled
    # name@param=PATH only)
    helps: dict[str, str] = field(default_factory=dict)  # name -> what it does

    @property
    def description(self) -> str:
        """The summary, then each setting and what it does (``--help``)."""
        if not self.helps:
            return self.summary
        settings = "; ".join(f"{name}: {text}" for name, text in self.helps.items())
        return f"{self.summary} (settings: {settings})"


SUMMARIES = {
    "mcts": "determinized UCT search over its own decisions, greedy rollouts (mcts@N: N "
            "playouts)",
    "learned": "its turn played on copies, valued by weights fitted to search labels (at 2 "
               "players after the other seat's greedy reply), the shortlisted takes of its "
               "best moves weighed together; learned@classic is the player before issue 49",
}


def _core_only() -> dict[str, CoreOnly]:
    """The core's players with their declared settings; without the compiled core, none
    (such a player is refused where it would be made: not installed)."""
    module = core.module()
    declared = getattr(module, "PLAYER_SETTINGS", {}) if module is not None else {}
    return {name: CoreOnly(summary, {s: kind for s, kind, _ in declared.get(name, ())},
                           {s: text for s, _, text in declared.get(name, ())})
            for name, summary in SUMMARIES.items()}


CORE_ONLY: dict[str, CoreOnly] = _core_only()

# Named settings of the learned player: ``learned@classic`` is the player before issue 49
# (each shortlisted move's best take valued on copies, each copy's own prices; the same
# games as then, core/tests/games.rs), kept so the comparison can be rerun.
LEARNED_PRESETS: dict[str, dict[str, float]] = {"classic": {"joint": 0.0, "pin": 0.0}}

# Every built-in name: random, the scripted profiles, then the core's other players.
BUILTIN: tuple[str, ...] = ("random", *PROFILES, *CORE_ONLY)


def builtin_names() -> tuple[str, ...]:
    """``BUILTIN`` as this process knows it now (a folder read back may bring the profiles
    file it was played with: ``cdsim.games.carpe_diem.players.played``); a file that does
    not read: one line."""
    profiles_file.loaded()
    return ("random", *PROFILES, *CORE_ONLY)


def known_names() -> tuple[str, ...]:
    """``builtin_names``, or where the profiles file does not read, with the shipped file's
    scripted names: to tell a built-in player from a user's where none is made (a report)."""
    return builtin_names() if profiles_file.readable() else \
        ("random", *profiles_file.shipped_names(), *CORE_ONLY)


def profiles_hint(name: str) -> str:
    """What to say of an unknown plain name: a scripted player of one's own is a table of a
    profiles file, named by CDSIM_PROFILES (a run made with one keeps its copy)."""
    if os.environ.get("CDSIM_PROFILES"):
        return f"; {profiles_file.PROFILES_FILE} (CDSIM_PROFILES) has no table [{name}]"
    return (f"; if [{name}] is a table of your own profiles file, name the file: "
            f"CDSIM_PROFILES=path/to/profiles.toml cdsim ...")


def core_only_refusal(name: str, why: str) -> str:
    return f"{name} plays only on the compiled core, {why}"


def parse(text: str) -> PlayerSpec:
    """A Carpe Diem player as spelled, parsed once into a ``PlayerSpec``: ``villa``,
    ``villa@chimney=1.5@open_edge=0.3``, ``mcts@1000`` (the budget parameter, ``BUDGET``),
    ``learned@weights=PATH@top_k=2``, or ``package.module:Class``; another game's built-in
    name as that (whose game it is: ``GameSpec.check_player``); anything else is one error
    line."""
    spelled = text.strip()
    name, at, rest = spelled.partition("@")
    builtin = known_names()
    if name == "learned":
        values, weights = _learned(spelled, rest)
        return PlayerSpec("builtin", name, tuple(sorted(values.items())), weights, spelled)
    if name in builtin:
        values = _settings(spelled, name, rest) if at else {}
        return PlayerSpec("builtin", name, tuple(sorted(values.items())), None, spelled)
    if name in other_games_players():  # which game's player it is: RunConfig checks
        if at:
            raise CdsimError(f"strategy {spelled!r}: {name} takes no settings")
        return PlayerSpec("builtin", name, (), None, spelled)
    if at:
        raise CdsimError(f"strategy {spelled!r}: name@setting works for built-in players "
                         f"only (built-in: {', '.join(builtin)})")
    if ":" not in spelled:
        profiles_file.loaded()  # a table of a file that does not read: said so
        raise CdsimError(f"unknown strategy {spelled!r}{did_you_mean(name, builtin)} "
                         f"(built-in: {', '.join(builtin)}; or module:Class, or "
                         f"path/to/file.py:Class){profiles_hint(name)}")
    base = user_base(spelled, builtin)
    return PlayerSpec("user", base, (), None, base)


def player_overrides(spec: PlayerSpec, params: Overrides | None = None) -> dict[str, float]:
    """Its built-in's parameters: --strategy-params for that name, then its own
    settings on top; for ``learned``, ``weights`` is its weights file loaded into the
    core of this process (by number: ``cdsim.games.carpe_diem.players.weights.load``)."""
    values = {**(params or {}).get(spec.base, {}), **dict(spec.settings)}
    if spec.base == "learned":
        values["weights"] = float(load(spec.weights)[0])
    return values


def make_player(spec: PlayerSpec, params: Overrides | None = None) -> Strategy:
    """A built-in player's description (``Builtin``) or a fresh user strategy."""
    if spec.builtin:
        return Builtin(spec.spelling, spec.base, player_overrides(spec, params))
    return _user_strategy(spec)


def other_games_players() -> tuple[str, ...]:
    """The built-in players of the core's other games (as each game's registry entry lists
    them), not Carpe Diem's: a name a run of that game plays (``cdsim.games`` checks whose
    it is)."""
    module = core.module()
    if module is None or not hasattr(module, "game_players"):
        return ()
    names = dict.fromkeys(n for game in module.GAMES for n in module.game_players(game))
    return tuple(n for n in names if n not in known_names())


def as_spec(player: str | PlayerSpec) -> PlayerSpec:
    return player if isinstance(player, PlayerSpec) else parse(player)


@dataclass
class Builtin:
    """A built-in player as the Python side knows it: its name as spelled, the built-in
    behind it with its parameters, and that it never reads VP totals (R2.7: its value is
    VP gained; the start-VP property tests check it), so runs with it re-rank exactly.
    It makes its decisions on the core (``bot()``), never in Python."""

    name: str
    base: str
    overrides: dict[str, float] = field(default_factory=dict)
    reads_scores: bool = False

    @property
    def description(self) -> str:
        return describe(self.base)

    @property
    def params(self) -> dict[str, float]:
        """A scripted profile's weights: defaults, the profile's, then the overrides."""
        table = PROFILES.get(self.base)
        if table is None:
            return dict(self.overrides)
        own = {k: float(v) for k, v in table.items() if k in WEIGHTS}
        return {**WEIGHTS, **own, **self.overrides}

    def bot(self) -> Any:
        """The core's player (``cdsim._core.Bot``)."""
        module = core_profiles()
        if module is None:
            raise CdsimError(core_only_refusal(self.base, "which is not installed (make "
                                               "install builds it with a Rust toolchain)"))
        try:
            return module.Bot(self.base, sorted(self.overrides.items()))
        except ValueError as exc:  # a setting the core refuses that no check above caught
            raise CdsimError(f"strategy {self.name!r}: {exc}") from None

    def _refuse(self) -> NoReturn:
        raise CdsimError(core_only_refusal(self.base, "not as a Python object"))

    def __getattr__(self, name: str) -> Any:
        """``choose``: a built-in plays only on the core, so asking it as a Python object
        is refused."""
        if name == "choose":
            return lambda *args: self._refuse()
        raise AttributeError(name)


def describe(name: str) -> str:
    if name == "random":
        return RANDOM_DESCRIPTION
    if name in PROFILES:
        return str(PROFILES[name].get("description", ""))
    return CORE_ONLY[name].description



def parse_params(text: str | None) -> Overrides:
    """``villa.chimney=1.5,bread.bread_move_cost=1`` -> {"villa": {"chimney": 1.5}, ...}."""
    out: Overrides = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        name, dot, field_name = key.strip().partition(".")
        if not sep or not dot:
            raise CdsimError(f"--strategy-params: {item.strip()!r} is not strategy.param=value")
        try:
            out.setdefault(name, {})[field_name] = float(value)
        except ValueError:
            raise CdsimError(f"--strategy-params: {item.strip()!r}: {value!r} is not a number") from None
    for name, values in out.items():
        _check_params(name, values, "--strategy-params")
    return out


def _check_params(name: str, values: dict[str, float], where: str) -> None:
    if name in CORE_ONLY:
        _check_core_params(name, values, where)
        return
    profiles_file.loaded()
    if name not in PROFILES:
        raise CdsimError(f"{where}: {name!r} has no parameters (scripted: "
                         f"{', '.join(PROFILES)}; {', '.join(CORE_ONLY)})")
    for field_name, value in values.items():
        if field_name not in WEIGHTS:
            raise CdsimError(f"{where}: {name} has no parameter {field_name!r} "
                             f"(known: {', '.join(sorted(WEIGHTS))}; see strategies/"
                             "profiles.toml)")
        if not math.isfinite(value):
            raise CdsimError(f"{where}: {name}.{field_name} must be a finite number, "
                             f"got {value:g}")


def _check_core_params(name: str, values: dict[str, float], where: str) -> None:
    """By the core's declarations (core/src/players/settings.rs), which its parsers check
    too; without the compiled core there are none, and the player is refused where it is
    made."""
    known = CORE_ONLY[name].params
    if not known:
        return
    for field_name, value in values.items():
        kind = known.get(field_name)
        if kind is None:
            raise CdsimError(f"{where}: {name} has no parameter {field_name!r} "
                             f"(known: {', '.join(known)})")
        if kind == "count" and not (value.is_integer() and 1 <= value <= 1e9):
            raise CdsimError(f"{where}: {name}.{field_name} must be a whole number >= 1, "
                             f"got {value:g}")
        if kind == "whole" and not (value.is_integer() and 0 <= value <= 1e9):
            raise CdsimError(f"{where}: {name}.{field_name} must be a whole number >= 0, "
                             f"got {value:g}")
        if kind == "number" and not (math.isfinite(value) and value >= 0):
            raise CdsimError(f"{where}: {name}.{field_name} must be a number >= 0, got {value:g}")
        if kind == "switch" and value not in (0, 1):
            raise CdsimError(f"{where}: {name}.{field_name} must be 0 or 1, got {value:g}")
        if kind == "share" and not 0 <= value <= 1:
            raise CdsimError(f"{where}: {name}.{field_name} must be between 0 and 1, "
                             f"got {value:g}")
        if kind == "path":
            raise CdsimError(f"{where}: {name}.{field_name} is a file: spell it "
                             f"{name}@{field_name}=PATH")


def _settings(spec: str, name: str, rest: str) -> dict[str, float]:
    """``chimney=1.5@open_edge=0.3`` (or ``N``: the budget parameter, ``BUDGET``) of a
    built-in, checked."""
    values: dict[str, float] = {}
    for item in rest.split("@"):
        key, eq, value = item.partition("=")
        if not eq:
            key, value = BUDGET.get(name, ""), item
            if not key:
                raise CdsimError(f"strategy {spec!r}: {name} has no budget parameter for "
                                 f"{name}@N; set a parameter as {name}@param=value")
        try:
            values[key.strip()] = float(value)
        except ValueError:
            raise CdsimError(f"strategy {spec!r}: {value!r} is not a number "
                             f"(spell it {name}@param=value or {name}@N)") from None
    _check_params(name, values, f"strategy {spec!r}")
    return values


def _learned(spec: str, rest: str) -> tuple[dict[str, float], str | None]:
    """``learned[@weights=PATH][@param=value...]``: (its settings, its weights file or None
    for the built-in strategies/weights/carpe_diem-learned.json). The file is read where the
    player is made (``PlayerSpec.overrides``), not here."""
    values: dict[str, float] = {}
    weights = None
    for item in rest.split("@") if rest else []:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq and key in LEARNED_PRESETS:
            values.update(LEARNED_PRESETS[key])
            continue
        if not eq:
            raise CdsimError(f"strategy {spec!r}: learned has no budget parameter; set a "
                             "parameter as learned@param=value (or learned@weights=PATH), or "
                             f"name a preset ({', '.join(LEARNED_PRESETS)})")
        if key == "weights":
            if not value.strip():
                raise CdsimError(f"strategy {spec!r}: learned@weights= needs a file")
            weights = value.strip()
            continue
        try:
            values[key] = float(value)
        except ValueError:
            raise CdsimError(f"strategy {spec!r}: {value!r} is not a number "
                             "(spell it learned@param=value)") from None
    _check_params("learned", values, f"strategy {spec!r}")
    return values, weights


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """(the built-in name behind ``spec``, the parameters its core player gets)."""
    player = parse(spec)
    return player.base, player_overrides(player) if player.builtin else {}


def make_strategy(spec: str | PlayerSpec, overrides: Overrides | None = None) -> Strategy:
    """A built-in player's description (``Builtin``) or a fresh user strategy from
    ``package.module:ClassName``."""
    return make_player(as_spec(spec), overrides)


def _checked(strategy: Any) -> str | None:
    """Why a Carpe Diem strategy cannot play (None: it can); its ``reads_scores`` is read
    here too, in the sandbox, since every table reads it again (it may run its code)."""
    refused = refusal(strategy)
    if refused is None:
        bool(strategy.reads_scores)
    return refused


def _user_strategy(spec: PlayerSpec) -> Strategy:
    """A fresh instance of a user's strategy class: its import and construction run its
    code, in the sandbox; whatever fails is one line naming the spec."""
    made: Strategy = made_by_user(spec.spelling, spec.base, _checked)  # checked by _checked
    return made


def make_lineup(specs: Sequence[str | PlayerSpec], players: int,
                overrides: Overrides | None = None) -> Lineup:
    """One player per seat (one name fills every seat): a built-in name becomes the
    core's player, ``module:Class`` a Python strategy. Rows name each player as spelled."""
    parsed = [as_spec(s) for s in specs]
    if len(parsed) == 1:
        parsed = parsed * players
    if len(parsed) != players:
        raise CdsimError(f"--strategies names {len(parsed)} strategies for {players} players "
                         "(give one per seat, or one for all)")
    made = [make_player(spec, overrides) for spec in parsed]
    return Lineup([spec.spelling for spec in parsed],
                  [p.bot() if isinstance(p, Builtin) else p for p in made])


def reads_scores(players: Sequence[PlayerSpec]) -> dict[str, bool]:
    """Whether each player reads VP totals, by spelling, as a run's manifest records it:
    never a built-in (R2.7); a user's strategy as its class declares (made to ask it)."""
    out: dict[str, bool] = {}
    for spec in players:
        if spec.spelling not in out:
            out[spec.spelling] = (not spec.builtin
                                  and bool(getattr(make_player(spec), "reads_scores", True)))
    return out


def weights_record(players: Sequence[PlayerSpec], components: str | Path | None
                   ) -> dict[str, dict[str, str]]:
    """For the manifests: each learned spelling's weights file and digest, after checking
    that they can play this component set (the set they were trained on, or one that
    differs from it only in what their inputs read: weights.check_components; {} when no
    learned player plays)."""
    out: dict[str, dict[str, str]] = {}
    for spec in players:
        if spec.base != "learned" or spec.spelling in out:
            continue
        _, weights = load(spec.weights)
        check_components(weights, components)
        out[spec.spelling] = {"path": str(weights.path), "digest": weights.digest}
    return out
