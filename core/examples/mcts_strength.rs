//! The search player's strength and cost (release build):
//! `cargo run --release --example mcts_strength -- LINEUP GAMES [--params mcts.playouts=N,..]
//! [--seed S] [--threads T]`.
//!
//! LINEUP is one name per seat, comma-separated (e.g. `mcts,greedy`; `mcts@N` is mcts with
//! N playouts and `mcts@N@top_k=6` sets any parameter, so `mcts@50,mcts@200` compares
//! budgets). Setup `s` (dealt by
//! `SeedSequence(seed, spawn_key=(s,))`, as the runner) is played in every cyclic seat
//! rotation, so GAMES is rounded up to a multiple of the player count. Prints, per
//! strategy: win share (R10.6 tie-break included) with a 95% Wilson interval, mean VP
//! gained (final minus start), and the time per game: wall, and the process's CPU time
//! (Linux; with one thread it is the game's cost on one core, whatever else runs).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::make;
use cdsim_core::rng::SeedSequence;

/// (strategy, won, VP gained) per seat of one game, and its wall time.
type Game = (Vec<(String, bool, i64)>, f64);

fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.96;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, 100 Hz).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let names: Vec<String> = args[1].split(',').map(String::from).collect();
    let n = names.len();
    let games: usize = args[2].parse().unwrap();
    let (mut seed, mut threads) = (0u64, 1usize);
    let mut params: Vec<(String, String, f64)> = Vec::new();
    let mut i = 3;
    while i < args.len() {
        match args[i].as_str() {
            "--seed" => seed = args[i + 1].parse().unwrap(),
            "--threads" => threads = args[i + 1].parse().unwrap(),
            "--params" => {
                for item in args[i + 1].split(',') {
                    let (key, value) = item.split_once('=').unwrap();
                    let (name, field) = key.split_once('.').unwrap();
                    params.push((name.into(), field.into(), value.parse().unwrap()));
                }
            }
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
    let config = GameConfig::new(n);
    let total = games.div_ceil(n) * n;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Game>> = Mutex::new(Vec::new());
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= total {
                    break;
                }
                let (setup, r) = (g / n, g % n);
                let seats: Vec<&String> = (0..n).map(|s| &names[(s + r) % n]).collect();
                let mut lineup: Vec<_> = seats
                    .iter()
                    .map(|spec| {
                        let mut parts = spec.split('@');
                        let name = parts.next().unwrap();
                        let mut mine: Vec<(String, f64)> = params
                            .iter()
                            .filter(|(p, _, _)| p == name)
                            .map(|(_, f, v)| (f.clone(), *v))
                            .collect();
                        for part in parts {
                            let (key, value) = part.split_once('=').unwrap_or(("playouts", part));
                            mine.push((key.into(), value.parse().unwrap()));
                        }
                        make(name, &mine).unwrap()
                    })
                    .collect();
                let t = Instant::now();
                let record = play_game(
                    &comps,
                    &config,
                    &mut lineup,
                    SeedSequence::new(u128::from(seed), &[setup as u64]),
                );
                let wall = t.elapsed().as_secs_f64();
                let rows = record
                    .seats
                    .iter()
                    .zip(&seats)
                    .map(|(s, spec)| (spec.to_string(), s.won, s.final_vp - s.start_vp))
                    .collect();
                results.lock().unwrap().push((rows, wall));
            });
        }
    });
    let results = results.into_inner().unwrap();
    let wall: f64 = results.iter().map(|(_, w)| w).sum();
    let cpu = match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) => format!("{:.3}", (b - a) / total as f64),
        _ => "?".into(),
    };
    let longest = results.iter().map(|(_, w)| *w).fold(0.0, f64::max);
    println!(
        "{} games ({} setups x {n} rotations), per game {:.3} s wall (longest {longest:.3}), \
         {cpu} s CPU; {:.1} s in all",
        total,
        total / n,
        wall / total as f64,
        start.elapsed().as_secs_f64()
    );
    let mut seen: Vec<&String> = Vec::new();
    for name in &names {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let rows: Vec<&(String, bool, i64)> = results
            .iter()
            .flat_map(|(r, _)| r.iter())
            .filter(|r| &r.0 == name)
            .collect();
        let (count, wins) = (
            rows.len() as f64,
            rows.iter().filter(|r| r.1).count() as f64,
        );
        let gained = rows.iter().map(|r| r.2 as f64).sum::<f64>() / count;
        let (lo, hi) = wilson(wins, count);
        println!(
            "  {name:<10} seats {count:>5}  win share {:.3} [{lo:.3}, {hi:.3}]  VP gained {gained:.1}",
            wins / count
        );
    }
}
