//! The learned player's value function and its weights files: the model, the built-in
//! weights, and the weights registered in this process (`learned@weights=PATH`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{GameState, PHASES};
use crate::carpe_diem::players::features::{
    banked, names, valued_inputs, Scratch, Valuer, N_FEATURES, N_INPUTS, TAKES_LEFT,
};
use crate::players::fitted::model::read;

/// What a weights file says it is: one format for every game (`players::fitted::model`).
pub use crate::players::fitted::model::FORMAT;
/// The game's name in a weights file.
pub const GAME: &str = "carpe-diem";
/// The input set of the first weights (`features::names(1)`: `NAMES`); this core reads
/// set 2 too (`NAMES` then `PLACEMENT_NAMES`). A file's `inputs` say which it holds.
pub const VERSION: u64 = 1;
/// The newest input set this core reads.
pub const NEWEST: u64 = 2;
/// Weights per (player count, phase) of input set 1: the inputs, then the inputs times
/// takes left.
pub const INPUTS: usize = 2 * N_FEATURES;
/// How a weights file names an input times takes left (`inputs_of`).
pub const TIMES_TAKES_LEFT: &str = "*takes_left";

/// The names a weights file lists for input set `set` (`features::names`): each input,
/// then each input times takes left (`NAME*takes_left`), one weight each.
pub fn inputs_of(set: u64) -> Option<Vec<String>> {
    let base = names(set)?;
    Some(base.iter().map(|n| (*n).to_string())
        .chain(base.iter().map(|n| format!("{n}{TIMES_TAKES_LEFT}"))).collect())
}

/// The built-in weights (`cdsim train` writes them; `make install` builds them in).
pub const DEFAULT_WEIGHTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"), "/../strategies/weights/carpe_diem-learned.json"));

/// A fitted value function: `weights[players - 2][phase]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    weights: Vec<[Vec<f64>; PHASES]>,
    /// The inputs it reads (`features::names` of its input set): a row holds twice as many.
    inputs: usize,
    /// The component set's digest the weights were trained on.
    pub components_digest: String,
    /// A hash of the weights (and their width): what a cache of values names the model by.
    fingerprint: u64,
}

/// `Model::fingerprint` of these weights.
fn fingerprint(weights: &[[Vec<f64>; PHASES]], inputs: usize) -> u64 {
    let mut h = DefaultHasher::new();
    inputs.hash(&mut h);
    for per_phase in weights {
        for row in per_phase {
            for w in row {
                w.to_bits().hash(&mut h);
            }
        }
    }
    h.finish()
}

impl Model {
    /// A weights file's model (the one parser, `players::fitted::model::read`, for
    /// Carpe Diem's player counts and phases); any problem is one line naming it.
    pub fn from_json(text: &str) -> Result<Model, String> {
        let sets: Vec<Vec<String>> = (VERSION..=NEWEST).filter_map(inputs_of).collect();
        let file = read(text, GAME, 2..=4, PHASES, |names| sets.iter().any(|s| s == names))?;
        let inputs = file.inputs.len() / 2;
        let weights: Vec<[Vec<f64>; PHASES]> = file.weights.into_iter()
            .map(|rows| <[Vec<f64>; PHASES]>::try_from(rows).expect("read checked the phases"))
            .collect();
        Ok(Model {
            fingerprint: fingerprint(&weights, inputs),
            weights,
            inputs,
            components_digest: file.components_digest,
        })
    }

    /// The built-in weights (an error when the file built in does not fit this core's
    /// inputs: `cdsim train`, then `make install`).
    pub fn builtin() -> Result<Arc<Model>, String> {
        static MODEL: OnceLock<Result<Arc<Model>, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                Model::from_json(DEFAULT_WEIGHTS)
                    .map(Arc::new)
                    .map_err(|e| format!("the built-in learned weights: {e}"))
            })
            .clone()
    }

    /// Zero weights: a position is worth the VP gained if the game ended there.
    pub fn banked_only() -> Model {
        let weights: Vec<[Vec<f64>; PHASES]> =
            (2..=4).map(|_| std::array::from_fn(|_| vec![0.0; INPUTS])).collect();
        Model {
            fingerprint: fingerprint(&weights, N_FEATURES),
            weights,
            inputs: N_FEATURES,
            components_digest: String::new(),
        }
    }

    /// The input set it was read with (1 or 2: `features::names`).
    pub fn version(&self) -> u64 {
        if self.inputs == N_FEATURES { 1 } else { 2 }
    }

    /// The value of a position to `seat`: VP gained if the game ended now, plus what the
    /// weights expect it to gain from here. `inputs` receives as many of the seat's inputs
    /// (`all_inputs`; the placement inputs 0 under version-1 weights) as it holds.
    pub fn value(
        &self,
        state: &GameState,
        comps: &Components,
        seat: usize,
        scratch: &mut Scratch,
        inputs: &mut [f64],
    ) -> f64 {
        let now = banked(state, comps, seat);
        if state.is_over() {
            return now;
        }
        let placement = self.inputs > N_FEATURES;
        let w = &self.weights[state.n - 2][state.phase.min(PHASES - 1)];
        let (flat, late) = w.split_at(self.inputs);
        let dot = |all: &[f64; N_INPUTS]| {
            let mut total = 0.0;
            let t = all[TAKES_LEFT];
            for i in 0..flat.len() {
                total += all[i] * (flat[i] + t * late[i]);
            }
            total
        };
        let mut valued = |all: &mut [f64; N_INPUTS]| {
            let valuer = Valuer { model: self.fingerprint, placement };
            valued_inputs(state, comps, seat, scratch, valuer, all, dot)
        };
        // the learned player's buffer holds every input; a shorter one gets what it holds
        let total = match <&mut [f64; N_INPUTS]>::try_from(&mut *inputs) {
            Ok(all) => valued(all),
            Err(_) => {
                let mut all = [0.0; N_INPUTS];
                let total = valued(&mut all);
                let k = inputs.len().min(N_INPUTS);
                inputs[..k].copy_from_slice(&all[..k]);
                total
            }
        };
        now + total
    }
}

/// Models registered in this process (`register`); a player names one by its number.
fn registry() -> &'static Mutex<Vec<Arc<Model>>> {
    static MODELS: OnceLock<Mutex<Vec<Arc<Model>>>> = OnceLock::new();
    MODELS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Load a weights file's text; returns the number `learned.weights` takes (>= 1; 0 is
/// the built-in weights). The same text twice is one entry.
pub fn register(text: &str) -> Result<usize, String> {
    let model = Model::from_json(text)?;
    let mut models = registry().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = models.iter().position(|m| **m == model) {
        return Ok(i + 1);
    }
    models.push(Arc::new(model));
    Ok(models.len())
}

/// The model numbered `id` (0: the built-in weights), as `learned.weights` names it.
pub fn registered(id: usize) -> Result<Arc<Model>, String> {
    if id == 0 {
        return Model::builtin();
    }
    let models = registry().lock().unwrap_or_else(|e| e.into_inner());
    models
        .get(id - 1)
        .cloned()
        .ok_or_else(|| format!("learned.weights {id} names no weights loaded in this process"))
}
