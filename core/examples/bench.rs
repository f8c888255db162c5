//! Release-mode speed figures: `cargo run --release --example bench [GAMES]`.
//! Per 4-player game of random players and of the scripted mix (greedy, villa,
//! landscape, bread), and a copy of a mid-game state; then The Castles of Tuscany's
//! scripted 4-player games through the same generic driver (`castles_per_game`).

use std::hint::black_box;
use std::time::Instant;

use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::game::{GameConfig, GameState, Options};
use cdsim_core::play::{play_game, run, step};
use cdsim_core::carpe_diem::players::{make, Player};
use cdsim_core::rng::SeedSequence;

fn lineup(names: &[&str]) -> Vec<Player> {
    names.iter().map(|n| make(n, &[]).unwrap()).collect()
}

fn per_game(comps: &Components, names: &[&str], games: u64) -> f64 {
    per_game_with(comps, names, games, &[])
}

/// Seconds per game; `seat0` overrides the first seat's parameters (an mcts budget).
fn per_game_with(comps: &Components, names: &[&str], games: u64, seat0: &[(String, f64)]) -> f64 {
    let config = GameConfig::new(names.len());
    let start = Instant::now();
    let mut total = 0i64;
    for s in 0..games {
        let mut players = lineup(names);
        players[0] = make(names[0], seat0).unwrap();
        let record = play_game(
            comps,
            &config,
            &mut players,
            SeedSequence::new(u128::from(s), &[]),
        );
        total += record.seats[0].final_vp;
    }
    black_box(total);
    start.elapsed().as_secs_f64() / games as f64
}

fn main() {
    let games: u64 = std::env::args().nth(1).map_or(2000, |a| a.parse().unwrap());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    per_game(&comps, &["random"; 4], 100); // warm up
    let random = per_game(&comps, &["random"; 4], games);
    let mix = ["greedy", "villa", "landscape", "bread"];
    let scripted = per_game(&comps, &mix, games);
    let greedy2 = per_game(&comps, &["greedy"; 2], games);
    println!("random 4p:        {:8.1} us/game", random * 1e6);
    println!("scripted mix 4p:  {:8.1} us/game", scripted * 1e6);
    println!("greedy 2p:        {:8.1} us/game", greedy2 * 1e6);
    println!("setup 4p:         {:8.1} us", setup_only(&comps) * 1e6);
    let castles = castles_per_game(games);
    println!("castles scripted 4p: {:8.1} us/game ({:.0} games/s on one core)", castles * 1e6,
             1.0 / castles);
    // the search player's cost per game at several budgets (one mcts seat, the rest greedy)
    let mcts_games: u64 = std::env::var("CDSIM_BENCH_MCTS_GAMES")
        .map_or(4, |v| v.parse().unwrap());
    for players in [2usize, 4] {
        let mut names = vec!["greedy"; players];
        names[0] = "mcts";
        for budget in [30.0, 120.0, 480.0] {
            let seat0 = [("playouts".to_string(), budget)];
            let t = per_game_with(&comps, &names, mcts_games, &seat0);
            println!(
                "mcts@{budget} + {} greedy: {:8.3} s/game ({:.0}x the scripted mix 4p game)",
                players - 1,
                t,
                t / scripted
            );
        }
    }

    // a mid-game state: phase 2, half-way through
    let config = GameConfig::new(4);
    let (mut state, mut rngs) = GameState::new(&comps, &config, SeedSequence::new(7, &[]));
    let mut players = lineup(&mix);
    let mut buf = Options::default();
    while !(state.phase == 1 && state.round == 3) {
        step(&mut state, &comps, &mut players, &mut rngs, &mut buf);
    }
    let copies = 200_000;
    let start = Instant::now();
    for _ in 0..copies {
        let copy: GameState = black_box(&state).clone();
        black_box(&copy);
    }
    let copy = start.elapsed().as_secs_f64() / copies as f64;
    println!(
        "state copy:       {:8.3} us ({} bytes)",
        copy * 1e6,
        std::mem::size_of::<GameState>()
    );
    // play on from the copy with the same players and streams: the same end
    let mut a = state.clone();
    let mut ra = rngs.clone();
    run(&mut a, &comps, &mut players, &mut ra);
    let start = Instant::now();
    let playouts = 1000;
    for _ in 0..playouts {
        let mut b = state.clone();
        let mut rb = rngs.clone();
        let mut randoms = lineup(&["random"; 4]);
        run(&mut b, &comps, &mut randoms, &mut rb);
        black_box(&b);
    }
    let playout = start.elapsed().as_secs_f64() / playouts as f64;
    println!(
        "random playout from mid-game copy: {:8.1} us",
        playout * 1e6
    );
}

fn setup_only(comps: &Components) -> f64 {
    let config = GameConfig::new(4);
    let n = 20000;
    let start = Instant::now();
    for s in 0..n {
        let (state, rngs) = GameState::new(comps, &config, SeedSequence::new(s as u128, &[]));
        black_box((&state, &rngs));
    }
    start.elapsed().as_secs_f64() / n as f64
}

/// Seconds per 4-player game of The Castles of Tuscany, its four scripted styles
/// (game g from `SeedSequence(g)`), through the generic driver.
fn castles_per_game(games: u64) -> f64 {
    use cdsim_core::castles::{roster, CastlesState};
    use cdsim_core::games::{Game, Outcome};
    let comps = cdsim_core::castles::Components::builtin();
    let config = CastlesState::config(4, &[0; 4], false).unwrap();
    let names = ["greedy", "castle-monastery", "trade-workers", "animal-farms"];
    let start = Instant::now();
    let mut total = 0i64;
    for g in 0..games {
        let mut lineup: Vec<_> = names.iter().map(|n| roster::make(n, &[]).unwrap()).collect();
        let outcome = play_game(&comps, &config, &mut lineup, SeedSequence::new(u128::from(g), &[]));
        total += outcome.vp(0);
    }
    black_box(total);
    start.elapsed().as_secs_f64() / games as f64
}
