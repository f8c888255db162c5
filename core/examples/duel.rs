//! Two players head to head, seats rotated: `duel DEALS PLAYERS A B [THREADS] [FIRST] [SECONDS]`.
//!
//! Each deal (seed FIRST + deal) is played with every distinct rotation of the line-ups
//! that seat A and B alternately (A B A B ..., then B A B A ...): at 2 and 4 players two
//! games a deal, each player in every seat equally often; at 3 players six, A holding two
//! seats in half of them and one in the other half. A name may carry settings (`learned@pin=1@top_k=3`). Prints A's
//! share of the games won by A or B, per seat held (so 0.5 is level whatever the line-up),
//! its 95% interval over deals, and the Elo difference with its interval.
//!
//! At 3 players it then prints each line-up on its own (A B B: A in one seat, and A A B:
//! A in two, each in its three rotations): the share of the line-up's games an A seat won,
//! its 95% interval over deals, and A's Elo a seat, 400 log10 of (A's wins a seat) / (B's
//! wins a seat), so 0 is level in either line-up. The pooled line above averages the two.
//!
//! SECONDS (optional): stop taking new deals after that many seconds; the deals played are
//! then the first ones (FIRST, FIRST + 1, ...), said in the output, so `duel` with that
//! many DEALS plays the same games again.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

/// One line-up (A's seat count) within a deal: its rotations' games summed.
#[derive(Clone, Copy, Default)]
struct Lineup {
    /// games of this line-up in the deal
    games: f64,
    /// A's share of each game's winners (1 when an A seat won alone), summed over games
    wins_a: f64,
    /// VP gained a seat, A's and B's, summed over games
    vp_a: f64,
    vp_b: f64,
}

/// One deal: A's pooled score (per line-up, the games A won per A seat against those B
/// won per B seat, as a share; averaged over the deal's line-ups), VP gained a seat of A
/// and of B, and each line-up's games indexed by A's seat count.
struct Deal {
    share: f64,
    vp_a: f64,
    vp_b: f64,
    by_seats: Vec<Lineup>,
}

fn deal(comps: &Components, n: usize, a: &str, b: &str, seed: u64) -> Deal {
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
    let mut by_seats = vec![Lineup::default(); n + 1];
    for is_a in seating {
        let mut lineup: Vec<Player> =
            is_a.iter().map(|&x| player(if x { a } else { b })).collect();
        let config = GameConfig::new(n);
        let record =
            play_game(comps, &config, &mut lineup, SeedSequence::new(u128::from(seed), &[]));
        let count_a = is_a.iter().filter(|&&x| x).count();
        let seats_a = count_a as f64;
        let seats_b = n as f64 - seats_a;
        let (mut wa, mut wb) = (0.0, 0.0);
        let (mut game_vp_a, mut game_vp_b) = (0.0, 0.0);
        for (s, seat) in record.seats.iter().enumerate() {
            if is_a[s] {
                game_vp_a += (seat.final_vp - seat.start_vp) as f64 / seats_a;
                if seat.won {
                    wa += 1.0 / seats_a;
                }
            } else {
                game_vp_b += (seat.final_vp - seat.start_vp) as f64 / seats_b;
                if seat.won {
                    wb += 1.0 / seats_b;
                }
            }
        }
        share += wa / (wa + wb);
        vp_a += game_vp_a;
        vp_b += game_vp_b;
        lineups += 1.0;
        // the winners' seats, not a seat's rate: A's share of them
        let (won_a, won_b) = (wa * seats_a, wb * seats_b);
        let line = &mut by_seats[count_a];
        line.games += 1.0;
        line.wins_a += won_a / (won_a + won_b);
        line.vp_a += game_vp_a;
        line.vp_b += game_vp_b;
    }
    Deal { share: share / lineups, vp_a: vp_a / lineups, vp_b: vp_b / lineups, by_seats }
}

/// The mean over deals and its 95% interval's half width (normal, the spread over deals).
fn mean_half(xs: &[f64]) -> (f64, f64) {
    let k = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / k;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, 1.96 * (var / k).sqrt())
}

fn elo(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    400.0 * (p / (1.0 - p)).log10()
}

/// A's Elo a seat in a line-up of `seats_a` A seats among `n`, from the share `q` of its
/// games an A seat won: the odds of A's wins a seat against B's.
fn elo_a_seat(q: f64, seats_a: usize, n: usize) -> f64 {
    let q = q.clamp(1e-6, 1.0 - 1e-6);
    400.0 * ((q / seats_a as f64) / ((1.0 - q) / (n - seats_a) as f64)).log10()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let (a, b) = (args[3].clone(), args[4].clone());
    let threads: usize = args.get(5).map_or(2, |t| t.parse().unwrap());
    let first: u64 = args.get(6).map_or(1_000_000, |t| t.parse().unwrap());
    let limit: Option<Duration> = args.get(7).map(|t| Duration::from_secs(t.parse().unwrap()));
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/components.json");
    let comps = Arc::new(Components::from_json(&std::fs::read_to_string(path).unwrap()).unwrap());
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (comps, next, a, b) = (comps.clone(), next.clone(), a.clone(), b.clone());
            std::thread::spawn(move || {
                let mut out = Vec::new();
                loop {
                    if limit.is_some_and(|l| started.elapsed() >= l) {
                        break out;
                    }
                    let d = next.fetch_add(1, Ordering::Relaxed);
                    if d >= deals {
                        break out;
                    }
                    out.push(deal(&comps, n, &a, &b, first + d));
                }
            })
        })
        .collect();
    let results: Vec<Deal> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    // a deal is taken only before the limit and always finished, so these are the first ones
    let deals = results.len() as u64;
    let k = results.len() as f64;
    let (mean, half) = mean_half(&results.iter().map(|r| r.share).collect::<Vec<_>>());
    let games = deals * if n == 3 { 6 } else { 2 };
    println!(
        "{n}p {a} vs {b}: {games} games ({deals} deals from seed {first}), A share {mean:.4} \
         ({:.4}-{:.4}), Elo {:+.0} ({:+.0} to {:+.0}), gained VP {:.1} vs {:.1}, {:.0} s",
        mean - half,
        mean + half,
        elo(mean),
        elo(mean - half),
        elo(mean + half),
        results.iter().map(|r| r.vp_a).sum::<f64>() / k,
        results.iter().map(|r| r.vp_b).sum::<f64>() / k,
        started.elapsed().as_secs_f64()
    );
    if n != 3 {
        return; // at 2 and 4 players the one line-up is the pooled figure
    }
    for seats_a in 1..n {
        let lines: Vec<Lineup> = results.iter().map(|r| r.by_seats[seats_a]).collect();
        let per_deal: Vec<f64> = lines.iter().map(|l| l.wins_a / l.games).collect();
        let (q, h) = mean_half(&per_deal);
        let played = lines.iter().map(|l| l.games).sum::<f64>();
        let name: String = (0..n).map(|s| if s < seats_a { 'A' } else { 'B' }).collect();
        println!(
            "  {name} (A in {seats_a} seat(s), 3 rotations): {played:.0} games, an A seat won \
             {q:.4} ({:.4}-{:.4}) of them; A's Elo a seat {:+.0} ({:+.0} to {:+.0}), \
             gained VP a seat {:.1} vs {:.1}",
            q - h,
            q + h,
            elo_a_seat(q, seats_a, n),
            elo_a_seat(q - h, seats_a, n),
            elo_a_seat(q + h, seats_a, n),
            lines.iter().map(|l| l.vp_a).sum::<f64>() / played,
            lines.iter().map(|l| l.vp_b).sum::<f64>() / played,
        );
    }
}
