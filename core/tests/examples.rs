//! The rulebook examples E1-E9 of docs/rules.md, each a test (tests/test_examples.py and
//! tests/positions/*.toml are the Python versions).

mod common;

use cdsim_core::carpe_diem::cards::{best_payment, payment_options, settle, CardOutcome};
use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::district::{District, ALL_CELLS};
use cdsim_core::carpe_diem::game::{circles, GameConfig, GameState, NONE};
use cdsim_core::carpe_diem::kinds::{CHICKENS, FISH, GRAPES, HERBS, MERCHANT};
use cdsim_core::rng::SeedSequence;
use common::{cell, comps, edges, open_district, play};

/// A position's supply: goods (grapes, herbs, chickens, fish), coins, bread.
struct Supply {
    goods: [i32; 4],
    coins: i32,
    bread: i32,
}

/// Each card at its most multiples, as `cdsim score` (position.score_position).
fn score_cards(c: &Components, d: &District, s: &Supply, cards: &[&str]) -> Vec<CardOutcome> {
    cards
        .iter()
        .map(|id| {
            let index = c.objective(id).unwrap();
            let card = &c.objectives[index];
            let mut options = Vec::new();
            payment_options(card, &d.have, &s.goods, s.coins, s.bread, &mut options);
            settle(index, card, best_payment(&options), &s.goods, s.coins)
        })
        .collect()
}

fn place_all(d: &mut District, tiles: &[((usize, usize), &str, u8)]) {
    for &((r, col), e, chimneys) in tiles {
        let at = cell(r, col);
        assert!(d.matches(at, &edges(e)) && !d.oversized_landscape(at, &edges(e)));
        d.place(at, edges(e), chimneys, 0);
    }
}

fn new_state(c: &Components, players: usize) -> GameState {
    GameState::new(c, &GameConfig::new(players), SeedSequence::new(0, &[])).0
}

#[test]
fn e1_merchant_returns_goods_for_coins_plus_one() {
    // R6.3: 1 fish, 1 chicken, 2 grapes returned -> 5 coins
    let c = comps();
    let mut state = new_state(&c, 2);
    state.players[0].goods[FISH] = 1;
    state.players[0].goods[CHICKENS] = 1;
    state.players[0].goods[GRAPES] = 2;
    assert!(!state.reward(&c, 0, MERCHANT, 2));
    assert_eq!(state.players[0].coins, 5);
    assert_eq!(state.players[0].goods, [0; 4]);
    let mut empty = new_state(&c, 2); // without goods: 1 coin
    empty.reward(&c, 0, MERCHANT, 2);
    assert_eq!(empty.players[0].coins, 1);
}

#[test]
fn e2_three_tile_pond_gives_two_fish() {
    // R6.2: end - corner - end: (0,0) east, (0,1) west+south, (1,1) north
    let c = comps();
    let mut state = new_state(&c, 2);
    state.players[0].district_mut().frontier = ALL_CELLS;
    let end = c.tile_type("L-P-end").unwrap() as u8;
    let corner = c.tile_type("L-P-corner").unwrap() as u8;
    state.build(&c, 0, end, 0, edges("G P G G"));
    state.build(&c, 0, corner, 1, edges("G G P P"));
    assert!(!state.settle_rewards(&c, 0));
    assert_eq!(state.players[0].goods[FISH], 0);
    state.build(&c, 0, end, 7, edges("P G G G"));
    assert!(!state.settle_rewards(&c, 0));
    assert_eq!(state.players[0].goods[FISH], 2);
}

#[test]
fn e3_red_card_with_bread_coins_and_goods() {
    // R7.1, R7.2, R8.4: B05 "grape + herb + chicken + fish -> 8 VP"; 3 bread (one set)
    // plus 3 coins, 2 fish, 2 herbs, 1 chicken (two more sets) -> 24 VP
    let c = comps();
    let supply = Supply {
        goods: [0, 2, 1, 2],
        coins: 3,
        bread: 3,
    };
    let card = score_cards(&c, &open_district(), &supply, &["B05"])[0];
    assert_eq!((card.multiples, card.vp, card.failed), (3, 24, false));
    assert_eq!(card.paid_goods, [0, 2, 1, 2]); // grapes herbs chickens fish
    assert_eq!((card.paid_coins, card.paid_bread), (3, 3));
}

#[test]
fn e4_unfulfilled_card_costs_four_and_keeps_goods() {
    // R8.5: A06 "3 herbs -> 7 VP" with only 2 herbs, no coins, no bread
    let c = comps();
    let mut supply = Supply {
        goods: [0; 4],
        coins: 0,
        bread: 0,
    };
    supply.goods[HERBS] = 2;
    let card = score_cards(&c, &open_district(), &supply, &["A06"])[0];
    assert_eq!((card.multiples, card.vp, card.failed), (0, -4, true));
    assert_eq!(card.paid_goods, [0; 4]);
}

#[test]
fn e5_chimney_cards() {
    // R8.4: 7 chimneys (4 in a complete villa, 3 in an incomplete one: green cards count
    // chimneys in every villa); C01 "per 2 chimneys -> 1 bread" gives 3 bread; C03
    // "per 3 chimneys -> 1 coin + 1 step" gives 2 coins and 2 steps
    let c = comps();
    let mut d = open_district();
    place_all(
        &mut d,
        &[
            ((0, 0), "G V G G", 2),
            ((0, 1), "G G G V", 2),
            ((2, 0), "G V G G", 3),
        ],
    );
    let supply = Supply {
        goods: [0; 4],
        coins: 0,
        bread: 0,
    };
    let cards = score_cards(&c, &d, &supply, &["C01", "C03"]);
    assert_eq!((cards[0].multiples, cards[0].bread), (3, 3));
    assert_eq!(
        (cards[1].multiples, cards[1].coins, cards[1].steps),
        (2, 2, 2)
    );
}

#[test]
fn e6_landscape_cards() {
    // R8.4: 7 complete landscapes, 2 ponds and 1 garden among them; D05 "per pond +
    // garden -> 7 VP" gives 7; D07 "per 3 landscapes -> 1 coin + 1 bread" gives 2 and 2
    let c = comps();
    let mut d = open_district();
    let mut tiles = Vec::new();
    for (row, kind) in [(0, "P"), (1, "P"), (2, "H"), (3, "W"), (4, "W"), (5, "C")] {
        tiles.push(((row, 0), format!("G {kind} G G")));
        tiles.push(((row, 1), format!("G G G {kind}")));
    }
    tiles.push(((0, 3), "G C G G".to_string()));
    tiles.push(((0, 4), "G G G C".to_string()));
    let tiles: Vec<((usize, usize), &str, u8)> =
        tiles.iter().map(|(at, e)| (*at, e.as_str(), 0)).collect();
    place_all(&mut d, &tiles);
    assert_eq!(d.have[2], 7);
    let supply = Supply {
        goods: [0; 4],
        coins: 0,
        bread: 0,
    };
    let cards = score_cards(&c, &d, &supply, &["D05", "D07"]);
    assert_eq!((cards[0].multiples, cards[0].vp), (1, 7));
    assert_eq!((cards[1].coins, cards[1].bread), (2, 2));
}

#[test]
fn e7_villa_end_scoring_ignores_incomplete_villas() {
    // R10.1: complete villas of 3, 5 and 5 chimneys and two incomplete villas of 4:
    // 3 + 7 + 7 + 0 + 0 = 17 VP
    let c = comps();
    let mut d = open_district();
    place_all(
        &mut d,
        &[
            ((0, 0), "G V G G", 1),
            ((0, 1), "G G G V", 2),
            ((1, 0), "G V G G", 2),
            ((1, 1), "G G G V", 3),
            ((2, 0), "G V G G", 2),
            ((2, 1), "G G G V", 3),
            ((4, 0), "G V G G", 4),
            ((4, 3), "G V G G", 4),
        ],
    );
    let villas: i32 = d
        .villa_chimneys()
        .iter()
        .map(|&ch| c.villa_points(i32::from(ch)))
        .sum();
    assert_eq!(villas, 17);
}

#[test]
fn e8_scoring_circles() {
    // R8.1, R2.2: 9 / 13 / 17 circles for 2 / 3 / 4 players, one more than the game uses
    let c = comps();
    for (players, want, cards) in [(2, 9, 8), (3, 13, 10), (4, 17, 12)] {
        assert_eq!(circles(players).len(), want);
        assert_eq!(want, players * 4 + 1);
        let state = new_state(&c, players);
        assert_eq!(state.grid.iter().filter(|&&g| g != NONE).count(), cards);
    }
}

#[test]
fn e9_seven_turns_per_player_per_phase() {
    // R4.6: depot thinning leaves exactly 7 turns per player per phase (checking mode
    // also verifies 7 takes per phase at the end of each phase)
    let c = comps();
    for players in 2..=4 {
        let mut config = GameConfig::new(players);
        config.check = true;
        for seed in 0..3 {
            let record = play(&c, &config, &vec!["random"; players], seed);
            assert!(
                record.seats.iter().all(|s| s.tiles_taken == 28),
                "{players} players"
            );
        }
    }
}
