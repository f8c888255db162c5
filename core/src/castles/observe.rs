//! T12: what a seat may know. The order of every pile and stack stays hidden; so do the
//! others' hands (only their sizes show) and, until every seat has laid its pieces,
//! the others' layouts (T2.6).

use super::actions::Pending;
use super::components::{N_BONUS, N_COLOURS};
use super::state::{CastlesState, Stored, DISPLAY, MAX_STORAGE, NO_LAYOUT};
use super::tables::Tile;

/// One seat's public holdings as another seat sees them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SeatView {
    pub hand_size: u32,
    /// Own hand only; `None` for another seat (T12.1).
    pub hand: Option<[u8; N_COLOURS]>,
    pub storage: [Stored; MAX_STORAGE],
    pub capacity: u8,
    pub workers: u16,
    pub marble: u16,
    pub tokens: [u8; N_BONUS],
    /// `None` while hidden (T12.3).
    pub layout: Option<u16>,
    pub pieces: [u8; 3],
    pub filled: u32,
    pub crops: [u8; 30],
    /// Tiles left in its stacks (their order is hidden, T12.2).
    pub stack_left: u8,
    pub green: i32,
    pub red: i32,
}

/// What seat `seat` may know of the game.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Observation {
    pub seat: usize,
    pub phase: u8,
    pub triggered: bool,
    pub final_round: bool,
    pub pending: Pending,
    pub display: [Option<Tile>; DISPLAY],
    pub deck_size: u8,
    pub discard: [u8; N_COLOURS],
    pub harvest_size: u8,
    pub harvest_discard: Vec<u8>,
    pub reserve_size: u8,
    pub aside: Vec<Tile>,
    pub bonus_supply: [u8; N_BONUS],
    pub colour_claims: [u8; N_COLOURS],
    pub seats: Vec<SeatView>,
}

impl CastlesState {
    /// T12: the observation of `seat`.
    pub fn observe(&self, seat: usize) -> Observation {
        let all_laid = self.all_laid();
        let seats = self.seats[..self.n]
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mine = i == seat;
                let shown = (mine || all_laid) && s.layout != NO_LAYOUT;
                SeatView {
                    hand_size: s.hand_size(),
                    hand: mine.then_some(s.hand),
                    storage: s.storage,
                    capacity: s.capacity,
                    workers: s.workers,
                    marble: s.marble,
                    tokens: s.tokens,
                    layout: shown.then_some(s.layout),
                    pieces: s.pieces,
                    filled: if shown { s.filled } else { 0 },
                    crops: s.crops,
                    stack_left: 21 - s.drawn,
                    green: s.green,
                    red: s.red,
                }
            })
            .collect();
        Observation {
            seat,
            phase: self.phase,
            triggered: self.triggered,
            final_round: self.final_round,
            pending: self.pending,
            display: self.display,
            deck_size: self.deck_len,
            discard: self.discard,
            harvest_size: self.harvest_len,
            harvest_discard: self.harvest_discard[..self.harvest_discard_len as usize].to_vec(),
            reserve_size: self.reserve_len,
            aside: self.aside[..self.aside_len as usize].to_vec(),
            bonus_supply: self.bonus_supply,
            colour_claims: self.colour_claims,
            seats,
        }
    }
}
