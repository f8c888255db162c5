//! The state as plain data, for the Python oracle (`cdsim/games/carpe_diem/engine/oracle.py`): after every
//! decision of a game the core's snapshot and the Python rules' must be equal, so a
//! disagreement names the decision and the field where the two engines split.
//! Components are named by their ids; cells, seats and spaces count from 0.

use serde_json::{json, Value};

use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::District;
use crate::carpe_diem::kinds::CELLS;

use super::{GameState, PlayerState, NONE, PHASES};

fn bits(mask: u64) -> Vec<usize> {
    (0..64).filter(|&i| mask >> i & 1 != 0).collect()
}

fn district_json(d: &District) -> Value {
    let edges: Vec<Value> = (0..CELLS)
        .map(|c| if d.is_built(c) { json!(d.edges[c]) } else { Value::Null })
        .collect();
    json!({
        "edges": edges,
        "chimneys_at": &d.chimneys_at[..],
        "scrolls": bits(d.scrolls),
        "frontier": d.frontier,
        "have": &d.have[..],
        "complete_count": &d.complete_count[..],
        "complete_mask": &d.complete_mask[..],
    })
}

impl GameState {
    fn player_json(&self, comps: &Components, p: &PlayerState) -> Value {
        let phases_scored = if self.is_over() { PHASES } else { self.phase };
        let fountain_cards: Vec<&str> = p.fountain_cards.as_slice().iter()
            .map(|&c| comps.fountains[c as usize].id.as_str()).collect();
        json!({
            "goods": p.goods, "coins": p.coins, "bread": p.bread, "stored": p.stored,
            "fountain_cards": fountain_cards, "pawn": p.pawn, "scroll": p.scroll,
            "stamp": p.stamp, "tiles_built": p.tiles_built, "bread_moves": p.bread_moves,
            "failed_cards": p.failed_cards, "artisan_lost": p.artisan_lost, "taken": p.taken,
            "vp_after_phase": &p.vp_after_phase[..phases_scored], "vp": p.current_vp(),
            "district": district_json(&p.district),
        })
    }

    /// Everything a rule can change, as the oracle compares it.
    pub fn snapshot(&self, comps: &Components) -> Value {
        let n = self.n;
        let ids = |cards: &[u8]| -> Vec<String> {
            cards.iter().map(|&c| comps.fountains[c as usize].id.clone()).collect()
        };
        let grid: Vec<Value> = self.grid.iter()
            .map(|&c| if c == NONE { Value::Null } else { json!(comps.objectives[c as usize].id) })
            .collect();
        let seal: Vec<Value> = self.seal.iter()
            .map(|&t| if t == NONE { Value::Null } else { json!(t) })
            .collect();
        json!({
            "phase": self.phase, "round": self.round, "start_player": self.start_player,
            "grid": grid, "circle_owner": &self.circle_owner[..self.circles().len()],
            "fountain_deck": ids(self.fountain_deck.as_slice()),
            "light_deck": self.light_deck.as_slice(), "dark_deck": self.dark_deck.as_slice(),
            "seal": seal,
            "depots": self.depots.iter().map(|d| d.as_slice().to_vec()).collect::<Vec<_>>(),
            "depot_taken": self.depot_taken, "discarded": self.discarded,
            "players": self.players[..n].iter().map(|p| self.player_json(comps, p))
                .collect::<Vec<_>>(),
        })
    }

    /// The deal (every chance outcome of the game, all drawn at setup, R2): boards and
    /// frame parts by seat, the card grid, the fountain deck, the tile decks and the
    /// seal row. The oracle builds its state from this instead of drawing its own.
    pub fn deal_json(&self, comps: &Components) -> Value {
        let n = self.n;
        let snap = self.snapshot(comps);
        json!({
            "boards": self.boards[..n].iter().map(|&b| comps.boards[b as usize].id)
                .collect::<Vec<_>>(),
            "frames": self.frames[..n].iter()
                .map(|f| f.iter().map(|&i| comps.frame_parts[i as usize].id).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
            "grid": snap["grid"], "fountain_deck": snap["fountain_deck"],
            "light_deck": snap["light_deck"], "dark_deck": snap["dark_deck"],
            "seal": snap["seal"],
        })
    }
}

impl GameState {
    /// What `seat` may know (cdsim/games/carpe_diem/rules/observation.py decides the same for a Python
    /// seat): the snapshot less the decks' orders (their sizes only, R2.3, R2.4), the
    /// other seats' fountain cards (how many only) and every VP total (R9.1; built-in
    /// players never read them, R2.7).
    pub fn observe(&self, comps: &Components, seat: usize) -> Value {
        let mut view = self.snapshot(comps);
        for deck in ["fountain_deck", "light_deck", "dark_deck"] {
            let left = view[deck].as_array().map_or(0, Vec::len);
            view[deck] = json!(left);
        }
        if let Some(players) = view["players"].as_array_mut() {
            for (s, p) in players.iter_mut().enumerate() {
                if let Some(p) = p.as_object_mut() {
                    p.remove("vp");
                    p.remove("vp_after_phase");
                    if s != seat {
                        let kept = p["fountain_cards"].as_array().map_or(0, Vec::len);
                        p.insert("fountain_cards".into(), json!(kept));
                    }
                }
            }
        }
        view["seat"] = json!(seat);
        view
    }
}
