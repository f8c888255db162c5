//! M5.1's hidden choice: a seat choosing its rowing card sees no earlier seat's card.
//! Every observation offered during that choice is read under every card an earlier
//! seat could have laid and must be the same; the built-in players choose the same; a
//! search's determinization keeps what the seat knows and redraws what it does not.

mod mediterranean_common;
use mediterranean_common::*;

use cdsim_core::games::Game;
use cdsim_core::mediterranean::players::make;
use cdsim_core::mediterranean::{Action, MedState, Pending};
use cdsim_core::players::View;
use cdsim_core::rng::{Generator, SeedSequence};

fn obs(g: &MedState, c: &cdsim_core::mediterranean::Components, seat: usize) -> String {
    serde_json::to_string(&g.observe(c, seat)).unwrap()
}

#[test]
fn m5_1_no_observation_shows_an_earlier_seats_laid_card() {
    let c = comps();
    for n in 3..=5 {
        for seed in 0..3 {
            let mut g = to_delivery(&c, n, seed);
            // a later delivery turn too: the hands differ
            if seed == 2 {
                for _ in 0..2 * n {
                    let a = options(&g, &c)[0];
                    g.apply(&c, a);
                }
            }
            let mut checked = 0;
            for k in 0..n {
                let picker = g.order[k] as usize;
                let opts = options(&g, &c);
                let states: Vec<MedState> = opts.iter().map(|&a| {
                    let mut h = g.clone();
                    h.apply(&c, a);
                    h
                }).collect();
                // after the last card all are shown at once (M5.2): no longer the choice
                let choosing = matches!(states[0].pending, Pending::Pick { .. });
                for h in states[1..].iter().filter(|_| choosing) {
                    for seat in (0..n).filter(|&s| s != picker) {
                        assert_eq!(obs(h, &c, seat), obs(&states[0], &c, seat),
                                   "seat {seat} reads seat {picker}'s card (step {k})");
                        checked += 1;
                    }
                }
                // the picker sees its own card
                if opts.len() > 1 {
                    assert_ne!(obs(&states[1], &c, picker), obs(&states[0], &c, picker));
                }
                g = states[0].clone();
            }
            assert!(checked > 0, "some seat had two faces to choose from");
        }
    }
}

#[test]
fn m5_1_the_built_in_players_choose_alike_whatever_an_earlier_seat_laid() {
    let c = comps();
    let names = ["greedy", "gold-first", "temple-majority", "long-haul", "random"];
    for seed in 0..4 {
        let g = to_delivery(&c, 4, seed);
        let first = g.order[0] as usize;
        let chooser = g.order[1] as usize;
        let states: Vec<MedState> = options(&g, &c).iter().map(|&a| {
            let mut h = g.clone();
            h.apply(&c, a);
            h
        }).collect();
        assert_eq!(states[0].pending, Pending::Pick { seat: chooser as u8 });
        for name in names.iter().copied().chain(["mcts"]) {
            let over: Vec<(String, f64)> =
                if name == "mcts" { vec![("playouts".into(), 24.0)] } else { vec![] };
            let picks: Vec<Action> = states.iter().map(|h| {
                let mut p = make(name, &over).unwrap();
                let opts = options(h, &c);
                let mut rng = Generator::new(&SeedSequence::new(5, &[seed]));
                opts[p.choose(&View { state: h, comps: &c, seat: chooser }, &opts, &mut rng)]
            }).collect();
            assert!(picks.iter().all(|&a| a == picks[0]),
                    "{name} read seat {first}'s laid card: {picks:?}");
        }
    }
}

#[test]
fn determinize_keeps_the_observation_and_redraws_the_hidden() {
    let c = comps();
    let mut g = to_delivery(&c, 4, 3);
    for _ in 0..2 {
        let a = options(&g, &c)[0];
        g.apply(&c, a);
    }
    let seat = g.current_seat().unwrap();
    let mut rng = Generator::new(&SeedSequence::new(9, &[]));
    let mut changed = false;
    for _ in 0..10 {
        let mut h = g.clone();
        h.determinize(&c, seat, &mut rng);
        assert_eq!(obs(&h, &c, seat), obs(&g, &c, seat));
        changed |= h.rowing_deck != g.rowing_deck;
        // the laid cards come from each seat's own hand and card
        let (mut x, mut y) = (h.clone(), g.clone());
        for s in [&mut x, &mut y] {
            let opts = options(s, &c);
            s.apply(&c, opts[0]);
            s.apply(&c, options(s, &c)[0]);
        }
        for s in 0..4 {
            let mut a = x.seats[s].hand.clone();
            a.extend(&x.seats[s].played);
            a.sort_unstable();
            let mut b = y.seats[s].hand.clone();
            b.extend(&y.seats[s].played);
            b.sort_unstable();
            assert_eq!(a, b);
        }
    }
    assert!(changed, "the deck's order is redrawn");
    // a contract face down is redrawn too
    let g = game(&c, 4, 3);
    let mut rng = Generator::new(&SeedSequence::new(9, &[]));
    let redrawn = (0..10).any(|_| {
        let mut h = g.clone();
        h.determinize(&c, 0, &mut rng);
        h.row[1].city != g.row[1].city
    });
    assert!(redrawn);
    assert!(obs(&g, &c, 0).contains("\"city\":null"), "a face-down contract shows nothing");
}
