//! The learned player's own values of its move decisions' options, the rows the prior is
//! fitted to (`prior_fit`): `prior_data GAMES PLAYERS [FIRST]` plays GAMES self-play games
//! (seeds FIRST..) and prints one line an option: players, decision (game << 24 | seat <<
//! 20 | the seat's decision), the model's value, its copies, then the prior's inputs.
use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::players::learned::{record_games, PRIOR_INPUTS};

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let games: u64 = arg(1).map_or(10, |a| a.parse().expect("GAMES"));
    let n: usize = arg(2).map_or(4, |a| a.parse().expect("PLAYERS"));
    let first: u64 = arg(3).map_or(0, |a| a.parse().expect("FIRST"));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    println!("players,decision,value,copies,{}", PRIOR_INPUTS.join(","));
    for r in record_games(&comps, n, games, first) {
        let x: Vec<String> = r.inputs.iter().map(|v| format!("{v}")).collect();
        println!("{},{},{},{},{}", r.players, r.decision, r.value, r.copies, x.join(","));
    }
}
