//! The fitted player on the toy game (`games::toy`), which gives it inputs here.

use std::sync::Arc;

use super::labels::{search_labels, LabelSpec};
use super::{FittedParams, FittedPlayer, Model};
use crate::games::inputs::Inputs;
use crate::games::toy::{Cards, Config, Market};
use crate::games::{Game, Outcome};
use crate::players::{RandomPlayer, Strategy, UctParams, View};
use crate::rng::SeedSequence;

const NAMES: [&str; 2] = ["best_face_up", "face_up_sum"];

impl Inputs for Market {
    fn input_names() -> &'static [&'static str] {
        &NAMES
    }
    fn player_counts() -> std::ops::RangeInclusive<usize> {
        2..=4
    }
    fn gained(&self, _comps: &Cards, seat: usize) -> f64 {
        self.gained[seat] as f64
    }
    fn inputs(&self, _comps: &Cards, _seat: usize, out: &mut Vec<f32>) {
        out.clear();
        out.push(f32::from(self.face_up.iter().copied().max().unwrap_or(0)));
        out.push(self.face_up.iter().map(|&c| f32::from(c)).sum());
    }
}

fn weights(rows: &[[f64; 2]; 3]) -> String {
    let table: serde_json::Value = (2..=4).map(|n| (n.to_string(),
        serde_json::json!([rows[n - 2].to_vec()]))).collect::<serde_json::Map<_, _>>().into();
    serde_json::json!({"format": "cdsim-weights", "version": 1, "game": "toy",
                       "components_digest": "", "inputs": NAMES, "phases": 1,
                       "weights": table}).to_string()
}

/// One game of `lineup` from `seed` under `start`: the cards taken and the outcome.
fn play<P: Strategy<Market>>(lineup: &mut [P], start: &[i32], seed: u64) -> (Vec<u8>, Vec<i64>) {
    let comps = Cards::standard();
    let config = Config { start_vp: start.to_vec(), check: true };
    let (mut state, mut rngs) = Market::new(&comps, &config, SeedSequence::new(5, &[seed]));
    let (mut taken, mut options) = (Vec::new(), Vec::new());
    while let Some(seat) = state.current_seat() {
        state.options(&comps, &mut options);
        let i = lineup[seat].choose(&View { state: &state, comps: &comps, seat }, &options,
                                    &mut rngs[seat]);
        taken.push(state.face_up[i]);
        state.apply(&comps, options[i]);
        state.verify(&comps).unwrap();
    }
    let outcome = state.outcome(&comps, &vec!["x"; start.len()]);
    (taken, (0..start.len()).map(|s| outcome.vp(s) - outcome.start_vp(s)).collect())
}

fn fitted(text: Option<&str>) -> FittedPlayer<Market> {
    let model = text.map_or_else(Model::banked_only::<Market>,
                                 |t| Model::from_json::<Market>(t, "toy").unwrap());
    FittedPlayer::new(FittedParams::default(), Arc::new(model))
}

#[test]
fn with_no_weights_it_takes_the_card_worth_most_and_weights_change_that() {
    let mut a = fitted(None);
    let comps = Cards::standard();
    let config = Config { start_vp: vec![0, 0], check: false };
    let (state, mut rngs) = Market::new(&comps, &config, SeedSequence::new(1, &[0]));
    let mut options = Vec::new();
    state.options(&comps, &mut options);
    let view = View { state: &state, comps: &comps, seat: 0 };
    let i = a.choose(&view, &options, &mut rngs[0]);
    let best = *state.face_up.iter().max().unwrap();
    assert_eq!(state.face_up[i], best, "{:?}", state.face_up);
    // against random, the greedy taker wins most games
    let mut won = 0;
    for seed in 0..40 {
        let mut lineup: Vec<Box<dyn Strategy<Market>>> = vec![Box::new(fitted(None)),
                                                             Box::new(RandomPlayer)];
        let (_, gained) = play(&mut lineup, &[0, 0], seed);
        won += usize::from(gained[0] > gained[1]);
    }
    assert!(won >= 30, "{won} of 40");
    // a weight of 3 a point on the cards left face up, the seat's own worth alone
    // (`opponents` 0: the same inputs for every seat cancel otherwise), makes it leave
    // the high cards: the copy's value reads the inputs, not VP alone
    let leave = weights(&[[0.0, 3.0]; 3]);
    let own = |text: Option<&str>| {
        let mut p = fitted(text);
        p.params.opponents = 0.0;
        p
    };
    let differ = (0..20).filter(|&seed| play(&mut [own(None), own(None)], &[0, 0], seed)
                                   != play(&mut [own(Some(&leave)), own(None)], &[0, 0], seed))
        .count();
    assert!(differ > 0);
}

#[test]
fn the_starting_vp_change_no_decision() {
    let text = weights(&[[0.7, -0.2], [0.1, 0.3], [-0.5, 0.05]]);
    for seed in 0..20u64 {
        let n = 2 + (seed % 3) as usize;
        let zero: Vec<_> = (0..n).map(|_| fitted(Some(&text))).collect();
        let skew: Vec<_> = (0..n).map(|_| fitted(Some(&text))).collect();
        let start: Vec<i32> = (0..n as i32).map(|s| 30 * s - 17).collect();
        assert_eq!(play(&mut { zero }, &vec![0; n], seed), play(&mut { skew }, &start, seed),
                   "seed {seed}");
    }
}

#[test]
fn a_bad_weights_file_is_one_line_naming_the_problem() {
    let good = weights(&[[1.0, 0.0]; 3]);
    assert!(Model::from_json::<Market>(&good, "toy").is_ok());
    let bad = |text: &str, want: &str| {
        let err = Model::from_json::<Market>(text, "toy").unwrap_err();
        assert!(err.contains(want) && !err.contains('\n'), "{err}");
    };
    bad("{", "not a weights file");
    bad(&good.replace("cdsim-weights", "other"), "format");
    bad(&good.replace("\"toy\"", "\"castles\""), "\"game\": the weights are \"castles\"'s");
    bad(&good.replace("face_up_sum", "other"), "other inputs");
    bad(&good.replace("\"version\":1", "\"version\":9"), "\"version\" 9");
    // Carpe Diem's format before there was one for every game: how to convert it
    bad(&good.replace("cdsim-weights", "cdsim-learned-weights"), "cdsim train --convert");
    bad(&good.replace("\"phases\":1", "\"phases\":2"), "\"phases\" is not 1");
    bad(&good.replace("[[1.0,0.0]]", "[[1.0]]"), "is not 2 finite numbers");
    bad(&good.replace("\"4\"", "\"5\""), "weights[\"4\"]");
    assert!(FittedParams::default().with_overrides(&[("shortlist", 0.0)]).unwrap_err()
            .contains("learned.shortlist"));
}

#[test]
fn labels_value_each_option_and_replay_from_their_seed() {
    let spec = LabelSpec { players: 3, entropy: 4, games: vec![0, 1], every: 2, playouts: 16,
                           player: FittedParams { explore: 0.2, ..FittedParams::default() } };
    let comps = Cards::standard();
    let label = || search_labels::<Market, _>(&comps, &spec, Arc::new(Model::banked_only::<Market>()),
                                               UctParams::default(), RandomPlayer).unwrap();
    let rows = label();
    assert_eq!(rows, label());
    let r = rows.group.len();
    assert!(r > 10, "{r} rows");
    assert_eq!(rows.label.len(), 3 * r);
    assert_eq!(rows.inputs.len(), 3 * 2 * r);
    // a label is VP gained at the end: at least what the seat has gained already
    for (k, (&label, &now)) in rows.label.iter().zip(&rows.gained).enumerate() {
        assert!(label + 1e-9 >= now, "row {}: {label} < {now}", k / 3);
    }
    // the options of a decision share it; every decision has two or more
    for g in 0..=*rows.group.last().unwrap() {
        assert!(rows.group.iter().filter(|&&x| x == g).count() >= 2);
    }
}
