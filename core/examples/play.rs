//! Print the rows of games as JSON lines, one game per line (for comparing with the
//! Python engine): `play NAMES FIRST LAST [--setup] [--start-vp A,B,..] [--check]
//! [--params strategy.param=value,...]`.
//! NAMES is a comma-separated line-up (one name fills every seat, with --players N).
//! Game `s` for s in FIRST..LAST uses `SeedSequence(s)`, or with --setup
//! `SeedSequence(0, spawn_key=(s,))` as the runner does for run seed 0.

use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::make;
use cdsim_core::rng::SeedSequence;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names: Vec<&str> = args[1].split(',').collect();
    let first: u64 = args[2].parse().unwrap();
    let last: u64 = args[3].parse().unwrap();
    let mut players = names.len();
    let mut start_vp = None;
    let mut setup = false;
    let mut check = false;
    let mut params: Vec<(String, String, f64)> = Vec::new();
    let mut i = 4;
    while i < args.len() {
        match args[i].as_str() {
            "--players" => {
                players = args[i + 1].parse().unwrap();
                i += 1;
            }
            "--start-vp" => {
                let v: Vec<i32> = args[i + 1].split(',').map(|x| x.parse().unwrap()).collect();
                start_vp = Some(v);
                i += 1;
            }
            "--params" => {
                // strategy.param=value,... as --strategy-params
                for item in args[i + 1].split(',') {
                    let (key, value) = item.split_once('=').unwrap();
                    let (name, field) = key.split_once('.').unwrap();
                    params.push((name.into(), field.into(), value.parse().unwrap()));
                }
                i += 1;
            }
            "--setup" => setup = true,
            "--check" => check = true,
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut config = GameConfig::new(players);
    config.check = check;
    if let Some(v) = start_vp {
        config.start_vp[..v.len()].copy_from_slice(&v);
    }
    let names: Vec<&str> = if names.len() == 1 {
        vec![names[0]; players]
    } else {
        names
    };
    for s in first..last {
        let mut lineup: Vec<_> = names
            .iter()
            .map(|n| {
                let mine: Vec<(String, f64)> = params
                    .iter()
                    .filter(|(name, _, _)| name == n)
                    .map(|(_, f, v)| (f.clone(), *v))
                    .collect();
                make(n, &mine).unwrap()
            })
            .collect();
        let seq = if setup {
            SeedSequence::new(0, &[s])
        } else {
            SeedSequence::new(u128::from(s), &[])
        };
        let record = play_game(&comps, &config, &mut lineup, seq);
        println!(
            "{}",
            serde_json::to_string(&record.rows_json(s as i64)).unwrap()
        );
    }
}
