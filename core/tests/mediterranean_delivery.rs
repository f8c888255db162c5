//! M5 (the delivery phase) of docs/rules-mediterranean.md, with the rulebook's worked
//! examples as hand-checked positions, each test named for its rule.

mod mediterranean_common;
use mediterranean_common::*;

use cdsim_core::mediterranean::state::Column;
use cdsim_core::mediterranean::{Action, Components, MedState, Pending, Phase, Status, NONE};

/// Every seat plays a card of `power`/`wind` 0 (replacing its hand), in play order.
fn lay_all(g: &mut MedState, c: &Components, faces: &[(u8, i8)]) {
    for (k, &(p, w)) in faces.iter().enumerate().take(g.n) {
        let seat = g.order[k] as usize;
        assert_eq!(g.pending, Pending::Pick { seat: seat as u8 });
        let card = rowing(c, p, w);
        g.seats[seat].hand = vec![card];
        g.apply(c, Action::Pick(card));
    }
}

/// Distances all `m` but the rulebook's: Crete - Tyros 8, Tyros - Alexandria `ta`.
fn example_miles(c: &Components, m: u8, ta: u8) -> Vec<u8> {
    let mut miles = vec![m; c.tables().routes.len()];
    miles[route(c, "Crete", "Tyros")] = 8;
    miles[route(c, "Tyros", "Alexandria")] = ta;
    miles
}

fn contract(c: &Components, city: &str, good: &str) -> Column {
    Column { city: city_card(c, city), goods: goods_card(c, good), status: Status::Open }
}

#[test]
fn m5_2_example_the_forecast_sums_the_cards_held_to_five() {
    let c = comps();
    let mut g = to_delivery(&c, 4, 1);
    // the rulebook's example: the cards shown sum to +2
    lay_all(&mut g, &c, &[(5, 1), (6, 2), (4, -1), (7, 0)]);
    assert_eq!(g.forecast, Some(2));
    assert_eq!(g.wind, 5, "the wind moves only after every seat sailed");
    let mut g = to_delivery(&c, 4, 1);
    lay_all(&mut g, &c, &[(5, 2), (6, 2), (4, 2), (7, 2)]);
    assert_eq!(g.forecast, Some(5), "held at +5");
    let mut g = to_delivery(&c, 4, 1);
    lay_all(&mut g, &c, &[(5, -2), (6, -2), (4, -2), (7, -1)]);
    assert_eq!(g.forecast, Some(-5), "held at -5");
}

#[test]
fn m5_3_example_range_is_rowing_power_plus_wind() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 2);
    // Jenny: a rowing power of 5 in the starting wind of 5 sails 10 miles
    lay_all(&mut g, &c, &[(5, 0), (4, 0), (4, 0)]);
    let jenny = g.order[0] as usize;
    assert_eq!(g.range(&c, jenny), 10);
    assert_eq!(g.range(&c, g.order[1] as usize), 9);
}

#[test]
fn m5_4_a_card_even_to_stay_and_m5_5_example_buying_the_missing_mile() {
    let c = comps();
    let t = c.tables();
    let mut g = to_delivery(&c, 3, 3);
    // the rulebook's Crete - Tyros is 8 and Becca's range 11 leaves her a mile short of
    // Alexandria: Tyros - Alexandria is 4 here (the example's picture says 3, which would
    // need no coin; docs/rules-mediterranean.md M5.5)
    g.set_miles(t, example_miles(&c, 13, 4));
    lay_all(&mut g, &c, &[(6, 0), (4, 0), (4, 0)]);
    let becca = g.order[0] as usize;
    assert_eq!(g.range(&c, becca), 11);
    let alexandria = city(&c, "Alexandria");
    g.seats[becca].register = [contract(&c, "Alexandria", "grapes"), Column::EMPTY,
                               Column::EMPTY, Column::EMPTY, Column::EMPTY];
    let opts = options(&g, &c);
    assert!(opts.contains(&Action::Sail { to: city(&c, "Crete"), deliver: NONE, buy: false }),
            "staying is sailing nowhere, the card played all the same");
    assert!(opts.contains(&Action::Sail { to: alexandria, deliver: 0, buy: false }));
    let gold = g.seats[becca].gold;
    let aegyptus = region(&c, "Aegyptus");
    g.apply(&c, Action::Sail { to: alexandria, deliver: 0, buy: false });
    let s = &g.seats[becca];
    assert_eq!(s.ship, alexandria);
    assert_eq!(s.gold, gold - 1, "one coin for the missing mile");
    // M5.6 example: grapes to Alexandria, 2 temple points in the yellow temple
    assert_eq!(s.temple[aegyptus], 2);
    assert_eq!(s.register[0].status, Status::Done);
    // a city beyond range and gold is no option: with 0 coins, only what 9 miles reach
    let next = g.order[1] as usize;
    g.seats[next].gold = 0;
    let opts = options(&g, &c);
    for a in &opts {
        if let Action::Sail { to, .. } = a {
            assert!(g.distance(t, t.start, *to) <= 9, "{a:?}");
        }
    }
}

#[test]
fn m5_6_gold_from_the_supply_and_m5_8_one_temple_point_for_three() {
    let c = comps();
    let t = c.tables();
    let mut g = to_delivery(&c, 3, 4);
    g.set_miles(t, example_miles(&c, 5, 3));
    lay_all(&mut g, &c, &[(6, 0), (4, 0), (4, 0)]);
    let seat = g.order[0] as usize;
    // a good Alexandria's card pays gold for
    let card = city_card(&c, "Alexandria");
    let face = t.city_cards[card as usize];
    let gold_good = (0..5).find(|&k| face.gold[k] > 0).unwrap();
    let name = t.good_names[gold_good].clone();
    g.seats[seat].register[0] = contract(&c, "Alexandria", &name);
    let alexandria = city(&c, "Alexandria");
    let (gold, bank) = (g.seats[seat].gold, g.bank);
    g.apply(&c, Action::Sail { to: alexandria, deliver: 0, buy: true });
    let pay = i32::from(face.gold[gold_good]);
    assert_eq!(g.seats[seat].gold, gold + pay - 3);
    assert_eq!(g.bank, bank - pay + 3);
    assert_eq!(g.seats[seat].temple[region(&c, "Aegyptus")], 1, "the point bought");
    // without a delivery nothing is bought; buying needs 3 coins after the reward
    let next = g.order[1] as usize;
    g.seats[next].gold = 0;
    g.seats[next].register[0] = contract(&c, "Alexandria", "grapes");
    let opts = options(&g, &c);
    assert!(opts.iter().all(|a| !matches!(a, Action::Sail { buy: true, .. })), "{opts:?}");
}

#[test]
fn m5_7_a_later_arrival_stacks_on_top() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 5);
    g.advance_temple(1, 0, 3);
    g.advance_temple(2, 0, 3);
    assert!(g.seats[1].arrived[0] < g.seats[2].arrived[0]);
    assert_eq!(g.temple_ranking(0), vec![1, 2]);
}

#[test]
fn m5_9_example_skipped_contracts_are_lost() {
    let c = comps();
    let t = c.tables();
    let mut g = to_delivery(&c, 3, 6);
    g.set_miles(t, example_miles(&c, 3, 3));
    lay_all(&mut g, &c, &[(8, 0), (4, 0), (4, 0)]);
    let becca = g.order[0] as usize;
    // Becca holds Saguntum then Pergamum: sailing to Pergamum loses Saguntum
    g.seats[becca].register = [contract(&c, "Saguntum", "olives"),
                               contract(&c, "Pergamum", "salt"), Column::EMPTY,
                               contract(&c, "Roma", "honey"), Column::EMPTY];
    let pergamum = city(&c, "Pergamum");
    assert!(g.distance(t, t.start, pergamum) <= 13);
    g.apply(&c, Action::Sail { to: pergamum, deliver: 1, buy: false });
    let s = &g.seats[becca];
    assert_eq!(s.register[0].status, Status::Lost);
    assert_eq!(s.register[1].status, Status::Done);
    assert_eq!(s.register[3].status, Status::Open, "those to the right stay");
    // M5.15: one contract a stop, even with two for the city
    let mut h = to_delivery(&c, 3, 6);
    lay_all(&mut h, &c, &[(8, 0), (4, 0), (4, 0)]);
    let seat = h.order[0] as usize;
    h.seats[seat].register[0] = contract(&c, "Tyros", "olives");
    h.seats[seat].register[1] = contract(&c, "Tyros", "salt");
    let tyros = city(&c, "Tyros");
    let delivers: Vec<u8> = options(&h, &c).iter().filter_map(|a| match a {
        Action::Sail { to, deliver, buy: false } if *to == tyros && *deliver != NONE => {
            Some(*deliver)
        }
        _ => None,
    }).collect();
    assert_eq!(delivers, vec![0, 1], "either, one at a time");
}

#[test]
fn m5_10_the_wind_takes_the_forecast_after_the_turn() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 7);
    lay_all(&mut g, &c, &[(5, -2), (5, -1), (5, 0)]);
    assert_eq!(g.forecast, Some(-3));
    for _ in 0..3 {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    assert_eq!(g.wind, 2, "the start (5) plus the forecast (-3)");
    assert_eq!(g.forecast, None);
    assert!(matches!(g.pending, Pending::Pick { .. }));
}

/// Play delivery turns by first options until the extra turns (or the next round).
fn to_extra(c: &Components, g: &mut MedState) {
    while g.phase == Phase::Delivery {
        let a = options(g, c)[0];
        g.apply(c, a);
    }
}

#[test]
fn m5_11_m5_12_extra_turns_for_open_contracts_in_the_fifth_turns_wind() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 8);
    // the fifth turn's forecast is not applied: record the wind it sailed in
    while !(g.turn == 4 && matches!(g.pending, Pending::Sail { .. })) {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    let fifth = g.wind;
    to_extra(&c, &mut g);
    assert_eq!(g.phase, Phase::Extra);
    assert_eq!(g.wind, fifth);
    let Pending::Extra { seat } = g.pending else { panic!("{:?}", g.pending) };
    assert!(g.may_extra(seat as usize));
    // every seat before it in play order may not
    let k = g.place_in_order(seat as usize);
    for &s in &g.order[..k] {
        assert!(!g.may_extra(s as usize));
    }
    let hand = g.seats[seat as usize].hand.len();
    g.apply(&c, Action::Extra(true));
    assert_eq!(g.pending, Pending::ExtraPick { seat });
    let a = options(&g, &c)[0];
    g.apply(&c, a);
    assert_eq!(g.seats[seat as usize].hand.len(), hand - 1);
    assert_eq!(g.seats[seat as usize].extras, 1);
    assert_eq!(g.pending, Pending::Sail { seat });
    // after the second extra turn every open contract is lost and the round scored
    while g.round == 0 {
        let opts = options(&g, &c);
        let a = *opts.iter().find(|a| **a == Action::Extra(true)).unwrap_or(&opts[0]);
        g.apply(&c, a);
    }
    assert!(g.seats.iter().all(|s| s.extras <= 2));
    assert_eq!(g.delivered.iter().zip(&g.lost).map(|(d, l)| d + l).sum::<u8>(), 15);
}

#[test]
fn m5_16_a_seat_that_passes_is_asked_again_and_an_empty_hand_never() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 9);
    to_extra(&c, &mut g);
    let Pending::Extra { seat } = g.pending else { panic!("{:?}", g.pending) };
    let mut asked = 0;
    while g.round == 0 && g.turn < 7 {
        if g.pending == (Pending::Extra { seat }) {
            asked += 1;
        }
        let opts = options(&g, &c);
        let a = if matches!(g.pending, Pending::Extra { .. }) { Action::Extra(false) }
                else { opts[0] };
        g.apply(&c, a);
    }
    assert_eq!(asked, 2, "asked in both extra turns");
    // a seat with an open contract but no card is not asked: with every hand empty
    // before the fifth turn's last sail, the round is scored at once
    let mut g = to_delivery(&c, 3, 9);
    while !(g.turn == 4 && g.pending == (Pending::Sail { seat: g.order[2] })) {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    assert!(g.seats.iter().any(|s| s.open().next().is_some()));
    for s in &mut g.seats {
        s.hand.clear();
    }
    let a = options(&g, &c)[0];
    g.apply(&c, a);
    assert_eq!((g.round, g.phase), (1, Phase::Contracts), "no extra turn asked");
}

#[test]
fn m5_1_the_cards_are_laid_face_down_in_play_order() {
    let c = comps();
    let mut g = to_delivery(&c, 5, 10);
    let t = c.tables();
    for k in 0..5 {
        let seat = g.order[k];
        assert_eq!(g.pending, Pending::Pick { seat });
        let opts = options(&g, &c);
        // one option per face in hand
        let mut faces: Vec<_> = g.seats[seat as usize].hand.iter()
            .map(|&x| (t.rowing[x as usize].power, t.rowing[x as usize].wind)).collect();
        faces.sort_unstable();
        faces.dedup();
        assert_eq!(opts.len(), faces.len());
        g.apply(&c, opts[0]);
    }
    assert!(g.seats.iter().all(|s| s.played.len() == 1), "all shown at once");
    assert!(matches!(g.pending, Pending::Sail { .. }));
    let _ = Column::EMPTY;
}

#[test]
fn m5_14_the_range_is_never_below_zero() {
    let c = comps();
    let mut g = to_delivery(&c, 3, 2);
    lay_all(&mut g, &c, &[(4, 0), (4, 0), (4, 0)]);
    let seat = g.order[0] as usize;
    // a wind no built-in set reaches: power 4 in a wind of -3 rows 1 mile, in -9 none
    g.wind = -3;
    assert_eq!(g.range(&c, seat), 1);
    g.wind = -9;
    assert_eq!(g.range(&c, seat), 0);
}

#[test]
fn m5_17_as_many_delivery_turns_as_contract_turns() {
    let c = comps();
    for n in 3..=5 {
        let mut g = to_delivery(&c, n, 40 + n as u64);
        let mut turns = Vec::new();
        while g.phase == Phase::Delivery {
            if turns.last() != Some(&g.turn) {
                turns.push(g.turn);
            }
            let a = options(&g, &c)[0];
            g.apply(&c, a);
        }
        let five = c.tables().contract_turns;
        assert_eq!(turns, (0..five).collect::<Vec<_>>(), "{n} seats");
        assert!(matches!(g.phase, Phase::Extra | Phase::Contracts | Phase::Over), "{:?}", g.phase);
    }
}
