"""The strategy registry: built-in names, and user strategies as ``module:Class``."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from cdsim.errors import CdsimError
from cdsim.players import Strategy
from strategies.random_player import RandomStrategy

Factory = Callable[[], Strategy]

BUILTIN: dict[str, Factory] = {
    "random": RandomStrategy,
}


def describe(name: str) -> str:
    return str(getattr(BUILTIN[name], "description", ""))


def make_strategy(spec: str) -> Strategy:
    """A fresh strategy from a built-in name or ``package.module:ClassName``."""
    spec = spec.strip()
    if spec in BUILTIN:
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
    if factory is None or not callable(factory):
        raise CdsimError(f"strategy {spec!r}: {module_name} has no class {attr!r}")
    strategy = factory()
    if not isinstance(strategy, Strategy):
        raise CdsimError(f"strategy {spec!r} does not implement the Strategy protocol "
                         "(name, reads_scores and the choose_* methods)")
    return strategy


def make_lineup(specs: list[str], players: int) -> list[Strategy]:
    """One strategy per seat; a single name fills every seat."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise CdsimError(f"--strategies names {len(specs)} strategies for {players} players "
                         "(give one per seat, or one for all)")
    return [make_strategy(s) for s in specs]
