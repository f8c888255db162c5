//! A prior over a move decision's (tile, cell) options (`learned.prior`): a linear function
//! of a few cheap inputs of an option (greedy's placement value, its bread price, its rank,
//! the tile's kind and the cell's scroll), fitted offline to the learned player's own values
//! of the options after the rest of the turn (`fit.rs`; `make train-prior` rebuilds
//! strategies/weights/carpe_diem-prior.json byte for byte). Of greedy's `joint` best
//! options of a decision, only the `prior` best by it are valued on copies. No input reads
//! the starting VP (R2.7).

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::kinds::{BAKERY, FOUNTAIN, MARKET};
use crate::carpe_diem::players::value::Evaluator;

/// The inputs of an option, in the order of a prior's weights.
pub const PRIOR_INPUTS: [&str; 13] = [
    "greedy",
    "price",
    "store",
    "pair_rank",
    "move_rank",
    "market",
    "bakery",
    "fountain",
    "chimneys",
    "scroll",
    "parts",
    "greedy_progress",
    "store_progress",
];
pub const N_PRIOR: usize = PRIOR_INPUTS.len();

/// An option of a move decision as the joint shortlist holds it: greedy's value less the
/// move's bread price, the price, its place in the list and its move's place, the tile and
/// the cell (-1: stored).
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    pub value: f64,
    pub price: f64,
    pub rank: usize,
    pub move_rank: usize,
    pub tile: u8,
    pub cell: i8,
}

/// The prior's inputs of one option.
pub fn prior_inputs(ev: &Evaluator, comps: &Components, o: &Choice) -> [f64; N_PRIOR] {
    let ttype = &comps.tile_types[o.tile as usize];
    let store = f64::from(u8::from(o.cell < 0));
    let progress = ev.prices.progress;
    let scroll = o.cell >= 0 && ev.d.scrolls >> o.cell & 1 != 0;
    [
        o.value,
        o.price,
        store,
        o.rank as f64,
        o.move_rank as f64,
        f64::from(u8::from(ttype.building == MARKET)),
        f64::from(u8::from(ttype.building == BAKERY)),
        f64::from(u8::from(ttype.building == FOUNTAIN)),
        f64::from(ttype.chimneys),
        f64::from(u8::from(scroll)),
        ttype.parts().len() as f64,
        o.value * progress,
        store * progress,
    ]
}

/// One recorded option: the decision it belongs to (a number per recording player), the
/// player count, its inputs, the model's value of it (the best of its orientations, after
/// the rest of the turn) and how many copies that took.
#[derive(Clone, Debug)]
pub struct PriorRow {
    pub decision: u64,
    pub players: usize,
    pub inputs: [f64; N_PRIOR],
    pub value: f64,
    pub copies: usize,
}

/// A prior's weights, one vector per player count (2, 3, 4).
#[derive(Clone, Debug, PartialEq)]
pub struct Prior {
    weights: Vec<[f64; N_PRIOR]>,
}

impl Default for Prior {
    /// Greedy's order: the weight of greedy's value alone.
    fn default() -> Prior {
        let mut w = [0.0; N_PRIOR];
        w[0] = 1.0;
        Prior { weights: vec![w; 3] }
    }
}

/// What a prior's file says it is, and the game it is for.
pub const PRIOR_FORMAT: &str = "cdsim-learned-prior";
pub const PRIOR_GAME: &str = "carpe_diem";

/// The built-in prior (`make train-prior` writes it, byte for byte).
pub const DEFAULT_PRIOR: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"), "/../strategies/weights/carpe_diem-prior.json"));

impl Prior {
    /// A prior with these weights per player count (2, 3, 4).
    pub fn new(weights: Vec<[f64; N_PRIOR]>) -> Prior {
        assert_eq!(weights.len(), 3, "a prior holds weights for 2, 3 and 4 players");
        Prior { weights }
    }

    /// The built-in prior.
    pub fn builtin() -> Arc<Prior> {
        static PRIOR: OnceLock<Arc<Prior>> = OnceLock::new();
        PRIOR
            .get_or_init(|| {
                Arc::new(Prior::from_json(DEFAULT_PRIOR).expect("the built-in prior reads"))
            })
            .clone()
    }

    /// A prior's file; any problem is one line naming it.
    pub fn from_json(text: &str) -> Result<Prior, String> {
        let data: Value = serde_json::from_str(text).map_err(|e| format!("not a prior file ({e})"))?;
        if data.get("format").and_then(Value::as_str) != Some(PRIOR_FORMAT)
            || data.get("game").and_then(Value::as_str) != Some(PRIOR_GAME)
        {
            return Err(format!("not a {PRIOR_GAME} prior file (format {PRIOR_FORMAT:?})"));
        }
        let names: Option<Vec<&str>> = data
            .get("inputs")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(Value::as_str).collect());
        if names.as_deref() != Some(&PRIOR_INPUTS[..]) {
            return Err("the prior was fitted to other inputs: make train-prior".into());
        }
        let mut weights = Vec::new();
        for players in 2..=4 {
            let key = players.to_string();
            let row: Option<Vec<f64>> = data
                .get("weights")
                .and_then(|w| w.get(&key))
                .and_then(Value::as_array)
                .and_then(|r| r.iter().map(Value::as_f64).collect());
            let row = row
                .filter(|r| r.len() == N_PRIOR && r.iter().all(|w| w.is_finite()))
                .ok_or_else(|| format!("prior weights[{key:?}] are not {N_PRIOR} finite numbers"))?;
            let mut w = [0.0; N_PRIOR];
            w.copy_from_slice(&row);
            weights.push(w);
        }
        Ok(Prior { weights })
    }

    /// The prior's file (`from_json` reads it back; the command that made it is kept).
    pub fn to_json(&self, command: &str) -> String {
        let rows: Vec<String> = (2..=4)
            .map(|n| {
                let w: Vec<String> = self.weights(n).iter().map(|w| format!("{w:?}")).collect();
                format!("  \"{n}\": [{}]", w.join(", "))
            })
            .collect();
        let names: Vec<String> = PRIOR_INPUTS.iter().map(|n| format!("\"{n}\"")).collect();
        format!(
            "{{\n \"format\": \"{PRIOR_FORMAT}\",\n \"game\": \"{PRIOR_GAME}\",\n \
             \"command\": \"{command}\",\n \"inputs\": [{}],\n \"weights\": {{\n{}\n }}\n}}\n",
            names.join(", "),
            rows.join(",\n")
        )
    }

    /// The weights for a game of `players` players.
    pub fn weights(&self, players: usize) -> &[f64; N_PRIOR] {
        &self.weights[players.clamp(2, 4) - 2]
    }
}
