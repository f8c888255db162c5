"""Carpe Diem as cdsim.games registers it: what its spec reads from the rest of cdsim (its
rules, components and players live in cdsim.rules, cdsim.players and the core)."""

from __future__ import annotations

from typing import Any

from cdsim import core
from cdsim.games.carpe_diem.cards import CARDS as CARDS  # its card table
from cdsim.games.carpe_diem.changes import card_changes as card_changes  # a variant's cards
from cdsim.games.carpe_diem.entries import entries as entries  # its entries, box's or not
from cdsim.games.carpe_diem.families import families as families  # its sensitivity study's
from cdsim.games.carpe_diem.sweeps import SWEEPS as SWEEPS  # its sweeps of component keys
from cdsim.players.registry import builtin_names
from cdsim.rules.game import DEFAULT_START_VP

NAME = "carpe-diem"
TITLE = "Carpe Diem"
SCRIPTED = ("greedy", "villa", "landscape", "bread")
RULES_DOC = "docs/rules.md"  # where its rules are numbered
TIE_RULE = "R10.6"  # the rule that breaks a tie on VP
# what its run report reads beyond the VP sources (cdsim.games.GameSpec)
PHASES: tuple[str, ...] = ("vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4")
FAILED_CARDS: tuple[str, int] | None = ("failed_cards", 8)  # R3.1, R8.3: 4 phases x 2 cards
TIEBREAK_WORDS = ("the R10.6 tie-break (scroll disc furthest behind, then lower "
                  "in the stack)")
TIEBREAK_COLUMNS = ("scroll", "stack")
STRONG = ("learned",)  # whatif's strong play: the learned player in every seat
load_components = core.core_components


def start_vp(n: int) -> tuple[int, ...]:
    """R2.7: the rulebook's starting VP."""
    return DEFAULT_START_VP[n]


def players() -> tuple[str, ...]:
    return builtin_names()


def tiebreak(n: int, scroll: Any, stack: Any) -> Any:
    """R10.6: furthest behind on the scroll, then lower in the stack (lowest key wins)."""
    return scroll * (n + 1) + stack


def components_digest(path: str | None) -> tuple[str, bool]:
    from cdsim.rules.components import load_components as load

    comps = load(path)
    return comps.digest, comps.is_default
