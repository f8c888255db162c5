//! What a game hands a learned player beside `Game`: the inputs of a position for a seat
//! (numbers a linear model weighs, with their names), the VP the seat has gained if the
//! game ended there, the phase the weights are kept for, and, if it has one, a cheap prior
//! over a decision's options (a shortlist and the rest of a turn are played by it).
//!
//! Gained VP only, never a total: nothing here reads the starting VP, so no decision of a
//! player over these can depend on them (R2.7, T13).

use crate::games::Game;

/// A game's inputs for a learned player (`players::fitted`).
pub trait Inputs: Game {
    /// The inputs' names, in `inputs` order (a weights file names its inputs so; a file
    /// made for other inputs is refused).
    fn input_names() -> &'static [&'static str];

    /// The player counts the game is played at.
    fn player_counts() -> std::ops::RangeInclusive<usize>;

    /// How many phases weights are kept for (1: one set a player count).
    fn phases() -> usize {
        1
    }

    /// The phase of the position, `0..phases()`.
    fn phase(&self) -> usize {
        0
    }

    /// The VP `seat` has gained if the game ended now (its final VP less its starting VP
    /// once the game is over): what a model's value adds its inputs' worth to.
    fn gained(&self, comps: &Self::Components, seat: usize) -> f64;

    /// The inputs of the position for `seat` into `out` (emptied first), only what the
    /// seat may know: `input_names().len()` numbers.
    fn inputs(&self, comps: &Self::Components, seat: usize, out: &mut Vec<f32>);

    /// `seat`'s inputs brought up to date in `out`, which holds them on an earlier position
    /// from which only another seat has moved (`seat`'s own holding, board and storage as
    /// they were, the phase the same): a game may recompute only what the other seats'
    /// moves change (the learned player values the other seats so on a decision's copies).
    /// The default computes them afresh.
    fn inputs_again(&self, comps: &Self::Components, seat: usize, out: &mut Vec<f32>) {
        self.inputs(comps, seat, out);
    }

    /// A cheap prior over the pending decision's `options` (higher is better) into `out`
    /// (emptied first, one number an option); `false` when the game has none (the
    /// default), and a player weighs every option. `which` names one of the game's
    /// priors (0: the one it plays by; a game may keep another for its training).
    fn prior(&self, _comps: &Self::Components, _seat: usize, _options: &[Self::Action],
             _which: usize, _out: &mut Vec<f32>) -> bool {
        false
    }
}
