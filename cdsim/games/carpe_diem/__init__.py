"""Carpe Diem as cdsim.games registers it: its Python side is this package (the readable
rules and the strategy API in ``rules/``, its players' registry, profiles and weights in
``players/``, a game at a table on the core and the oracle's lock step in ``engine/``, its
trace and replay in ``view/``, the strategy authors' test kit ``testing``, the component
set as the core receives it ``handover``, its card table, changes, families and sweeps);
its rules and players are played by the core (core/src/carpe_diem/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cdsim.games.carpe_diem.cards import CARDS as CARDS  # its card table
from cdsim.games.carpe_diem.cards import FAILED_COST as FAILED_COST  # a failed card's cost
from cdsim.games.carpe_diem.changes import card_changes as card_changes  # a variant's cards
from cdsim.games.carpe_diem.commands.components import COMPONENT_FILES
from cdsim.games.carpe_diem.commands.console import card_list, score, strategy_lines
from cdsim.games.carpe_diem.commands.play import play
from cdsim.games.carpe_diem.commands.training import TRAINING
from cdsim.games.carpe_diem.entries import entries as entries  # its entries, box's or not
from cdsim.games.carpe_diem.families import families as families  # its sensitivity study's
from cdsim.games.carpe_diem.handover import core_components
from cdsim.games.carpe_diem.players import weights as learned
from cdsim.games.carpe_diem.players.registry import known_names
from cdsim.games.carpe_diem.roster import CarpeDiemRoster
from cdsim.games.carpe_diem.rules.game import DEFAULT_START_VP
from cdsim.games.carpe_diem.rules.records import ROW_FIELDS
from cdsim.games.carpe_diem.sweeps import SWEEPS as SWEEPS  # its sweeps of component keys
from cdsim.games.carpe_diem.uses import component_use as component_use  # a component's use
from cdsim.games.carpe_diem.view import VIEW  # its replay page's files
from cdsim.games.spec import GameSpec

NAME = "carpe-diem"
TITLE = "Carpe Diem"
SCRIPTED = ("greedy", "villa", "landscape", "bread")
RULES_DOC = "docs/rules.md"  # where its rules are numbered
BUILTIN_SET = "the reconstructed default set"  # its built-in component set, in a few words
TIE_RULE = "R10.6"  # the rule that breaks a tie on VP
# what its run report reads beyond the VP sources (cdsim.games.GameSpec)
PHASES: tuple[str, ...] = ("vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4")
FAILED_CARDS: tuple[str, int] | None = ("failed_cards", 8)  # R3.1, R8.3: 4 phases x 2 cards
TIEBREAK_WORDS = ("the R10.6 tie-break (scroll disc furthest behind, then lower "
                  "in the stack)")
TIEBREAK_COLUMNS = ("scroll", "stack")
ROSTER = CarpeDiemRoster(NAME)  # its players as shared code reads them
STRONG = ("learned",)  # whatif's strong play: the learned player in every seat
load_components = core_components
# its recorded costs (cdsim.batch.cost): the core's own work per game (rules, events,
# Parquet rows; any seats)
TABLE_MS = 0.12
# ms per seat per game, by player count (make bench, 2026-11-26 18:17, load 0.8 at the
# start): scripted 0.113 (2 players) and 0.111 (4); a Python strategy taking the first
# option 3.9 (4.28 ms a game beside three greedy, 8.7x four greedy). Learned and mcts from
# the evening's make bench (21:16, load 0.4), after the shared districts and replies:
# mcts at its default 120 playouts 446 (2 players) and 873 (4). The learned player built
# for its cost (issue 49), make bench 2026-11-28 (load 1.3 at the start): 1.30 (2 players)
# and 1.19 (4; 3 players scaled from its instructions per seat, callgrind)
SEAT_MS: dict[str, dict[int, float]] = {
    "random": {2: 0.01, 3: 0.01, 4: 0.01},
    "scripted": {2: 0.113, 3: 0.112, 4: 0.111},
    "learned": {2: 1.30, 3: 1.1, 4: 1.19},
    "mcts": {2: 446.0, 3: 660.0, 4: 873.0},
}


def start_vp(n: int) -> tuple[int, ...]:
    """R2.7: the rulebook's starting VP."""
    return DEFAULT_START_VP[n]


def players() -> tuple[str, ...]:
    return known_names()  # a profiles file that does not read blocks no report of names


def tiebreak(n: int, scroll: Any, stack: Any) -> Any:
    """R10.6: furthest behind on the scroll, then lower in the stack (lowest key wins)."""
    return scroll * (n + 1) + stack


def components_digest(path: str | None) -> tuple[str, bool]:
    from cdsim.games.carpe_diem.rules.components import load_components as load

    comps = load(path)
    return comps.digest, comps.is_default


# its shipped studies and study templates (files of this package)
STUDIES = Path(__file__).resolve().parent / "studies"
DEFAULT_STUDY = STUDIES / "default.toml"  # `cdsim study run default`, what `make run` runs

SPEC = GameSpec(NAME, TITLE, player_counts=(2, 3, 4), default_players=4,
                start_vp=start_vp, player_names=players,
                scripted=SCRIPTED, load_components=load_components, radius=4,
                components_digest=components_digest, tiebreak=(TIEBREAK_COLUMNS, tiebreak),
                rules_doc=RULES_DOC, tie_rule=TIE_RULE,
                rule_examples=("R8.5", "R10.6"),
                builtin_set_words=f"{BUILTIN_SET} (C1–C10 of {RULES_DOC} in the cdsim repository; "
                                  "not the printed game's exact tiles and cards)",
                builtin_set_name=BUILTIN_SET,
                roster=ROSTER, phases=PHASES,
                failed_cards=FAILED_CARDS, failed_cost=FAILED_COST,
                phase_vp="start + cards + scroll overflow",
                tiebreak_rule=TIEBREAK_WORDS,
                row_order=ROW_FIELDS, diff=None, cards=CARDS, families=families,
                sweeps=SWEEPS, card_changes=card_changes, set_keys=None, strong=STRONG,
                whatif_games=None, seat_ms=SEAT_MS, table_ms=TABLE_MS,
                # its mcts's default (core/src/carpe_diem/players/mcts/params.rs)
                mcts_playouts=120, player_words=None,
                component_use=component_use, entries=entries,
                # the commands' own hooks (cdsim.games.carpe_diem.commands)
                component_files=COMPONENT_FILES, play=play, view=VIEW, score=score, card_list=card_list,
                strategy_lines=strategy_lines, weights_file=learned.DEFAULT_WEIGHTS,
                training=TRAINING,
                studies={"default": DEFAULT_STUDY, "skill": STUDIES / "skill.toml"},
                study=DEFAULT_STUDY,
                templates={"default": DEFAULT_STUDY, "card": STUDIES / "templates" / "card.toml",
                           "sweep": STUDIES / "templates" / "sweep.toml"})
