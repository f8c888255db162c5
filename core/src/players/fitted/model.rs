//! The fitted player's model and its weights file, one format for every game: a linear
//! function of a game's inputs (`games::inputs::Inputs`), one weight vector per player
//! count and phase, added to the VP the seat has gained.
//!
//! ```json
//! {"format": "cdsim-weights", "version": 1, "game": "castles",
//!  "components_digest": "...", "inputs": ["gained_green", ...], "phases": 3,
//!  "weights": {"2": [[...], [...], [...]], "3": [...], "4": [...]}}
//! ```
//! Other keys (how it was trained) are kept by the trainer and not read here.

use serde_json::Value;

use crate::games::inputs::Inputs;

/// What a weights file says it is.
pub const FORMAT: &str = "cdsim-weights";
/// The version this core reads and `cdsim train` writes.
pub const VERSION: u64 = 1;

/// A fitted value function for one game: `weights[players - low][phase]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    low: usize,
    weights: Vec<Vec<Vec<f64>>>,
    /// The component set's digest the weights were trained on.
    pub components_digest: String,
}

impl Model {
    /// Zero weights: a position is worth the VP gained if the game ended there.
    pub fn banked_only<G: Inputs>() -> Model {
        let counts = G::player_counts();
        let width = G::input_names().len();
        Model { low: *counts.start(),
                weights: counts.map(|_| vec![vec![0.0; width]; G::phases()]).collect(),
                components_digest: String::new() }
    }

    /// A weights file's model for game `game` (its name), whose inputs are `G`'s; any
    /// problem is one line naming what is wrong.
    pub fn from_json<G: Inputs>(text: &str, game: &str) -> Result<Model, String> {
        let data: Value =
            serde_json::from_str(text).map_err(|e| format!("not a weights file ({e})"))?;
        let field = |key: &str| data.get(key).ok_or_else(|| format!("not a weights file (no {key:?})"));
        if field("format")?.as_str() != Some(FORMAT) {
            return Err(format!("not a weights file (format is not {FORMAT:?})"));
        }
        if field("version")?.as_u64() != Some(VERSION) {
            return Err(format!("weights version {} (this core reads {VERSION})",
                               field("version")?));
        }
        let named = field("game")?.as_str().unwrap_or("");
        if named != game {
            return Err(format!("the weights are {named:?}'s, not {game:?}'s"));
        }
        let digest = field("components_digest")?.as_str()
            .ok_or("components_digest is not a string")?.to_string();
        let names: Option<Vec<&str>> = field("inputs")?.as_array()
            .and_then(|a| a.iter().map(Value::as_str).collect());
        if names.as_deref() != Some(G::input_names()) {
            return Err(format!("the weights were made for other inputs (their names differ \
                                from this core's {game} inputs): cdsim train --game {game}"));
        }
        let phases = G::phases();
        if field("phases")?.as_u64() != Some(phases as u64) {
            return Err(format!("phases is not {phases}"));
        }
        let width = G::input_names().len();
        let table = field("weights")?;
        let counts = G::player_counts();
        let mut weights = Vec::new();
        for players in counts.clone() {
            let key = players.to_string();
            let rows = table.get(&key).and_then(Value::as_array).filter(|p| p.len() == phases)
                .ok_or_else(|| format!("weights[{key:?}] is not a list of {phases} phases"))?;
            let mut per_phase = Vec::new();
            for (phase, row) in rows.iter().enumerate() {
                let row: Option<Vec<f64>> = row.as_array().filter(|r| r.len() == width)
                    .and_then(|r| r.iter().map(Value::as_f64).collect());
                per_phase.push(row.filter(|r| r.iter().all(|w| w.is_finite())).ok_or_else(
                    || format!("weights[{key:?}][{phase}] is not {width} finite numbers"))?);
            }
            weights.push(per_phase);
        }
        Ok(Model { low: *counts.start(), weights, components_digest: digest })
    }

    /// The worth of `inputs` at `players` seats in `phase` (0 outside the file's counts).
    pub fn dot(&self, players: usize, phase: usize, inputs: &[f32]) -> f64 {
        let Some(per_phase) = players.checked_sub(self.low).and_then(|i| self.weights.get(i))
        else {
            return 0.0;
        };
        let w = &per_phase[phase.min(per_phase.len() - 1)];
        w.iter().zip(inputs).map(|(&w, &x)| w * f64::from(x)).sum()
    }
}
