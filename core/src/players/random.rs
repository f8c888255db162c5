//! random — uniform over the legal options: the sanity floor every other player must
//! beat; mirrors `strategies/random_player.py`.

use crate::cards::Payment;
use crate::components::ObjectiveCard;
use crate::players::{CircleChoice, FountainChoice, Move, PlayerView, SealBuild, Strategy, Take};
use crate::rng::Generator;

/// Chooses uniformly among the legal options, from the seat's own stream: one
/// `integers(len(options))` per decision (numpy draws nothing for one option).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

fn pick(rng: &mut Generator, n: usize) -> usize {
    rng.integers(n as u64) as usize
}

impl Strategy for RandomPlayer {
    fn name(&self) -> &'static str {
        "random"
    }
    fn choose_start(&mut self, _: &PlayerView, options: &[u8], rng: &mut Generator) -> usize {
        pick(rng, options.len())
    }
    fn choose_move(&mut self, _: &PlayerView, options: &[Move], rng: &mut Generator) -> usize {
        pick(rng, options.len())
    }
    fn choose_take(&mut self, _: &PlayerView, options: &[Take], rng: &mut Generator) -> usize {
        pick(rng, options.len())
    }
    fn choose_seal(&mut self, _: &PlayerView, options: &[SealBuild], rng: &mut Generator) -> usize {
        pick(rng, options.len())
    }
    fn choose_fountain(
        &mut self,
        _: &PlayerView,
        options: &[FountainChoice],
        rng: &mut Generator,
    ) -> usize {
        pick(rng, options.len())
    }
    fn choose_circle(
        &mut self,
        _: &PlayerView,
        options: &[CircleChoice],
        rng: &mut Generator,
    ) -> usize {
        pick(rng, options.len())
    }
    fn choose_payment(
        &mut self,
        _: &PlayerView,
        _: &ObjectiveCard,
        options: &[Payment],
        rng: &mut Generator,
    ) -> usize {
        pick(rng, options.len())
    }
}
