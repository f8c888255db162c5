"""The strategy registry: built-in names (``name@setting`` for other parameters), and user
strategies as ``module:Class``."""

from __future__ import annotations

import importlib
import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import NoReturn

from cdsim.cards import Payment
from cdsim.components import ObjectiveCard
from cdsim.errors import CdsimError
from cdsim.players import (
    CircleChoice,
    FountainChoice,
    Move,
    PlayerView,
    SealBuild,
    Strategy,
    Take,
)
from strategies.random_player import RandomStrategy
from strategies.scripted import BreadPlayer, GreedyPlayer, LandscapePlayer, VillaPlayer

Factory = Callable[[], Strategy]

BUILTIN: dict[str, Factory] = {
    "random": RandomStrategy,
    "greedy": GreedyPlayer,
    "villa": VillaPlayer,
    "landscape": LandscapePlayer,
    "bread": BreadPlayer,
}


# The parameter that ``name@N`` sets: a search player's budget (mcts@1000 = 1000 playouts).
BUDGET: dict[str, str] = {"mcts": "playouts"}


@dataclass(frozen=True)
class CoreOnly:
    """A built-in player of the compiled core only (core/src/players): no Python twin."""

    description: str
    params: dict[str, str]  # name -> "count" (a whole number >= 1) or "number" (>= 0)


CORE_ONLY: dict[str, CoreOnly] = {
    "mcts": CoreOnly("determinized UCT search over its own decisions, greedy rollouts; "
                     "compiled core only (mcts.playouts, mcts.c, mcts.top_k)",
                     {"playouts": "count", "c": "number", "top_k": "count"}),
}


def core_only_refusal(name: str, why: str) -> str:
    return f"{name} plays only on the compiled core, {why}"


class CoreOnlyStrategy:
    """A core-only player as the Python side knows it: its name and that it never reads
    VP totals (its value is VP gained, core/tests/mcts.rs and tests/test_mcts.py check
    that starting VP change none of its decisions), so runs with it validate and
    `cdsim balance` re-ranks them; it makes no decision on the Python engine."""

    reads_scores = False

    def __init__(self, name: str, base: str) -> None:
        self.name = name
        self.base = base
        self.description = CORE_ONLY[base].description

    def _refuse(self) -> NoReturn:
        raise CdsimError(core_only_refusal(self.base, "not on the Python engine"))

    def choose_start(self, view: PlayerView, options: Sequence[int]) -> int:
        self._refuse()

    def choose_move(self, view: PlayerView, options: Sequence[Move]) -> Move:
        self._refuse()

    def choose_take(self, view: PlayerView, options: Sequence[Take]) -> Take:
        self._refuse()

    def choose_seal(self, view: PlayerView, options: Sequence[SealBuild]) -> SealBuild:
        self._refuse()

    def choose_fountain(self, view: PlayerView,
                        options: Sequence[FountainChoice]) -> FountainChoice:
        self._refuse()

    def choose_circle(self, view: PlayerView, options: Sequence[CircleChoice]) -> CircleChoice:
        self._refuse()

    def choose_payment(self, view: PlayerView, card: ObjectiveCard,
                       options: Sequence[Payment]) -> Payment:
        self._refuse()


def describe(name: str) -> str:
    if name in CORE_ONLY:
        return CORE_ONLY[name].description
    return str(getattr(BUILTIN[name], "description", ""))


Overrides = dict[str, dict[str, float]]


def parse_params(text: str | None) -> Overrides:
    """``villa.chimney=1.5,bread.bread_move_cost=1`` -> {"villa": {"chimney": 1.5}, ...}."""
    out: Overrides = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        name, dot, field = key.strip().partition(".")
        if not sep or not dot:
            raise CdsimError(f"--strategy-params: {item.strip()!r} is not strategy.param=value")
        try:
            out.setdefault(name, {})[field] = float(value)
        except ValueError:
            raise CdsimError(f"--strategy-params: {item.strip()!r}: {value!r} is not a number") from None
    for name, values in out.items():
        _check_params(name, values, "--strategy-params")
    return out


def _check_params(name: str, values: dict[str, float], where: str) -> None:
    if name in CORE_ONLY:
        _check_core_params(name, values, where)
        return
    profile = getattr(BUILTIN.get(name), "profile", None)
    if profile is None:
        raise CdsimError(f"{where}: {name!r} has no parameters (scripted: "
                         f"{', '.join(n for n in BUILTIN if n != 'random')}; "
                         f"{', '.join(CORE_ONLY)})")
    known = {f.name for f in fields(profile)}
    for field in values:
        if field not in known:
            raise CdsimError(f"{where}: {name} has no parameter {field!r} "
                             f"(known: {', '.join(sorted(known))})")


def _check_core_params(name: str, values: dict[str, float], where: str) -> None:
    """The core checks them too (players/mcts.rs MctsParams::with_overrides)."""
    known = CORE_ONLY[name].params
    for field, value in values.items():
        kind = known.get(field)
        if kind is None:
            raise CdsimError(f"{where}: {name} has no parameter {field!r} "
                             f"(known: {', '.join(known)})")
        if kind == "count" and not (value.is_integer() and 1 <= value <= 1e9):
            raise CdsimError(f"{where}: {name}.{field} must be a whole number >= 1, got {value:g}")
        if kind == "number" and not (math.isfinite(value) and value >= 0):
            raise CdsimError(f"{where}: {name}.{field} must be a number >= 0, got {value:g}")


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """A built-in player at other settings: ``mcts@1000`` sets its budget parameter
    (``BUDGET``), ``villa@chimney=1.5`` (or ``villa@chimney=1.5@open_edge=0.3``) any
    parameter. -> (built-in name, overrides); a name without ``@`` -> (name, {})."""
    name, at, rest = spec.strip().partition("@")
    if not at:
        return name, {}
    if name not in BUILTIN and name not in CORE_ONLY:
        known = ", ".join([*BUILTIN, *CORE_ONLY])
        raise CdsimError(f"strategy {spec!r}: name@setting works for built-in players only "
                         f"(built-in: {known})")
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
    return name, values


def spec_overrides(spec: str, overrides: Overrides | None = None) -> tuple[str, dict[str, float]]:
    """The built-in name behind ``spec`` and its parameter overrides: --strategy-params
    for that name, then the spec's own ``@`` settings on top."""
    name, own = parse_spec(spec)
    return name, {**(overrides or {}).get(name, {}), **own}


def make_strategy(spec: str, overrides: Overrides | None = None) -> Strategy:
    """A fresh strategy from a built-in name or ``package.module:ClassName``."""
    spec = spec.strip()
    name, mine = spec_overrides(spec, overrides)
    if name in CORE_ONLY:
        return CoreOnlyStrategy(spec, name)
    if name in BUILTIN:
        if not mine:
            return BUILTIN[name]()
        profile = BUILTIN[name].profile  # type: ignore[attr-defined]
        try:
            player = BUILTIN[name](profile.with_overrides(mine))  # type: ignore[call-arg]
        except KeyError as exc:
            raise CdsimError(f"--strategy-params: {name} has no parameter {exc.args[0]!r} "
                             "(see strategies/params.py Params)") from None
        player.name = spec  # rows name the player as spelled: villa@chimney=1.5
        return player
    if ":" not in spec:
        known = ", ".join([*BUILTIN, *CORE_ONLY])
        raise CdsimError(f"unknown strategy {spec!r} (built-in: {known}; or module:Class)")
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CdsimError(f"strategy {spec!r}: cannot import {module_name!r}: {exc}") from None
    factory = getattr(module, attr, None)
    if factory is None:
        raise CdsimError(f"strategy {spec!r}: {module_name} has no class {attr!r}")
    if not inspect.isclass(factory):
        raise CdsimError(f"strategy {spec!r}: {module_name}.{attr} is a "
                         f"{type(factory).__name__}, not a strategy class")
    try:
        strategy = factory()
    except Exception as exc:
        raise CdsimError(f"strategy {spec!r}: {attr}() failed: {type(exc).__name__}: {exc}") from None
    if not isinstance(strategy, Strategy):
        raise CdsimError(f"strategy {spec!r} does not implement the Strategy protocol "
                         "(name, reads_scores and the choose_* methods)")
    return strategy


def make_lineup(specs: list[str], players: int, overrides: Overrides | None = None) -> list[Strategy]:
    """One strategy per seat; a single name fills every seat."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise CdsimError(f"--strategies names {len(specs)} strategies for {players} players "
                         "(give one per seat, or one for all)")
    for spec in specs:
        base = spec.strip().partition("@")[0]
        if base in CORE_ONLY:  # a line-up made here plays on the Python engine
            raise CdsimError(core_only_refusal(base, "not in a single game (cdsim play) nor "
                                               "on the Python engine"))
    return [make_strategy(s, overrides) for s in specs]
