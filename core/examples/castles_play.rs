//! Play N games of The Castles of Tuscany and print the mean VP per seat and games/s:
//! `cargo run --release --example castles_play -- [N] [LINEUP]`, LINEUP a comma-separated
//! list of player names (one per seat; default four greedy seats). Game g uses
//! `SeedSequence(0, [g])`. The timing is for reading by eye, not a test.

use std::time::Instant;

use cdsim_core::castles::players::{by_name, play_game, PLAYER_NAMES};
use cdsim_core::castles::Components;
use cdsim_core::rng::SeedSequence;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = match args.get(1).map(|a| a.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!(
                "castles_play: N must be a whole number of games, got {:?}",
                args[1]
            );
            std::process::exit(2);
        }
    };
    let lineup = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "greedy,greedy,greedy,greedy".into());
    let names: Vec<&str> = lineup.split(',').collect();
    if !(2..=4).contains(&names.len()) || names.iter().any(|n| by_name(n).is_none()) {
        eprintln!(
            "castles_play: LINEUP needs 2 to 4 of {}, got {lineup:?}",
            PLAYER_NAMES.join(", ")
        );
        std::process::exit(2);
    }
    let comps = Components::builtin();
    let mut total = vec![0i64; names.len()];
    let mut wins = vec![0u64; names.len()];
    let start = Instant::now();
    for g in 0..games {
        let mut players: Vec<_> = names.iter().map(|n| by_name(n).expect("checked")).collect();
        let state = play_game(&comps, &mut players, SeedSequence::new(0, &[g]), 100_000);
        for (seat, vp) in state.vp().iter().enumerate() {
            total[seat] += *vp as i64;
        }
        for (seat, place) in state.places().iter().enumerate() {
            wins[seat] += (*place == 0) as u64;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    for (seat, name) in names.iter().enumerate() {
        println!(
            "seat {} {name:>16}: mean VP {:6.2}  wins {:5.1}%",
            seat + 1,
            total[seat] as f64 / games as f64,
            100.0 * wins[seat] as f64 / games as f64
        );
    }
    println!(
        "{games} games in {secs:.2} s: {:.0} games/s",
        games as f64 / secs
    );
}
