//! The learned player's prior over a move decision's options (players/learned/prior.rs,
//! fit.rs): its file, its fit, and that the options it keeps are the ones played.

mod common;

use std::sync::Arc;

use cdsim_core::carpe_diem::game::GameConfig;
use cdsim_core::carpe_diem::players::learned::{
    fit, record_games, Prior, PriorRow, DEFAULT_PRIOR, N_PRIOR, RECORDED,
};
use cdsim_core::carpe_diem::players::{LearnedParams, LearnedPlayer};
use cdsim_core::play::play_game;
use cdsim_core::rng::SeedSequence;
use common::comps;

#[test]
fn the_built_in_prior_reads_and_bad_files_are_one_line_errors() {
    let prior = Prior::from_json(DEFAULT_PRIOR).expect("the built-in prior");
    assert_eq!(Prior::from_json(&prior.to_json("x")).unwrap(), prior);
    let bad = [
        DEFAULT_PRIOR.replace("\"carpe_diem\"", "\"castles\""),
        DEFAULT_PRIOR.replace("\"greedy\"", "\"greed\""),
        DEFAULT_PRIOR.replacen("[", "[1.0, ", 2),
        "{".to_string(),
    ];
    for text in bad {
        let e = Prior::from_json(&text).expect_err("a bad prior file");
        assert!(!e.contains('\n') && !e.is_empty(), "{e}");
    }
}

#[test]
fn the_fit_recovers_the_weights_that_made_the_values() {
    // values made by known weights plus an offset per decision (which the fit must ignore:
    // only the order within a decision matters)
    let truth: [f64; N_PRIOR] = std::array::from_fn(|i| (i as f64 - 4.0) * 0.37);
    let mut rows = Vec::new();
    let mut x = 0.5f64;
    for decision in 0..200u64 {
        for _ in 0..6 {
            let inputs: [f64; N_PRIOR] = std::array::from_fn(|_| {
                x = (x * 3.7 + 0.13).fract(); // a fixed, irregular sequence
                x * 10.0
            });
            let value = inputs.iter().zip(truth).map(|(a, w)| a * w).sum::<f64>()
                + decision as f64 * 7.0;
            rows.push(PriorRow { decision, players: 4, inputs, value, copies: 1 });
        }
    }
    let w = fit(&rows);
    for (a, b) in w.iter().zip(truth) {
        assert!((a - b).abs() < 1e-4, "{w:?} against {truth:?}");
    }
}

#[test]
fn a_recording_values_the_options_and_plays_as_without_it() {
    let c = comps();
    let rows = record_games(&c, 2, 1, 3);
    let again = record_games(&c, 2, 1, 3);
    assert!(!rows.is_empty());
    assert_eq!(rows.len(), again.len());
    for (a, b) in rows.iter().zip(&again) {
        assert_eq!((a.decision, a.value.to_bits(), a.inputs.map(f64::to_bits)),
                   (b.decision, b.value.to_bits(), b.inputs.map(f64::to_bits)));
    }
    // at most RECORDED options a decision, greedy's order (its `pair_rank` input) kept
    let mut start = 0;
    while start < rows.len() {
        let n = rows[start..].iter().take_while(|r| r.decision == rows[start].decision).count();
        assert!(n <= RECORDED);
        let ranks: Vec<f64> = rows[start..start + n].iter().map(|r| r.inputs[3]).collect();
        assert!(ranks.windows(2).all(|w| w[0] < w[1]), "{ranks:?}");
        start += n;
    }
    // the recording player's games are those of greedy's order (`prior` 0)
    let config = GameConfig::new(2);
    let game = |record: bool| {
        let mut seats: Vec<LearnedPlayer> = (0..2)
            .map(|_| {
                let params = LearnedParams { prior: 0, ..LearnedParams::default() };
                let mut p = LearnedPlayer::new(params).unwrap();
                p.record = record.then(Vec::new);
                p
            })
            .collect();
        play_game(&c, &config, &mut seats, SeedSequence::new(3, &[])).rows_json(0)
    };
    assert_eq!(game(true), game(false));
}

#[test]
fn a_prior_of_greedys_value_keeps_greedys_joint_shortlist() {
    // the prior ranks the joint list by its weights and keeps `prior` of it: with
    // greedy's value as its only weight, `prior` N plays as `joint` N
    let c = comps();
    for (players, keep) in [(2, 3), (3, 2), (4, 4)] {
        let config = GameConfig::new(players);
        let game = |params: LearnedParams| {
            let mut seats: Vec<LearnedPlayer> = (0..players)
                .map(|_| LearnedPlayer::new(params).unwrap().with_prior(Arc::new(Prior::default())))
                .collect();
            play_game(&c, &config, &mut seats, SeedSequence::new(11, &[])).rows_json(0)
        };
        let by_joint = LearnedParams { joint: keep, prior: 0, ..LearnedParams::default() };
        let by_prior = LearnedParams { prior: keep, ..LearnedParams::default() };
        assert_eq!(game(by_prior), game(by_joint), "{players} players, {keep} kept");
        // and the shortlist's length is read: another length plays another game
        let other = LearnedParams { prior: keep + 2, ..LearnedParams::default() };
        assert_ne!(game(other), game(by_joint), "{players} players");
    }
}
