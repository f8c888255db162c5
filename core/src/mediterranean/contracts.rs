//! M4: the contract phase. Each contract turn the row is filled to players + 1
//! contracts, face down; in play order each seat takes one (a face-up one, or turning the
//! face-down ones up one by one, refusing each for good, until it takes one; the last is
//! forced), loads it into a free register column, moves its token to the rowing track at
//! the contract's rowing power and takes the rowing card into its hand. The track gives
//! the next play order (lowest first; on a tie the token on top); the contract left over
//! moves to the front, a coin on it if it was face up, turned up if not.

use super::components::Components;
use super::state::{Column, MedState, Offer, Pending, Phase, Status};

impl MedState {
    /// M4.1: a contract turn: the row filled from the three decks, face down, behind the
    /// contract left over; the first seat in play order decides.
    pub(super) fn start_contract_turn(&mut self, comps: &Components) {
        while self.row.len() < self.n + 1 {
            let city = MedState::draw(&mut self.rng, &mut self.city_deck, &mut self.city_discard);
            let goods =
                MedState::draw(&mut self.rng, &mut self.goods_deck, &mut self.goods_discard);
            let rowing =
                MedState::draw(&mut self.rng, &mut self.rowing_deck, &mut self.rowing_discard);
            self.row.push(Offer { city, goods, rowing, face_up: false, gold: 0 });
        }
        let _ = comps;
        self.phase = Phase::Contracts;
        self.track.clear();
        self.step = 0;
        self.ask_contract();
    }

    /// M4.2-M4.4: the seat at `step` decides; with no contract face up it must turn up
    /// the leftmost (case a).
    fn ask_contract(&mut self) {
        let seat = self.order[self.step as usize];
        if self.row.iter().any(|o| o.face_up) {
            self.pending = Pending::Choose { seat };
        } else {
            self.turn_up(seat, 0);
        }
    }

    /// Turn up the first face-down contract from `from` on (M4.2); the seat then takes it
    /// or refuses it.
    pub(super) fn turn_up(&mut self, seat: u8, from: usize) {
        let i = (from..self.row.len()).find(|&i| !self.row[i].face_up)
            .expect("an option only when a face-down contract is left");
        self.row[i].face_up = true;
        self.pending = Pending::Turned { seat, offer: i as u8 };
    }

    /// M4.5-M4.7: take offer `i` into `column`: its coins, the token onto the rowing
    /// track (on top of any there), the rowing card into the hand; the next seat.
    pub(super) fn take(&mut self, comps: &Components, seat: usize, i: usize, column: usize) {
        let t = comps.tables();
        let o = self.row.remove(i);
        let s = &mut self.seats[seat];
        debug_assert_eq!(s.register[column].status, Status::Empty);
        s.register[column] = Column { city: o.city, goods: o.goods, status: Status::Open };
        s.gold += i32::from(o.gold);
        s.hand.push(o.rowing);
        self.track.push((t.rowing[o.rowing as usize].power, seat as u8));
        self.step += 1;
        if (self.step as usize) < self.n {
            self.ask_contract();
        } else {
            self.end_contract_turn(comps);
        }
    }

    /// M4.8, M4.9: the next play order from the track; the contract left over moves to
    /// the front, a coin on it if face up, turned up if not; then the next contract turn
    /// or, after the fifth, the delivery phase.
    fn end_contract_turn(&mut self, comps: &Components) {
        self.order = next_order(&self.track);
        for o in &mut self.row {
            if o.face_up {
                if self.bank > 0 {
                    o.gold += 1;
                    self.bank -= 1;
                }
            } else {
                o.face_up = true;
            }
        }
        self.turn += 1;
        if self.turn < comps.tables().contract_turns {
            self.start_contract_turn(comps);
        } else {
            self.start_delivery(comps);
        }
    }
}

/// M4.8: the play order the rowing track gives: the lowest space first; of tokens on
/// one space the one on top (placed later) first.
pub fn next_order(track: &[(u8, u8)]) -> Vec<u8> {
    let mut placed: Vec<(usize, u8, u8)> =
        track.iter().enumerate().map(|(i, &(p, s))| (i, p, s)).collect();
    placed.sort_by_key(|&(i, p, _)| (p, std::cmp::Reverse(i)));
    placed.into_iter().map(|(_, _, s)| s).collect()
}
