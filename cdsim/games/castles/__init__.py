"""The Castles of Tuscany as cdsim.games registers it: its rules and players are the core's
(core/src/castles/, docs/rules-castles.md); here are its component files (the core's
built-in set as JSON, an override file's top-level keys merged over it), their digest, its
tie-break for the re-ranking and its players' names. Its component code is
``components.py`` (cdsim.games.json_components, as the Mediterranean's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cdsim import core
from cdsim.games.castles import sheet, view
from cdsim.games.castles.components import SET_KEYS as SET_KEYS
from cdsim.games.castles.components import components_digest as components_digest
from cdsim.games.castles.components import components_text as components_text
from cdsim.games.castles.components import diff as diff
from cdsim.games.castles.components import entries as entries
from cdsim.games.castles.components import load_components as load_components
from cdsim.games.core_players import CoreRoster
from cdsim.games.features import (
    BUILT_IN_SET,
    DEFAULT_SET,
    WEIGHTS_DIR,
    ComponentUse,
    built_in_set_said,
)
from cdsim.games.spec import GameSpec
from cdsim.games.views import GameView, RecordedView, ReplayPage

NAME = "castles"
TITLE = "The Castles of Tuscany"
DEFAULT = DEFAULT_SET  # the component set that names the built-in one (as an override's base)
SCRIPTED = ("greedy", "castle-monastery", "trade-workers", "animal-farms")
# whatif's strong play: the learned player (the seam's, core/src/castles/learned.rs, weights
# strategies/weights/castles-learned.json from `make train-castles`) in every seat
STRONG = ("learned",)
RULES_DOC = "docs/rules-castles.md"  # where its rules are numbered
TIE_RULE = "T13.2"  # the rule that breaks a tie on VP
# what its run report reads beyond the VP sources (cdsim.games.GameSpec)
PHASES: tuple[str, ...] = ()
FAILED_CARDS: tuple[str, int] | None = None  # no objective cards
TIEBREAK_WORDS = ("the T13.2 tie-break (the most empty board spaces, then the "
                  "most green VP, then the later seat)")
TIEBREAK_COLUMNS = ("empty_spaces", "green_vp")
# its built-in players in a line each (`cdsim strategies --game castles`; docs/castles.md)
PLAYER_WORDS = {
    "random": "uniform over legal options (the floor)",
    "greedy": "one ply: the VP and goods an option gains, every colour alike",
    "castle-monastery": "scripted: castles and monasteries (free placements, cards)",
    "trade-workers": "scripted: villages, carts and cities (workers, harvest cards)",
    "animal-farms": "scripted: farms and estates (wooden hexes, VP)",
    "mcts": "determinized UCT over the game's decisions, greedy rollouts (200 simulations)",
    "learned": "its turn played on copies of castle-monastery's 4 best options, valued by "
               "weights fitted to mcts's labels (make train-castles)",
}
# whatif's scripted games a side by default: a scripted game costs about a tenth of Carpe
# Diem's, and a farm-card change at the 1 pp margin wanted about 150,000 a side (2026-11-28)
# where Carpe Diem's 40,000 stopped it after 11 s of a 3-minute quick look
WHATIF_GAMES = {"scripted": 200_000}
# its players' recorded CPU ms a seat per game by kind (random, scripted, mcts), and its
# core's own work per game, for the time a run or study says it takes
# (cdsim.batch.cost). simulate --jobs 1 of 20,000 games, 2026-11-28 (load 0.6, half a
# second of start taken off): greedy 0.03 ms a seat at 2 players and 0.024 at 4, random
# 0.008 ms a game; its mcts (200 simulations a decision, greedy rollouts) beside greedy
# seats, 20 games each in the core's castles_play example, 2026-11-28 (load 0.8)
SEAT_MS = {
    "random": {2: 0.001, 3: 0.001, 4: 0.001},
    "scripted": {2: 0.03, 3: 0.027, 4: 0.024},
    "mcts": {2: 370.0, 3: 540.0, 4: 720.0},
    # learned (shortlist 4): make bench's cost a seat (a learned seat among greedy, less
    # greedy's share; 2026-11-29, load 1.6 at its start): 0.33 ms at 2 players, 0.54 at 4
    # (3: between them); a 4-player strong whatif played at 0.49 ms a seat here
    "learned": {2: 0.33, 3: 0.43, 4: 0.54},
}
TABLE_MS = 0.005


def start_vp(n: int) -> tuple[int, ...]:
    """The rulebook gives no VP compensation (seat order only picks the bonus tokens)."""
    return (0,) * n


def tiebreak(n: int, empty: Any, green: Any) -> Any:
    """T13.2 (T11.4 made unique): the most empty spaces, then the most green VP, then the
    later seat (lowest key wins)."""
    seat = np.arange(n)[None, :]
    return -((empty * 4096 + green) * 8 + seat)


def players() -> tuple[str, ...]:
    module = core.module()
    if module is None:
        return ()
    return tuple(module.game_players(NAME))


# a harvest tile's reward: the seat row's VP from the harvest tiles of that reward (T10)
HARVESTED = {"red_vp": "vp_harvest_red", "green_vp": "vp_harvest_green"}
NOT_TAKEN = ("its runs hold no use rows (only cdsim whatif's runs record them): their seat "
             "rows hold a seat's VP by source, not which cards it took")
NOT_BY_ENTRY = ("its runs hold no use rows (only cdsim whatif's runs record them): their "
                "seat rows hold a seat's VP by source (vp_area, vp_crops, vp_colour_bonus, "
                "...), not which tiles it placed or which bonuses it took")
NOT_DEALT = ("its runs hold no use rows (only cdsim whatif's runs record them): their seat "
             "rows do not say which territory pieces a seat was dealt")
# what a watching run's use rows count of each table (its entries by id; area_vp: the row
# of the area VP table, 0 = an area of one space), in words, and its unit
USED = {"cards": ("took one into their hand (dealt or drawn, T2.5, T4.1)", "cards"),
        "player_tiles": ("placed one of their own tiles of this colour (T2.2, T7.1)", "tiles"),
        "neutral_tiles": ("placed a neutral tile of this colour (taken from the display, "
                          "T5.1, T7.1)", "tiles"),
        "bonus_tokens": ("took one (at setup or from a city, T2.8, T8.2)", "tokens"),
        "colour_bonus": ("claimed it, first or second to cover every space of the colour "
                         "(T9.1, T9.2)", "bonuses"),
        "harvest": ("had a harvest card of this reward revealed for them (a cart, T8.9)",
                    "cards"),
        "area_vp": ("completed an area of a changed size (T7.5)", "areas"),
        "pieces": ("were dealt it at setup (T2.6: their estate is built from it)", "pieces")}


def component_use(entry: str) -> ComponentUse:
    """What use of a changed entry (``cards.farm``, ``harvest.red_vp``) means in the rows
    (``cdsim whatif``'s verdict line; docs/guide.md): a harvest tile whose reward is VP is
    *scored from* (its VP source above 0); every other entry but a board piece is counted by
    a run that judges its change (its use rows, ``cdsim.batch.uses``): a card *taken*, a
    tile *placed*, a bonus token *taken*, a colour bonus *claimed*, a harvest card of the
    other rewards *revealed*, an area VP row *scored*, a territory piece *dealt*."""
    table, _, ident = entry.partition(".")
    if table == "harvest" and ident in HARVESTED:
        return ComponentUse(f"the {ident} harvest tiles", f"scored {ident.split('_')[0]} VP "
                            "from a harvest tile", HARVESTED[ident], unit="VP")
    source = {"colour_bonus": ("vp_colour_bonus", "colour bonus VP"),
              "area_vp": ("vp_area", "area VP")}.get(table)
    if table == "bonus_tokens" and ident == "storage":
        source = ("vp_storage_token", "storage token VP")
    noun = f"the {ident} {table.replace('_', ' ')}" if ident else f"the {table} table"
    if table == "area_vp":
        noun = "the area VP table"
    elif table == "pieces" and ident:
        noun = f"the territory piece {ident}"
    if table in USED and (ident or table == "area_vp"):
        words, unit = USED[table]
        colour = ident.split("-")[0]  # a farm tile's id names its crops: counted by colour
        if table.endswith("_tiles") and colour != ident:
            words += f" (any {colour} tile: the rows count tiles by colour, not by crops)"
        why = {"cards": NOT_TAKEN, "pieces": NOT_DEALT}.get(table, NOT_BY_ENTRY)
        return ComponentUse(noun, words, why=why,
                            unit=unit, source=source and source[0],
                            source_words=source[1] if source else "",
                            uses=f"{table}.{colour}" if table.endswith("_tiles") else entry)
    return ComponentUse(noun, "used it", why=NOT_BY_ENTRY,
                        source=source and source[0], source_words=source[1] if source else "")


# its view (cdsim.games.views): its replay page's files beside view.py in this package
# (replay.html, replay.js), its recorded games in words (view.py), its set's sheet (sheet.py:
# the whole page, from its JSON tables)
VIEW = GameView(ReplayPage(__name__),
                RecordedView(view.summary_lines, view.decision_lines, view.replay_data),
                sheet.components_page, sheet_page=None)

# its shipped study and study templates (files of this package)
STUDIES = Path(__file__).resolve().parent / "studies"

SPEC = GameSpec(NAME, TITLE, player_counts=(2, 3, 4), default_players=4,
                start_vp=start_vp, player_names=players,
                scripted=SCRIPTED, load_components=load_components, radius=4,
                components_digest=components_digest, tiebreak=(TIEBREAK_COLUMNS, tiebreak),
                rules_doc=RULES_DOC, tie_rule=TIE_RULE,
                rule_examples=(), builtin_set_words=built_in_set_said(RULES_DOC),
                builtin_set_name=BUILT_IN_SET,
                roster=CoreRoster(NAME, players, load_components), phases=PHASES,
                failed_cards=FAILED_CARDS, failed_cost=None, phase_vp="",
                tiebreak_rule=TIEBREAK_WORDS, row_order=None,
                diff=diff, cards=None, families=None, sweeps=None, card_changes=None,
                set_keys=SET_KEYS, strong=STRONG, whatif_games=WHATIF_GAMES, seat_ms=SEAT_MS,
                table_ms=TABLE_MS, mcts_playouts=200,  # UctParams' default (core/src/players/uct.rs)
                player_words=PLAYER_WORDS,
                component_use=component_use, entries=entries,
                # the commands' own hooks: its learned weights' file only
                component_files=None, play=None, view=VIEW, score=None, card_list=None,
                strategy_lines=None, weights_file=WEIGHTS_DIR / f"{NAME}-learned.json",
                training=None, studies={"castles": STUDIES / "castles.toml"},
                study=STUDIES / "castles.toml",
                templates={"castles-change": STUDIES / "templates" / "castles-change.toml"})
