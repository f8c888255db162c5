//! Typed events: one per rule step (deal, pawn, move, take, scroll, completion, seal,
//! fountain, scoring phase, circle, card, end of phase). The text trace and the HTML
//! replay are two renderers of this one list (`cdsim/games/carpe_diem/view/trace.py` and
//! `cdsim/games/carpe_diem/view/replay.py`), so neither parses the other.
//!
//! A state records events only when asked (`EventLog::on`): batches and the search
//! players' copies of a state pay one branch per step and allocate nothing. A copied
//! state (`Clone`) records nothing: a search player's playouts are not the game.

use serde_json::{json, Value};

use crate::carpe_diem::components::Components;
use crate::carpe_diem::kinds::Edges;

use super::{MAX_PLAYERS, NONE, SPACES, TILES_PER_DEPOT};

/// One rule step. Seats, spaces, slots and cells count from 0; indices name components
/// of the game's `Components` (`to_json` turns them into ids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// R2.5: a pawn placed, blind, before the first deal.
    Pawn { seat: u8, space: u8 },
    /// R2.4 / R3.2: the depots dealt for a phase (tile-type indices).
    Deal { phase: u8, depots: [[u8; TILES_PER_DEPOT]; SPACES] },
    /// R4.2-R4.4: a pawn moved (`bread`: paid 1 bread to go anywhere).
    Move { seat: u8, dest: u8, bread: bool },
    /// R4.5: a tile taken from the depot on `space`, built at `cell` or stored (`cell` < 0).
    Take { seat: u8, space: u8, tile: u8, cell: i8, edges: Edges },
    /// R5.4 / R6.3 / R8: the scroll disc moved `steps` to `space`; `overflow` VP (R6.6).
    Scroll { seat: u8, steps: i32, space: u8, overflow: i32 },
    /// R6.1-R6.5: a feature completed and its reward paid.
    Complete { seat: u8, kind: u8, tiles: u8, chimneys: u16 },
    /// R6.3: an artisan with no buildable seal tile: the reward is lost.
    ArtisanLost { seat: u8 },
    /// R6.3: the artisan's seal tile, built.
    Seal { seat: u8, slot: u8, tile: u8, cell: u8, edges: Edges },
    /// R6.5: the cards kept and the card put under the deck.
    Fountain { seat: u8, drawn: [u8; 2], keep: [u8; 2], kept: u8, give_back: u8 },
    /// R8.2: a scoring phase begins, seats in scoring order.
    ScoringPhase { phase: u8, order: [u8; MAX_PLAYERS], n: u8 },
    /// R8.3: a circle taken, its cards in this order.
    Circle { seat: u8, circle: u8, first: u8, second: u8 },
    /// R8.4-R8.5: a card fulfilled (`multiples` times) or failed.
    Card { seat: u8, slot: u8, card: u8, failed: bool, multiples: i32, vp: i32 },
    /// The end of a scoring phase: VP held by each seat (start + cards + overflow).
    PhaseEnd { phase: u8, vp: [i32; MAX_PLAYERS], n: u8 },
}

/// The events of one state, or none (`Default`).
#[derive(Debug, Default)]
pub struct EventLog(Option<Vec<Event>>);

impl Clone for EventLog {
    /// A copy records nothing: search players copy states by the thousand.
    fn clone(&self) -> Self {
        EventLog(None)
    }
}

impl EventLog {
    pub fn on() -> EventLog {
        EventLog(Some(Vec::new()))
    }

    pub fn is_on(&self) -> bool {
        self.0.is_some()
    }

    #[inline]
    pub fn push(&mut self, event: Event) {
        if let Some(events) = &mut self.0 {
            events.push(event);
        }
    }

    pub fn events(&self) -> &[Event] {
        self.0.as_deref().unwrap_or(&[])
    }

    /// The events, copied into a new log that records (an explicit copy of a game).
    pub fn copied(&self) -> EventLog {
        EventLog(self.0.clone())
    }
}

fn tile_id(comps: &Components, t: u8) -> Value {
    comps.tile_types.get(t as usize).map_or(Value::Null, |tt| json!(tt.id))
}

fn card_id(comps: &Components, c: u8) -> Value {
    comps.objectives.get(c as usize).map_or(Value::Null, |card| json!(card.id))
}

fn fountain_id(comps: &Components, c: u8) -> Value {
    comps.fountains.get(c as usize).map_or(Value::Null, |card| json!(card.id))
}

impl Event {
    /// The event as a JSON object: `type` names it, components are named by their ids.
    pub fn to_json(&self, comps: &Components) -> Value {
        match *self {
            Event::Pawn { seat, space } => json!({"type": "pawn", "seat": seat, "space": space}),
            Event::Deal { phase, depots } => json!({
                "type": "deal", "phase": phase,
                "depots": depots.iter().map(|d| d.iter().map(|&t| tile_id(comps, t))
                    .collect::<Vec<_>>()).collect::<Vec<_>>(),
            }),
            Event::Move { seat, dest, bread } => {
                json!({"type": "move", "seat": seat, "dest": dest, "bread": bread})
            }
            Event::Take { seat, space, tile, cell, edges } => json!({
                "type": "take", "seat": seat, "space": space, "tile": tile_id(comps, tile),
                "cell": if cell < 0 { Value::Null } else { json!(cell) },
                "edges": if cell < 0 { Value::Null } else { json!(edges) },
            }),
            Event::Scroll { seat, steps, space, overflow } => json!({
                "type": "scroll", "seat": seat, "steps": steps, "space": space,
                "overflow": overflow,
            }),
            Event::Complete { seat, kind, tiles, chimneys } => json!({
                "type": "complete", "seat": seat, "kind": kind, "tiles": tiles,
                "chimneys": chimneys,
            }),
            Event::ArtisanLost { seat } => json!({"type": "artisan_lost", "seat": seat}),
            Event::Seal { seat, slot, tile, cell, edges } => json!({
                "type": "seal", "seat": seat, "slot": slot, "tile": tile_id(comps, tile),
                "cell": cell, "edges": edges,
            }),
            Event::Fountain { seat, drawn, keep, kept, give_back } => json!({
                "type": "fountain", "seat": seat,
                "drawn": drawn.iter().filter(|&&c| c != NONE).map(|&c| fountain_id(comps, c))
                    .collect::<Vec<_>>(),
                "keep": keep[..kept as usize].iter().map(|&c| fountain_id(comps, c))
                    .collect::<Vec<_>>(),
                "give_back": if give_back == NONE { Value::Null }
                             else { fountain_id(comps, give_back) },
            }),
            Event::ScoringPhase { phase, order, n } => json!({
                "type": "scoring_phase", "phase": phase, "order": &order[..n as usize],
            }),
            Event::Circle { seat, circle, first, second } => json!({
                "type": "circle", "seat": seat, "circle": circle, "first": first,
                "second": second,
            }),
            Event::Card { seat, slot, card, failed, multiples, vp } => json!({
                "type": "card", "seat": seat, "slot": slot, "card": card_id(comps, card),
                "failed": failed, "multiples": multiples, "vp": vp,
            }),
            Event::PhaseEnd { phase, vp, n } => json!({
                "type": "phase_end", "phase": phase, "vp": &vp[..n as usize],
            }),
        }
    }
}
