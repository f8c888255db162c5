//! M2 (setup) and M4 (the contract phase) of docs/rules-mediterranean.md, each test
//! named for its rule.

mod mediterranean_common;
use mediterranean_common::*;

use cdsim_core::games::Game;
use cdsim_core::mediterranean::components::Sea;
use cdsim_core::mediterranean::contracts_order;
use cdsim_core::mediterranean::{Action, MedState, Pending, Phase, Status};

#[test]
fn m2_1_three_to_five_seats() {
    for n in [0, 1, 2, 6] {
        let err = MedState::config(n, &vec![0; n], false).unwrap_err();
        assert!(err.contains("3, 4 or 5"), "{err}");
    }
    assert!(MedState::config(4, &[0; 3], false).unwrap_err().contains("one start VP"));
    for n in 3..=5 {
        assert_eq!(game(&comps(), n, 1).seats.len(), n);
    }
}

#[test]
fn m2_3_distance_tiles_by_kind_at_random() {
    let c = comps();
    let t = c.tables();
    let of = |s: &MedState, kind: Sea| {
        let mut v: Vec<u8> = t.routes.iter().zip(&s.miles).filter(|(r, _)| r.2 == kind)
            .map(|(_, &m)| m).collect();
        v.sort_unstable();
        v
    };
    let mut coastal = t.coastal_tiles.clone();
    coastal.sort_unstable();
    let mut open = t.open_tiles.clone();
    open.sort_unstable();
    let games: Vec<MedState> = (0..8).map(|s| game(&c, 4, s)).collect();
    for g in &games {
        assert_eq!(of(g, Sea::Coastal), coastal);
        assert_eq!(of(g, Sea::OpenSea), open);
    }
    assert!(games.iter().any(|g| g.miles != games[0].miles), "tiles placed at random");
}

#[test]
fn m2_4_to_m2_6_setup_of_each_seat_and_the_row() {
    let c = comps();
    let t = c.tables();
    for n in 3..=5 {
        let g = game(&c, n, 3);
        for (i, s) in g.seats.iter().enumerate() {
            assert_eq!(s.gold, 5);
            assert_eq!(s.ship, city(&c, "Crete"));
            assert_eq!(s.hand, vec![t.individual_card(i, 0), t.individual_card(i, 1)]);
            assert!(s.temple.iter().all(|&p| p == 0));
            assert!(s.register.iter().all(|col| col.status == Status::Empty));
        }
        assert_eq!(g.wind, 5, "M2.5");
        assert_eq!(g.forecast, None);
        assert_eq!(g.bank, 55 - 5 * n as i32, "M2.7");
        assert_eq!(g.row.len(), n + 1, "M4.1");
        assert_eq!(g.city_deck.len(), 30 - (n + 1));
        assert_eq!(g.rowing_deck.len(), 50 - (n + 1));
        let mut order = g.order.clone();
        order.sort_unstable();
        assert_eq!(order, (0..n as u8).collect::<Vec<_>>());
    }
    let orders: Vec<Vec<u8>> = (0..10).map(|s| game(&c, 4, s).order).collect();
    assert!(orders.iter().any(|o| *o != orders[0]), "M2.6: the play order is drawn");
}

#[test]
fn m4_2_m4_3_turning_up_refusing_and_the_forced_last() {
    let c = comps();
    let mut g = game(&c, 4, 5);
    let first = g.order[0];
    // M4.2: nothing face up: the leftmost is turned up for the first seat
    assert_eq!(g.pending, Pending::Turned { seat: first, offer: 0 });
    assert!(g.row[0].face_up && g.row[1..].iter().all(|o| !o.face_up));
    for k in 0..4u8 {
        let opts = options(&g, &c);
        assert!(opts.contains(&Action::Refuse));
        assert!(opts.iter().all(|a| matches!(a, Action::Refuse)
            || matches!(a, Action::Take { offer, .. } if *offer == k)),
            "only the contract just turned up, or refuse it: {opts:?}");
        g.apply(&c, Action::Refuse);
        assert_eq!(g.pending, Pending::Turned { seat: first, offer: k + 1 });
    }
    // M4.3: the last one must be taken
    let opts = options(&g, &c);
    assert!(!opts.contains(&Action::Refuse));
    assert_eq!(opts.len(), 5, "one option per free column");
    g.apply(&c, opts[2]);
    assert_eq!(g.seats[first as usize].register[2].status, Status::Open, "M4.6");
    // M4.5: only face-up contracts left: the next seat must take one of them
    let second = g.order[1];
    assert_eq!(g.pending, Pending::Choose { seat: second });
    let opts = options(&g, &c);
    assert!(!opts.contains(&Action::Turn));
    assert_eq!(opts.len(), 4 * 5, "four face-up contracts, five free columns");
}

#[test]
fn m4_4_face_up_or_turn_the_next_then_only_that_one() {
    let c = comps();
    let mut g = game(&c, 4, 6);
    g.apply(&c, Action::Refuse); // offer 0 face up, refused by the first seat
    g.apply(&c, Action::Take { offer: 1, column: 0 });
    let second = g.order[1];
    assert_eq!(g.pending, Pending::Choose { seat: second });
    let opts = options(&g, &c);
    assert!(opts.contains(&Action::Turn));
    // M4.11: the refused contract is open to the others
    assert!(opts.contains(&Action::Take { offer: 0, column: 0 }));
    g.apply(&c, Action::Turn);
    assert_eq!(g.pending, Pending::Turned { seat: second, offer: 1 });
    let opts = options(&g, &c);
    assert!(opts.iter().all(|a| !matches!(a, Action::Take { offer: 0, .. })),
            "once turning up, the older face-up contracts are gone for this seat");
}

#[test]
fn m4_6_m4_7_loading_the_token_and_the_rowing_card() {
    let c = comps();
    let t = c.tables();
    let mut g = game(&c, 3, 8);
    let seat = g.order[0] as usize;
    let o = g.row[0];
    g.apply(&c, Action::Take { offer: 0, column: 3 });
    let s = &g.seats[seat];
    assert_eq!((s.register[3].city, s.register[3].goods), (o.city, o.goods));
    assert!(s.hand.contains(&o.rowing), "the rowing card joins the hand");
    assert_eq!(g.track, vec![(t.rowing[o.rowing as usize].power, seat as u8)]);
    assert!(!options(&g, &c).is_empty());
}

#[test]
fn m4_8_next_order_lowest_first_top_of_a_stack_first() {
    // tokens placed: a on 5, b on 3, c on 5, d on 3 -> d (on b), b, c (on a), a
    let track = [(5, 0), (3, 1), (5, 2), (3, 3)];
    assert_eq!(contracts_order(&track), vec![3, 1, 2, 0]);
    // in play: the order after a contract turn follows the cards taken
    let c = comps();
    let t = c.tables();
    let mut g = game(&c, 4, 9);
    let mut placed = Vec::new();
    while g.turn == 0 {
        let seat = g.current_seat().unwrap() as u8;
        let a = options(&g, &c)[0];
        if let Action::Take { offer, .. } = a {
            placed.push((t.rowing[g.row[offer as usize].rowing as usize].power, seat));
        }
        g.apply(&c, a);
    }
    assert_eq!(g.order, contracts_order(&placed));
}

#[test]
fn m4_9_the_contract_left_over_turned_up_then_gathering_coins() {
    let c = comps();
    let mut g = game(&c, 3, 10);
    // everyone takes the first contract turned up: the last one is never turned up
    while g.turn == 0 {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    assert_eq!(g.row.len(), 4);
    assert!(g.row[0].face_up && g.row[0].gold == 0, "turned up, no coin");
    let left = g.row[0];
    // the next turn no one takes it: it gathers a coin
    while g.turn == 1 {
        let a = *options(&g, &c).iter()
            .find(|a| !matches!(a, Action::Take { offer: 0, .. })).unwrap();
        g.apply(&c, a);
    }
    assert_eq!((g.row[0].city, g.row[0].gold), (left.city, 1));
    let bank = g.bank;
    // the first seat takes it with its coin
    let seat = g.order[0] as usize;
    let gold = g.seats[seat].gold;
    choose(&mut g, &c, |a| matches!(a, Action::Take { offer: 0, .. }));
    assert_eq!(g.seats[seat].gold, gold + 1);
    assert_eq!(g.bank, bank);
}

#[test]
fn m4_10_five_contract_turns_then_delivery() {
    let c = comps();
    for n in 3..=5 {
        let mut g = game(&c, n, 11);
        while g.phase == Phase::Contracts {
            let a = options(&g, &c)[0];
            g.apply(&c, a);
        }
        for s in &g.seats {
            assert_eq!(s.count(Status::Open), 5);
            assert_eq!(s.hand.len(), 7, "two individual cards and five taken");
        }
        assert_eq!(g.row.len(), 1, "one contract left over");
        assert!(matches!(g.pending, Pending::Pick { .. }));
    }
}
