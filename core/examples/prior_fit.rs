//! The built-in prior of `learned.prior`, made again: `prior_fit GAMES FIRST OUT` records
//! GAMES self-play games of the built-in `learned` at each of 2, 3 and 4 players (seeds
//! FIRST..) and writes the fitted prior to OUT (`make train-prior`).
use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::players::learned::fit_prior;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, games, first, out] = &args[..] else {
        eprintln!("usage: prior_fit GAMES FIRST OUT");
        std::process::exit(2);
    };
    let (Ok(games), Ok(first)) = (games.parse::<u64>(), first.parse::<u64>()) else {
        eprintln!("prior_fit: GAMES and FIRST are whole numbers");
        std::process::exit(2);
    };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let prior = fit_prior(&comps, games, first);
    let command = format!("cargo run --release --example prior_fit -- {games} {first} OUT");
    if let Err(e) = std::fs::write(out, prior.to_json(&command)) {
        eprintln!("prior_fit: {out}: {e}");
        std::process::exit(2);
    }
}
