"""The Dirk Henn Mediterranean trading game as cdsim.games registers it (3-5 players; its
rules and players are the core's, core/src/mediterranean/, docs/rules-mediterranean.md;
the designer's page docs/mediterranean.md): its component files, their digest, its
tie-break for the re-ranking, its players' names and what a study needs of it.

**The fair start is answered in starting VP**, as for the other games. The rulebook seats
the players at random and gives everyone 5 coins (M2.6): no compensation. A study asks
which starting VP per initial seat make the seats fair (M8.3: added to the points at the
end, read by no rule and no built-in player), because VP can be re-ranked after the fact:
every vector is judged on the same logged games. A start in gold cannot be: coins change
what a seat can pay for its rowing and extra turns (M5.6, M5.11) and the gold temple's
majority (M6.4), so every gold vector would need games of its own, and a coin's worth in
points is not fixed (it is worth the most to a seat near a gold-temple majority)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cdsim import core
from cdsim.games.core_players import CoreRoster
from cdsim.games.features import BUILT_IN_SET, WEIGHTS_DIR, KeySets, built_in_set_said
from cdsim.games.mediterranean import sheet, view
from cdsim.games.mediterranean.city_cards import by_city
from cdsim.games.mediterranean.components import SET_KEYS as JSON_SET_KEYS
from cdsim.games.mediterranean.components import components_digest as components_digest
from cdsim.games.mediterranean.components import diff as diff
from cdsim.games.mediterranean.components import entries as entries
from cdsim.games.mediterranean.components import load_components as load_components
from cdsim.games.mediterranean.profiles import descriptions
from cdsim.games.mediterranean.uses import component_use as component_use  # a table's use
from cdsim.games.spec import GameSpec
from cdsim.games.views import GameView, RecordedView, ReplayPage

NAME = "mediterranean"
TITLE = "Mediterranean (Dirk Henn)"
PLAYER_COUNTS = (3, 4, 5)  # M2.1
SCRIPTED = ("greedy", "gold-first", "temple-majority", "long-haul")  # the profiles file's tables
RULES_DOC = "docs/rules-mediterranean.md"  # where its rules are numbered
TIE_RULE = "M8.2"  # the rule that breaks a tie on VP
PHASES: tuple[str, ...] = ()
FAILED_CARDS: tuple[str, int] | None = None  # no objective cards
TIEBREAK_WORDS = ("the M8.2 tie-break (the rulebook shares a tied victory, kept in the rows as "
                  "a shared win for each tied seat; the win counted here and the first rank go "
                  "to the earlier seat in the final play order)")
TIEBREAK_COLUMNS = ("final_order",)
# its built-in players in a line each (`cdsim strategies --game mediterranean`): the scripted
# ones' descriptions are their tables' in strategies/mediterranean-profiles.toml
PLAYER_WORDS = {
    "random": "uniform over legal options (the floor)",
    **{name: words if name == "greedy" else f"scripted: {words}"
       for name, words in descriptions().items()},
    "mcts": "determinized UCT over the game's decisions, greedy rollouts",
}
# whatif's scripted games a side by default (cheap games, as Castles')
WHATIF_GAMES = {"scripted": 200_000}
# its players' CPU ms a seat per game by kind and the core's own per game
# (cdsim.batch.cost): scripted from the user CPU of `simulate --jobs 1` at 4 players, 20,000
# less 2,000 games (about 0.1 ms a game, 2026-11-29, load about 10: rough until timed
# quietly); random taken as a fifth of it (the study's random cells played about five times
# as fast); mcts not measured (a guess from Castles' search at its budget)
SEAT_MS = {
    "random": {3: 0.005, 4: 0.005, 5: 0.005},
    "scripted": {3: 0.025, 4: 0.025, 5: 0.025},
    "mcts": {3: 400.0, 4: 500.0, 5: 600.0},
}
TABLE_MS = 0.005


def start_vp(n: int) -> tuple[int, ...]:
    """M2.6: the rulebook seats at random and gives everyone 5 coins, no VP compensation."""
    return (0,) * n


def tiebreak(n: int, final_order: Any) -> Any:
    """M8.2 made unique: the earlier place in the final play order (lowest key wins). Every
    seat's place differs, so the key is unique in a game."""
    return np.asarray(final_order) + 0 * np.arange(n)[None, :]


def players() -> tuple[str, ...]:
    """Its built-in players, as the core's registry lists them."""
    module = core.module()
    if module is None:
        return ()
    return tuple(module.game_players(NAME))


# whatif's --set on its JSON tables, a city card named by its city (city_cards.Saguntum-2)
SET_KEYS = KeySets(JSON_SET_KEYS.text, by_city(JSON_SET_KEYS.set_value), JSON_SET_KEYS.problem,
                   JSON_SET_KEYS.example)

# its view (cdsim.games.views): its replay page's files beside view.py in this package
# (replay.html, replay.js), its recorded games in words (view.py), its set's sheet (sheet.py:
# the whole page, from its JSON tables)
VIEW = GameView(ReplayPage(__name__),
                RecordedView(view.summary_lines, view.decision_lines, view.replay_data),
                sheet.components_page, sheet_page=None)

# its shipped study and study templates (files of this package)
STUDIES = Path(__file__).resolve().parent / "studies"

SPEC = GameSpec(NAME, TITLE, player_counts=PLAYER_COUNTS, default_players=4,
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
                set_keys=SET_KEYS, strong=None, whatif_games=WHATIF_GAMES, seat_ms=SEAT_MS,
                table_ms=TABLE_MS, mcts_playouts=200,  # UctParams' default (core/src/players/uct.rs)
                player_words=PLAYER_WORDS,
                component_use=component_use, entries=entries,
                # the commands' own hooks: its learned weights' file only
                component_files=None, play=None, view=VIEW, score=None, card_list=None,
                strategy_lines=None, weights_file=WEIGHTS_DIR / f"{NAME}-learned.json",
                training=None, studies={"mediterranean": STUDIES / "mediterranean.toml"},
                study=STUDIES / "mediterranean.toml", templates={})
