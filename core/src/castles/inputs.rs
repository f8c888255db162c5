//! The Castles of Tuscany's inputs for the learned player (`games::inputs::Inputs`): what a
//! seat holds and how near its board is to the VP still to win, read only from what the
//! seat may know (T12: no pile's order; another seat's hand is read on the copy a player
//! draws it anew on, `Game::determinize`). Gained VP are the red track, the green track
//! times the scorings it still meets (T11.1) and the leftovers (T11.2): what the seat
//! would have if the game ended now. The prior is castle-monastery's one-ply value of an
//! option (greedy's in training: `learned::labels`).

use super::actions::{bits, can_pay, Action, Pending};
use super::components::{Colour, Components, BOARD_SPACES, N_BONUS, N_COLOURS};
use super::players::{prior_values, Weights};
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

/// Every space of a board.
const ALL_SPACES: u32 = (1 << BOARD_SPACES) - 1;

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
        let [phase_left, stack_left, order, triggered] = self.progress(seat);
        out.extend([
            1.0,
            phase_left,
            stack_left,
            order,
            triggered,
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
        let left = spaces_left(s);
        out.extend(left.iter().map(|&k| k as f32));
        out.extend(self.bonus(comps, laid, &left));
        let areas = Areas::of(s, comps, frontier, self);
        out.extend([areas.one_left, areas.one_left_vp, areas.two_left,
                    frontier.count_ones() as f32, areas.display_fits, areas.display_completes,
                    (BOARD_SPACES as u32 - s.filled.count_ones()) as f32]);
        let (lead, behind) = self.races(seat, &left);
        out.extend([lead, behind, areas.crops_missing]);
        debug_assert_eq!(out.len(), N_INPUTS);
    }

    /// Only the entries another seat's moves change (the turn's progress, the colour
    /// bonuses still open, what the display offers, the races), the others as they were.
    fn inputs_again(&self, comps: &Components, seat: usize, out: &mut Vec<f32>) {
        if out.len() != N_INPUTS {
            return self.inputs(comps, seat, out);
        }
        let s = &self.seats[seat];
        let [phase_left, stack_left, order, triggered] = self.progress(seat);
        out[PHASE_LEFT..=TRIGGERED].copy_from_slice(&[phase_left, stack_left, order, triggered]);
        out[CAN_DRAW] = f32::from(u8::from(self.can_draw()));
        let left = spaces_left(s);
        for (o, b) in out[BONUS..BONUS + N_COLOURS].iter_mut().zip(self.bonus(comps, s.filled != 0, &left)) {
            *o = b;
        }
        let (fits, completes) = if s.filled == 0 {
            (0.0, 0.0)
        } else {
            self.display_offers(comps, s, s.frontier(comps))
        };
        out[DISPLAY_FITS] = fits;
        out[DISPLAY_COMPLETES] = completes;
        let (lead, behind) = self.races(seat, &left);
        out[RACE_LEAD] = lead;
        out[RACE_BEHIND] = behind;
    }

    /// 0: castle-monastery's one-ply values (play); 1: greedy's (the training's labels).
    fn prior(&self, comps: &Components, seat: usize, options: &[Action], which: usize,
             out: &mut Vec<f32>) -> bool {
        let w = if which == 0 { Weights::castle_monastery() } else { Weights::greedy() };
        prior_values(self, comps, seat, options, &w, out);
        true
    }
}

/// The inputs `inputs_again` recomputes, by index (`NAMES`).
const PHASE_LEFT: usize = 1;
const TRIGGERED: usize = 4;
const CAN_DRAW: usize = 11;
const BONUS: usize = 31;
const DISPLAY_FITS: usize = 43;
const DISPLAY_COMPLETES: usize = 44;
const RACE_LEAD: usize = 46;
const RACE_BEHIND: usize = 47;

/// T7.4: the seat's free spaces of each colour.
fn spaces_left(s: &Seat) -> [u32; N_COLOURS] {
    std::array::from_fn(|c| (s.colour_mask[c] & !s.filled).count_ones())
}

impl CastlesState {
    /// T3, T10, T6: the phase's progress (the most drawn stack's and the seat's own), the
    /// seat's place in turn order from the current seat, and whether the end is triggered.
    fn progress(&self, seat: usize) -> [f32; 4] {
        let n = self.n;
        let need = STACK * self.phase;
        let most = self.seats[..n].iter().map(|x| x.drawn).max().unwrap_or(0);
        let order = (seat + n - usize::from(self.turn_seat)) % n;
        [f32::from(need.saturating_sub(most)) / f32::from(STACK),
         f32::from(need.saturating_sub(self.seats[seat].drawn)) / f32::from(STACK),
         order as f32 / n as f32,
         f32::from(u8::from(self.triggered || self.final_round))]
    }

    /// T9: each colour bonus still open to the seat, over its spaces left of that colour
    /// (0 before its pieces are laid).
    fn bonus(&self, comps: &Components, laid: bool, left: &[u32; N_COLOURS])
        -> [f32; N_COLOURS] {
        let t = comps.tables();
        std::array::from_fn(|c| {
            let claims = usize::from(self.colour_claims[c]);
            if !laid || claims >= 2 || left[c] == 0 {
                0.0
            } else {
                f32::from(t.colour_bonus[c][claims]) / (1 + left[c]) as f32
            }
        })
    }

    /// T6, T7.5: the display's tiles that fit the seat's board now, and those of them
    /// that would complete an area.
    fn display_offers(&self, comps: &Components, s: &Seat, frontier: u32) -> (f32, f32) {
        let (mut fits, mut completes) = (0.0, 0.0);
        for tile in self.display.iter().flatten() {
            let spaces = frontier & s.colour_mask[tile.colour().index()];
            if spaces != 0 {
                fits += 1.0;
                if bits(spaces).any(|sp| s.area(comps, sp) & !s.filled == 1 << sp) {
                    completes += 1.0;
                }
            }
        }
        (fits, completes)
    }
}

/// T5, T7: free storage, what is stored, and how much of it can be placed.
fn storage(s: &Seat, frontier: u32, out: &mut Vec<f32>) {
    let (mut tiles, mut wood, mut fit, mut payable, mut dead, mut free) = (0, 0, 0, 0, 0, 0);
    let mut pay_mask = None;
    for st in &s.storage[..s.capacity as usize] {
        let spaces = match st {
            Stored::Empty => {
                free += 1;
                continue;
            }
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
            if spaces & *pay_mask.get_or_insert_with(|| payable_spaces(s)) != 0 {
                payable += 1;
            }
        }
    }
    out.extend([free, tiles, wood, fit, payable, dead].map(|k: u32| k as f32));
}

/// T7.2: the board's spaces of the colours `s` can pay for now (`can_pay`, every colour
/// at once).
fn payable_spaces(s: &Seat) -> u32 {
    let mut mask = 0;
    for c in 0..N_COLOURS {
        if can_pay(s, c) {
            mask |= s.colour_mask[c];
        }
    }
    mask
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
        let mut seen = 0u32;
        let t = comps.tables();
        while seen != ALL_SPACES {
            let sp = (!seen).trailing_zeros() as usize;
            let kind = sp / 10;
            let area = u32::from(t.piece_area[usize::from(s.pieces[kind])][sp % 10]) << (10 * kind);
            seen |= area | 1 << sp;
            let open = area & !s.filled;
            match open.count_ones() {
                1 => {
                    out.one_left += 1.0;
                    out.one_left_vp += area_vp(comps, area.count_ones()) as f32;
                }
                2 => out.two_left += 1.0,
                _ => {}
            }
            if usize::from(s.colour[sp]) == Colour::Farm.index() && open != 0 {
                let crops = bits(area & s.filled).fold(0u8, |m, x| m | s.crops[x]) & 0x0f;
                out.crops_missing += (4 - crops.count_ones()) as f32;
            }
        }
        (out.display_fits, out.display_completes) = state.display_offers(comps, s, frontier);
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
            // against each other board with spaces of `c` left: fewer than mine (behind),
            // or more (every one so: lead); told apart by clearing its lowest `mine - 1`
            // spaces, cheaper than counting them
            let (mut fewer, mut all_more) = (false, true);
            for (i, o) in self.seats[..self.n].iter().enumerate() {
                let mut rest = o.colour_mask[c] & !o.filled;
                if i == seat || rest == 0 {
                    continue;
                }
                for _ in 1..mine {
                    rest &= rest.wrapping_sub(1);
                }
                if rest == 0 {
                    fewer = true;
                    break;
                }
                all_more &= rest & rest.wrapping_sub(1) != 0;
            }
            if fewer {
                behind += 1.0;
            } else if all_more {
                lead += 1.0;
            }
        }
        (lead, behind)
    }
}

const _: () = assert!(NAMES.len() == N_INPUTS && MAX_PLAYERS == 4);
