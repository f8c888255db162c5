//! What one finished game writes: one row per seat (the log schema); mirrors
//! `cdsim/records.py`. The seed is the caller's: the binding adds it to each row.

use serde::Serialize;

/// One seat of one game. `final_vp` is the sum of the seven `vp_*` sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeatRecord {
    pub seat: i64,
    pub strategy: &'static str,
    pub start_vp: i64,
    pub vp_start: i64,
    /// Objective cards, including -4 for each failed card (R8.5).
    pub vp_cards: i64,
    pub vp_villas: i64,    // R10.1
    pub vp_leftovers: i64, // R10.2
    /// R10.3 plus overflow steps (R6.6).
    pub vp_scroll: i64,
    pub vp_fountains: i64, // R10.4
    pub vp_frame: i64,     // R10.5
    pub final_vp: i64,
    pub failed_cards: i64,
    /// Scroll-track space at the end.
    pub scroll: i64,
    /// Height in the stack on that space, 0 = bottom (R10.6 tie-break).
    pub stack: i64,
    /// 1 = winner; unique after the tie-break.
    pub rank: i64,
    pub won: bool,
    /// start + cards + overflow after each scoring phase.
    pub vp_phase1: i64,
    pub vp_phase2: i64,
    pub vp_phase3: i64,
    pub vp_phase4: i64,
    pub tiles_taken: i64,
    pub tiles_built: i64,
    pub tiles_stored: i64,
    /// Complete villas.
    pub villas: i64,
    /// Chimneys in all villas, complete or not.
    pub chimneys: i64,
    /// Chimneys in complete villas.
    pub villa_chimneys: i64,
    pub landscapes: i64,
    pub merchants: i64,
    pub bakers: i64,
    pub administrators: i64,
    pub artisans: i64,
    pub markets: i64,
    pub bakeries: i64,
    pub fountains: i64,
    pub fountain_cards: i64,
    pub bread_moves: i64,
    pub artisan_lost: i64,
    pub leftover_items: i64,
}

/// The field names of `SeatRecord`, in order (Python's `SEAT_FIELDS`).
pub const SEAT_FIELDS: [&str; 38] = [
    "seat",
    "strategy",
    "start_vp",
    "vp_start",
    "vp_cards",
    "vp_villas",
    "vp_leftovers",
    "vp_scroll",
    "vp_fountains",
    "vp_frame",
    "final_vp",
    "failed_cards",
    "scroll",
    "stack",
    "rank",
    "won",
    "vp_phase1",
    "vp_phase2",
    "vp_phase3",
    "vp_phase4",
    "tiles_taken",
    "tiles_built",
    "tiles_stored",
    "villas",
    "chimneys",
    "villa_chimneys",
    "landscapes",
    "merchants",
    "bakers",
    "administrators",
    "artisans",
    "markets",
    "bakeries",
    "fountains",
    "fountain_cards",
    "bread_moves",
    "artisan_lost",
    "leftover_items",
];

pub const BREAKDOWN: [&str; 7] = [
    "start",
    "cards",
    "villas",
    "leftovers",
    "scroll",
    "fountains",
    "frame",
];

impl SeatRecord {
    /// The seven VP sources (BREAKDOWN order).
    pub fn breakdown(&self) -> [i64; 7] {
        [
            self.vp_start,
            self.vp_cards,
            self.vp_villas,
            self.vp_leftovers,
            self.vp_scroll,
            self.vp_fountains,
            self.vp_frame,
        ]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    pub players: usize,
    pub seats: Vec<SeatRecord>,
    /// The winner was decided by the scroll-track tie-break (R10.6).
    pub tiebreak: bool,
}

impl GameRecord {
    pub fn winner(&self) -> usize {
        self.seats
            .iter()
            .position(|s| s.won)
            .expect("a game has a winner")
    }

    /// The rows as Python's `GameRecord.rows()` gives them (with this seed), as JSON
    /// objects: the seat fields, then seed, players and tiebreak.
    pub fn rows_json(&self, seed: i64) -> Vec<serde_json::Value> {
        self.seats
            .iter()
            .map(|s| {
                let mut row = serde_json::to_value(s).expect("a record serializes");
                let obj = row.as_object_mut().expect("an object");
                obj.insert("seed".into(), seed.into());
                obj.insert("players".into(), self.players.into());
                obj.insert("tiebreak".into(), self.tiebreak.into());
                row
            })
            .collect()
    }
}
