"""The strategy registry: built-in names, and user strategies as ``module:Class``."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import fields

from cdsim.errors import CdsimError
from cdsim.players import Strategy
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


def describe(name: str) -> str:
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
        profile = getattr(BUILTIN.get(name), "profile", None)
        if profile is None:
            raise CdsimError(f"--strategy-params: {name!r} has no parameters "
                             f"(scripted: {', '.join(n for n in BUILTIN if n != 'random')})")
        known = {f.name for f in fields(profile)}
        for field in values:
            if field not in known:
                raise CdsimError(f"--strategy-params: {name} has no parameter {field!r} "
                                 f"(known: {', '.join(sorted(known))})")
    return out


def make_strategy(spec: str, overrides: Overrides | None = None) -> Strategy:
    """A fresh strategy from a built-in name or ``package.module:ClassName``."""
    spec = spec.strip()
    if spec in BUILTIN:
        mine = (overrides or {}).get(spec)
        if mine:
            profile = BUILTIN[spec].profile  # type: ignore[attr-defined]
            try:
                return BUILTIN[spec](profile.with_overrides(mine))  # type: ignore[call-arg]
            except KeyError as exc:
                raise CdsimError(f"--strategy-params: {spec} has no parameter {exc.args[0]!r} "
                                 "(see strategies/params.py Params)") from None
        return BUILTIN[spec]()
    if ":" not in spec:
        known = ", ".join(BUILTIN)
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
    return [make_strategy(s, overrides) for s in specs]
