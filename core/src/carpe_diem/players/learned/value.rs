//! The learned weights as an evaluation of positions (`players::evaluate`): what mcts
//! values its leaves by (`mcts.leaf`) and the luck measure its win predictor by.

use std::sync::Arc;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::GameState;
use crate::carpe_diem::players::evaluate::Evaluate;
use crate::carpe_diem::players::features::{Scratch, N_INPUTS};

use super::Model;

/// A model's value of positions, with the working memory of its inputs.
pub struct LearnedValue {
    model: Arc<Model>,
    scratch: Scratch,
    inputs: Box<[f64; N_INPUTS]>,
}

impl Evaluate for LearnedValue {
    fn value(&mut self, state: &GameState, comps: &Components, seat: usize) -> f64 {
        self.model.value(state, comps, seat, &mut self.scratch, &mut self.inputs[..])
    }

    fn fresh(&self) -> Box<dyn Evaluate> {
        evaluator(Arc::clone(&self.model))
    }
}

/// The evaluation by `model`'s weights.
pub fn evaluator(model: Arc<Model>) -> Box<dyn Evaluate> {
    Box::new(LearnedValue { model, scratch: Scratch::default(),
                            inputs: Box::new([0.0; N_INPUTS]) })
}
