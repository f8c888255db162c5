//! The Castles of Tuscany, rules T5–T7 (docs/rules-castles.md): taking a tile, the
//! display, placing a tile. One test per rule, its number in the test's name.

mod castles_common;

use castles_common::*;
use cdsim_core::castles::actions::{pair, Payment, CARD, KEEP, WORKER};
use cdsim_core::castles::players::affordable;
use cdsim_core::castles::{Action, CastlesState, Colour, Pending, Stage, Stored, VpSource};

#[test]
fn t5_1_t5_3_a_taken_tile_goes_to_storage_and_the_gap_fills_from_the_stack() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    let taken = st.display[3].unwrap();
    let top = st.seats[0].stack[0];
    st.apply(
        &c,
        Action::Take {
            slot: 3,
            discard: KEEP,
        },
    );
    assert_eq!(st.seats[0].storage[0], Stored::Tile(taken));
    assert_eq!(st.seats[0].drawn, 1);
    // T6.1 may have swept the colour; otherwise the own tile sits in the gap
    if st.aside_len == 0 {
        assert_eq!(st.display[3], Some(top));
    }
}

#[test]
fn t5_2_with_storage_full_the_seat_chooses_what_goes_back_in_the_box() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    st.seats[0].capacity = 2;
    st.seats[0].storage[0] = Stored::Tile(tile(Colour::Quarry));
    st.seats[0].storage[1] = Stored::Wood;
    let takes: Vec<_> = options(&st, &c)
        .into_iter()
        .filter(|a| matches!(a, Action::Take { slot: 0, .. }))
        .collect();
    assert_eq!(
        takes,
        vec![
            Action::Take {
                slot: 0,
                discard: 0
            },
            Action::Take {
                slot: 0,
                discard: 1
            }
        ]
    );
    let new = st.display[0].unwrap();
    st.apply(
        &c,
        Action::Take {
            slot: 0,
            discard: 0,
        },
    );
    assert_eq!(st.seats[0].storage[..2], [Stored::Tile(new), Stored::Wood]);
    assert_eq!(st.boxed, 1);
}

#[test]
fn t5_5_a_seat_with_no_tiles_left_fills_from_the_neutral_reserve() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    st.seats[0].drawn = 21;
    let reserve = st.reserve_len;
    st.apply(
        &c,
        Action::Take {
            slot: 0,
            discard: KEEP,
        },
    );
    assert!(st.display.iter().flatten().count() == 8);
    assert!(st.reserve_len < reserve, "T5.5");
}

#[test]
fn t5_6_a_sweep_is_offered_only_when_no_display_tile_fits() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    let sweeps = |st: &CastlesState| {
        options(st, &c)
            .iter()
            .filter(|a| matches!(a, Action::Sweep(_)))
            .count()
    };
    // the start castle touches farm, city, village and estate spaces
    st.display = [Some(tile(Colour::Quarry)); 8];
    st.display[0] = Some(tile(Colour::Monastery));
    st.display[1] = Some(tile(Colour::Cart));
    assert_eq!(sweeps(&st), 3);
    st.display[2] = Some(tile(Colour::City));
    assert_eq!(sweeps(&st), 0, "a city fits next to the start castle");
    st.display[2] = Some(tile(Colour::Quarry));
    let aside = st.aside_len;
    st.apply(&c, Action::Sweep(Colour::Quarry));
    assert!(st.aside_len - aside >= 6, "six quarries set aside");
    assert_eq!(st.display.iter().flatten().count(), 8, "every gap refilled");
    assert_eq!(
        st.pending,
        Pending::Turn {
            seat: 0,
            stage: Stage::Sweep
        }
    );
    let opts = options(&st, &c);
    assert!(
        opts.iter().all(|a| matches!(a, Action::Take { .. })),
        "then a take, and only a take"
    );
    st.apply(&c, opts[0]);
    assert_eq!(st.to_move(), Some(1));
}

#[test]
fn t6_1_five_of_a_colour_in_the_display_are_set_aside_and_replaced() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    for slot in 1..5 {
        st.display[slot] = Some(tile(Colour::Village));
    }
    st.display[0] = Some(tile(Colour::Castle));
    st.display[5] = Some(tile(Colour::Quarry));
    st.display[6] = Some(tile(Colour::Cart));
    st.display[7] = Some(tile(Colour::City));
    st.seats[0].stack[0] = tile(Colour::Village); // the fifth village
    let aside = st.aside_len;
    st.apply(
        &c,
        Action::Take {
            slot: 0,
            discard: KEEP,
        },
    );
    assert!(st.aside_len - aside >= 5);
    let set_aside = &st.aside[aside as usize..aside as usize + 5];
    assert!(set_aside.iter().all(|t| t.colour() == Colour::Village));
    let villages = st
        .display
        .iter()
        .flatten()
        .filter(|t| t.colour() == Colour::Village)
        .count();
    assert!(villages < 5 && st.display.iter().flatten().count() == 8);
}

#[test]
fn t6_2_t6_3_an_empty_reserve_is_rebuilt_from_set_aside_neutral_tiles() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    st.reserve_len = 0;
    st.aside_len = 0;
    st.aside[0] = tile(Colour::Cart);
    st.aside[1] = cdsim_core::castles::Tile::new(Colour::Castle, 0, true);
    st.aside_len = 2;
    st.seats[0].drawn = 21;
    let boxed = st.boxed;
    st.apply(
        &c,
        Action::Take {
            slot: 0,
            discard: KEEP,
        },
    );
    assert_eq!(
        st.display[0].map(|t| (t.colour(), t.is_neutral())),
        Some((Colour::Castle, true))
    );
    assert_eq!(
        (st.boxed - boxed, st.aside_len, st.reserve_len),
        (1, 0, 0),
        "the coloured back left the game"
    );
    st.seats[1].drawn = 21;
    st.apply(
        &c,
        Action::Take {
            slot: 1,
            discard: KEEP,
        },
    );
    assert_eq!(st.display[1], None, "T6.3: nothing left, the gap stays");
}

#[test]
fn t7_2_every_way_to_pay_two_cards_pairs_and_workers() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    let red = Colour::City.index();
    hand(
        &mut st,
        0,
        &[(Colour::City, 1), (Colour::Farm, 4), (Colour::Cart, 1)],
    );
    st.seats[0].workers = 1;
    let pays = affordable(&st.seats[0], red);
    let farm = pair(Colour::Farm.index());
    let expect = vec![
        Payment { a: CARD, b: farm },
        Payment { a: CARD, b: WORKER },
        Payment { a: farm, b: farm }, // decision: two pairs of one colour
        Payment { a: farm, b: WORKER },
    ];
    assert_eq!(pays, expect);
    st.seats[0].workers = 2;
    hand(&mut st, 0, &[]);
    assert_eq!(
        affordable(&st.seats[0], red),
        vec![Payment {
            a: WORKER,
            b: WORKER
        }]
    );
    st.seats[0].workers = 0;
    hand(&mut st, 0, &[(Colour::Cart, 3), (Colour::City, 1)]);
    assert_eq!(
        affordable(&st.seats[0], red),
        vec![Payment {
            a: CARD,
            b: pair(Colour::Cart.index())
        }]
    );
    hand(&mut st, 0, &[(Colour::City, 2)]);
    assert_eq!(affordable(&st.seats[0], red), vec![TWO_CARDS]);
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::City, 1), (Colour::Cart, 1)]);
    assert!(
        !options(&st, &c)
            .iter()
            .any(|a| matches!(a, Action::Place { .. })),
        "unaffordable: not offered"
    );
    hand(&mut st, 0, &[(Colour::City, 1), (Colour::Cart, 2)]);
    place(
        &mut st,
        &c,
        3,
        Payment {
            a: CARD,
            b: pair(Colour::Cart.index()),
        },
    );
    assert_eq!(st.seats[0].hand_size(), 0);
    assert_eq!(st.discard[Colour::Cart.index()], 2);
    assert_eq!(
        st.seats[0].storage[0],
        Stored::Empty,
        "T7.1: from storage to the board"
    );
}

#[test]
fn t7_3_t7_4_a_tile_goes_next_to_a_tile_on_its_own_colour() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    store(&mut st, 0, Stored::Tile(tile(Colour::Farm)));
    hand(&mut st, 0, &[(Colour::Farm, 2)]);
    let spaces = |st: &CastlesState| -> Vec<u8> {
        options(st, &c)
            .iter()
            .filter_map(|a| {
                if let Action::Place { space, .. } = a {
                    Some(*space)
                } else {
                    None
                }
            })
            .collect()
    };
    assert_eq!(
        spaces(&st),
        vec![1],
        "farms 0, 1, 5 on A-1: only 1 touches the start castle"
    );
    cover(&mut st, 0, &[1]);
    assert_eq!(spaces(&st), vec![0, 5], "then the farms touching 1");
    store(&mut st, 0, Stored::Wood);
    assert_eq!(
        spaces(&st),
        vec![0, 5],
        "a wooden hex, paid with two farm cards: farms only"
    );
    st.seats[0].workers = 2;
    assert_eq!(
        spaces(&st),
        vec![0, 3, 5, 6, 7],
        "paid with two workers: any colour"
    );
}

#[test]
fn t7_5_a_completed_area_scores_1_3_6() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    // the city at 3 is an area of 1
    store(&mut st, 0, Stored::Tile(tile(Colour::City)));
    hand(&mut st, 0, &[(Colour::City, 2)]);
    place(&mut st, &c, 3, TWO_CARDS);
    assert_eq!(st.seats[0].green, 1);
    // the quarries 12 and 16 on B-1 are an area of 2
    turn(&mut st, 0);
    cover(&mut st, 0, &[11]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Quarry)));
    hand(&mut st, 0, &[(Colour::Quarry, 4)]);
    place(&mut st, &c, 12, TWO_CARDS);
    assert_eq!(st.seats[0].green, 1, "half an area: nothing");
    turn(&mut st, 0);
    store(&mut st, 0, Stored::Tile(tile(Colour::Quarry)));
    place(&mut st, &c, 16, TWO_CARDS);
    assert_eq!(st.seats[0].green, 4);
    assert_eq!(
        st.seats[0].green_by[VpSource::Area as usize],
        4,
        "from areas"
    );
}

#[test]
fn t7_6_areas_stop_at_a_pieces_edge() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    // laid flat, B-1's cart 19 (bottom of its right column) touches C-1's cart 24
    let s = &st.seats[0];
    assert_eq!(
        (s.colour[19], s.colour[24]),
        (Colour::Cart as u8, Colour::Cart as u8)
    );
    assert_ne!(c.tables().adjacency[FLAT as usize][19] & 1 << 24, 0);
    assert_eq!(
        (s.area(&c, 19), s.area(&c, 24)),
        (1 << 19, 1 << 24),
        "two areas of 1"
    );
    cover(&mut st, 0, &[14]);
    store(&mut st, 0, Stored::Tile(tile(Colour::Cart)));
    hand(&mut st, 0, &[(Colour::Cart, 2)]);
    place(&mut st, &c, 19, TWO_CARDS);
    assert_eq!(
        st.seats[0].green_by[VpSource::Area as usize],
        1,
        "complete with 24 still empty"
    );
}

#[test]
fn t7_2_two_workers_pay_for_any_colour() {
    let c = comps();
    let mut st = ready(&c, 2, 3);
    store(&mut st, 0, Stored::Tile(tile(Colour::Estate)));
    hand(&mut st, 0, &[]);
    st.seats[0].workers = 2;
    place(
        &mut st,
        &c,
        7,
        Payment {
            a: WORKER,
            b: WORKER,
        },
    );
    assert_eq!(st.seats[0].workers, 0);
}

#[test]
fn t5_6_t6_3_a_sweep_that_brings_nothing_back_ends_the_action() {
    let c = comps();
    let mut st = ready(&c, 2, 1);
    st.display = [Some(tile(Colour::Quarry)); 8]; // own backs: none returns to the reserve
    st.reserve_len = 0;
    st.aside_len = 0;
    st.apply(&c, Action::Sweep(Colour::Quarry));
    assert_eq!(st.display, [None; 8]);
    assert_eq!(st.to_move(), Some(1), "no tile to take: the turn passes");
}
