//! Rules with a [decision] or an order to pin (R5.5, R8.2, R10.6), as tests/test_rules.py.

mod common;

use cdsim_core::carpe_diem::district::ALL_CELLS;
use cdsim_core::carpe_diem::game::{GameConfig, GameState};
use cdsim_core::carpe_diem::kinds::FISH;
use cdsim_core::rng::SeedSequence;
use cdsim_core::carpe_diem::scoring::{final_scoring, scoring_order};
use common::{comps, edges};

#[test]
fn completions_of_one_tile_pay_goods_first_and_the_merchant_last() {
    // R5.5 [decision]: a tile closing a pond and a merchant dwelling at once: the pond's
    // fish are paid first, so the merchant exchanges them (1 fish -> 2 coins)
    let c = comps();
    let (mut state, _) = GameState::new(&c, &GameConfig::new(2), SeedSequence::new(0, &[]));
    state.players[0].district_mut().frontier = ALL_CELLS;
    let end = c.tile_type("L-P-end").unwrap() as u8;
    let merchant = c.tile_type("L-dM").unwrap() as u8;
    let both = c
        .tile_types
        .iter()
        .position(|t| t.edges == edges("P G dM G"))
        .unwrap() as u8;
    state.build(&c, 0, end, 0, edges("G G P G")); // (0,0) pond end south
    state.build(&c, 0, merchant, 12, edges("dM G G G")); // (2,0) merchant half north
    assert!(!state.settle_rewards(&c, 0));
    state.build(&c, 0, both, 6, edges("P G dM G")); // (1,0) closes both
    assert!(!state.settle_rewards(&c, 0));
    assert_eq!(state.players[0].goods[FISH], 0);
    assert_eq!(state.players[0].coins, 2);
}

#[test]
fn ties_go_to_the_disc_furthest_behind_then_lower_in_the_stack() {
    // R10.6 [decision for stacks]; R8.2 orders the scoring phase the other way round
    let c = comps();
    let mut config = GameConfig::new(3);
    config.start_vp = [10, 10, 10, 0];
    let (mut state, _) = GameState::new(&c, &config, SeedSequence::new(0, &[]));
    state.players[0].scroll = 5;
    state.players[0].card_vp = -c.scroll_points[5]; // the same total as the others
                                                    // seats 1 and 2 share space 0; seat 2's disc is on top (R2.6)
    assert_eq!(scoring_order(&state)[..3], [0, 2, 1]); // R8.2: furthest, then on top
    let record = final_scoring(&state, &c, &["a", "b", "c"]);
    let ranks: Vec<i64> = record.seats.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![3, 1, 2]);
    assert!(record.tiebreak && record.seats[1].won);
    let stacks: Vec<i64> = record.seats.iter().map(|s| s.stack).collect();
    assert_eq!(stacks, vec![0, 0, 1]);
}
