//! Shared helpers of the integration tests.
#![allow(dead_code)]

use cdsim_core::carpe_diem::components::Components;
use cdsim_core::carpe_diem::district::District;
use cdsim_core::carpe_diem::game::{Action, GameConfig, GameState};
use cdsim_core::carpe_diem::kinds::{Edges, CELLS};
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::{make, Player, PlayerView, Strategy};
use cdsim_core::carpe_diem::records::GameRecord;
use cdsim_core::rng::{Generator, SeedSequence};

/// Row columns that hold the starting VP or follow from them (R2.7): the only ones a
/// start-VP change may move.
pub const START_VP_COLUMNS: [&str; 10] = [
    "start_vp",
    "vp_start",
    "final_vp",
    "rank",
    "won",
    "tiebreak",
    "vp_phase1",
    "vp_phase2",
    "vp_phase3",
    "vp_phase4",
];

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

/// Edges from codes: "G V G G" (N E S W, docs/rules.md C1).
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

/// A player whose every decision is handed to `note` (the player, the decision's name,
/// the index chosen) before it is returned: the decision logs of the start-VP and the
/// search tests.
pub struct Logged<S, F> {
    pub inner: S,
    pub note: F,
}

impl<S: Strategy<GameState>, F: FnMut(&S, &'static str, usize) + Send> Logged<S, F> {
    fn noted(&mut self, what: &'static str, i: usize) -> usize {
        (self.note)(&self.inner, what, i);
        i
    }
}

impl<S: Strategy<GameState>, F: FnMut(&S, &'static str, usize) + Send> Strategy<GameState>
    for Logged<S, F>
{
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn reads_scores(&self) -> bool {
        self.inner.reads_scores()
    }
    fn choose(&mut self, v: &PlayerView, o: &[Action], r: &mut Generator) -> usize {
        let i = self.inner.choose(v, o, r);
        self.noted(v.state.pending.name(), i)
    }
}
