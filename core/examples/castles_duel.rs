//! Two Castles players head to head, seats rotated:
//! `castles_duel DEALS PLAYERS A B [THREADS] [FIRST]` (A and B as `make` names them,
//! settings as `learned@shortlist=4`).
//!
//! As Carpe Diem's `duel`: each deal (seed FIRST + deal) is played with every distinct
//! rotation of the line-ups A B A B ... and B A B A ...: two games a deal at 2 and 4
//! players, six at 3. Prints A's share of the games won by A or B, per seat held (0.5 is
//! level whatever the line-up), its 95% interval over deals, the Elo difference with its
//! interval, each side's mean VP gained, and each side's CPU seconds a seat per game
//! (the choices' own time, on a busy machine only a rough ratio).
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use cdsim_core::castles::roster::make;
use cdsim_core::castles::{CastlesState, Components, Player};
use cdsim_core::games::{Game, Outcome};
use cdsim_core::players::fitted::{FittedParams, FittedPlayer, Model};
use cdsim_core::players::{Strategy, View};
use cdsim_core::rng::{Generator, SeedSequence};

/// A player as spelled: `make`'s name and settings, and for `learned` also `file=PATH`,
/// a weights file read here (trying weights without building them in).
fn player(spec: &str) -> Player {
    let mut parts = spec.split('@');
    let name = parts.next().unwrap();
    let mut file = None;
    let settings: Vec<(String, f64)> = parts.filter_map(|p| {
        let (k, v) = p.split_once('=').expect("NAME@key=value");
        if k == "file" {
            file = Some(std::fs::read_to_string(v).unwrap());
            return None;
        }
        Some((k.to_string(), v.parse().unwrap()))
    }).collect();
    if let Some(text) = file {
        let model = Model::from_json::<CastlesState>(&text, "castles").unwrap();
        let params = FittedParams::default().with_overrides(&settings).unwrap();
        return Box::new(FittedPlayer::<CastlesState>::new(params, Arc::new(model)));
    }
    make(name, &settings).unwrap()
}

/// A seat's player, timed.
struct Timed {
    inner: Player,
    spent: Duration,
}

impl Strategy<CastlesState> for Timed {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn choose(&mut self, view: &View<CastlesState>, options: &[cdsim_core::castles::Action],
              rng: &mut Generator) -> usize {
        let t = Instant::now();
        let i = self.inner.choose(view, options, rng);
        self.spent += t.elapsed();
        i
    }
}

/// One deal: A's share (per seat held), mean VP gained by A's and B's seats, and the
/// seconds A's and B's seats spent choosing, a seat and game.
fn deal(comps: &Components, n: usize, a: &str, b: &str, seed: u64) -> [f64; 5] {
    let mut seating: Vec<Vec<bool>> = Vec::new();
    for first in [true, false] {
        for r in 0..n {
            let is_a: Vec<bool> = (0..n).map(|s| ((s + r) % 2 == 0) == first).collect();
            if !seating.contains(&is_a) {
                seating.push(is_a);
            }
        }
    }
    let mut out = [0.0; 5];
    let games = seating.len() as f64;
    for is_a in seating {
        let mut lineup: Vec<Timed> = is_a.iter()
            .map(|&x| Timed { inner: player(if x { a } else { b }), spent: Duration::ZERO })
            .collect();
        let config = CastlesState::config(n, &vec![0; n], false).unwrap();
        let (mut state, mut rngs) = <CastlesState as Game>::new(comps, &config,
                                                                SeedSequence::new(u128::from(seed), &[]));
        let mut options = Vec::new();
        while let Some(seat) = state.current_seat() {
            state.options(comps, &mut options);
            let view = View { state: &state, comps, seat };
            let i = lineup[seat].choose(&view, &options, &mut rngs[seat]);
            state.apply(comps, options[i]);
        }
        let scores = state.outcome(comps, &vec!["x"; n]);
        let seats_a = is_a.iter().filter(|&&x| x).count() as f64;
        let seats_b = n as f64 - seats_a;
        let (mut wa, mut wb) = (0.0, 0.0);
        for s in 0..n {
            let (won, gained) = (scores.rank(s) == 1, (scores.vp(s) - scores.start_vp(s)) as f64);
            let secs = lineup[s].spent.as_secs_f64();
            if is_a[s] {
                wa += f64::from(u8::from(won)) / seats_a;
                out[1] += gained / seats_a / games;
                out[3] += secs / seats_a / games;
            } else {
                wb += f64::from(u8::from(won)) / seats_b;
                out[2] += gained / seats_b / games;
                out[4] += secs / seats_b / games;
            }
        }
        out[0] += wa / (wa + wb) / games;
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let (a, b) = (args[3].clone(), args[4].clone());
    let threads: usize = args.get(5).map_or(2, |t| t.parse().unwrap());
    let first: u64 = args.get(6).map_or(1_000_000, |t| t.parse().unwrap());
    let comps = Arc::new(Components::builtin());
    let next = Arc::new(AtomicU64::new(0));
    let handles: Vec<_> = (0..threads).map(|_| {
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
    }).collect();
    let results: Vec<[f64; 5]> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    let k = results.len() as f64;
    let mean_of = |i: usize| results.iter().map(|r| r[i]).sum::<f64>() / k;
    let mean = mean_of(0);
    let var = results.iter().map(|r| (r[0] - mean).powi(2)).sum::<f64>() / (k - 1.0);
    let half = 1.96 * (var / k).sqrt();
    let elo = |p: f64| {
        let p = p.clamp(1e-6, 1.0 - 1e-6);
        400.0 * (p / (1.0 - p)).log10()
    };
    let games = deals * if n == 3 { 6 } else { 2 };
    println!("{n}p {a} vs {b}: {games} games ({deals} deals), A share {mean:.4} ({:.4}-{:.4}), \
              Elo {:+.0} ({:+.0} to {:+.0}), gained VP {:.1} vs {:.1}, CPU s a seat and game \
              {:.4} vs {:.4}",
             mean - half, mean + half, elo(mean), elo(mean - half), elo(mean + half),
             mean_of(1), mean_of(2), mean_of(3), mean_of(4));
}
