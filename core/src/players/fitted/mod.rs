//! fitted — a learned player for any game that supplies inputs (`games::inputs::Inputs`):
//! its value of a position is a linear model of the inputs (`model`), fitted to search
//! labels (`labels`, `cdsim train --game NAME`). A game registers it as its `learned`.
//!
//! - The worth of a position to a seat is the VP it has gained if the game ended there
//!   (`Inputs::gained`) plus the model's weights times its inputs (one weight vector a
//!   player count and phase). The value of a position to the deciding seat is its worth
//!   less `opponents` (1) times the other seats' mean worth. Gained VP only, never a
//!   total: the starting VP change no decision.
//! - A decision: each option (the `shortlist` best by the game's prior, if it has one;
//!   every option if not) is applied to a copy of the state, the rest of the seat's own
//!   turn is played on the copy (while the same seat decides, at most `turn` decisions:
//!   the prior's best option, or without a prior the option of best value one step on),
//!   and the position is valued. The best value wins; equal values keep the earlier
//!   option (by the prior's order).
//! - The copies are of the state as the seat may know it: drawn anew once a decision
//!   (`Game::determinize`) from the seat's own stream, so no choice reads hidden order.

pub mod labels;
pub mod model;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::games::inputs::Inputs;
use crate::players::settings::{checked, Kind, Setting};
use crate::players::{Strategy, View};
use crate::rng::Generator;

pub use model::{Model, FORMAT, VERSION};

/// The player's settings (`learned.shortlist`, `learned.turn`, ...).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedParams {
    /// Options valued on copies, the best by the game's prior (>= 1).
    pub shortlist: usize,
    /// Decisions of the rest of the seat's turn played on a copy at most.
    pub turn: usize,
    /// Weight of the other seats' mean worth against the seat's own.
    pub opponents: f64,
    /// Chance of a random shortlisted option instead of the best (self-play training).
    pub explore: f64,
    /// Which of the game's priors shortlists and plays the rest of a turn (0: the one it
    /// plays by; `Inputs::prior`): a game's training may label by another. Not a setting.
    pub prior: usize,
}

impl Default for FittedParams {
    fn default() -> FittedParams {
        FittedParams { shortlist: 4, turn: 12, opponents: 1.0, explore: 0.0, prior: 0 }
    }
}

/// The settings, declared once.
pub const SETTINGS: [Setting; 4] = [
    Setting { name: "shortlist", kind: Kind::Count,
              help: "options valued on copies, the best by the game's prior" },
    Setting { name: "turn", kind: Kind::Whole,
              help: "decisions of the rest of the seat's turn played on a copy at most" },
    Setting { name: "opponents", kind: Kind::Number,
              help: "weight of the other seats' mean worth against the seat's own" },
    Setting { name: "explore", kind: Kind::Share,
              help: "chance of a random shortlisted option (self-play training)" },
];

impl FittedParams {
    /// These settings with some replaced by name; an unknown name or a value its
    /// declaration does not take is an error naming `learned.NAME`.
    pub fn with_overrides<S: AsRef<str>>(&self, overrides: &[(S, f64)]) -> Result<Self, String> {
        let mut out = *self;
        for (name, value) in overrides {
            let name = name.as_ref();
            let value = checked("learned", &SETTINGS, name, *value)?;
            match name {
                "shortlist" => out.shortlist = value as usize,
                "turn" => out.turn = value as usize,
                "opponents" => out.opponents = value,
                "explore" => out.explore = value,
                _ => unreachable!("every setting of SETTINGS is assigned"),
            }
        }
        Ok(out)
    }
}

/// The learned player of a game `G` (see the module's documentation).
pub struct FittedPlayer<G: Inputs> {
    pub params: FittedParams,
    model: Arc<Model>,
    turn_buf: Vec<G::Action>,
    prior: Vec<f32>,
    /// The options valued on copies (`shortlist`), as indices.
    pub(crate) order: Vec<usize>,
    inputs: Vec<f32>,
    /// While a decision's copies are valued: each other seat's inputs on the state the
    /// copies are made from, and its phase (`Inputs::inputs_again` brings them up to date).
    others: Vec<Vec<f32>>,
    others_phase: Option<usize>,
}

impl<G: Inputs> Clone for FittedPlayer<G> {
    fn clone(&self) -> Self {
        FittedPlayer::new(self.params, Arc::clone(&self.model))
    }
}

impl<G: Inputs> FittedPlayer<G> {
    pub fn new(params: FittedParams, model: Arc<Model>) -> Self {
        FittedPlayer { params, model, turn_buf: Vec::new(), prior: Vec::new(),
                       order: Vec::new(), inputs: Vec::new(), others: Vec::new(),
                       others_phase: None }
    }

    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// `seat`'s worth of a position: VP gained plus the model's worth of its inputs.
    pub fn worth(&mut self, state: &G, comps: &G::Components, seat: usize) -> f64 {
        let gained = state.gained(comps, seat);
        if state.is_over() {
            return gained;
        }
        state.inputs(comps, seat, &mut self.inputs);
        gained + self.model.dot(state.seats(), state.phase(), &self.inputs)
    }

    /// Another seat's worth on a copy of the decision being valued: its inputs there
    /// brought up to date (`Inputs::inputs_again`) from those on the state the copies are
    /// made from (only the deciding seat has moved on a copy); afresh when the phase moved.
    fn other_worth(&mut self, state: &G, comps: &G::Components, seat: usize) -> f64 {
        if self.others_phase != Some(state.phase()) || state.is_over() {
            return self.worth(state, comps, seat);
        }
        let mut inputs = std::mem::take(&mut self.inputs);
        inputs.clone_from(&self.others[seat]);
        state.inputs_again(comps, seat, &mut inputs);
        #[cfg(debug_assertions)]
        {
            let mut fresh = Vec::new();
            state.inputs(comps, seat, &mut fresh);
            debug_assert_eq!(inputs, fresh, "inputs_again differs from inputs (seat {seat})");
        }
        let worth = state.gained(comps, seat)
            + self.model.dot(state.seats(), state.phase(), &inputs);
        self.inputs = inputs;
        worth
    }

    /// The value of a position to `seat`: its worth less `opponents` times the other
    /// seats' mean worth.
    pub fn value(&mut self, state: &G, comps: &G::Components, seat: usize) -> f64 {
        let mine = self.worth(state, comps, seat);
        let n = state.seats();
        if self.params.opponents == 0.0 || n < 2 {
            return mine;
        }
        let others: f64 = (0..n).filter(|&s| s != seat)
            .map(|s| self.other_worth(state, comps, s)).sum();
        mine - self.params.opponents * others / (n - 1) as f64
    }

    /// The indices of `options` valued on copies: by the prior, best first, the
    /// `shortlist` best; every option in order without a prior.
    pub(crate) fn shortlist(&mut self, state: &G, comps: &G::Components, seat: usize, options: &[G::Action]) {
        self.order.clear();
        self.order.extend(0..options.len());
        if state.prior(comps, seat, options, self.params.prior, &mut self.prior) {
            let prior = &self.prior;
            self.order.sort_by(|&a, &b| prior[b].total_cmp(&prior[a]));
            self.order.truncate(self.params.shortlist.max(1));
        }
    }

    /// The rest of `seat`'s turn on `state`: while it decides, at most `turn` decisions,
    /// each the prior's best option (the first of equals), or without a prior the option
    /// of best value one step on.
    pub fn finish_turn(&mut self, state: &mut G, comps: &G::Components, seat: usize) {
        let mut buf = std::mem::take(&mut self.turn_buf);
        for _ in 0..self.params.turn {
            if state.current_seat() != Some(seat) {
                break;
            }
            state.options(comps, &mut buf);
            let pick = if buf.len() < 2 {
                0
            } else if state.prior(comps, seat, &buf, self.params.prior, &mut self.prior) {
                first_best(self.prior.iter().map(|&p| f64::from(p)))
            } else {
                let mut values = Vec::with_capacity(buf.len());
                for &a in &buf {
                    let mut copy = state.clone();
                    copy.apply(comps, a);
                    values.push(self.value(&copy, comps, seat));
                }
                first_best(values.into_iter())
            };
            state.apply(comps, buf[pick]);
        }
        self.turn_buf = buf;
    }

    /// Each shortlisted option's value (`order`'s indices into `options`), on copies of
    /// `seen` (the state as the seat may know it): the option, the rest of the turn,
    /// then the position valued.
    pub fn option_values(&mut self, seen: &G, comps: &G::Components, seat: usize,
                         options: &[G::Action], out: &mut Vec<(usize, f64)>) {
        out.clear();
        let order = std::mem::take(&mut self.order);
        let n = seen.seats();
        self.others.resize_with(n, Vec::new);
        if !seen.is_over() && self.params.opponents != 0.0 {
            for s in (0..n).filter(|&s| s != seat) {
                seen.inputs(comps, s, &mut self.others[s]);
            }
            self.others_phase = Some(seen.phase());
        }
        for &i in &order {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            self.finish_turn(&mut copy, comps, seat);
            out.push((i, self.value(&copy, comps, seat)));
        }
        self.others_phase = None;
        self.order = order;
    }
}

/// The index of the first largest value.
fn first_best(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, v) in values.enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

impl<G: Inputs> Strategy<G> for FittedPlayer<G> {
    fn name(&self) -> &'static str {
        "learned"
    }

    fn choose(&mut self, view: &View<G>, options: &[G::Action], rng: &mut Generator) -> usize {
        if options.len() < 2 {
            return 0;
        }
        let (comps, seat) = (view.comps, view.seat);
        self.shortlist(view.state, comps, seat, options);
        if self.params.explore > 0.0
            && (rng.integers(1 << 53) as f64 / (1u64 << 53) as f64) < self.params.explore {
            return self.order[rng.integers(self.order.len() as u64) as usize];
        }
        let mut seen = view.state.clone();
        seen.determinize(comps, seat, rng);
        let mut values = Vec::with_capacity(self.order.len());
        self.option_values(&seen, comps, seat, options, &mut values);
        let best = first_best(values.iter().map(|&(_, v)| v));
        values[best].0
    }
}
