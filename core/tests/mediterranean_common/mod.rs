//! Shared helpers of the Mediterranean tests: the built-in set, a game at a seed, whole
//! games of named players in checking mode, and a position's shortcuts.
#![allow(dead_code)]

use cdsim_core::games::Game;
use cdsim_core::mediterranean::players::make;
use cdsim_core::mediterranean::{Action, Components, MedState, Scores};
use cdsim_core::play::play_game;
use cdsim_core::rng::SeedSequence;

pub fn comps() -> Components {
    Components::builtin()
}

/// A new game of `n` seats at seed `seed`, checking on.
pub fn game(comps: &Components, n: usize, seed: u64) -> MedState {
    let config = MedState::config(n, &vec![0; n], true).unwrap();
    <MedState as Game>::new(comps, &config, SeedSequence::new(0, &[seed])).0
}

/// A whole game of `names`, checking on.
pub fn play(comps: &Components, names: &[&str], seed: u64) -> Scores {
    let config = MedState::config(names.len(), &vec![0; names.len()], true).unwrap();
    let mut players: Vec<_> = names.iter().map(|n| make(n, &[]).unwrap()).collect();
    play_game::<MedState, _>(comps, &config, &mut players, SeedSequence::new(0, &[seed]))
}

pub fn options(state: &MedState, comps: &Components) -> Vec<Action> {
    let mut out = Vec::new();
    state.options(comps, &mut out);
    out
}

/// A city's index by name.
pub fn city(comps: &Components, name: &str) -> u8 {
    comps.tables().city_names.iter().position(|c| c == name).unwrap() as u8
}

/// The first option `pick` accepts, applied.
pub fn choose(state: &mut MedState, comps: &Components, pick: impl Fn(&Action) -> bool) {
    let a = *options(state, comps).iter().find(|a| pick(a)).expect("such an option");
    state.apply(comps, a);
}
