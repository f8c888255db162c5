//! M5.1: what one seat may know. Public: the map's distance tiles, the row (a face-down
//! contract shows nothing), the play order and rowing track, the wind and forecast, each
//! seat's gold, ship, register, temple tokens (with their stacking), and each seat's hand
//! of rowing cards (M5.13 decision: every rowing card enters a hand face up with its
//! contract and leaves it face up, so a player with a memory knows every hand). Hidden:
//! the decks' order, the face-down contracts and the other seats' face-down rowing cards
//! this turn: a seat that has laid its card shows its hand with that card still in it,
//! so no one can read the laid card from the hand's change. No VP totals (no built-in
//! player reads them).

use serde::Serialize;

use super::components::Components;
use super::state::{Column, MedState, Pending, Phase, NONE};
use super::Action;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OfferView {
    pub face_up: bool,
    /// The three cards, when face up.
    pub city: Option<u8>,
    pub goods: Option<u8>,
    pub rowing: Option<u8>,
    pub gold: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    pub gold: i32,
    pub ship: u8,
    /// Rowing cards in hand, sorted (with a face-down laid card back in it).
    pub hand: Vec<u8>,
    /// Whether the seat has laid its face-down card this turn.
    pub laid: bool,
    pub played: Vec<u8>,
    pub register: Vec<Column>,
    pub temple: Vec<u8>,
    pub arrived: Vec<u32>,
    pub extras: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Observation {
    pub seat: usize,
    pub round: u8,
    pub phase: Phase,
    pub decision: Pending,
    pub turn: u8,
    pub wind: i8,
    pub forecast: Option<i8>,
    pub order: Vec<u8>,
    pub track: Vec<(u8, u8)>,
    pub miles: Vec<u8>,
    pub row: Vec<OfferView>,
    pub seats: Vec<SeatView>,
    /// The seat's own face-down card this turn.
    pub own_pick: Option<u8>,
    pub decks: [usize; 3],
    pub discards: Vec<Vec<u8>>,
    pub bank: i32,
    pub bonus_left: usize,
}

impl MedState {
    pub fn observe(&self, comps: &Components, seat: usize) -> Observation {
        let _ = comps;
        let regions = comps.tables().regions();
        let own_pick = self.picks.own(seat);
        Observation {
            seat,
            round: self.round,
            phase: self.phase,
            decision: self.pending,
            turn: self.turn,
            wind: self.wind,
            forecast: self.forecast,
            order: self.order.clone(),
            track: self.track.clone(),
            miles: self.miles.clone(),
            row: self.row.iter().map(|o| OfferView {
                face_up: o.face_up,
                city: o.face_up.then_some(o.city),
                goods: o.face_up.then_some(o.goods),
                rowing: o.face_up.then_some(o.rowing),
                gold: o.gold,
            }).collect(),
            seats: self.seats.iter().enumerate().map(|(i, s)| {
                let mut hand = s.hand.clone();
                if i != seat {
                    hand.extend(self.picks.own(i));
                }
                hand.sort_unstable();
                SeatView {
                    gold: s.gold,
                    ship: s.ship,
                    hand,
                    laid: self.picks.laid(i),
                    played: s.played.clone(),
                    register: s.register.to_vec(),
                    temple: s.temple[..regions].to_vec(),
                    arrived: s.arrived[..regions].to_vec(),
                    extras: s.extras,
                }
            }).collect(),
            own_pick,
            decks: [self.city_deck.len(), self.goods_deck.len(), self.rowing_deck.len()],
            discards: vec![sorted(&self.city_discard), sorted(&self.goods_discard),
                           sorted(&self.rowing_discard)],
            bank: self.bank,
            bonus_left: self.bonus_pile.len(),
        }
    }

    /// An option in words.
    pub fn describe(&self, comps: &Components, action: &Action) -> String {
        let t = comps.tables();
        let contract = |city: u8, goods: u8| {
            let face = t.city_cards[city as usize];
            let g = t.goods_cards[goods as usize] as usize;
            let place = &t.city_names[face.city as usize];
            let reward = if face.gold[g] > 0 {
                format!("{} gold", face.gold[g])
            } else {
                let r = t.region_of[face.city as usize] as usize;
                let n = face.temple[g];
                format!("{n} temple point{} in {}", if n == 1 { "" } else { "s" },
                        t.region_names[r])
            };
            format!("{} to {place} ({reward})", t.good_names[g])
        };
        let card = |c: u8| {
            let r = t.rowing[c as usize];
            format!("rowing {} / wind {:+}", r.power, r.wind)
        };
        match *action {
            Action::Take { offer, column } => {
                let o = self.row[offer as usize];
                format!("takes {}, {}, {} gold on it, into column {}", contract(o.city, o.goods),
                        card(o.rowing), o.gold, column + 1)
            }
            Action::Turn => "turns up the next contract".into(),
            Action::Refuse => "refuses it and turns up the next".into(),
            Action::Pick(c) => format!("plays {}", card(c)),
            Action::Sail { to, deliver, buy } => {
                let seat = self.to_move().unwrap_or(0);
                let s = &self.seats[seat];
                let d = self.distance(t, s.ship, to);
                let mut out = format!("sails {} -> {} ({d} miles, range {})",
                                      t.city_names[s.ship as usize], t.city_names[to as usize],
                                      self.range(comps, seat));
                if deliver != NONE {
                    let col = s.register[deliver as usize];
                    out += &format!(", delivers {}", contract(col.city, col.goods));
                }
                if buy {
                    out += ", buys a temple point";
                }
                out
            }
            Action::Extra(yes) => if yes { "takes an extra turn" } else { "passes" }.into(),
        }
    }
}

fn sorted(v: &[u8]) -> Vec<u8> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}
