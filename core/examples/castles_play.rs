//! Play N games of The Castles of Tuscany through the seam's generic driver
//! (`play::play_game`) and print the mean VP per seat and games/s on one core:
//! `cargo run --release --example castles_play -- [N] [LINEUP]`, LINEUP a comma-separated
//! list of player names (one per seat; default four greedy seats). Game g uses
//! `SeedSequence(0, [g])`. The timing is for reading by eye, not a test.

use std::time::Instant;

use cdsim_core::castles::roster::{make, PLAYER_NAMES};
use cdsim_core::castles::{CastlesState, Components};
use cdsim_core::games::{Game, Outcome};
use cdsim_core::play::play_game;
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
    if !(2..=4).contains(&names.len()) || names.iter().any(|n| make(n, &[]).is_err()) {
        eprintln!(
            "castles_play: LINEUP needs 2 to 4 of {}, got {lineup:?}",
            PLAYER_NAMES.join(", ")
        );
        std::process::exit(2);
    }
    let comps = Components::builtin();
    let config = CastlesState::config(names.len(), &vec![0; names.len()], false)
        .expect("2 to 4 seats, checked");
    let mut total = vec![0i64; names.len()];
    let mut wins = vec![0u64; names.len()];
    let start = Instant::now();
    for g in 0..games {
        let mut players: Vec<_> = names.iter().map(|n| make(n, &[]).expect("checked")).collect();
        let outcome = play_game::<CastlesState, _>(&comps, &config, &mut players,
                                                   SeedSequence::new(0, &[g]));
        for (seat, (total, wins)) in total.iter_mut().zip(&mut wins).enumerate() {
            *total += outcome.vp(seat);
            *wins += u64::from(outcome.rank(seat) == 1);
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
