//! M6 (scoring), M7 (the end of a round) and M8 (the winner) of
//! docs/rules-mediterranean.md, with the rulebook's round-2 example by hand.

mod mediterranean_common;
use mediterranean_common::*;

use cdsim_core::games::{Game, Outcome};
use cdsim_core::mediterranean::state::Column;
use cdsim_core::mediterranean::{Components, MedState, Phase, Scores, Status};

/// A game at its first delivery turn, every register emptied (as after a round of
/// delivered contracts: `done` seats all five Done, the others none).
fn at_scoring(c: &Components, n: usize, round: u8, done: &[usize]) -> MedState {
    let mut g = to_delivery(c, n, 20);
    g.round = round;
    for (i, s) in g.seats.iter_mut().enumerate() {
        let status = if done.contains(&i) { Status::Done } else { Status::Lost };
        for col in &mut s.register {
            *col = Column { status, ..*col };
        }
        s.gold = 0;
    }
    // the register's cards already discarded for Done columns
    for i in 0..n {
        if done.contains(&i) {
            for col in g.seats[i].register {
                g.city_discard.push(col.city);
                g.goods_discard.push(col.goods);
            }
        }
    }
    g
}

#[test]
fn m6_1_a_bonus_tile_for_five_contracts_delivered() {
    let c = comps();
    let mut g = at_scoring(&c, 3, 0, &[1, 2]);
    // seat 2 lost one of its five: no bonus
    g.seats[2].register[4].status = Status::Lost;
    let pile = g.bonus_pile.len();
    g.score_round(&c);
    assert_eq!(g.seats[1].bonus, vec![2]);
    assert!(g.seats[0].bonus.is_empty() && g.seats[2].bonus.is_empty());
    assert_eq!(g.bonus_pile.len(), pile - 1);
}

#[test]
fn m6_2_m6_3_a_temples_tile_to_the_most_points_the_earlier_arrival_on_a_tie() {
    let c = comps();
    let h = region(&c, "Hispania");
    let mut g = at_scoring(&c, 3, 0, &[]);
    g.advance_temple(2, h, 4);
    g.advance_temple(0, h, 4); // arrives later: on top
    g.advance_temple(1, h, 2);
    g.score_round(&c);
    assert_eq!(g.seats[2].tiles, vec![(h as u8, 0, 3)], "round A: one tile, to the first");
    assert!(g.seats[0].tiles.is_empty() && g.seats[1].tiles.is_empty());
}

#[test]
fn m6_5_example_round_two_first_and_second_places() {
    // the rulebook's example: Peter leads and takes the 5; Becca and Ani tie, Becca
    // arrived first (her token below) and takes the 1
    let c = comps();
    let gr = region(&c, "Graecia");
    let (becca, ani, peter) = (0, 1, 2);
    let mut g = at_scoring(&c, 3, 1, &[]);
    g.advance_temple(becca, gr, 3);
    g.advance_temple(ani, gr, 3);
    g.advance_temple(peter, gr, 6);
    g.score_round(&c);
    assert_eq!(g.seats[peter].tiles, vec![(gr as u8, 1, 5)]);
    assert_eq!(g.seats[becca].tiles, vec![(gr as u8, 1, 1)]);
    assert!(g.seats[ani].tiles.is_empty());
    // round 3 pays three places: 7, 4, 2
    let mut g = at_scoring(&c, 4, 2, &[]);
    for (s, p) in [(0, 1), (1, 2), (2, 3), (3, 4)] {
        g.advance_temple(s, gr, p);
    }
    g.score_round(&c);
    let got: Vec<_> = (0..4).map(|s| g.seats[s].tiles.clone()).collect();
    assert_eq!(got, vec![vec![], vec![(gr as u8, 2, 2)], vec![(gr as u8, 2, 4)],
                         vec![(gr as u8, 2, 7)]]);
    assert_eq!(g.phase, Phase::Over, "the third round ends the game");
}

#[test]
fn m6_4_the_gold_temple_most_gold_then_play_order() {
    let c = comps();
    let gold = c.tables().gold_temple() as u8;
    let mut g = at_scoring(&c, 4, 1, &[]);
    let (a, b, d) = (g.order[3] as usize, g.order[1] as usize, g.order[0] as usize);
    g.seats[a].gold = 9;
    g.seats[b].gold = 9;
    g.seats[d].gold = 2;
    assert_eq!(g.gold_ranking(), vec![b, a, d], "b is earlier in play order");
    g.score_round(&c);
    assert_eq!(g.seats[b].tiles, vec![(gold, 1, 5)]);
    assert_eq!(g.seats[a].tiles, vec![(gold, 1, 1)]);
    assert!(g.seats[d].tiles.is_empty(), "round B has two places");
}

#[test]
fn m6_6_no_tile_for_zero() {
    let c = comps();
    let mut g = at_scoring(&c, 3, 2, &[]);
    g.advance_temple(1, 0, 1);
    g.score_round(&c);
    assert_eq!(g.seats[1].tiles.len(), 1);
    assert!(g.seats[0].tiles.is_empty() && g.seats[2].tiles.is_empty());
}

#[test]
fn m7_the_end_of_a_round() {
    let c = comps();
    let t = c.tables();
    let mut g = at_scoring(&c, 3, 0, &[0]);
    // seat 1 played an individual card and a deck card; its hand is kept
    let own = t.individual_card(1, 0);
    g.seats[1].hand.retain(|&x| x != own);
    let deck_card = g.seats[1].hand.pop().unwrap();
    g.seats[1].played = vec![own, deck_card];
    let hand = g.seats[1].hand.clone();
    let (tiles0, coins_on_row) = (g.seats[0].temple, g.row[0].gold);
    g.seats[2].ship = city(&c, "Roma");
    let bank = g.bank;
    g.advance_temple(0, 1, 2);
    g.score_round(&c);
    assert_eq!(g.round, 1);
    assert_eq!(g.seats[1].hand, hand, "M7.1: hands kept");
    assert!(g.boxed.contains(&own), "M7.1: the individual card to the box");
    assert!(g.seats.iter().all(|s| s.played.is_empty()));
    assert!(g.seats.iter().all(|s| s.ship == t.start), "M7.3: ships back to Crete");
    assert_eq!(g.seats[0].temple[1], tiles0[1] + 2, "M7.3: temple tokens stay");
    assert!(g.seats.iter().all(|s| s.register.iter().all(|c| c.status == Status::Open
        || c.status == Status::Empty)), "registers emptied, the new round dealing");
    assert_eq!(g.bank, bank + i32::from(coins_on_row), "M7.2: the row's coins back");
    // M7.2: the decks hold every card not in the new row or a hand
    assert_eq!(g.city_deck.len() + g.row.len(), 30);
    assert!(g.city_discard.is_empty() && g.goods_discard.is_empty());
    assert_eq!(g.rowing_deck.len() + g.row.len()
               + g.seats.iter().map(|s| s.hand.len()).sum::<usize>() + g.boxed.len(),
               t.deck_rowing + 3 * t.individual);
    assert_eq!(g.phase, Phase::Contracts);
    assert_eq!(g.wind, 5, "M7.5: the wind stays where it is");
}

fn tied_outcome(c: &Components) -> (MedState, Scores) {
    let mut g = at_scoring(c, 3, 2, &[]);
    g.seats[0].tiles = vec![(0, 0, 3), (1, 1, 5)];
    g.seats[1].tiles = vec![(2, 2, 7), (5, 0, 1)];
    g.seats[2].tiles = vec![(3, 2, 4)];
    g.seats[2].bonus = vec![2];
    let s = g.outcome(c, &["a", "b", "c"]);
    (g, s)
}

#[test]
fn m8_1_m8_2_most_points_win_a_tie_shared_the_rank_by_play_order() {
    let c = comps();
    let (g, s) = tied_outcome(&c);
    assert_eq!((0..3).map(|k| s.vp(k)).collect::<Vec<_>>(), vec![8, 8, 6]);
    assert_eq!(s.breakdown(1), vec![0, 7, 1, 0], "start, temples, gold temple, bonus");
    assert_eq!(s.breakdown(2), vec![0, 4, 0, 2]);
    assert_eq!(s.shared, vec![true, true, false]);
    assert!(s.tiebreak);
    let first = if g.place_in_order(0) < g.place_in_order(1) { 0 } else { 1 };
    assert_eq!(s.rank(first), 1);
    assert_eq!(s.rank(1 - first), 2);
    assert_eq!(s.rank(2), 3);
}

#[test]
fn m8_3_starting_vp_count_and_change_no_decision() {
    let c = comps();
    let names = ["greedy", "temple-majority", "long-haul", "gold-first"];
    let play_with = |vp: &[i32]| {
        let config = MedState::config(4, vp, true).unwrap();
        let mut players: Vec<_> = names.iter()
            .map(|n| cdsim_core::mediterranean::players::make(n, &[]).unwrap()).collect();
        cdsim_core::play::play_game::<MedState, _>(
            &c, &config, &mut players, cdsim_core::rng::SeedSequence::new(0, &[4]))
    };
    let a = play_with(&[0, 0, 0, 0]);
    let b = play_with(&[3, 0, -2, 9]);
    for k in 0..4 {
        assert_eq!(b.vp(k) - b.start_vp(k), a.vp(k), "the same game");
    }
    assert_eq!(b.start_vp(3), 9);
}

#[test]
fn m7_4_a_pile_that_runs_out_is_refilled_from_its_discards_shuffled() {
    let c = comps();
    let mut g = game(&c, 5, 17);
    // every city card not on offer goes to the discard pile: the next contract turn
    // draws its city cards from the discards, shuffled back into a new pile
    let drawn: Vec<u8> = g.city_deck.drain(..).collect();
    g.city_discard.extend(&drawn);
    while g.turn == 0 && g.phase == Phase::Contracts {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    assert_eq!((g.turn, g.phase), (1, Phase::Contracts));
    assert!(g.city_discard.is_empty(), "the discards became the pile");
    let mut every: Vec<u8> = g.city_deck.clone();
    every.extend(g.row.iter().map(|o| o.city));
    for s in &g.seats {
        every.extend(s.register.iter().filter(|col| col.status != Status::Empty).map(|col| col.city));
    }
    every.sort_unstable();
    let all: Vec<u8> = (0..c.tables().city_cards.len() as u8).collect();
    assert_eq!(every, all, "each city card once: drawn, on offer or loaded");
    assert_ne!(g.city_deck, drawn[..g.city_deck.len()].to_vec(), "shuffled, not in discard order");
}
