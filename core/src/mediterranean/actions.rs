//! The one action type of every decision (M4 contracts, M5 delivery), and the options
//! each decision offers; `apply` hands an action to its phase's rules.

use serde::Serialize;

use super::components::Components;
use super::state::{MedState, Pending, Status, NONE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Action {
    /// M4.4-M4.6: take offer `offer` of the row, loading it into register `column`.
    Take { offer: u8, column: u8 },
    /// M4.4: turn up the leftmost face-down contract.
    Turn,
    /// M4.3: refuse the contract just turned up, for good, and turn up the next.
    Refuse,
    /// M5.1, M5.12: play this rowing card (an id).
    Pick(u8),
    /// M5.4-M5.9: sail to city `to` (paying for missing miles), deliver the contract of
    /// register `deliver` there (`NONE`: none), and buy one temple point (`buy`).
    Sail { to: u8, deliver: u8, buy: bool },
    /// M5.11: take an extra turn (true) or not.
    Extra(bool),
}

impl MedState {
    /// The pending decision's options into `out` (emptied first).
    pub fn options(&self, comps: &Components, out: &mut Vec<Action>) {
        out.clear();
        match self.pending {
            Pending::Choose { seat } => {
                for (i, o) in self.row.iter().enumerate() {
                    if o.face_up {
                        self.takes(seat as usize, i as u8, out);
                    }
                }
                if self.row.iter().any(|o| !o.face_up) {
                    out.push(Action::Turn);
                }
            }
            Pending::Turned { seat, offer } => {
                self.takes(seat as usize, offer, out);
                if self.row[offer as usize + 1..].iter().any(|o| !o.face_up) {
                    out.push(Action::Refuse);
                }
            }
            Pending::Pick { seat } | Pending::ExtraPick { seat } => {
                let t = comps.tables();
                let hand = &self.seats[seat as usize].hand;
                for (i, &c) in hand.iter().enumerate() {
                    // cards of the same face are one option
                    if !hand[..i].iter().any(|&d| t.rowing[d as usize] == t.rowing[c as usize]) {
                        out.push(Action::Pick(c));
                    }
                }
            }
            Pending::Sail { seat } => self.sails(comps, seat as usize, out),
            Pending::Extra { .. } => out.extend([Action::Extra(true), Action::Extra(false)]),
            Pending::Over => {}
        }
    }

    fn takes(&self, seat: usize, offer: u8, out: &mut Vec<Action>) {
        for (c, col) in self.seats[seat].register.iter().enumerate() {
            if col.status == Status::Empty {
                out.push(Action::Take { offer, column: c as u8 });
            }
        }
    }

    /// M5.4-M5.9: every city within range plus the miles the seat's gold buys, each with
    /// no delivery and with each open contract for it (and the temple point bought).
    fn sails(&self, comps: &Components, seat: usize, out: &mut Vec<Action>) {
        let t = comps.tables();
        let s = &self.seats[seat];
        let range = self.range(comps, seat);
        for to in 0..t.cities() as u8 {
            let d = i32::from(self.distance(t, s.ship, to));
            let cost = (d - range).max(0);
            if cost > s.gold {
                continue;
            }
            out.push(Action::Sail { to, deliver: NONE, buy: false });
            for c in s.open() {
                let face = t.city_cards[s.register[c].city as usize];
                if face.city != to {
                    continue;
                }
                out.push(Action::Sail { to, deliver: c as u8, buy: false });
                let gain = i32::from(face.gold[s.register[c].goods_good(t) as usize]);
                if s.gold - cost + gain.min(self.bank) >= t.temple_price {
                    out.push(Action::Sail { to, deliver: c as u8, buy: true });
                }
            }
        }
    }

    /// Make `action`, one of the pending options, and run the rules on.
    pub fn apply(&mut self, comps: &Components, action: Action) {
        match (self.pending, action) {
            (Pending::Choose { seat }, Action::Take { offer, column })
            | (Pending::Turned { seat, .. }, Action::Take { offer, column }) => {
                self.take(comps, seat as usize, offer as usize, column as usize)
            }
            (Pending::Choose { seat }, Action::Turn) => self.turn_up(seat, 0),
            (Pending::Turned { seat, offer }, Action::Refuse) => {
                self.turn_up(seat, offer as usize + 1)
            }
            (Pending::Pick { seat }, Action::Pick(card)) => self.lay(comps, seat as usize, card),
            (Pending::ExtraPick { seat }, Action::Pick(card)) => {
                self.play_extra(seat as usize, card)
            }
            (Pending::Sail { seat }, Action::Sail { to, deliver, buy }) => {
                self.sail(comps, seat as usize, to, deliver, buy)
            }
            (Pending::Extra { seat }, Action::Extra(yes)) => self.extra(comps, seat as usize, yes),
            (pending, action) => panic!("mediterranean: {action:?} is no option of {pending:?}"),
        }
    }
}

impl super::state::Column {
    /// The good this column's goods card names.
    pub fn goods_good(&self, t: &super::map::Tables) -> u8 {
        t.goods_cards[self.goods as usize]
    }
}
