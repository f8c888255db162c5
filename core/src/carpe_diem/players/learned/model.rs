//! The learned player's value function and its weights files: the model, the built-in
//! weights, and the weights registered in this process (`learned@weights=PATH`).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::Value;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{GameState, PHASES};
use crate::carpe_diem::players::features::{
    banked, names, valued_inputs, Scratch, Valuer, N_FEATURES, N_INPUTS, TAKES_LEFT,
};

/// What a weights file says it is.
pub const FORMAT: &str = "cdsim-learned-weights";
/// The weights file version the built-in weights are (`NAMES`); this core reads version 2
/// too (`NAMES` then `PLACEMENT_NAMES`).
pub const VERSION: u64 = 1;
/// The newest weights file version this core reads.
pub const NEWEST: u64 = 2;
/// Weights per (player count, phase) of a version-1 file: the inputs, then the inputs
/// times takes left.
pub const INPUTS: usize = 2 * N_FEATURES;

/// The built-in weights (`cdsim train` writes them; `make install` builds them in).
pub const DEFAULT_WEIGHTS: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/weights/learned.json"));

/// A fitted value function: `weights[players - 2][phase]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    weights: Vec<[Vec<f64>; PHASES]>,
    /// The inputs it reads (`features::names` of its version): a row holds twice as many.
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
    /// A weights file's model; any problem is one line naming it.
    pub fn from_json(text: &str) -> Result<Model, String> {
        let data: Value =
            serde_json::from_str(text).map_err(|e| format!("not a weights file ({e})"))?;
        let field = |key: &str| {
            data.get(key)
                .ok_or_else(|| format!("not a learned weights file (no {key:?})"))
        };
        if field("format")?.as_str() != Some(FORMAT) {
            return Err(format!("not a learned weights file (format is not {FORMAT:?})"));
        }
        let version = field("version")?;
        let expected = version.as_u64().and_then(names).ok_or_else(|| format!(
            "weights format version {version} (this core reads versions {VERSION}-{NEWEST})"
        ))?;
        let width = 2 * expected.len();
        let digest = field("components_digest")?
            .as_str()
            .ok_or("components_digest is not a string")?
            .to_string();
        let names: Option<Vec<&str>> = field("features")?
            .as_array()
            .map(|a| a.iter().map(Value::as_str).collect::<Option<Vec<_>>>())
            .unwrap_or(None);
        if names.as_deref() != Some(&expected[..]) {
            return Err("the weights were made for other inputs (their feature names differ \
                        from this core's): train them again with cdsim train"
                .into());
        }
        let table = field("weights")?;
        let mut weights = Vec::new();
        for players in 2..=4 {
            let key = players.to_string();
            let phases = table
                .get(&key)
                .and_then(Value::as_array)
                .filter(|p| p.len() == PHASES)
                .ok_or_else(|| format!("weights[{key:?}] is not a list of {PHASES} phases"))?;
            let mut per_phase: [Vec<f64>; PHASES] = Default::default();
            for (phase, row) in phases.iter().enumerate() {
                let row: Option<Vec<f64>> = row
                    .as_array()
                    .filter(|r| r.len() == width)
                    .and_then(|r| r.iter().map(Value::as_f64).collect());
                per_phase[phase] = row.filter(|r| r.iter().all(|w| w.is_finite())).ok_or_else(
                    || format!("weights[{key:?}][{phase}] is not {width} finite numbers"),
                )?;
            }
            weights.push(per_phase);
        }
        Ok(Model {
            fingerprint: fingerprint(&weights, expected.len()),
            weights,
            inputs: expected.len(),
            components_digest: digest,
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

    /// The weights file version it was read from (1 or 2).
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
