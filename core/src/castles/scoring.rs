//! T7.5, T9, T11: victory points, by source, on the two tracks; the scorings, the
//! final scoring and the ranking.

use super::components::{Colour, Components, BOARD_SPACES};
use super::state::{CastlesState, Seat, Stored};

pub use super::sources::{VpSource, N_SOURCES};

impl Seat {
    /// Green VP (T1.8): they reach the red track at each scoring (T11.1).
    pub fn gain_green(&mut self, source: VpSource, vp: i32) {
        debug_assert!(vp >= 0);
        self.green += vp;
        self.green_by[source as usize] += vp;
    }

    /// Red VP: the score itself.
    pub fn gain_red(&mut self, source: VpSource, vp: i32) {
        debug_assert!(vp >= 0);
        self.red += vp;
        self.red_by[source as usize] += vp;
    }

    /// T11.1: the green track's value is added to the red track; green stays.
    pub fn score_phase(&mut self) {
        self.red += self.green;
        for (r, g) in self.red_by.iter_mut().zip(self.green_by) {
            *r += g;
        }
    }

    /// T11.2, T11.3: 1 VP per 5 cards, 1 per stored tile or hex, marble, worker.
    pub fn leftovers(&self) -> i32 {
        let cards: i32 = self.hand.iter().map(|&c| c as i32).sum();
        let stored = self
            .storage
            .iter()
            .filter(|s| !matches!(s, Stored::Empty))
            .count() as i32;
        cards / 5 + stored + self.marble as i32 + self.workers as i32
    }

    /// T11.4: the first tie-break.
    pub fn empty_spaces(&self) -> u32 {
        BOARD_SPACES as u32 - self.filled.count_ones()
    }
}

/// TC9: green VP for a completed area of `size` spaces.
pub fn area_vp(comps: &Components, size: u32) -> i32 {
    comps.tables().area_vp[(size as usize).clamp(1, 3) - 1] as i32
}

impl CastlesState {
    /// T9.1, T9.2: seat `seat` has just covered every space of `colour`.
    pub(crate) fn claim_colour_bonus(&mut self, comps: &Components, seat: usize, colour: Colour) {
        let claims = &mut self.colour_claims[colour.index()];
        if *claims < 2 {
            let vp = comps.tables().colour_bonus[colour.index()][*claims as usize] as i32;
            *claims += 1;
            self.seats[seat].used.claimed |= 1 << colour.index();
            self.seats[seat].gain_green(VpSource::ColourBonus, vp);
        }
    }

    /// T11.2: the final scoring, after the third scoring.
    pub(crate) fn final_scoring(&mut self) {
        for seat in &mut self.seats[..self.n] {
            let vp = seat.leftovers();
            seat.gain_red(VpSource::Leftovers, vp);
        }
    }

    /// Each seat's VP: its red track (T1.8).
    pub fn vp(&self) -> Vec<i32> {
        self.seats[..self.n].iter().map(|s| s.red).collect()
    }

    /// A seat's VP by source (`VpSource` order); sums to its VP.
    pub fn breakdown(&self, seat: usize) -> [i32; N_SOURCES] {
        self.seats[seat].red_by
    }

    /// T11.4: each seat's place (0 = winner); seats tied after both tie-breaks share it.
    pub fn places(&self) -> Vec<usize> {
        let key = |s: &Seat| (s.red, s.empty_spaces() as i32, s.green);
        let seats = &self.seats[..self.n];
        seats
            .iter()
            .map(|a| seats.iter().filter(|b| key(b) > key(a)).count())
            .collect()
    }
}
