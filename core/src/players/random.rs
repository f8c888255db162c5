//! random — uniform over the legal options, for any game: the sanity floor every other
//! player must beat (`strategies/example.py`'s `Random` is the same player in Python).

use crate::games::Game;
use crate::players::{Strategy, View};
use crate::rng::Generator;

/// Chooses uniformly among the legal options, from the seat's own stream: one
/// `integers(len(options))` per decision (numpy draws nothing for one option).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl<G: Game> Strategy<G> for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }
    fn choose(&mut self, _: &View<G>, options: &[G::Action], rng: &mut Generator) -> usize {
        rng.integers(options.len() as u64) as usize
    }
}
