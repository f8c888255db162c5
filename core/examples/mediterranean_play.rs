//! Play N games of the Mediterranean game through the seam's generic driver
//! (`play::play_game`) and print, per seat, the mean VP, wins, contracts delivered and
//! extra turns, and games/s on one core:
//! `cargo run --release --example mediterranean_play -- [N] [LINEUP]`, LINEUP a
//! comma-separated list of 3 to 5 player names (default four greedy seats), a scripted one
//! with weights of its own as `gold-first@gold=1.2@temple=1.0`. Game g uses
//! `SeedSequence(0, [g])`. The timing is for reading by eye, not a test.

use std::time::Instant;

use cdsim_core::games::{Game, Outcome};
use cdsim_core::mediterranean::players::{make, PLAYER_NAMES};
use cdsim_core::mediterranean::{Components, MedState};
use cdsim_core::play::play_game;
use cdsim_core::rng::SeedSequence;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = match args.get(1).map(|a| a.parse()) {
        None => 1000,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("mediterranean_play: N must be a whole number of games, got {:?}", args[1]);
            std::process::exit(2);
        }
    };
    let lineup = args.get(2).cloned().unwrap_or_else(|| "greedy,greedy,greedy,greedy".into());
    let names: Vec<&str> = lineup.split(',').collect();
    let specs: Option<Vec<Spec>> = names.iter().map(|n| spec(n)).collect();
    let specs = match specs {
        Some(s) if (3..=5).contains(&s.len())
            && s.iter().all(|(name, o)| make(name, o).is_ok()) => s,
        _ => {
            eprintln!("mediterranean_play: LINEUP needs 3 to 5 of {} (name@weight=value \
                       for a scripted one's weights), got {lineup:?}", PLAYER_NAMES.join(", "));
            std::process::exit(2);
        }
    };
    let comps = Components::builtin();
    let config = MedState::config(names.len(), &vec![0; names.len()], false)
        .expect("3 to 5 seats, checked");
    let n = names.len();
    let (mut vp, mut wins, mut delivered, mut extras) =
        (vec![0i64; n], vec![0u64; n], vec![0i64; n], vec![0i64; n]);
    let mut shared = 0u64;
    let start = Instant::now();
    for g in 0..games {
        let mut players: Vec<_> =
            specs.iter().map(|(n, o)| make(n, o).expect("checked")).collect();
        let s = play_game::<MedState, _>(&comps, &config, &mut players, SeedSequence::new(0, &[g]));
        for seat in 0..n {
            vp[seat] += s.vp(seat);
            wins[seat] += u64::from(s.rank(seat) == 1);
            delivered[seat] += s.delivered[seat];
            extras[seat] += s.extras[seat];
        }
        shared += u64::from(s.tiebreak);
    }
    let secs = start.elapsed().as_secs_f64();
    let per = |x: i64| x as f64 / games as f64;
    for (seat, name) in names.iter().enumerate() {
        println!("seat {} {name:>16}: mean VP {:6.2}  wins {:5.1}%  delivered {:5.2}/15  \
                  extra turns {:4.2}", seat + 1, per(vp[seat]),
                 100.0 * wins[seat] as f64 / games as f64, per(delivered[seat]),
                 per(extras[seat]));
    }
    println!("shared victories (decided by play order): {:.1}%",
             100.0 * shared as f64 / games as f64);
    println!("{games} games in {secs:.2} s: {:.0} games/s on one core", games as f64 / secs);
}

/// A player's name and its settings.
type Spec<'a> = (&'a str, Vec<(String, f64)>);

/// `name@key=value@...`: a player's name and its settings, `None` if one is not a number.
fn spec(text: &str) -> Option<Spec<'_>> {
    let mut parts = text.split('@');
    let name = parts.next()?;
    let settings = parts.map(|p| {
        let (k, v) = p.split_once('=')?;
        Some((k.to_string(), v.parse().ok()?))
    }).collect::<Option<Vec<_>>>()?;
    Some((name, settings))
}
