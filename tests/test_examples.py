"""The rulebook examples E1-E9 of docs/rules.md, each a test."""

from pathlib import Path

import pytest

from cdsim.games.carpe_diem.rules.components import load_components
from cdsim.games.carpe_diem.rules.district import Feature
from cdsim.games.carpe_diem.rules.game import CIRCLES, GameConfig
from cdsim.games.carpe_diem.rules.kinds import CHICKENS, FISH, GRAPES, MERCHANT, POND
from cdsim.games.carpe_diem.rules.play import play_game, run
from cdsim.games.carpe_diem.rules.position import load_position, score_position
from cdsim.games.carpe_diem.testing import Scripted, new_state
from strategies.example import Random as RandomStrategy

POSITIONS = Path(__file__).parent / "positions"
COMPONENTS = load_components()
FIRST = [Scripted(), Scripted()]  # every seat takes the first option


def score(name: str):  # type: ignore[no-untyped-def]
    return score_position(load_position(POSITIONS / name, COMPONENTS), COMPONENTS)


def test_e1_merchant_returns_goods_for_coins_plus_one() -> None:  # R6.3
    state = new_state()
    p = state.players[0]
    p.goods[FISH], p.goods[CHICKENS], p.goods[GRAPES] = 1, 1, 2
    run(state, state.reward(0, Feature(MERCHANT, 2, 0, (0, 1))), FIRST)
    assert p.coins == 5
    assert p.goods == [0, 0, 0, 0]


def test_e1_merchant_without_goods_gives_one_coin() -> None:  # R6.3
    state = new_state()
    run(state, state.reward(0, Feature(MERCHANT, 2, 0, (0, 1))), FIRST)
    assert state.players[0].coins == 1


def test_e2_three_tile_pond_gives_two_fish() -> None:  # R6.2
    state = new_state()
    d = state.players[0].district
    d.frontier = (1 << 36) - 1
    # end - corner - end: (0,0) east, (0,1) west+south, (1,1) north
    run(state, state.build(0, tile("L-P-end"), 0, (0, POND, 0, 0)), FIRST)
    run(state, state.build(0, tile("L-P-corner"), 1, (0, 0, POND, POND)), FIRST)
    assert state.players[0].goods[FISH] == 0
    run(state, state.build(0, tile("L-P-end"), 7, (POND, 0, 0, 0)), FIRST)
    assert state.players[0].goods[FISH] == 2
    assert d.features[-1].tiles == 3


def test_e3_red_card_with_bread_coins_and_goods() -> None:  # R7.1, R7.2, R8.4
    (card,) = score("e3_red_card_bread_and_coins.toml").cards
    assert (card.multiples, card.vp, card.failed) == (3, 24, False)
    assert card.paid_goods == (0, 2, 1, 2)  # grapes herbs chickens fish
    assert (card.paid_coins, card.paid_bread) == (3, 3)


def test_e4_unfulfilled_card_costs_four_and_keeps_goods() -> None:  # R8.5
    (card,) = score("e4_failed_card.toml").cards
    assert (card.multiples, card.vp, card.failed) == (0, -4, True)
    assert card.paid_goods == (0, 0, 0, 0)


def test_e5_chimney_cards() -> None:  # R8.4: chimneys count in every villa
    bread_card, coin_card = score("e5_chimneys.toml").cards
    assert (bread_card.multiples, bread_card.bread) == (3, 3)
    assert (coin_card.multiples, coin_card.coins, coin_card.steps) == (2, 2, 2)


def test_e6_landscape_cards() -> None:  # R8.4
    pond_garden, three_landscapes = score("e6_landscapes.toml").cards
    assert (pond_garden.multiples, pond_garden.vp) == (1, 7)
    assert (three_landscapes.coins, three_landscapes.bread) == (2, 2)


def test_e7_villa_end_scoring_ignores_incomplete_villas() -> None:  # R10.1
    assert score("e7_villas.toml").final["villas"] == 17


@pytest.mark.parametrize(("players", "circles"), [(2, 9), (3, 13), (4, 17)])
def test_e8_scoring_circles(players: int, circles: int) -> None:  # R8.1
    assert len(CIRCLES[players]) == circles
    state = new_state(players)
    assert sum(1 for c in state.grid if c is not None) == {2: 8, 3: 10, 4: 12}[players]  # R2.2
    # one more circle than the game uses: one disc per player per scoring phase
    assert circles == players * 4 + 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_e9_seven_turns_per_player_per_phase(players: int) -> None:  # R4.6
    for seed in range(3):
        record = play_game(GameConfig(players, check=True),
                           [RandomStrategy() for _ in range(players)], seed)
        assert all(s.tiles_taken == 28 for s in record.seats)


def tile(tile_id: str) -> int:
    from cdsim.games.carpe_diem.testing import tile_type

    return tile_type(COMPONENTS, tile_id)
