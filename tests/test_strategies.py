"""The built-in players: legal, deterministic, score-blind, and recognisably themselves."""

import ast
import inspect
from pathlib import Path

import pytest

from cdsim.errors import CdsimError
from cdsim.game import GameConfig, play_game
from cdsim.testing import check_strategy
from strategies.registry import BUILTIN, make_lineup, make_strategy, parse_params

SCRIPTED = ["greedy", "villa", "landscape", "bread"]


@pytest.mark.parametrize("name", list(BUILTIN))
def test_every_builtin_is_score_blind(name: str) -> None:  # R2.7: exact re-balancing
    assert make_strategy(name).reads_scores is False


def test_no_builtin_touches_victory_points() -> None:
    folder = Path(__file__).parent.parent / "strategies"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert not names & {"scores", "current_vp", "_card_vp", "_start_vp", "_overflow_vp"}, path


@pytest.mark.parametrize("name", SCRIPTED)
def test_only_legal_choices_and_deterministic(name: str) -> None:
    # checking mode after every action; an illegal choice raises IllegalChoice
    check_strategy(BUILTIN[name], games=2)


def _mean(lineup: list[str], field: str, seats: list[int], games: int) -> float:
    total = 0.0
    for seed in range(games):
        record = play_game(GameConfig(len(lineup)), make_lineup(lineup, len(lineup)), seed)
        total += sum(getattr(record.seats[s], field) for s in seats)
    return total / games / len(seats)


def test_villa_player_builds_more_chimneys_than_random() -> None:
    villa = _mean(["villa", "random"], "villa_chimneys", [0], 30)
    rand = _mean(["random", "random"], "villa_chimneys", [0], 30)
    assert villa > rand + 3


def test_bread_player_makes_more_bread_moves() -> None:
    bread = _mean(["bread", "greedy"], "bread_moves", [0], 30)
    greedy = _mean(["bread", "greedy"], "bread_moves", [1], 30)
    assert bread > greedy


def test_landscape_player_completes_more_landscapes() -> None:
    land = _mean(["landscape", "villa"], "landscapes", [0], 30)
    villa = _mean(["landscape", "villa"], "landscapes", [1], 30)
    assert land > villa


def test_scripted_players_beat_random() -> None:
    for name in SCRIPTED:
        wins = sum(play_game(GameConfig(2), make_lineup([name, "random"], 2), s).seats[0].won
                   for s in range(10))
        assert wins >= 9, name


def test_strategy_params_override_the_profile() -> None:
    overrides = parse_params("villa.chimney=2.5,greedy.store=0")
    villa = make_strategy("villa", overrides)
    assert villa.params.chimney == 2.5  # type: ignore[attr-defined]
    assert make_strategy("greedy", overrides).params.store == 0  # type: ignore[attr-defined]
    assert make_strategy("bread", overrides).params == make_strategy("bread").params  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", ["villa.nope=1", "villa.chimney=x", "chimney=1", "zzz.store=1"])
def test_bad_strategy_params_are_one_line(text: str) -> None:
    with pytest.raises(CdsimError):
        parse_params(text)  # rejected before any strategy is made


def test_user_strategy_loads_from_module_path() -> None:
    s = make_strategy("strategies.random_player:RandomStrategy")
    assert s.name == "random"
    with pytest.raises(CdsimError, match="no class"):
        make_strategy("strategies.random_player:Nope")


def test_descriptions_are_one_line() -> None:
    for name, factory in BUILTIN.items():
        doc = getattr(factory, "description", "")
        assert doc and "\n" not in doc, name
        assert inspect.isclass(factory)


# Recorded digest of 12 fixed-seed games of the scripted players. Speed work must not
# change it; a deliberate change of a player or a rule re-records it (say why).
# Re-recorded 2026-11-22: R2.5 blind pawns and the blind start rule, R6.5 keep-one option,
# card_interest summed in slot order (issue 11).
# Re-recorded 2026-11-22 (issue 14, deliberate): the card plan, a fountain worth the card
# it keeps, and the circle choice that never takes -4 another circle avoids.
SCRIPTED_GAMES_DIGEST = "c173ff6ab94b139138bf9bff413fd1f8bf2c114c4a774adb9aca36f8a9e9c55c"


def test_fixed_seed_digest_guards_the_players() -> None:
    from cdsim.records import digest_rows

    rows = []
    for n, lineup in ((2, ["greedy", "bread"]), (3, ["villa", "landscape", "greedy"]),
                      (4, ["greedy", "villa", "landscape", "bread"])):
        for seed in range(4):
            rows += play_game(GameConfig(n), make_lineup(lineup, n), seed).rows()
    assert digest_rows(rows) == SCRIPTED_GAMES_DIGEST


def test_a_placement_is_worth_the_same_in_every_orientation_that_fits() -> None:
    """The bots value a tile once per cell (value.Evaluator.by_cell); each offered
    orientation, valued on its own, must give exactly that value (R5.2: the sides
    that face built tiles match them, so the parts join the same features)."""
    from strategies.scripted import GreedyPlayer

    checked = {"options": 0, "shared": 0}

    class Checking(GreedyPlayer):
        def choose_take(self, view, options):  # type: ignore[no-untyped-def]
            ev, cache = self._evaluator(view)
            types = view.state.components.tile_types
            cells: dict[tuple[int, int], int] = {}
            for o in options:
                if o.edges is None:
                    continue
                alone = ev.placement(types[o.tile_type], o.cell, o.edges)
                self._tile_value(view, ev, o.tile_type, cache)
                assert cache[o.tile_type][1][o.cell] == alone
                cells[(o.tile_type, o.cell)] = cells.get((o.tile_type, o.cell), 0) + 1
                checked["options"] += 1
            checked["shared"] += sum(n - 1 for n in cells.values())
            return super().choose_take(view, options)

    for seed in range(2):
        play_game(GameConfig(4), [Checking(), *make_lineup(["villa", "bread", "landscape"], 3)],
                  seed)
    assert checked["options"] > 500 and checked["shared"] > 100


class _Logged:
    """A built-in strategy whose every decision is written down (the start-VP test)."""

    def __init__(self, inner: object, log: list[tuple[int, str, object]], seat: int) -> None:
        self._inner, self._log, self._seat = inner, log, seat
        self.name = inner.name  # type: ignore[attr-defined]
        self.reads_scores = inner.reads_scores  # type: ignore[attr-defined]

    def __getattr__(self, method: str) -> object:
        chosen = getattr(self._inner, method)

        def choose(*args: object) -> object:
            choice = chosen(*args)
            self._log.append((self._seat, method, choice))
            return choice
        return choose


START_VP_FREE = {"start_vp", "vp_start", "final_vp", "rank", "won", "tiebreak",
                 "vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4"}


@pytest.mark.parametrize("name", list(BUILTIN))
def test_starting_vp_never_change_a_decision(name: str) -> None:  # R2.7
    """What makes `cdsim balance` exact: the same seed under two very different
    starting-VP vectors gives the same decisions and the same rows but for the VP
    that include the start, and the ranks."""
    for n in (2, 3, 4):
        lineup = [name, *SCRIPTED][:n] if name != "random" else ["random"] * n
        runs = []
        for start in ((8, 9, 10, 11), (40, -7, 0, 25)):
            log: list[tuple[int, str, object]] = []
            players = [_Logged(s, log, i) for i, s in enumerate(make_lineup(lineup, n))]
            record = play_game(GameConfig(n, start[:n]), players, 5)  # type: ignore[arg-type]
            runs.append((log, record.rows(), start[:n]))
        (log_a, rows_a, start_a), (log_b, rows_b, start_b) = runs
        assert len(log_a) > 50 and log_a == log_b
        for a, b in zip(rows_a, rows_b, strict=True):
            assert {k: v for k, v in a.items() if k not in START_VP_FREE} == {
                k: v for k, v in b.items() if k not in START_VP_FREE}
            shift = start_a[a["seat"]] - start_b[b["seat"]]  # type: ignore[index]
            for key in ("final_vp", "vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4"):
                assert a[key] - b[key] == shift, key  # type: ignore[operator]


def test_scripted_start_is_blind_and_avoids_shared_reach() -> None:  # R2.5
    """[decision] With no tile visible, the scripted players start where the two
    spaces within reach are shared with the fewest earlier pawns' reach, then as far
    from them as possible: seat 0 takes space 0 (reach 1, 6); seat 1 space 3 (reach
    2, 4, shared with nobody, 3 steps away); seat 2 space 4 (reach 3, 5: shared with
    nobody); seat 3 must share one space of reach: space 1 (reach 0, 2) is the first."""
    from cdsim.testing import new_state

    state = new_state(4, strategies=make_lineup(SCRIPTED, 4))
    state.place_pawns()
    assert [p.pawn for p in state.players] == [0, 3, 4, 1]


def test_scripted_fountain_choice_follows_the_value_model() -> None:  # R6.5
    from cdsim.kinds import VILLA
    from cdsim.players import FountainChoice
    from cdsim.testing import new_state
    from strategies.scripted import GreedyPlayer

    state = new_state(2, strategies=[GreedyPlayer(), GreedyPlayer()])
    player, view = state.players[0], state.views[0]
    player.district.complete_count[VILLA] = 3  # a villa card is worth 2 VP x (3 + 0.5)
    keep_one = [FountainChoice(("F03",), "F05"), FountainChoice(("F05",), "F03")]
    player.fountain_cards = ["F01"]  # the villa card: too good to give back for a pond card
    options = [*keep_one, FountainChoice(("F03", "F05"), "F01")]
    assert GreedyPlayer().choose_fountain(view, options) == keep_one[0]
    player.fountain_cards = ["F03"]  # a pond card: give it back, keep both villa cards
    options = [FountainChoice(("F01",), "F02"), FountainChoice(("F02",), "F01"),
               FountainChoice(("F01", "F02"), "F03")]
    assert GreedyPlayer().choose_fountain(view, options) == options[2]


def _one_free_circle(cards: tuple[str, str]):  # type: ignore[no-untyped-def]
    """A 2-player game in which every circle but the first is taken and the first joins
    the two given cards: the view of seat 0 (the card plan's test bench)."""
    from cdsim.testing import new_state
    from strategies.scripted import GreedyPlayer

    state = new_state(2, strategies=[GreedyPlayer(), GreedyPlayer()])
    a, b = state.circles[0]
    state.grid[a], state.grid[b] = cards
    state.circle_owner = [-1] + [1] * (len(state.circles) - 1)
    return state, state.views[0]


def test_scripted_circle_choice_never_takes_minus_4_that_another_circle_avoids() -> None:
    """R8.5 (issue 14): the circle whose cards are worth most (12 chimneys: C11 x4 =
    16 VP, then A04 fails, -4) loses to one whose two cards are both fulfilled (C05 and
    C06 with one complete villa: 3 + 3 VP)."""
    from cdsim.district import H_CHIMNEYS, H_VILLAS
    from cdsim.players import CircleChoice
    from strategies.scripted import GreedyPlayer

    state, view = _one_free_circle(("C11", "A04"))
    state.grid[2], state.grid[5] = "C05", "C06"
    have = state.players[0].district.have
    have[H_CHIMNEYS], have[H_VILLAS] = 12, 1
    rich, safe = CircleChoice(0, *state.circles[0]), CircleChoice(1, 2, 5)
    assert GreedyPlayer().choose_circle(view, [rich, safe]) == safe
    state.players[0].goods[3] = 2  # now A04 is paid with 2 fish: the rich circle wins
    assert GreedyPlayer().choose_circle(view, [rich, safe]) == rich


def test_card_plan_prices_what_the_likely_cards_still_need() -> None:  # R8, R7.1
    """The one free circle holds A04 (pay 2 fish, 4 VP) and C05 (have a complete villa,
    3 VP); the player has neither: fish, coins and villas are worth more, and so is
    bread while 3 bread per card are not held. With 6 bread both cards are covered, so
    bread itself is worth nothing more, but losing one would uncover a card (keep)."""
    from cdsim.district import H_VILLAS
    from cdsim.kinds import FISH, GRAPES
    from strategies.params import Params
    from strategies.value import card_plan

    state, view = _one_free_circle(("A04", "C05"))
    plan = card_plan(view, Params())
    assert plan.good[FISH] > 0 and plan.good[GRAPES] == 0
    assert plan.coin == plan.good[FISH] and plan.have[H_VILLAS] > 0
    assert plan.bread > 0 and plan.keep == 0
    state.players[0].bread = 6
    plan = card_plan(view, Params())
    assert plan.bread == 0 and plan.keep > 0
    empty = card_plan(view, Params(plan=0.0))
    assert (empty.good, empty.coin, empty.bread, empty.keep, empty.step) == (
        [0.0] * 4, 0.0, 0.0, 0.0, 0.0)


def test_a_fountain_is_worth_the_fountain_card_it_will_keep() -> None:  # R6.5, R10.4
    """At the start every fountain card expects 0 + 28 x 0.5 / 7 = 2 features, 4 VP:
    the better of 2 is 4 VP. Three complete villas raise the villa cards' expectation
    and so the fountain's; a villa card already kept is no longer drawn."""
    from cdsim.kinds import VILLA
    from cdsim.testing import new_state
    from strategies.value import fountain_draw_value

    state = new_state(2)
    view = state.views[0]
    assert fountain_draw_value(view, 28) == 4.0
    before = fountain_draw_value(view, 14)
    state.players[0].district.complete_count[VILLA] = 3
    more = fountain_draw_value(view, 14)
    assert more > before
    state.players[0].fountain_cards = ["F01", "F02"]
    assert fountain_draw_value(view, 14) < more
