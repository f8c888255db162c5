//! The Castles of Tuscany, rules T8–T12 (docs/rules-castles.md): the hex types, colour
//! bonuses, phase ends, scorings and what a seat may know. One test per rule.

mod castles_common;

use castles_common::*;
use cdsim_core::castles::actions::KEEP;
use cdsim_core::castles::components::{Crop, HarvestReward};
use cdsim_core::castles::{
    Action, BonusKind, CastlesConfig, CastlesState, Colour, Pending, Stored, VpSource,
};
use cdsim_core::rng::SeedSequence;

/// The harvest card ids of one reward (TC5).
fn harvest_ids(c: &cdsim_core::castles::Components, reward: HarvestReward) -> Vec<u8> {
    (0..c.tables().harvest.len() as u8)
        .filter(|&i| c.tables().harvest[i as usize].0 == reward)
        .collect()
}

#[test]
fn t8_1_a_castle_places_a_display_tile_free_then_fills_the_gap() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[8]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Castle)));
    hand(&mut st, 0, &[(Colour::Castle, 2)]);
    st.display[0] = Some(tile(Colour::City));
    place(&mut st, &c, 13, TWO_CARDS);
    assert_eq!(st.pending, Pending::Castle { seat: 0 });
    let opts = options(&st, &c);
    assert_eq!(opts[0], Action::Skip, "optional");
    assert!(opts.contains(&Action::Free { slot: 0, space: 3 }));
    let green = st.seats[0].green;
    st.apply(&c, Action::Free { slot: 0, space: 3 });
    assert_eq!(
        st.seats[0].green,
        green + 1,
        "the free tile's VP (a city area of 1)"
    );
    assert_eq!(st.seats[0].hand_size(), 0, "free of cost");
    assert_eq!(st.pending, Pending::Token { seat: 0 }, "and its effect");
    assert_eq!(
        (st.display[0], st.seats[0].drawn),
        (None, 0),
        "the gap waits until the effects are done"
    );
    st.apply(&c, Action::Token(BonusKind::Card));
    assert!(
        st.display[0].is_some() && st.seats[0].drawn == 1,
        "then it is filled from the own stack"
    );
    assert_eq!(st.to_move(), Some(1));
}

#[test]
fn t8_1_with_nothing_that_fits_a_castle_offers_only_skip() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[8]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Castle)));
    hand(&mut st, 0, &[(Colour::Castle, 2)]);
    st.display = [Some(tile(Colour::Monastery)); 8]; // monasteries 10, 11, 15 touch nothing covered
    place(&mut st, &c, 13, TWO_CARDS);
    assert_eq!(options(&st, &c), vec![Action::Skip]);
    st.apply(&c, Action::Skip);
    assert_eq!(st.to_move(), Some(1));
}

#[test]
fn t8_2_t8_3_a_city_takes_any_token_left_and_storage_gives_two_green() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::City, 2)]);
    st.bonus_supply = [5, 5, 0, 5, 5];
    place(&mut st, &c, 3, TWO_CARDS);
    let kinds: Vec<_> = options(&st, &c);
    assert_eq!(
        kinds.len(),
        4,
        "an exhausted kind is not offered: {kinds:?}"
    );
    assert!(!kinds.contains(&Action::Token(BonusKind::Marble)));
    st.apply(&c, Action::Token(BonusKind::Storage));
    assert_eq!(
        st.seats[0].green,
        1 + 2,
        "area of 1, then 2 for the storage token"
    );
    assert_eq!(st.seats[0].capacity, 2);
    assert_eq!(st.seats[0].green_by[VpSource::StorageToken as usize], 2);
    // no token left: the city gives nothing and the turn goes on
    turn(&mut st, 0);
    st.bonus_supply = [0; 5];
    cover(&mut st, 0, &[8, 13]);
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::City, 2)]);
    place(&mut st, &c, 14, TWO_CARDS);
    assert_eq!(st.to_move(), Some(1));
}

#[test]
fn t8_4_an_estate_gives_a_wooden_hex_that_plays_as_any_colour() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    store(&mut st, 0, Stored::Tile(tile(Colour::Estate)));
    hand(&mut st, 0, &[(Colour::Estate, 2), (Colour::City, 2)]);
    place(&mut st, &c, 7, TWO_CARDS);
    assert_eq!(
        st.seats[0].storage[0],
        Stored::Wood,
        "on the storage space just emptied"
    );
    turn(&mut st, 0);
    place(&mut st, &c, 3, TWO_CARDS); // the hex on the red space: paid as red
    assert_eq!(st.seats[0].placed_wood, 1);
    assert_eq!(st.pending, Pending::Token { seat: 0 }, "a city's effect");
    assert_eq!(
        st.seats[0].green_by[VpSource::Area as usize],
        2,
        "the estate's and the city's areas of 1"
    );
}

#[test]
fn t8_5_a_farm_scores_each_crop_new_to_its_area() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    // A-1's farm area is 0, 1, 5
    store(&mut st, 0, Stored::Tile(farm(&[Crop::Grain, Crop::Boar])));
    hand(&mut st, 0, &[(Colour::Farm, 6)]);
    place(&mut st, &c, 1, TWO_CARDS);
    assert_eq!(st.seats[0].green, 2, "two new crops");
    turn(&mut st, 0);
    store(&mut st, 0, Stored::Tile(farm(&[Crop::Boar])));
    place(&mut st, &c, 0, TWO_CARDS);
    assert_eq!(st.seats[0].green, 2, "boar is there already");
    turn(&mut st, 0);
    store(&mut st, 0, Stored::Wood);
    place(&mut st, &c, 5, TWO_CARDS);
    assert_eq!(
        st.seats[0].green_by[VpSource::Crops as usize],
        3,
        "a wooden hex is a crop of its own"
    );
    assert_eq!(
        st.seats[0].green_by[VpSource::Area as usize],
        6,
        "and completing the area scores as well"
    );
}

#[test]
fn t8_6_t8_7_a_quarry_gives_marble_and_a_village_workers() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[3]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Quarry)));
    hand(&mut st, 0, &[(Colour::Quarry, 2), (Colour::Village, 2)]);
    place(&mut st, &c, 4, TWO_CARDS);
    assert_eq!(st.seats[0].marble, 1);
    st.seats[0].marble = 60_000;
    turn(&mut st, 0);
    cover(&mut st, 0, &[12]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Quarry)));
    hand(&mut st, 0, &[(Colour::Quarry, 2)]);
    place(&mut st, &c, 16, TWO_CARDS);
    assert_eq!(st.seats[0].marble, 60_001, "T1.7: no limit");
    hand(&mut st, 0, &[(Colour::Village, 2)]);
    turn(&mut st, 0);
    store(&mut st, 0, Stored::Tile(tile(Colour::Village)));
    place(&mut st, &c, 6, TWO_CARDS);
    assert_eq!(st.seats[0].workers, 1);
}

#[test]
fn t8_8_a_monastery_draws_three_and_the_card_token_does_not_count() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[1, 5]);
    st.seats[0].tokens[BonusKind::Card.index()] = 2;
    store(&mut st, 0, Stored::Tile(tile(Colour::Monastery)));
    hand(&mut st, 0, &[(Colour::Monastery, 2)]);
    place(&mut st, &c, 10, TWO_CARDS);
    assert_eq!(st.seats[0].hand_size(), 3);
}

#[test]
fn t8_9_a_cart_reveals_one_harvest_card_plus_tokens_and_reshuffles() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[8]);
    st.seats[0].tokens[BonusKind::Harvest.index()] = 1;
    // the pile holds one card; the other 26 are discarded
    let red = harvest_ids(&c, HarvestReward::RedVp)[0];
    st.harvest[0] = red;
    st.harvest_len = 1;
    let others: Vec<u8> = (0..27).filter(|&i| i != red).collect();
    st.harvest_discard[..26].copy_from_slice(&others);
    st.harvest_discard_len = 26;
    store(&mut st, 0, Stored::Tile(tile(Colour::Cart)));
    hand(&mut st, 0, &[(Colour::Cart, 2)]);
    place(&mut st, &c, 9, TWO_CARDS);
    assert!(
        st.seats[0].red_by[VpSource::HarvestRed as usize] >= 2,
        "the top card's 2 red VP"
    );
    assert_eq!(
        st.harvest_len, 26,
        "the 27 discards became the pile, one more revealed"
    );
    assert_eq!(st.harvest_discard_len, 1);
}

#[test]
fn t8_10_a_second_wooden_hex_with_no_space_gives_two_red() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[8]);
    st.seats[0].tokens[BonusKind::Harvest.index()] = 1;
    let wood = harvest_ids(&c, HarvestReward::WoodenHex);
    let n = st.harvest_len as usize;
    st.harvest[n - 2..n].copy_from_slice(&wood[..2]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Cart)));
    hand(&mut st, 0, &[(Colour::Cart, 2)]);
    place(&mut st, &c, 9, TWO_CARDS);
    assert_eq!(
        st.seats[0].storage[0],
        Stored::Wood,
        "the first on the space just emptied"
    );
    assert_eq!(
        st.seats[0].red_by[VpSource::SpareHex as usize],
        2,
        "the second: 2 red VP"
    );
}

#[test]
fn t9_1_t9_2_colour_bonus_goes_to_the_first_and_second_then_nobody() {
    let c = comps();
    let mut st = ready(&c, 3, 3);
    let [first, second] = c.tables().colour_bonus[Colour::Estate.index()];
    for seat in 0..3 {
        turn(&mut st, seat);
        cover(&mut st, seat, &[27]); // the other estate space
        store(&mut st, seat, Stored::Tile(tile(Colour::Estate)));
        hand(&mut st, seat, &[(Colour::Estate, 2)]);
        place(&mut st, &c, 7, TWO_CARDS);
    }
    let bonus: Vec<i32> = (0..3)
        .map(|s| st.seats[s].green_by[VpSource::ColourBonus as usize])
        .collect();
    assert_eq!(bonus, vec![first as i32, second as i32, 0]);
    assert_eq!(st.colour_claims[Colour::Estate.index()], 2);
}

#[test]
fn t9_3_the_start_castle_counts_toward_dark_green() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    cover(&mut st, 0, &[8, 23]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Castle)));
    hand(&mut st, 0, &[(Colour::Castle, 2)]);
    place(&mut st, &c, 13, TWO_CARDS);
    let first = c.tables().colour_bonus[Colour::Castle.index()][0] as i32;
    assert_eq!(st.seats[0].green_by[VpSource::ColourBonus as usize], first);
}

/// Seat `seat` takes display tile 0 (free storage), e.g. to empty a stack.
fn take(st: &mut CastlesState, c: &cdsim_core::castles::Components, seat: usize) {
    turn(st, seat);
    st.seats[seat].storage = [Stored::Empty; 6];
    st.apply(
        c,
        Action::Take {
            slot: 0,
            discard: KEEP,
        },
    );
}

#[test]
fn t10_1_phase_one_ends_after_the_round_in_which_a_stack_empties() {
    let c = comps();
    let mut st = ready(&c, 3, 3);
    for s in 0..3 {
        st.seats[s].gain_green(VpSource::Area, 5 + s as i32);
    }
    st.seats[1].drawn = 6;
    take(&mut st, &c, 1);
    assert!(
        st.triggered && st.phase == 1,
        "T5.4: the take emptied a stack"
    );
    assert_eq!(st.to_move(), Some(2), "the round is played out");
    st.apply(&c, Action::Draw);
    assert_eq!(st.phase, 2);
    assert_eq!(st.vp(), vec![5, 6, 7], "T11.1");
    assert!(!st.triggered);
    assert_eq!(st.seats[1].drawn, 7, "T10.2: the tiles stay");
}

#[test]
fn t10_3_phase_two_ends_on_a_second_stack_only() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    st.phase = 2;
    st.seats[1].drawn = 6;
    take(&mut st, &c, 1);
    assert!(!st.triggered, "emptying stack 1 in phase 2 ends nothing");
    st.seats[0].drawn = 13;
    take(&mut st, &c, 0);
    assert!(st.triggered);
}

#[test]
fn t10_4_phase_three_plays_one_more_whole_round() {
    let c = comps();
    let mut st = ready(&c, 3, 3);
    st.phase = 3;
    st.seats[0].drawn = 20;
    take(&mut st, &c, 0);
    assert!(st.triggered);
    let mut turns = vec![];
    while let Some(seat) = st.to_move() {
        turns.push(seat);
        st.apply(&c, Action::Draw);
    }
    assert_eq!(
        turns,
        vec![1, 2, 0, 1, 2],
        "the round out, then one more each"
    );
    assert!(st.is_over());
}

#[test]
fn t10_5_a_stack_emptied_before_its_phase_ends_that_phase_too() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    st.seats[0].drawn = 13;
    take(&mut st, &c, 0); // 14: stack 1 and 2 empty in phase 1
    assert!(st.triggered);
    st.apply(&c, Action::Draw);
    assert_eq!(st.phase, 2);
    assert!(st.triggered, "phase 2's end is already due");
}

#[test]
fn t11_2_t11_3_final_scoring_counts_leftovers_but_not_stacks() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    st.phase = 3;
    st.final_round = true;
    st.triggered = true;
    hand(&mut st, 0, &[(Colour::Farm, 7), (Colour::Cart, 7)]); // 14 cards: 2 VP
    st.seats[0].capacity = 2;
    st.seats[0].storage[0] = Stored::Tile(tile(Colour::City));
    st.seats[0].storage[1] = Stored::Wood;
    st.seats[0].marble = 3;
    st.seats[0].workers = 1;
    assert_eq!(
        st.seats[0].drawn, 0,
        "21 tiles in the stacks, worth nothing"
    );
    turn(&mut st, 1);
    st.apply(&c, Action::Draw);
    assert!(st.is_over());
    assert_eq!(
        st.seats[0].red_by[VpSource::Leftovers as usize],
        2 + 2 + 3 + 1
    );
    assert_eq!(st.vp()[0], 8);
}

#[test]
fn t11_4_ties_go_to_empty_spaces_then_green_then_are_shared() {
    let c = comps();
    let mut st = ready(&c, 4, 3);
    for s in 0..4 {
        st.seats[s].red = 20;
    }
    st.seats[0].red = 21;
    cover(&mut st, 1, &[0, 1]); // fewer empty spaces
    st.seats[2].green = 5;
    assert_eq!(st.places(), vec![0, 3, 1, 2]);
    st.seats[2].green = 0;
    assert_eq!(st.places(), vec![0, 3, 1, 1], "seats 3 and 4 share");
}

#[test]
fn t12_a_seat_sees_its_own_hand_and_no_other_layout_before_all_are_laid() {
    let c = comps();
    let (mut st, _) =
        CastlesState::new(&c, &CastlesConfig { players: 3 }, SeedSequence::new(5, &[]));
    st.apply(&c, Action::Lay(7));
    let view = st.observe(1);
    assert_eq!(view.seats[0].layout, None, "T12.3");
    assert_eq!(st.observe(0).seats[0].layout, Some(7));
    st.apply(&c, Action::Lay(8));
    st.apply(&c, Action::Lay(9));
    assert_eq!(st.observe(1).seats[0].layout, Some(7));
    let view = st.observe(1);
    assert_eq!(view.seats[1].hand, Some(st.seats[1].hand), "T12.1");
    assert_eq!(view.seats[0].hand, None);
    assert_eq!(view.seats[0].hand_size, 5);
    assert_eq!(view.deck_size, st.deck_len, "T12.2: sizes, not order");
    assert_eq!(view.seats[2].stack_left, 21);
}
