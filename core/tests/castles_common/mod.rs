//! Shared helpers of the Castles tests: a game past its setup on a known board, and
//! hand-made positions on it.
#![allow(dead_code)]

use cdsim_core::castles::actions::{Payment, CARD};
use cdsim_core::castles::components::Crop;
use cdsim_core::castles::tables::crop_bits;
use cdsim_core::castles::{
    Action, BonusKind, CastlesConfig, CastlesState, Colour, Components, Pending, Stage, Stored,
    Tile,
};
use cdsim_core::rng::SeedSequence;

/// Layout 4: A, B, C left to right, none turned, no shifts (TC8).
pub const FLAT: u16 = 4;
/// The known board: pieces A-1, B-1, C-1 (`Components::builtin` indices 0, 4, 8).
///
/// 0 F, 1 F, 2 K, 3 R, 4 Q | 5 F, 6 V, 7 T, 8 M, 9 W
/// B-1: 10 M, 11 M, 12 Q, 13 K, 14 R | 15 M, 16 Q, 17 F, 18 V, 19 W
/// C-1: 20 V, 21 V, 22 V, 23 K, 24 W | 25 R, 26 W, 27 T, 28 F, 29 Q
pub const PIECES: [u8; 3] = [0, 4, 8];
/// The start castle's space on it (A-1's castle); its neighbours are 1, 3, 6, 7.
pub const START: u8 = 2;

pub fn comps() -> Components {
    Components::builtin()
}

/// A game of `n` seats on the known board, past setup (every seat laid `FLAT`, put its
/// start castle on `START`, took a +1 card token which is then handed back), with seat
/// 0 to move.
pub fn ready(c: &Components, n: usize, seed: u64) -> CastlesState {
    let (mut st, _) = CastlesState::new(
        c,
        &CastlesConfig { players: n },
        SeedSequence::new(seed as u128, &[]),
    );
    for seat in 0..n {
        st.seats[seat].pieces = PIECES;
    }
    for _ in 0..n {
        st.apply(c, Action::Lay(FLAT));
    }
    for _ in 0..n {
        st.apply(c, Action::StartCastle(START));
    }
    for _ in 0..n {
        st.apply(c, Action::Token(BonusKind::Card));
    }
    for seat in 0..n {
        st.seats[seat].tokens = [0; 5];
    }
    st.bonus_supply = [5; 5];
    assert_eq!(
        st.pending,
        Pending::Turn {
            seat: 0,
            stage: Stage::Main
        }
    );
    st
}

/// It is `seat`'s turn (its main action).
pub fn turn(st: &mut CastlesState, seat: usize) {
    st.turn_seat = seat as u8;
    st.in_extra = false;
    st.pending = Pending::Turn {
        seat: seat as u8,
        stage: Stage::Main,
    };
}

pub fn tile(colour: Colour) -> Tile {
    Tile::new(colour, 0, false)
}

pub fn farm(crops: &[Crop]) -> Tile {
    Tile::new(Colour::Farm, crop_bits(crops), false)
}

/// Cards in `seat`'s hand: `cards[i]` of colour i (the rest emptied).
pub fn hand(st: &mut CastlesState, seat: usize, cards: &[(Colour, u8)]) {
    st.seats[seat].hand = [0; 8];
    for &(c, k) in cards {
        st.seats[seat].hand[c.index()] += k;
    }
}

/// Put `what` in `seat`'s storage space 0.
pub fn store(st: &mut CastlesState, seat: usize, what: Stored) {
    st.seats[seat].storage[0] = what;
}

/// Cover `spaces` of `seat`'s board by hand (no VP, no effect).
pub fn cover(st: &mut CastlesState, seat: usize, spaces: &[u8]) {
    for &s in spaces {
        st.seats[seat].filled |= 1 << s;
    }
}

pub const TWO_CARDS: Payment = Payment { a: CARD, b: CARD };

/// The options of the pending decision.
pub fn options(st: &CastlesState, c: &Components) -> Vec<Action> {
    let mut out = Vec::new();
    st.options(c, &mut out);
    out
}

/// Place storage item 0 of the seat to move on `space`, paying `pay`.
pub fn place(st: &mut CastlesState, c: &Components, space: u8, pay: Payment) {
    st.apply(c, Action::Place { item: 0, space });
    st.apply(c, Action::Pay(pay));
}
