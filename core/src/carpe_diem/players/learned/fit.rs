//! Fitting the prior (`prior.rs`): self-play games of the built-in `learned`, each move
//! decision's options (`RECORDED` of greedy's best) valued as the player values them, and
//! a least-squares fit of those values on the prior's inputs within each decision (only
//! the order within a decision matters). Deterministic: the same games give the same
//! weights, bit for bit.

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::GameConfig;
use crate::play::play_game;
use crate::rng::SeedSequence;

use super::prior::{Prior, PriorRow, N_PRIOR};
use super::{LearnedParams, LearnedPlayer};

/// The options of `games` self-play games of `players` players (seeds `first`..), every
/// seat the built-in `learned` with greedy's order (`prior` 0: the player the prior was
/// fitted to, whatever the built-in's `prior`), recording.
pub fn record_games(comps: &Components, players: usize, games: u64, first: u64) -> Vec<PriorRow> {
    let config = GameConfig::new(players);
    let mut rows = Vec::new();
    for g in first..first + games {
        let mut seats: Vec<LearnedPlayer> = (0..players)
            .map(|_| {
                let mut p = LearnedPlayer::new(LearnedParams { prior: 0, ..LearnedParams::default() })
                    .expect("built-in weights");
                p.record = Some(Vec::new());
                p
            })
            .collect();
        play_game(comps, &config, &mut seats, SeedSequence::new(u128::from(g), &[]));
        for (s, p) in seats.iter_mut().enumerate() {
            for mut r in p.record.take().unwrap_or_default() {
                // one number per (game, seat, decision)
                r.decision |= (g << 24) | ((s as u64) << 20);
                rows.push(r);
            }
        }
    }
    rows
}

/// Least-squares weights of the values on the inputs, both taken less their decision's
/// mean (a decision's rows are consecutive).
pub fn fit(rows: &[PriorRow]) -> [f64; N_PRIOR] {
    let mut ata = [[0.0f64; N_PRIOR]; N_PRIOR];
    let mut aty = [0.0f64; N_PRIOR];
    let mut start = 0;
    while start < rows.len() {
        let end = start + rows[start..].iter().take_while(|r| r.decision == rows[start].decision).count();
        let group = &rows[start..end];
        let k = group.len() as f64;
        let mut mean = [0.0; N_PRIOR];
        let mut my = 0.0;
        for r in group {
            for (m, x) in mean.iter_mut().zip(r.inputs) {
                *m += x / k;
            }
            my += r.value / k;
        }
        for r in group {
            let x: Vec<f64> = r.inputs.iter().zip(mean).map(|(a, m)| a - m).collect();
            let y = r.value - my;
            for i in 0..N_PRIOR {
                aty[i] += x[i] * y;
                for j in 0..N_PRIOR {
                    ata[i][j] += x[i] * x[j];
                }
            }
        }
        start = end;
    }
    // a small ridge keeps inputs that never vary (a column of zeros) at weight 0
    for (i, row) in ata.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    solve(ata, aty)
}

/// `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N_PRIOR]; N_PRIOR], mut b: [f64; N_PRIOR]) -> [f64; N_PRIOR] {
    for col in 0..N_PRIOR {
        let pivot = (col..N_PRIOR)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("a column");
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N_PRIOR {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N_PRIOR];
    for row in (0..N_PRIOR).rev() {
        let s: f64 = (row + 1..N_PRIOR).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}

/// The prior of `games` self-play games at each of 2, 3 and 4 players (seeds `first`..).
pub fn fit_prior(comps: &Components, games: u64, first: u64) -> Prior {
    Prior::new((2..=4).map(|n| fit(&record_games(comps, n, games, first))).collect())
}
