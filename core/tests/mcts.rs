//! The search player (players/mcts.rs): legal, reproducible games; decisions blind to the
//! starting VP (R2.7) and to the order of the decks; its budget; greedy at one playout.
//! Small budgets keep these fast in a debug build; strength is measured by
//! `examples/mcts_strength.rs`, not here.

mod common;

use std::sync::{Arc, Mutex};

use cdsim_core::carpe_diem::game::{GameConfig, GameState, List, Options, Pending};
use cdsim_core::play::{play_game, step};
use cdsim_core::carpe_diem::players::mcts::SearchReport;
use cdsim_core::carpe_diem::players::{make, MctsParams, MctsPlayer, Player, PlayerView, Strategy};
use cdsim_core::carpe_diem::records::GameRecord;
use cdsim_core::rng::SeedSequence;
use common::{comps, Logged, START_VP_COLUMNS};

fn mcts(playouts: u32) -> MctsPlayer {
    MctsPlayer::new(MctsParams {
        playouts,
        ..MctsParams::default()
    })
}

/// A decision of a search player: method, index chosen, its search's report.
type Decision = (&'static str, usize, Option<SearchReport>);
type Log = Arc<Mutex<Vec<Decision>>>;

/// One game with a logged search player in seat 0 and built-ins in the other seats.
fn logged_game(
    config: &GameConfig,
    others: &[&str],
    playouts: u32,
    seed: u64,
) -> (Vec<Decision>, GameRecord) {
    let c = comps();
    let log: Log = Arc::default();
    let mut players = vec![Player::Other(Box::new(Logged {
        inner: mcts(playouts),
        note: {
            let log = log.clone();
            move |inner: &MctsPlayer, what: &'static str, i: usize| {
                log.lock()
                    .unwrap()
                    .push((what, i, inner.last_search().cloned()));
            }
        },
    }))];
    players.extend(others.iter().map(|n| make(n, &[]).unwrap()));
    let record = play_game(
        &c,
        config,
        &mut players,
        SeedSequence::new(u128::from(seed), &[]),
    );
    let decisions = log.lock().unwrap().clone();
    (decisions, record)
}

#[test]
fn mcts_games_are_legal_and_a_seed_replays_its_game() {
    // checking mode verifies every invariant after every action; the engine rejects
    // any index out of range
    let c = comps();
    let mut config = GameConfig::new(3);
    config.check = true;
    let play = |seed: u64| {
        let mut players = vec![
            make("greedy", &[]).unwrap(),
            make("mcts", &[("playouts".into(), 6.0)]).unwrap(),
            make("bread", &[]).unwrap(),
        ];
        play_game(
            &c,
            &config,
            &mut players,
            SeedSequence::new(u128::from(seed), &[]),
        )
    };
    let a = play(4);
    assert_eq!(a.seats[1].strategy, "mcts");
    assert_eq!(a.seats[1].tiles_taken, 28); // R4.6: 7 a phase
    assert_eq!(a, play(4));
    assert_ne!(a, play(5));
}

#[test]
fn one_playout_plays_the_greedy_profile() {
    // with one simulation the only tried option is the best ranked one, greedy's own
    // choice; the decisions that are not searched follow greedy's rule
    let c = comps();
    for names in [
        vec!["greedy", "villa"],
        vec!["greedy", "bread", "landscape", "greedy"],
    ] {
        let config = GameConfig::new(names.len());
        let mut greedy: Vec<Player> = names.iter().map(|n| make(n, &[]).unwrap()).collect();
        let mut searching: Vec<Player> = names.iter().map(|n| make(n, &[]).unwrap()).collect();
        searching[0] = make("mcts", &[("playouts".into(), 1.0)]).unwrap();
        let a = play_game(&c, &config, &mut greedy, SeedSequence::new(9, &[]));
        let mut b = play_game(&c, &config, &mut searching, SeedSequence::new(9, &[]));
        assert_eq!(b.seats[0].strategy, "mcts");
        b.seats[0].strategy = "greedy";
        assert_eq!(a, b, "{names:?}");
    }
}

#[test]
fn starting_vp_never_change_a_decision() {
    // R2.7: the same seed under two very different starting-VP vectors gives
    // the same decisions (and searches) and the same rows but for the VP that include
    // the start, and the ranks. Three players: the best other seat can change with them
    let free = START_VP_COLUMNS;
    let mut runs = Vec::new();
    for start in [[8, 9, 13, 0], [0, 60, -20, 0]] {
        let config = GameConfig {
            players: 3,
            start_vp: start,
            check: false,
        };
        let (decisions, record) = logged_game(&config, &["greedy", "bread"], 12, 5);
        runs.push((decisions, record.rows_json(5), start));
    }
    let (log_a, rows_a, start_a) = &runs[0];
    let (log_b, rows_b, start_b) = &runs[1];
    assert!(log_a.iter().filter(|d| d.2.is_some()).count() > 40);
    assert!(log_a == log_b);
    for (a, b) in rows_a.iter().zip(rows_b) {
        let strip = |row: &serde_json::Value| {
            let mut row = row.as_object().unwrap().clone();
            row.retain(|k, _| !free.contains(&k.as_str()));
            row
        };
        assert_eq!(strip(a), strip(b));
        let seat = a["seat"].as_u64().unwrap() as usize;
        let shift = i64::from(start_a[seat] - start_b[seat]);
        assert_eq!(
            a["final_vp"].as_i64().unwrap() - b["final_vp"].as_i64().unwrap(),
            shift
        );
    }
}

/// A copy of `state` whose light, dark and fountain decks lie in another order.
fn reordered(state: &GameState) -> GameState {
    fn reverse<const N: usize>(list: &List<N>) -> List<N> {
        let mut items = list.as_slice().to_vec();
        items.reverse();
        List::from_slice(&items)
    }
    let mut other = state.clone();
    other.light_deck = reverse(&state.light_deck);
    other.dark_deck = reverse(&state.dark_deck);
    other.fountain_deck = reverse(&state.fountain_deck);
    other
}

#[test]
fn the_search_never_reads_the_order_of_the_decks() {
    // the decks' order is the game's only hidden information: searched from a copy whose
    // decks lie in another order, with the same stream, every decision's search is the
    // same, visit for visit, and leaves the stream in the same place
    let c = comps();
    let config = GameConfig::new(2);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(8, &[]));
    let mut players: Vec<Player> = ["greedy", "greedy"]
        .iter()
        .map(|n| make(n, &[]).unwrap())
        .collect();
    let mut buf = Options::default();
    let mut compared = 0;
    while !state.is_over() {
        if state.pending.seat() == Some(0) && state.light_deck.len() > 1 {
            let view = PlayerView {
                state: &state,
                comps: &c,
                seat: 0,
            };
            let other = reordered(&state);
            assert_ne!(other.light_deck, state.light_deck);
            let seen = PlayerView {
                state: &other,
                comps: &c,
                seat: 0,
            };
            let (mut a, mut b) = (mcts(10), mcts(10));
            let (mut ra, mut rb) = (rngs[0].clone(), rngs[0].clone());
            let choices = match state.pending {
                Pending::Move { .. } | Pending::Take { .. } => {
                    state.options(&c, &mut buf);
                    (
                        a.choose(&view, &buf, &mut ra),
                        b.choose(&seen, &buf, &mut rb),
                    )
                }
                _ => (0, 0),
            };
            assert_eq!(choices.0, choices.1);
            assert_eq!(a.last_search(), b.last_search());
            assert_eq!(ra.integers(1 << 40), rb.integers(1 << 40));
            compared += usize::from(a.last_search().is_some());
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(compared > 20);
}

#[test]
fn each_search_spends_the_budget_and_a_take_continues_its_move() {
    // `playouts` simulations under every searched decision's root; the take that follows
    // a searched move in the same turn keeps the simulations made below it
    let (decisions, _) = logged_game(&GameConfig::new(2), &["villa"], 16, 3);
    let mut inherited = 0;
    let mut last = "";
    for (what, _, report) in &decisions {
        if let Some(r) = report {
            assert_eq!(r.inherited + r.simulations, 16, "{what}");
            assert_eq!(
                r.edges.iter().map(|e| e.0).sum::<u32>(),
                r.inherited + r.simulations
            );
            if *what == "move" || *what == "circle" || (*what == "take" && last != "move") {
                assert_eq!(r.inherited, 0, "{what} after {last}");
            }
            inherited += usize::from(r.inherited > 0);
        }
        last = if report.is_some() { what } else { "" };
    }
    let searched = |w: &str| {
        decisions
            .iter()
            .filter(|d| d.0 == w && d.2.is_some())
            .count()
    };
    assert!(searched("move") > 10 && searched("take") > 20 && searched("circle") == 4);
    assert!(inherited > 10);
}
