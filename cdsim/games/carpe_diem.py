"""Carpe Diem as cdsim.games registers it: what its spec reads from the rest of cdsim (its
rules, components and players live in cdsim.rules, cdsim.players and the core)."""

from __future__ import annotations

from typing import Any

from cdsim import core
from cdsim.players.registry import BUILTIN
from cdsim.rules.game import DEFAULT_START_VP

NAME = "carpe-diem"
TITLE = "Carpe Diem"
SCRIPTED = ("greedy", "villa", "landscape", "bread")
RULES_DOC = "docs/rules.md"  # where its rules are numbered
TIE_RULE = "R10.6"  # the rule that breaks a tie on VP
TIEBREAK_COLUMNS = ("scroll", "stack")
load_components = core.core_components


def start_vp(n: int) -> tuple[int, ...]:
    """R2.7: the rulebook's starting VP."""
    return DEFAULT_START_VP[n]


def players() -> tuple[str, ...]:
    return BUILTIN


def tiebreak(n: int, scroll: Any, stack: Any) -> Any:
    """R10.6: furthest behind on the scroll, then lower in the stack (lowest key wins)."""
    return scroll * (n + 1) + stack


def components_digest(path: str | None) -> tuple[str, bool]:
    from cdsim.rules.components import load_components as load

    comps = load(path)
    return comps.digest, comps.is_default
