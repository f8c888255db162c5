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

/// Play the contract phase by each seat's first option: the state at the first
/// face-down rowing card.
pub fn to_delivery(comps: &Components, n: usize, seed: u64) -> MedState {
    let mut g = game(comps, n, seed);
    while g.phase == cdsim_core::mediterranean::Phase::Contracts {
        let a = options(&g, comps)[0];
        g.apply(comps, a);
    }
    g
}

/// A deck rowing card of this face (its id).
pub fn rowing(comps: &Components, power: u8, wind: i8) -> u8 {
    let t = comps.tables();
    (0..t.deck_rowing).find(|&i| t.rowing[i].power == power && t.rowing[i].wind == wind)
        .unwrap() as u8
}

/// The index of a good by name.
pub fn good(comps: &Components, name: &str) -> usize {
    comps.tables().good_names.iter().position(|g| g == name).unwrap()
}

/// A goods card of this good.
pub fn goods_card(comps: &Components, name: &str) -> u8 {
    let g = good(comps, name) as u8;
    comps.tables().goods_cards.iter().position(|&x| x == g).unwrap() as u8
}

/// The first city card of this city.
pub fn city_card(comps: &Components, name: &str) -> u8 {
    let c = city(comps, name);
    comps.tables().city_cards.iter().position(|f| f.city == c).unwrap() as u8
}

/// The index of the route between two cities.
pub fn route(comps: &Components, a: &str, b: &str) -> usize {
    let (a, b) = (city(comps, a), city(comps, b));
    comps.tables().routes.iter()
        .position(|r| (r.0, r.1) == (a, b) || (r.0, r.1) == (b, a)).unwrap()
}

pub fn region(comps: &Components, name: &str) -> usize {
    comps.tables().region_names.iter().position(|r| r == name).unwrap()
}
