//! What one finished game writes: one row per seat (the log schema); mirrors
//! `cdsim/rules/records.py`. The seed is the caller's: the binding adds it to each row.

use serde::Serialize;

use crate::components::Components;
use crate::game::GameState;

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
    /// What happened to each card, seat by seat (the card table).
    pub cards: Vec<CardRecord>,
}

/// Which deck a card row is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardKind {
    Objective,
    Fountain,
}

/// What happened to the card: an objective card a seat took is fulfilled or failed
/// (R8.4-R8.5); a fountain card is drawn (R6.5) and, if held at the end, kept (R10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CardOutcome {
    Fulfilled,
    Failed,
    Drawn,
    Kept,
}

/// One row of the card table: a seat, a card (index into its deck of the game's
/// `Components`), what happened, in which phase (1-4; 0 = final scoring) and the VP
/// it brought. Rows of one seat sum to its `vp_cards` + `vp_fountains`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardRecord {
    pub seat: u8,
    pub kind: CardKind,
    pub card: u8,
    pub outcome: CardOutcome,
    pub phase: u8,
    pub multiples: i32,
    pub vp: i32,
}

impl CardRecord {
    /// The card's id in `comps`.
    pub fn card_id<'a>(&self, comps: &'a Components) -> &'a str {
        match self.kind {
            CardKind::Objective => &comps.objectives[self.card as usize].id,
            CardKind::Fountain => &comps.fountains[self.card as usize].id,
        }
    }

    /// As JSON, the card named by its id (`State.record()`).
    pub fn to_json(&self, comps: &Components) -> serde_json::Value {
        let mut row = serde_json::to_value(self).expect("a card row serializes");
        row["card"] = self.card_id(comps).into();
        row
    }
}

/// The card rows of a finished game, seat by seat: objective cards in the order they
/// were resolved, then fountain cards drawn (by phase, then card), then those kept.
pub fn card_records(state: &GameState, comps: &Components) -> Vec<CardRecord> {
    let mut out = Vec::with_capacity(state.n * 12);
    for (s, p) in state.players[..state.n].iter().enumerate() {
        let seat = s as u8;
        for t in p.cards_taken() {
            let outcome = if t.failed { CardOutcome::Failed } else { CardOutcome::Fulfilled };
            out.push(CardRecord { seat, kind: CardKind::Objective, card: t.card, outcome,
                                  phase: t.phase + 1, multiples: t.multiples, vp: t.vp });
        }
        for (phase, counts) in p.fountain_draws.iter().enumerate() {
            for (card, &times) in counts.iter().enumerate() {
                for _ in 0..times {
                    out.push(CardRecord { seat, kind: CardKind::Fountain, card: card as u8,
                                          outcome: CardOutcome::Drawn, phase: phase as u8 + 1,
                                          multiples: 0, vp: 0 });
                }
            }
        }
        for &f in p.fountain_cards.as_slice() {
            let card = &comps.fountains[f as usize];
            let vp = card.vp * p.district.complete_count[card.goal as usize]; // R10.4
            out.push(CardRecord { seat, kind: CardKind::Fountain, card: f,
                                  outcome: CardOutcome::Kept, phase: 0, multiples: 0, vp });
        }
    }
    out
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

/// The names `CardColumns::outcome` indexes, in `CardOutcome` order.
pub const CARD_OUTCOMES: [&str; 4] = ["fulfilled", "failed", "drawn", "kept"];

/// The card rows of a chunk as columns (`batch::play_chunk`): `kind` 0 = objective,
/// 1 = fountain; `card` indexes that deck; `outcome` indexes `CARD_OUTCOMES`.
#[derive(Default, Debug)]
pub struct CardColumns {
    pub game: Vec<i64>,
    pub seat: Vec<i64>,
    pub kind: Vec<u8>,
    pub card: Vec<u8>,
    pub outcome: Vec<u8>,
    pub phase: Vec<i64>,
    pub multiples: Vec<i64>,
    pub vp: Vec<i64>,
}

impl CardColumns {
    pub fn push(&mut self, game: i64, cards: &[CardRecord]) {
        for c in cards {
            self.game.push(game);
            self.seat.push(i64::from(c.seat));
            self.kind.push(c.kind as u8);
            self.card.push(c.card);
            self.outcome.push(c.outcome as u8);
            self.phase.push(i64::from(c.phase));
            self.multiples.push(i64::from(c.multiples));
            self.vp.push(i64::from(c.vp));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameConfig;
    use crate::play::play_game;
    use crate::players::make;
    use crate::rng::SeedSequence;

    #[test]
    fn a_seats_card_rows_add_up_to_its_card_and_fountain_vp() {
        let comps = crate::components::fixture();
        for n in 2..=4 {
            for seed in 0..4u64 {
                let mut players: Vec<_> = ["greedy", "bread", "villa", "random"][..n].iter()
                    .map(|name| make(name, &[]).unwrap()).collect();
                let record = play_game(&comps, &GameConfig::new(n), &mut players,
                                       SeedSequence::new(u128::from(seed), &[seed]));
                for s in &record.seats {
                    let rows: Vec<_> =
                        record.cards.iter().filter(|c| i64::from(c.seat) == s.seat).collect();
                    let sum = |keep: &dyn Fn(&CardRecord) -> bool| -> i64 {
                        rows.iter().filter(|c| keep(c)).map(|c| i64::from(c.vp)).sum()
                    };
                    assert_eq!(sum(&|c| c.kind == CardKind::Objective), s.vp_cards);
                    assert_eq!(sum(&|c| c.outcome == CardOutcome::Kept), s.vp_fountains);
                    let failed = rows.iter().filter(|c| c.outcome == CardOutcome::Failed).count();
                    assert_eq!(failed as i64, s.failed_cards);
                }
            }
        }
    }
}
