//! The Castles of Tuscany's inputs for the learned player (`games::inputs::Inputs`): what a
//! seat holds and how near its board is to the VP still to win, read only from what the
//! seat may know (T12: no pile's order; another seat's hand is read on the copy a player
//! draws it anew on, `Game::determinize`). Gained VP are the red track, the green track
//! times the scorings it still meets (T11.1) and the leftovers (T11.2): what the seat
//! would have if the game ended now. The prior is greedy's one-ply value of an option.

use super::actions::{bits, can_pay, Action, Pending};
use super::components::{Colour, Components, BOARD_SPACES, N_BONUS, N_COLOURS};
use super::players::greedy_values;
use super::scoring::area_vp;
use super::state::{CastlesState, Seat, Stored, MAX_PLAYERS, STACK};
use crate::games::inputs::Inputs;

/// The inputs' names, `inputs` order.
pub const NAMES: [&str; N_INPUTS] = [
    "bias", "phase_left", "stack_left", "turn_order", "triggered", "green",
    "workers", "marble", "hand", "hand_pairs", "hand_colours", "can_draw",
    "storage_free", "stored_tiles", "stored_wood", "stored_fit", "stored_payable",
    "stored_dead",
    "token_card", "token_storage", "token_marble", "token_worker", "token_harvest",
    "left_castle", "left_city", "left_estate", "left_farm", "left_quarry", "left_village",
    "left_monastery", "left_cart",
    "bonus_castle", "bonus_city", "bonus_estate", "bonus_farm", "bonus_quarry",
    "bonus_village", "bonus_monastery", "bonus_cart",
    "areas_one_left", "areas_one_left_vp", "areas_two_left", "frontier",
    "display_fits", "display_completes", "empty_spaces", "race_lead", "race_behind",
    "crops_missing",
];

/// How many inputs a seat has.
pub const N_INPUTS: usize = 49;

/// T11.1: the scorings a green VP earned in `phase` still meets.
fn scorings_left(phase: u8) -> i32 {
    4 - i32::from(phase)
}

impl Inputs for CastlesState {
    fn input_names() -> &'static [&'static str] {
        &NAMES
    }

    fn player_counts() -> std::ops::RangeInclusive<usize> {
        2..=MAX_PLAYERS
    }

    /// T3.1: phases 1, 2, 3.
    fn phases() -> usize {
        3
    }

    fn phase(&self) -> usize {
        usize::from(self.phase.clamp(1, 3) - 1)
    }

    fn gained(&self, _comps: &Components, seat: usize) -> f64 {
        let s = &self.seats[seat];
        if self.is_over() {
            return f64::from(s.red);
        }
        f64::from(s.red + s.green * scorings_left(self.phase) + s.leftovers())
    }

    fn inputs(&self, comps: &Components, seat: usize, out: &mut Vec<f32>) {
        out.clear();
        let s = &self.seats[seat];
        let n = self.n;
        let need = STACK * self.phase;
        let most = self.seats[..n].iter().map(|x| x.drawn).max().unwrap_or(0);
        let order = (seat + n - usize::from(self.turn_seat)) % n;
        out.extend([
            1.0,
            f32::from(need.saturating_sub(most)) / f32::from(STACK),
            f32::from(need.saturating_sub(s.drawn)) / f32::from(STACK),
            order as f32 / n as f32,
            f32::from(u8::from(self.triggered || self.final_round)),
            s.green as f32,
            f32::from(s.workers),
            f32::from(s.marble),
            s.hand_size() as f32,
            s.hand.iter().map(|&k| f32::from(k / 2)).sum(),
            s.hand.iter().filter(|&&k| k > 0).count() as f32,
            f32::from(u8::from(self.can_draw())),
        ]);
        let laid = s.filled != 0;
        let frontier = s.frontier(comps);
        storage(s, frontier, out);
        out.extend(s.tokens.iter().map(|&k| f32::from(k)));
        debug_assert_eq!(out.len(), 18 + N_BONUS);
        let t = comps.tables();
        let left: [u32; N_COLOURS] =
            std::array::from_fn(|c| (s.colour_mask[c] & !s.filled).count_ones());
        out.extend(left.iter().map(|&k| k as f32));
        out.extend((0..N_COLOURS).map(|c| {
            let claims = usize::from(self.colour_claims[c]);
            if !laid || claims >= 2 || left[c] == 0 {
                0.0
            } else {
                f32::from(t.colour_bonus[c][claims]) / (1 + left[c]) as f32
            }
        }));
        let areas = Areas::of(s, comps, frontier, self);
        out.extend([areas.one_left, areas.one_left_vp, areas.two_left,
                    frontier.count_ones() as f32, areas.display_fits, areas.display_completes,
                    (BOARD_SPACES as u32 - s.filled.count_ones()) as f32]);
        let (lead, behind) = self.races(seat, &left);
        out.extend([lead, behind, areas.crops_missing]);
        debug_assert_eq!(out.len(), N_INPUTS);
    }

    fn prior(&self, comps: &Components, seat: usize, options: &[Action], out: &mut Vec<f32>)
        -> bool {
        greedy_values(self, comps, seat, options, out);
        true
    }
}

/// T5, T7: free storage, what is stored, and how much of it can be placed.
fn storage(s: &Seat, frontier: u32, out: &mut Vec<f32>) {
    let (mut tiles, mut wood, mut fit, mut payable, mut dead) = (0, 0, 0, 0, 0);
    for st in &s.storage[..s.capacity as usize] {
        let spaces = match st {
            Stored::Empty => continue,
            Stored::Wood => {
                wood += 1;
                frontier
            }
            Stored::Tile(tile) => {
                tiles += 1;
                let mask = s.colour_mask[tile.colour().index()];
                if mask & !s.filled == 0 {
                    dead += 1;
                }
                frontier & mask
            }
        };
        if spaces != 0 {
            fit += 1;
            if bits(spaces).any(|sp| can_pay(s, usize::from(s.colour[sp]))) {
                payable += 1;
            }
        }
    }
    let free = s.storage[..s.capacity as usize].iter().filter(|x| **x == Stored::Empty).count();
    out.extend([free, tiles, wood, fit, payable, dead].map(|k| k as f32));
}

/// T7.5, T7.6, T8.5: the seat's areas near completion and what the display offers it.
struct Areas {
    one_left: f32,
    one_left_vp: f32,
    two_left: f32,
    display_fits: f32,
    display_completes: f32,
    crops_missing: f32,
}

impl Areas {
    fn of(s: &Seat, comps: &Components, frontier: u32, state: &CastlesState) -> Areas {
        let mut out = Areas { one_left: 0.0, one_left_vp: 0.0, two_left: 0.0, display_fits: 0.0,
                              display_completes: 0.0, crops_missing: 0.0 };
        if s.filled == 0 {
            return out;
        }
        // the spaces that would complete an area, by colour
        let mut completing = 0u32;
        let mut seen = 0u32;
        for sp in 0..BOARD_SPACES {
            if seen >> sp & 1 == 1 {
                continue;
            }
            let area = s.area(comps, sp);
            seen |= area;
            let open = area & !s.filled;
            match open.count_ones() {
                1 => {
                    out.one_left += 1.0;
                    out.one_left_vp += area_vp(comps, area.count_ones()) as f32;
                    completing |= open;
                }
                2 => out.two_left += 1.0,
                _ => {}
            }
            if usize::from(s.colour[sp]) == Colour::Farm.index() && open != 0 {
                let crops = bits(area & s.filled).fold(0u8, |m, x| m | s.crops[x]) & 0x0f;
                out.crops_missing += (4 - crops.count_ones()) as f32;
            }
        }
        for tile in state.display.iter().flatten() {
            let spaces = frontier & s.colour_mask[tile.colour().index()];
            if spaces != 0 {
                out.display_fits += 1.0;
                if spaces & completing != 0 {
                    out.display_completes += 1.0;
                }
            }
        }
        out
    }
}

impl CastlesState {
    /// T9: the colours whose bonus is still open where `seat` has fewer spaces left than
    /// every other seat (leads) and more than some other (behind); 0 until every seat has
    /// laid its pieces (T12.3: the others' boards are hidden until then).
    fn races(&self, seat: usize, left: &[u32; N_COLOURS]) -> (f32, f32) {
        if !self.all_laid() || matches!(self.pending, Pending::Lay { .. }) {
            return (0.0, 0.0);
        }
        let (mut lead, mut behind) = (0.0, 0.0);
        for (c, &mine) in left.iter().enumerate() {
            if self.colour_claims[c] >= 2 || mine == 0 {
                continue;
            }
            let mut best_other = u32::MAX;
            for (i, o) in self.seats[..self.n].iter().enumerate() {
                if i != seat {
                    let l = (o.colour_mask[c] & !o.filled).count_ones();
                    if l > 0 {
                        best_other = best_other.min(l);
                    }
                }
            }
            if mine < best_other {
                lead += 1.0;
            } else if mine > best_other {
                behind += 1.0;
            }
        }
        (lead, behind)
    }
}

const _: () = assert!(NAMES.len() == N_INPUTS && MAX_PLAYERS == 4);
