//! What a position is worth to a seat, by some evaluation: the seam between what values
//! positions (mcts at its leaves, `mcts.leaf`; the luck measure, luck.rs) and what does
//! the valuing (the learned weights, `learned::evaluator`), so that neither names the
//! other. `players::make` and the binding join them.

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::GameState;

/// An evaluation of positions, with its own working memory (one per player or thread).
pub trait Evaluate: Send + Sync {
    /// The VP `seat` has gained if the game ended now plus what the evaluation expects it
    /// still to gain: never a total, so no starting VP changes a decision (R2.7).
    fn value(&mut self, state: &GameState, comps: &Components, seat: usize) -> f64;

    /// The same evaluation with working memory of its own (for another player or thread).
    fn fresh(&self) -> Box<dyn Evaluate>;
}
