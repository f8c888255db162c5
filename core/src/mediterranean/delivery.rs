//! M5: the delivery phase. Five turns: every seat lays a rowing card face down (played
//! one seat after another in play order, none seeing another's: `hidden.rs`), all are
//! turned up, their wind modifiers summed into the forecast (held to the track's ends);
//! in play order each seat sails with a range of its card's rowing power plus the current
//! wind, buying missing miles for a coin each, and may deliver one contract where it
//! stops (losing the open contracts left of it in its register); then the wind becomes
//! the forecast. Then up to two extra turns, in the fifth turn's wind, for the seats with
//! open contracts that want them; what is still open after them is lost.

use super::components::Components;
use super::state::{MedState, Pending, Phase, Status, NONE};

impl MedState {
    /// M5.1: the delivery phase begins: the first turn's cards are laid.
    pub(super) fn start_delivery(&mut self, _comps: &Components) {
        self.phase = Phase::Delivery;
        self.turn = 0;
        self.step = 0;
        self.pending = Pending::Pick { seat: self.order[0] };
    }

    /// The range `seat` sails with: its last played card's rowing power plus the current
    /// wind (M5.3), never below 0 (M5.3 decision).
    pub fn range(&self, comps: &Components, seat: usize) -> i32 {
        let t = comps.tables();
        let power = self.seats[seat].played.last()
            .map_or(0, |&c| i32::from(t.rowing[c as usize].power));
        (power + i32::from(self.wind)).max(0)
    }

    /// M5.1, M5.2: `seat` lays `card` face down; once all have, the cards are turned up
    /// and the forecast set.
    pub(super) fn lay(&mut self, comps: &Components, seat: usize, card: u8) {
        let hand = &mut self.seats[seat].hand;
        let k = hand.iter().position(|&c| c == card).expect("a card of the hand");
        hand.swap_remove(k);
        hand.sort_unstable();
        self.picks.lay(seat, card);
        self.step += 1;
        if (self.step as usize) < self.n {
            self.pending = Pending::Pick { seat: self.order[self.step as usize] };
            return;
        }
        let t = comps.tables();
        let shown = self.picks.reveal(self.n);
        let mut sum = 0i32;
        for (s, &c) in shown.iter().enumerate() {
            self.seats[s].played.push(c);
            sum += i32::from(t.rowing[c as usize].wind);
        }
        let limit = i32::from(t.wind_limit);
        self.forecast = Some(sum.clamp(-limit, limit) as i8);
        self.step = 0;
        self.pending = Pending::Sail { seat: self.order[0] };
    }

    /// M5.4-M5.9: `seat` sails to `to`, paying a coin a missing mile, delivers the
    /// contract of column `deliver` (`NONE`: none), losing the open ones left of it, and
    /// may buy one temple point for 3 coins.
    pub(super) fn sail(&mut self, comps: &Components, seat: usize, to: u8, deliver: u8,
                       buy: bool) {
        let t = comps.tables();
        let from = self.seats[seat].ship;
        let cost = (i32::from(self.distance(t, from, to)) - self.range(comps, seat)).max(0);
        self.pay_in(seat, cost);
        self.seats[seat].ship = to;
        if deliver != NONE {
            let c = deliver as usize;
            let col = self.seats[seat].register[c];
            let face = t.city_cards[col.city as usize];
            debug_assert_eq!(face.city, to);
            let good = col.goods_good(t) as usize;
            let region = t.region_of[to as usize] as usize;
            if face.gold[good] > 0 {
                self.pay_out(seat, i32::from(face.gold[good]));
            } else {
                self.advance_temple(seat, region, face.temple[good]);
            }
            let s = &mut self.seats[seat];
            for left in &mut s.register[..c] {
                if left.status == Status::Open {
                    left.status = Status::Lost;
                }
            }
            s.register[c].status = Status::Done;
            self.city_discard.push(col.city);
            self.goods_discard.push(col.goods);
            if buy {
                self.pay_in(seat, t.temple_price);
                self.advance_temple(seat, region, 1);
            }
        }
        self.step += 1;
        if self.phase == Phase::Extra {
            self.ask_extra(comps);
        } else if (self.step as usize) < self.n {
            self.pending = Pending::Sail { seat: self.order[self.step as usize] };
        } else {
            self.end_delivery_turn(comps);
        }
    }

    /// M5.10, M5.11: the wind takes the forecast (not after the last turn: the extra
    /// turns sail in its wind); the next turn, or the extra turns.
    fn end_delivery_turn(&mut self, comps: &Components) {
        let t = comps.tables();
        let forecast = self.forecast.take().expect("the cards were shown");
        if self.turn + 1 < t.contract_turns {
            // M5.10: the current-wind track (0-10 around its start, 5) moves level with
            // the forecast track (-5 to +5): the wind's strength is the start plus the
            // forecast
            self.wind = t.start_wind + forecast;
        }
        self.turn += 1;
        self.step = 0;
        if self.turn < t.contract_turns {
            self.pending = Pending::Pick { seat: self.order[0] };
        } else {
            self.phase = Phase::Extra;
            self.ask_extra(comps);
        }
    }

    /// Whether `seat` may take an extra turn: an open contract and a card in hand.
    pub fn may_extra(&self, seat: usize) -> bool {
        let s = &self.seats[seat];
        s.open().next().is_some() && !s.hand.is_empty()
    }

    /// M5.11: the next seat in play order (from `step`) that may take an extra turn is
    /// asked; after the last, the next extra turn; after the last extra turn, the open
    /// contracts are lost and the round is scored.
    fn ask_extra(&mut self, comps: &Components) {
        let t = comps.tables();
        loop {
            while (self.step as usize) < self.n {
                let seat = self.order[self.step as usize];
                if self.may_extra(seat as usize) {
                    self.pending = Pending::Extra { seat };
                    return;
                }
                self.step += 1;
            }
            self.turn += 1;
            self.step = 0;
            let any = (0..self.n).any(|s| self.may_extra(s));
            if self.turn >= t.contract_turns + t.extra_turns || !any {
                break;
            }
        }
        for s in &mut self.seats {
            for col in &mut s.register {
                if col.status == Status::Open {
                    col.status = Status::Lost;
                }
            }
        }
        self.score_round(comps);
    }

    /// M5.11: `seat` takes the extra turn or lets it pass.
    pub(super) fn extra(&mut self, comps: &Components, seat: usize, yes: bool) {
        if yes {
            self.pending = Pending::ExtraPick { seat: seat as u8 };
        } else {
            self.step += 1;
            self.ask_extra(comps);
        }
    }

    /// M5.12: the extra turn's card is played openly (no one else lays one), then the
    /// seat sails.
    pub(super) fn play_extra(&mut self, seat: usize, card: u8) {
        let s = &mut self.seats[seat];
        let k = s.hand.iter().position(|&c| c == card).expect("a card of the hand");
        s.hand.swap_remove(k);
        s.hand.sort_unstable();
        s.played.push(card);
        s.extras += 1;
        self.pending = Pending::Sail { seat: seat as u8 };
    }
}
