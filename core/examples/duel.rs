//! Two players head to head, seats rotated: `duel DEALS PLAYERS A B [THREADS] [FIRST]`.
//!
//! Each deal (seed FIRST + deal) is played with every distinct rotation of the line-ups
//! that seat A and B alternately (A B A B ..., then B A B A ...): at 2 and 4 players two
//! games a deal, each player in every seat equally often; at 3 players six, A holding two
//! seats in half of them and one in the other half. A name may carry settings (`learned@pin=1@top_k=3`). Prints A's
//! share of the games won by A or B, per seat held (so 0.5 is level whatever the line-up),
//! its 95% interval over deals, and the Elo difference with its interval.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::{make, Player};
use cdsim_core::rng::SeedSequence;

fn player(spec: &str) -> Player {
    let mut parts = spec.split('@');
    let name = parts.next().unwrap();
    let settings: Vec<(String, f64)> = parts
        .map(|p| {
            let (k, v) = p.split_once('=').expect("NAME@key=value");
            if k == "weights" {
                let text = std::fs::read_to_string(v).unwrap();
                let id = cdsim_core::carpe_diem::players::learned::register(&text).unwrap();
                return (k.to_string(), id as f64);
            }
            (k.to_string(), v.parse().unwrap())
        })
        .collect();
    make(name, &settings).unwrap()
}

/// A's score in one deal: per line-up, the games A won per A seat against those B won
/// per B seat, as a share; averaged over the deal's line-ups.
fn deal(comps: &Components, n: usize, a: &str, b: &str, seed: u64) -> (f64, f64, f64) {
    let patterns: Vec<Vec<bool>> = vec![
        (0..n).map(|i| i % 2 == 0).collect(),
        (0..n).map(|i| i % 2 == 1).collect(),
    ];
    // every rotation of both patterns, each distinct line-up once (at 2 and 4 players the
    // rotations repeat: a line-up played twice on one deal is the same game)
    let mut seating: Vec<Vec<bool>> = Vec::new();
    for pattern in &patterns {
        for r in 0..n {
            let is_a: Vec<bool> = (0..n).map(|s| pattern[(s + r) % n]).collect();
            if !seating.contains(&is_a) {
                seating.push(is_a);
            }
        }
    }
    let (mut share, mut vp_a, mut vp_b, mut lineups) = (0.0, 0.0, 0.0, 0.0);
    {
        for is_a in seating {
            let mut lineup: Vec<Player> =
                is_a.iter().map(|&x| player(if x { a } else { b })).collect();
            let config = GameConfig::new(n);
            let record =
                play_game(comps, &config, &mut lineup, SeedSequence::new(u128::from(seed), &[]));
            let seats_a = is_a.iter().filter(|&&x| x).count() as f64;
            let seats_b = n as f64 - seats_a;
            let (mut wa, mut wb) = (0.0, 0.0);
            for (s, seat) in record.seats.iter().enumerate() {
                if is_a[s] {
                    vp_a += (seat.final_vp - seat.start_vp) as f64 / seats_a;
                    if seat.won {
                        wa += 1.0 / seats_a;
                    }
                } else {
                    vp_b += (seat.final_vp - seat.start_vp) as f64 / seats_b;
                    if seat.won {
                        wb += 1.0 / seats_b;
                    }
                }
            }
            share += wa / (wa + wb);
            lineups += 1.0;
        }
    }
    (share / lineups, vp_a / lineups, vp_b / lineups)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let (a, b) = (args[3].clone(), args[4].clone());
    let threads: usize = args.get(5).map_or(2, |t| t.parse().unwrap());
    let first: u64 = args.get(6).map_or(1_000_000, |t| t.parse().unwrap());
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Arc::new(Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap());
    let next = Arc::new(AtomicU64::new(0));
    let started = std::time::Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (comps, next, a, b) = (comps.clone(), next.clone(), a.clone(), b.clone());
            std::thread::spawn(move || {
                let mut out = Vec::new();
                loop {
                    let d = next.fetch_add(1, Ordering::Relaxed);
                    if d >= deals {
                        break out;
                    }
                    out.push(deal(&comps, n, &a, &b, first + d));
                }
            })
        })
        .collect();
    let results: Vec<(f64, f64, f64)> =
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let k = results.len() as f64;
    let mean = results.iter().map(|r| r.0).sum::<f64>() / k;
    let var = results.iter().map(|r| (r.0 - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let half = 1.96 * (var / k).sqrt();
    let elo = |p: f64| 400.0 * (p.clamp(1e-6, 1.0 - 1e-6) / (1.0 - p.clamp(1e-6, 1.0 - 1e-6))).log10();
    let games = deals * if n == 3 { 6 } else { 2 };
    println!(
        "{n}p {a} vs {b}: {games} games ({deals} deals), A share {mean:.4} ({:.4}-{:.4}), \
         Elo {:+.0} ({:+.0} to {:+.0}), gained VP {:.1} vs {:.1}, {:.0} s",
        mean - half,
        mean + half,
        elo(mean),
        elo(mean - half),
        elo(mean + half),
        results.iter().map(|r| r.1).sum::<f64>() / k,
        results.iter().map(|r| r.2).sum::<f64>() / k,
        started.elapsed().as_secs_f64()
    );
}
