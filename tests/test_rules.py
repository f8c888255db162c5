"""Engine rules on hand-built states (R2-R10). Each test names its rule. A rule that waits
for decisions is a generator (the rules are pull-style): ``run`` drives it, asking the
players it is given (the state holds none)."""

import copy
from collections.abc import Sequence
from dataclasses import astuple
from typing import Any

import pytest

from cdsim.games.carpe_diem.rules.cards import payment_options
from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.rules.district import Feature
from cdsim.games.carpe_diem.rules.game import GameConfig, GameState, Pending
from cdsim.games.carpe_diem.rules.kinds import ADMINISTRATOR, ARTISAN, BAKER, FOUNTAIN, MEADOW, MERCHANT
from cdsim.games.carpe_diem.rules.observation import Observation
from cdsim.games.carpe_diem.rules.options import FountainChoice, Payment, Start
from cdsim.games.carpe_diem.rules.play import choose, phases, play_game, run, run_game
from cdsim.games.carpe_diem.rules.scoring import final_scoring, resolve_card, scoring_order
from cdsim.games.carpe_diem.testing import Scripted, new_state, tile_type

C = load_components()
G = MEADOW
FIRST = [Scripted() for _ in range(4)]  # every seat takes the first option


def test_start_stack_puts_last_seat_on_top() -> None:  # R2.6
    state = new_state(4)
    assert [p.scroll for p in state.players] == [0, 0, 0, 0]
    assert scoring_order(state) == [3, 2, 1, 0]  # R8.2: top of the stack first


def test_scoring_order_furthest_first_then_top_of_stack() -> None:  # R8.2
    state = new_state(3)
    state.advance_scroll(0, 2)
    state.advance_scroll(2, 2)  # arrives later: on top of seat 0
    assert scoring_order(state) == [2, 0, 1]


def test_move_skips_empty_depots_in_the_same_direction() -> None:  # R4.2, R4.3
    state = new_state(2)
    state.deal()
    p = state.players[0]
    p.pawn = 0
    state.depots[1] = []
    state.depots[2] = []
    dests = {m.dest for m in state.move_options(0) if not m.bread}
    assert dests == {3, 6}


def test_skipping_may_return_to_the_starting_space() -> None:  # R4.3
    state = new_state(2)
    state.deal()
    state.players[0].pawn = 4
    for s in range(7):
        if s != 4:
            state.depots[s] = []
    assert {m.dest for m in state.move_options(0)} == {4}


def test_bread_move_goes_anywhere_with_a_tile() -> None:  # R4.4
    state = new_state(2)
    state.deal()
    p = state.players[0]
    p.pawn = 0
    assert not any(m.bread for m in state.move_options(0))
    p.bread = 1
    state.depots[5] = []
    bread = {m.dest for m in state.move_options(0) if m.bread}
    assert bread == {0, 1, 2, 3, 4, 6}  # staying is allowed; an empty depot is not


def test_depot_thinning_two_players() -> None:  # R4.6
    state = new_state(2)
    run(state, state.place_pawns(), FIRST)
    state.deal()
    run(state, state.turn(0), FIRST)
    dest = state.players[0].pawn
    assert len(state.depots[dest]) == 3
    state.players[1].pawn = (dest + 1) % 7
    state.players[1].bread = 1
    players = [Scripted(), Scripted(move=lambda v, o: next(m for m in o if m.bread
                                                           and m.dest == dest))]
    run(state, state.turn(1), players)
    assert state.depots[dest] == [] and state.discarded == 2


def _build_pair(state: GameState, kind_code: str, seat: int = 0,
                players: Sequence[Scripted] = FIRST) -> None:
    d = state.players[seat].district
    d.frontier = (1 << 36) - 1
    t = tile_type(C, f"L-{kind_code}")
    kind = {"dB": BAKER, "dA": ADMINISTRATOR, "dR": ARTISAN}[kind_code]
    run(state, state.build(seat, t, 14, (G, kind, G, G)), players)
    run(state, state.build(seat, t, 15, (G, G, G, kind)), players)


def test_baker_gives_two_bread() -> None:  # R6.3
    state = new_state()
    _build_pair(state, "dB")
    assert state.players[0].bread == 2


def test_administrator_gives_two_scroll_steps() -> None:  # R6.3
    state = new_state()
    _build_pair(state, "dA")
    assert state.players[0].scroll == 2


def test_artisan_builds_a_seal_tile_and_chains() -> None:  # R6.3
    state = new_state()
    artisan = tile_type(C, "D-dR")
    state.seal = [artisan, tile_type(C, "D-market")] + [None] * 9
    d = state.players[0].district
    d.frontier = (1 << 36) - 1
    d.place(20, (G, G, G, ARTISAN))  # a lone artisan half waiting at (3,2)

    def chain(view: Observation, options: Sequence[Any]) -> Any:
        # prefer the artisan half that completes the waiting one, then the market
        return next((o for o in options if o.cell == 19), options[-1])

    # completes an artisan: build seal tile -> 2nd artisan -> market
    _build_pair(state, "dR", players=[Scripted(seal=chain), Scripted()])
    assert state.seal == [None] * 11
    assert d.complete_count[ARTISAN] == 2
    assert state.players[0].coins == 1  # the market from the chain paid too


def test_artisan_reward_is_lost_when_nothing_fits() -> None:  # R6.3 [decision]
    state = new_state()
    state.seal = [None] * 11
    _build_pair(state, "dR")
    assert state.players[0].artisan_lost == 1


def test_fountain_first_keeps_one_and_puts_the_other_under() -> None:  # R6.5
    state = new_state()
    p = state.players[0]
    deck = list(state.fountain_deck)
    run(state, state.reward(0, Feature(FOUNTAIN, 1, 0, (0,))), FIRST)
    assert p.fountain_cards == [deck[0]]
    assert state.fountain_deck[-1] == deck[1]  # the other went under the deck


def _later_fountain(pick: int) -> tuple[GameState, list[str], list[FountainChoice]]:
    offered: list[FountainChoice] = []

    def record(view: Observation, options: Sequence[FountainChoice]) -> FountainChoice:
        offered[:] = options
        return options[pick if len(options) > 2 else 0]

    state = new_state()
    players = [Scripted(fountain=record), Scripted()]
    deck = list(state.fountain_deck)
    # first fountain: keeps deck[0]
    run(state, state.reward(0, Feature(FOUNTAIN, 1, 0, (0,))), players)
    # a later fountain: draws deck[2], deck[3]
    run(state, state.reward(0, Feature(FOUNTAIN, 1, 0, (1,))), players)
    return state, deck, offered


def test_later_fountain_may_keep_one_or_keep_both() -> None:  # R6.5 "may"
    state, deck, offered = _later_fountain(pick=0)
    assert offered == [FountainChoice((deck[2],), deck[3]), FountainChoice((deck[3],), deck[2]),
                       FountainChoice((deck[2], deck[3]), deck[0])]
    assert state.players[0].fountain_cards == [deck[0], deck[2]]  # kept one drawn card
    assert state.fountain_deck[-1] == deck[3]


def test_later_fountain_keeping_both_gives_back_an_earlier_card() -> None:  # R6.5
    state, deck, _ = _later_fountain(pick=2)
    assert state.players[0].fountain_cards == [deck[2], deck[3]]
    assert state.fountain_deck[-1] == deck[0]
    assert len(state.fountain_deck) == 22


def test_pawns_are_placed_blind_before_any_tile_is_dealt() -> None:  # R2.5
    seen: list[tuple[int, list[int], list[int]]] = []

    def record(view: Observation, options: Sequence[Start]) -> Start:
        seen.append((view.seat, [len(d) for d in view.depots], [o.space for o in options]))
        return options[-1]

    state = new_state(3)
    run_game(state, [Scripted(start=record) for _ in range(3)])
    assert [seat for seat, _, _ in seen] == [0, 1, 2]  # [decision] seat order from seat 0
    assert all(depots == [0] * 7 for _, depots, _ in seen)  # no tile visible yet
    assert [free for _, _, free in seen] == [[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5],
                                             [0, 1, 2, 3, 4]]  # only unoccupied spaces


def test_scroll_space_advances_the_disc() -> None:  # R5.4
    state = new_state()
    p = state.players[0]
    cell = next(iter(sorted(p.district.scrolls)))
    p.district.frontier = 1 << cell
    run(state, state.build(0, tile_type(C, "L-market"), cell, (G, G, G, G)), FIRST)
    assert p.scroll == 1 and cell not in p.district.scrolls


def test_scroll_track_overflow_scores_a_point_per_step() -> None:  # R6.6
    state = new_state()
    p = state.players[0]
    state.advance_scroll(0, 39)
    state.advance_scroll(0, 3)
    assert p.scroll == 40 and p.current_vp == 8 + 2
    state.advance_scroll(1, 40)
    state.advance_scroll(0, 1)
    assert p.stamp > state.players[1].stamp  # stays on the last space, on top


def test_failed_card_costs_four() -> None:  # R8.5
    state = new_state()
    slot = next(s for s, c in enumerate(state.grid) if c and C.objectives[c].pay)
    run(state, resolve_card(state, 0, slot), FIRST)
    assert state.players[0].current_vp == 8 - 4
    assert state.players[0].failed_cards == 1


def test_must_take_a_multiple_when_able() -> None:  # R8.5 [decision]
    card = C.objectives["A02"]  # pay 2 herbs -> 4 VP
    options = payment_options(card, [0] * 16, [0, 4, 0, 0], 1, 3)
    assert Payment(0, 0) not in options
    assert {(o.paid, o.bread) for o in options} == {(0, 1), (1, 0), (1, 1), (2, 0), (2, 1)}


def test_bread_from_the_first_card_pays_the_second() -> None:  # R8.6
    state = new_state()
    p = state.players[0]
    state.grid[0], state.grid[1] = "C01", "A02"  # have 2 chimneys -> 1 bread; pay 2 herbs
    p.district.have[0] = 6  # 6 chimneys -> 3 bread from the first card
    run(state, resolve_card(state, 0, 0), FIRST)
    assert p.bread == 3
    run(state, resolve_card(state, 0, 1), FIRST)  # no herbs: fulfilled with the 3 bread
    assert (p.bread, p.current_vp, p.failed_cards) == (0, 8 + 4, 0)


def test_tie_goes_to_the_disc_furthest_behind() -> None:  # R10.6
    state = new_state(3)
    for p in state.players:
        p.vp_after_phase = [0, 0, 0, 0]
        p._start_vp = 10
    state.advance_scroll(0, 3)
    state.advance_scroll(1, 1)  # seats 1 and 2 on space 1; 2 arrives later (on top)
    state.advance_scroll(2, 1)
    for p in state.players:
        p._start_vp -= state.components.scroll_points[p.scroll]  # equalise the totals
    record = final_scoring(state, 0, ["a", "b", "c"])
    assert len({s.final_vp for s in record.seats}) == 1
    assert [s.rank for s in record.seats] == [3, 1, 2]  # lower in the stack wins
    assert record.tiebreak


def test_starting_player_passes_left_each_phase() -> None:  # R3.3
    firsts: dict[int, int] = {}

    def record_first(view: Observation, options: Sequence[Any]) -> Any:
        firsts.setdefault(view.phase, view.seat)
        return options[0]

    n = 3
    state = new_state(n)
    run_game(state, [Scripted(move=record_first) for _ in range(n)])
    assert firsts == {0: 0, 1: 1, 2: 2, 3: 0}


def test_phase_four_deals_dark_tiles() -> None:  # R3.2
    state = new_state(2)
    state.phase = 3
    state.deal()
    assert all(C.tile_types[t].dark for d in state.depots for t in d)
    assert state.dark_deck == []


def test_a_choice_not_offered_is_refused_and_an_equal_one_replaced() -> None:  # R4.5
    from cdsim.errors import IllegalChoice
    from cdsim.games.carpe_diem.rules.options import Take

    state = new_state(2)
    state.deal()
    options = state.take_options(0, 0)
    chosen = options[-1]
    copy = Take(*astuple(chosen))  # equal, not the same object: the engine goes on with its own
    pending = Pending(0, "take", options)
    assert options[choose(state, pending, Scripted(take=lambda view, opts: copy))] is chosen
    with pytest.raises(IllegalChoice, match=r"in choose \(take decision\)"):  # a bare tuple
        choose(state, pending, Scripted(take=lambda view, opts: astuple(chosen)))
    with pytest.raises(IllegalChoice):
        choose(state, pending, Scripted(take=lambda view, opts: Take(chosen.slot,
                                                                     chosen.tile_type, 99, None)))


def test_the_rules_wait_for_each_decision_and_go_on_with_the_one_applied() -> None:  # R3
    """The state says whose decision is pending and its options, never asks a player, and
    ``apply`` runs on to the next decision; applied by hand, the first option each time
    ends the game as the driver does with first-option players."""
    state = new_state(3, seed=4)
    assert state.pending is None and state.options() == ()  # nothing runs before begin
    state.begin(phases(state))
    asked: list[tuple[int, str]] = []
    while (pending := state.pending) is not None:
        assert state.options() is pending.options and len(pending.options) > 0
        assert (pending.card is not None) == (pending.decision == "payment")
        asked.append((pending.seat, pending.decision))
        first = pending.options[0]
        state.apply(copy.copy(first))  # an equal record will do: the rules go on with theirs
    assert state.options() == ()
    assert asked[:4] == [(0, "start"), (1, "start"), (2, "start"), (0, "move")]  # R2.5, R3.3
    assert sum(d == "take" for _, d in asked) == 4 * 7 * 3  # R3.1: 7 rounds of 4 phases
    assert {d for _, d in asked} >= {"start", "move", "take", "circle", "payment"}
    driven = play_game(GameConfig(3), [Scripted() for _ in range(3)], 4)
    by_hand = final_scoring(state, 4, ["silent"] * 3)
    assert by_hand.rows() == [row | {"strategy": "silent"} for row in driven.rows()]
    assert by_hand.cards == driven.cards


def test_only_an_option_of_the_pending_decision_is_applied() -> None:  # R2.5
    state = new_state(2)
    with pytest.raises(RuntimeError, match="no decision is pending"):
        state.apply(0)
    state.begin(state.place_pawns())
    assert state.pending == Pending(0, "start", [Start(s) for s in range(7)])  # records
    with pytest.raises(ValueError, match=r"Start\(space=7\) is not an option of the pending "
                                         "start decision of seat 1"):
        state.apply(Start(7))
    with pytest.raises(ValueError, match="3 is not an option"):  # a space is not its Start
        state.apply(3)
    assert state.pending.seat == 0 and state.players[0].pawn == -1  # nothing changed
    state.apply(Start(3))
    assert state.players[0].pawn == 3 and state.pending == Pending(
        1, "start", [Start(s) for s in (0, 1, 2, 4, 5, 6)])
    state.apply(Start(0))
    assert state.pending is None and state.players[1].pawn == 0  # the rule ran to its end


def test_a_rule_that_needs_no_decision_runs_at_once() -> None:  # R6.3
    state = new_state()
    state.begin(state.reward(0, Feature(MERCHANT, 2, 0, (0, 1))))
    assert state.pending is None and state.players[0].coins == 1
