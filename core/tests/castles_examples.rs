//! The Castles of Tuscany rulebook's worked examples TE1–TE8 (docs/rules-castles.md) as
//! hand-checked positions on the known board (castles_common: A-1, B-1, C-1 laid flat).

mod castles_common;

use castles_common::*;
use cdsim_core::castles::actions::{pair, Payment, CARD, KEEP, WORKER};
use cdsim_core::castles::components::{Crop, HarvestReward};
use cdsim_core::castles::{Action, BonusKind, Colour, Pending, Stage, Stored, VpSource};

#[test]
fn te1_clara_pays_two_reds_and_a_farm_card_for_a_wooden_hex_on_a_farm() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    // the area (0, 1, 5) already shows every crop but one
    cover(&mut st, 0, &[0]);
    st.seats[0].crops[0] = cdsim_core::castles::tables::crop_bits(&[Crop::Vineyard, Crop::Olive]);
    store(&mut st, 0, Stored::Wood);
    hand(&mut st, 0, &[(Colour::City, 2), (Colour::Farm, 1)]);
    let pay = Payment {
        a: CARD,
        b: pair(Colour::City.index()),
    };
    st.apply(&c, Action::Place { item: 0, space: 1 });
    assert!(options(&st, &c).contains(&Action::Pay(pay)));
    st.apply(&c, Action::Pay(pay));
    assert_eq!(st.seats[0].hand_size(), 0);
    assert_eq!(st.seats[0].green, 1, "1 VP whatever the crops");
    assert_eq!(st.seats[0].green_by[VpSource::Crops as usize], 1);
}

#[test]
fn te2_david_scores_only_the_olive_of_his_olive_vineyard_farm() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    cover(&mut st, 0, &[1]);
    st.seats[0].crops[1] = cdsim_core::castles::tables::crop_bits(&[Crop::Vineyard]);
    store(
        &mut st,
        0,
        Stored::Tile(farm(&[Crop::Olive, Crop::Vineyard])),
    );
    hand(&mut st, 0, &[(Colour::Farm, 2)]);
    place(&mut st, &c, 0, TWO_CARDS);
    assert_eq!(
        st.seats[0].green, 1,
        "the area (0, 1, 5) is not complete: only the olive"
    );
}

#[test]
fn te3_ana_scores_nothing_for_the_second_monastery_and_6_for_the_third() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    cover(&mut st, 0, &[11]); // B-1's monastery area: 10, 11, 15
    store(&mut st, 0, Stored::Tile(tile(Colour::Monastery)));
    hand(&mut st, 0, &[(Colour::Monastery, 2)]);
    place(&mut st, &c, 10, TWO_CARDS);
    assert_eq!(st.seats[0].green, 0);
    turn(&mut st, 0);
    store(&mut st, 0, Stored::Tile(tile(Colour::Monastery)));
    hand(&mut st, 0, &[(Colour::Monastery, 2)]);
    place(&mut st, &c, 15, TWO_CARDS);
    assert_eq!(st.seats[0].green, 6);
}

#[test]
fn te4_dario_pays_a_worker_and_two_farm_cards_for_a_city() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::Farm, 2)]);
    st.seats[0].workers = 1;
    let pay = Payment {
        a: pair(Colour::Farm.index()),
        b: WORKER,
    };
    place(&mut st, &c, 3, pay);
    assert_eq!((st.seats[0].hand_size(), st.seats[0].workers), (0, 0));
    assert_eq!(st.pending, Pending::Token { seat: 0 }, "the city is placed");
}

#[test]
fn te5_ana_reaches_13_then_37_red() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    let ana = &mut st.seats[0];
    ana.gain_green(VpSource::Area, 9);
    ana.gain_red(VpSource::HarvestRed, 4); // two harvest cards of 2 red VP (TC5)
    st.triggered = true;
    turn(&mut st, 1);
    st.apply(&c, Action::Draw);
    assert_eq!((st.phase, st.seats[0].red), (2, 13), "T11.1");
    st.seats[0].gain_green(VpSource::Area, 13); // green now 22
    st.seats[0].gain_red(VpSource::HarvestRed, 2);
    st.triggered = true;
    turn(&mut st, 1);
    st.apply(&c, Action::Draw);
    let tracks = (st.phase, st.seats[0].green, st.seats[0].red);
    assert_eq!(tracks, (3, 22, 37), "T1.8: green stays, red is the score");
    assert_eq!(st.breakdown(0).iter().sum::<i32>(), 37);
}

#[test]
fn te6_draw_then_a_marble_then_place_in_one_turn() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    st.seats[0].marble = 1;
    store(&mut st, 0, Stored::Tile(tile(Colour::Village)));
    hand(&mut st, 0, &[]);
    st.deck[st.deck_len as usize - 3..st.deck_len as usize].fill(Colour::Village as u8);
    st.apply(&c, Action::Draw);
    assert_eq!(
        st.pending,
        Pending::Turn {
            seat: 0,
            stage: Stage::Extra
        }
    );
    place(&mut st, &c, 6, TWO_CARDS);
    assert_eq!(st.seats[0].marble, 0);
    assert_eq!(st.seats[0].placed_tiles, 1);
    assert_eq!(st.to_move(), Some(1));
}

#[test]
fn te7_tokens_add_marble_workers_and_harvest_cards() {
    let c = comps();
    let mut st = ready(&c, 2, 11);
    st.seats[0].tokens[BonusKind::Marble.index()] = 2;
    st.seats[0].tokens[BonusKind::Worker.index()] = 1;
    st.seats[0].tokens[BonusKind::Harvest.index()] = 3;
    cover(&mut st, 0, &[3, 8]);
    // no wooden hex in the harvest pile, so no reward lands in storage
    for (i, &(reward, _)) in c.tables().harvest.iter().enumerate() {
        if reward == HarvestReward::WoodenHex {
            st.harvest[..st.harvest_len as usize]
                .iter_mut()
                .filter(|h| **h == i as u8)
                .for_each(|h| *h = 0);
        }
    }
    for (space, colour) in [(4, Colour::Quarry), (6, Colour::Village), (9, Colour::Cart)] {
        turn(&mut st, 0);
        store(&mut st, 0, Stored::Tile(tile(colour)));
        hand(&mut st, 0, &[(colour, 2)]);
        let (marble, workers) = (st.seats[0].marble, st.seats[0].workers);
        let revealed = st.harvest_discard_len;
        place(&mut st, &c, space, TWO_CARDS);
        let s = &st.seats[0];
        match colour {
            Colour::Quarry => assert_eq!(s.marble - marble, 3),
            Colour::Village => assert_eq!(s.workers - workers, 2),
            _ => assert_eq!(st.harvest_discard_len - revealed, 4),
        }
    }
}

#[test]
fn te8_phase_two_goes_on_when_another_player_empties_stack_one() {
    let c = comps();
    let mut st = ready(&c, 3, 11);
    st.phase = 2;
    st.seats[2].drawn = 6;
    turn(&mut st, 2);
    st.apply(
        &c,
        Action::Take {
            slot: 0,
            discard: KEEP,
        },
    );
    assert_eq!(st.seats[2].drawn, 7);
    assert!(!st.triggered);
    assert_eq!((st.to_move(), st.phase), (Some(0), 2));
}
