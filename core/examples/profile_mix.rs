//! A loop of scripted-mix games for a profiler: `profile_mix [GAMES] [NAMES] [WEIGHTS]`
//! (WEIGHTS: a learned weights file the `learned` seats play with; a name may carry
//! settings, `learned@pin=1@top_k=3`).
use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::make;
use cdsim_core::rng::SeedSequence;

fn main() {
    let games: u64 = std::env::args().nth(1).map_or(3000, |a| a.parse().unwrap());
    let names: Vec<String> = std::env::args().nth(2).map_or(
        vec![
            "greedy".into(),
            "villa".into(),
            "landscape".into(),
            "bread".into(),
        ],
        |a| a.split(',').map(String::from).collect(),
    );
    let weights: Vec<(String, f64)> = std::env::args().nth(3).map_or(Vec::new(), |path| {
        let text = std::fs::read_to_string(&path).unwrap();
        let id = cdsim_core::carpe_diem::players::learned::register(&text).unwrap();
        vec![("weights".into(), id as f64)]
    });
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let config = GameConfig::new(names.len());
    let mut total = 0;
    for s in 0..games {
        let mut players: Vec<_> = names
            .iter()
            .map(|n| {
                // NAME@key=value@key=value: settings of the player
                let mut parts = n.split('@');
                let name = parts.next().unwrap();
                let mut settings: Vec<(String, f64)> =
                    if name == "learned" { weights.clone() } else { Vec::new() };
                for p in parts {
                    let (k, v) = p.split_once('=').unwrap();
                    settings.push((k.to_string(), v.parse().unwrap()));
                }
                make(name, &settings).unwrap()
            })
            .collect();
        total += play_game(
            &comps,
            &config,
            &mut players,
            SeedSequence::new(u128::from(s), &[]),
        )
        .seats[0]
            .final_vp;
    }
    println!("{total}");
}
