//! Shared helpers of the integration tests.
#![allow(dead_code)]

use cdsim_core::components::Components;
use cdsim_core::district::District;
use cdsim_core::game::{play_game, GameConfig};
use cdsim_core::kinds::{Edges, CELLS};
use cdsim_core::players::{make, Player};
use cdsim_core::records::GameRecord;
use cdsim_core::rng::SeedSequence;

pub fn comps() -> Components {
    Components::from_json(include_str!("../data/components.json")).expect("the default set")
}

/// A district with no board: every cell open (as the Python tests' `open_district`).
pub fn open_district() -> District {
    District::new(None, &[])
}

pub fn lineup(names: &[&str]) -> Vec<Player> {
    names.iter().map(|n| make(n, &[]).unwrap()).collect()
}

pub fn play(comps: &Components, config: &GameConfig, names: &[&str], seed: u64) -> GameRecord {
    play_game(
        comps,
        config,
        &mut lineup(names),
        SeedSequence::new(u128::from(seed), &[]),
    )
}

/// Edges from codes: "G V G G" (N E S W, COMPONENTS C1).
pub fn edges(text: &str) -> Edges {
    let code = |c: &str| match c {
        "G" => 0,
        "V" => 1,
        "P" => 2,
        "H" => 3,
        "W" => 4,
        "C" => 5,
        "dM" => 6,
        "dB" => 7,
        "dA" => 8,
        "dR" => 9,
        _ => panic!("unknown code {c}"),
    };
    let v: Vec<u8> = text.split_whitespace().map(code).collect();
    [v[0], v[1], v[2], v[3]]
}

pub fn cell(row: usize, col: usize) -> usize {
    assert!(row * 6 + col < CELLS);
    row * 6 + col
}
