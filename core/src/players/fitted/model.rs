//! The learned players' weights file, one format for every game (`read`, the one parser),
//! and the fitted player's model: a linear function of a game's inputs
//! (`games::inputs::Inputs`), one weight vector per player count and phase, added to the
//! VP the seat has gained. Carpe Diem's learned player reads the same file
//! (`carpe_diem::players::learned::model`), its inputs named in full.
//!
//! ```json
//! {"format": "cdsim-weights", "version": 1, "game": "castles",
//!  "components_digest": "...", "inputs": ["gained_green", ...], "phases": 3,
//!  "weights": {"2": [[...], [...], [...]], "3": [...], "4": [...]}}
//! ```
//! One weight a named input, in the order of `inputs`. Other keys (how it was trained)
//! are kept by the trainer and not read here.

use std::ops::RangeInclusive;

use serde_json::Value;

use crate::games::inputs::Inputs;

/// What a weights file says it is.
pub const FORMAT: &str = "cdsim-weights";
/// The version this core reads and `cdsim train` writes.
pub const VERSION: u64 = 1;
/// The format Carpe Diem's weights had before there was one for every game.
pub const OLD_FORMAT: &str = "cdsim-learned-weights";

/// A weights file as `read` checks it for a game, before a player checks its inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// The component set's digest the weights were trained on.
    pub components_digest: String,
    /// The inputs' names, one weight each.
    pub inputs: Vec<String>,
    /// `weights[players - low][phase]`, `inputs.len()` numbers each.
    pub weights: Vec<Vec<Vec<f64>>>,
}

/// A weights file's text for game `game` (its name), at player counts `counts`, with
/// `phases` phases and inputs its player `reads` (their names): the one parser every
/// game's learned player reads its weights with. Any problem is one line naming the key
/// that is wrong.
pub fn read(text: &str, game: &str, counts: RangeInclusive<usize>, phases: usize,
            reads: impl Fn(&[String]) -> bool) -> Result<WeightsFile, String> {
    let data: Value =
        serde_json::from_str(text).map_err(|e| format!("not a weights file ({e})"))?;
    let field = |key: &str| data.get(key).ok_or_else(|| format!("not a weights file (no {key:?})"));
    let format = field("format")?.as_str();
    if format == Some(OLD_FORMAT) {
        return Err(format!("an old {game} weights file (\"format\": {OLD_FORMAT:?}): convert it \
                            with cdsim train --convert FILE --out NEW.json"));
    }
    if format != Some(FORMAT) {
        return Err(format!("not a weights file (\"format\" is not {FORMAT:?})"));
    }
    if field("version")?.as_u64() != Some(VERSION) {
        return Err(format!("\"version\" {} (this core reads {VERSION})", field("version")?));
    }
    let named = field("game")?.as_str().unwrap_or("");
    if named != game {
        return Err(format!("\"game\": the weights are {named:?}'s, not {game:?}'s"));
    }
    let components_digest = field("components_digest")?.as_str()
        .ok_or("\"components_digest\" is not a string")?.to_string();
    let inputs: Vec<String> = field("inputs")?.as_array()
        .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect())
        .ok_or("\"inputs\" is not a list of names")?;
    if !reads(&inputs) {
        return Err(other_inputs(game));
    }
    if field("phases")?.as_u64() != Some(phases as u64) {
        return Err(format!("\"phases\" is not {phases}"));
    }
    let width = inputs.len();
    let table = field("weights")?;
    let mut weights = Vec::new();
    for players in counts {
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
    Ok(WeightsFile { components_digest, inputs, weights })
}

/// The error for weights whose `inputs` are not the ones this core's player reads.
fn other_inputs(game: &str) -> String {
    format!("\"inputs\": the weights were made for other inputs (their names differ from this \
             core's {game} inputs): cdsim train --game {game}")
}

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
        let counts = G::player_counts();
        let file = read(text, game, counts.clone(), G::phases(), |names| {
            names.iter().map(String::as_str).eq(G::input_names().iter().copied())
        })?;
        Ok(Model { low: *counts.start(), weights: file.weights,
                   components_digest: file.components_digest })
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
