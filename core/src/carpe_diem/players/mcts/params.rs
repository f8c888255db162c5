//! The search's settings: what `mcts@N` and `--strategy-params mcts.NAME=value` set.

use crate::carpe_diem::players::settings::{declared, overridden, Field, Kind, Setting};

/// The search's settings (`--strategy-params mcts.playouts=N,mcts.c=X,mcts.top_k=K`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// Simulations per searched decision (>= 1).
    pub playouts: u32,
    /// UCB1 exploration constant, in VP of margin (>= 0).
    pub c: f64,
    /// Options of a decision the tree considers, best first by the value model (>= 1).
    pub top_k: usize,
    /// 0: a simulation leaving the tree plays greedy to the end (rollouts). N >= 1: it
    /// plays greedy to the end of this seat's N-th turn from there (the one under way
    /// first) and values that position by the learned player's built-in weights (the
    /// seat's value less the best other seat's).
    pub leaf: u32,
}

impl Default for MctsParams {
    fn default() -> MctsParams {
        MctsParams {
            playouts: 120,
            c: 30.0,
            top_k: 3,
            leaf: 0,
        }
    }
}

/// The search's settings, declared once, each with where its value goes
/// (`--strategy-params mcts.NAME=value`, `mcts@N` for the playouts).
pub const FIELDS: [Field<MctsParams>; 4] = [
    Field { setting: Setting { name: "playouts", kind: Kind::Count,
                               help: "simulations per searched decision" },
            set: |p, v| p.playouts = v as u32 },
    Field { setting: Setting { name: "c", kind: Kind::Number,
                               help: "UCB1 exploration constant, in VP of margin" },
            set: |p, v| p.c = v },
    Field { setting: Setting { name: "top_k", kind: Kind::Count,
                               help: "options of a decision the tree considers, best first by the \
                                      value model" },
            set: |p, v| p.top_k = v as usize },
    Field { setting: Setting { name: "leaf", kind: Kind::Whole,
                               help: "0: a simulation plays greedy to the end; N: to the end of \
                                      this seat's N-th turn, then the learned value" },
            set: |p, v| p.leaf = v as u32 },
];

/// The declarations alone (Python's registry and `--help` read them through the binding).
pub const SETTINGS: [Setting; 4] = declared(&FIELDS);

impl MctsParams {
    /// These settings with some replaced by name (`settings::overridden`, by `FIELDS`).
    pub fn with_overrides<S: AsRef<str>>(&self, overrides: &[(S, f64)]) -> Result<Self, String> {
        overridden("mcts", &FIELDS, *self, overrides)
    }
}
