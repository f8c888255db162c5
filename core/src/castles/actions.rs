//! The one action type, the pending decision, and every legal option of it.

use super::components::{BonusKind, Colour, Components, N_BONUS, N_COLOURS};
use super::state::{CastlesState, Seat, Stored, DISPLAY, NO_LAYOUT};
use super::tables::LAYOUTS;

/// `Take { discard: KEEP, .. }`: a storage space is free (T5.1).
pub const KEEP: u8 = u8::MAX;

/// T7.2: how a placement is paid: two units, each `CARD` (a card of the colour), a
/// pair of identical cards of another colour (`pair(d)`), or `WORKER`. `a <= b`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Payment {
    pub a: u8,
    pub b: u8,
}

pub const CARD: u8 = 0;
pub const WORKER: u8 = 1 + N_COLOURS as u8;

pub const fn pair(colour: usize) -> u8 {
    1 + colour as u8
}

impl Payment {
    /// (cards per colour, workers) this payment costs for a space of colour `c`.
    pub fn cost(self, c: usize) -> ([u8; N_COLOURS], u8) {
        let mut cards = [0u8; N_COLOURS];
        let mut workers = 0;
        for unit in [self.a, self.b] {
            match unit {
                CARD => cards[c] += 1,
                WORKER => workers += 1,
                u => cards[(u - 1) as usize] += 2,
            }
        }
        (cards, workers)
    }

    /// Cards handed in, for players weighing payments.
    pub fn cards(self, c: usize) -> u32 {
        self.cost(c).0.iter().map(|&k| k as u32).sum()
    }
}

/// Every decision's options, as one small type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// T2.6: lay the pieces as layout `0..432` (`tables::Layout::decode`).
    Lay(u16),
    /// T2.7: the start castle on this dark green space.
    StartCastle(u8),
    /// T2.8, T8.2: take a bonus token.
    Token(BonusKind),
    /// T4: draw cards.
    Draw,
    /// T5: take display tile `slot`; `discard` is the storage space emptied first (T5.2) or `KEEP`.
    Take { slot: u8, discard: u8 },
    /// T5.6: clear every display tile of a colour before taking.
    Sweep(Colour),
    /// T7: place storage item `item` on space `space` (paid by the next decision).
    Place { item: u8, space: u8 },
    /// T7.2: pay for the placement chosen.
    Pay(Payment),
    /// T8.1: the castle's free placement of display tile `slot` on `space`.
    Free { slot: u8, space: u8 },
    /// T8.1: take no tile for the castle.
    Skip,
    /// T3.4: end the turn without the marble's extra action; T3.5: pass, when the turn
    /// offers no action at all.
    EndTurn,
}

pub use super::pending::{Pending, Stage};
pub(crate) use super::pending::Task;

/// T7.2: can `seat` pay for a space of colour `c` at all?
pub fn can_pay(seat: &Seat, c: usize) -> bool {
    let units: u32 = (0..N_COLOURS)
        .map(|d| {
            if d == c {
                seat.hand[d] as u32
            } else {
                (seat.hand[d] / 2) as u32
            }
        })
        .sum::<u32>()
        + seat.workers as u32;
    units >= 2
}

/// T7.2: every payment `seat` can afford for a space of colour `c`, each handed to `f`.
pub fn payments(seat: &Seat, c: usize, mut f: impl FnMut(Payment)) {
    let mut units = [CARD; N_COLOURS + 1];
    let mut n = 1;
    for d in (0..N_COLOURS).filter(|&d| d != c) {
        units[n] = pair(d);
        n += 1;
    }
    units[n] = WORKER;
    for (i, &a) in units.iter().enumerate() {
        for &b in &units[i..] {
            let p = Payment { a, b };
            let (cards, workers) = p.cost(c);
            if workers as u16 <= seat.workers
                && cards
                    .iter()
                    .zip(seat.hand)
                    .all(|(&need, have)| need <= have)
            {
                f(p);
            }
        }
    }
}

impl CastlesState {
    /// Every legal option of the pending decision; empty only when the game is over.
    pub fn options(&self, comps: &Components, out: &mut Vec<Action>) {
        out.clear();
        match self.pending {
            Pending::Lay { .. } => out.extend((0..LAYOUTS as u16).map(Action::Lay)),
            Pending::StartCastle { seat } => {
                let mask = self.seats[seat as usize].colour_mask[Colour::Castle.index()];
                out.extend(bits(mask).map(|s| Action::StartCastle(s as u8)));
            }
            Pending::SetupToken { .. } | Pending::Token { .. } => out.extend(
                BonusKind::ALL
                    .iter()
                    .filter(|k| self.bonus_supply[k.index()] > 0)
                    .map(|&k| Action::Token(k)),
            ),
            Pending::Turn { seat, stage } => self.turn_options(comps, seat as usize, stage, out),
            Pending::Pay { seat, space, .. } => {
                let s = &self.seats[seat as usize];
                payments(s, s.colour[space as usize] as usize, |p| {
                    out.push(Action::Pay(p))
                });
            }
            Pending::Castle { seat } => {
                out.push(Action::Skip);
                let s = &self.seats[seat as usize];
                let frontier = s.frontier(comps);
                for (slot, t) in self.display.iter().enumerate() {
                    if let Some(t) = t {
                        let fits = frontier & s.colour_mask[t.colour().index()];
                        out.extend(bits(fits).map(|sp| Action::Free {
                            slot: slot as u8,
                            space: sp as u8,
                        }));
                    }
                }
            }
            Pending::Over => {}
        }
    }

    fn turn_options(&self, comps: &Components, seat: usize, stage: Stage, out: &mut Vec<Action>) {
        let s = &self.seats[seat];
        if stage == Stage::Extra {
            out.push(Action::EndTurn);
        }
        if stage != Stage::Sweep && self.can_draw() {
            out.push(Action::Draw); // T4.2: not when there is nothing to draw
        }
        let free = s.free_storage().is_some();
        for slot in 0..DISPLAY {
            if self.display[slot].is_some() {
                if free {
                    out.push(Action::Take {
                        slot: slot as u8,
                        discard: KEEP,
                    });
                } else {
                    out.extend((0..s.capacity).map(|d| Action::Take {
                        slot: slot as u8,
                        discard: d,
                    }));
                }
            }
        }
        if stage == Stage::Sweep {
            return;
        }
        let frontier = s.frontier(comps);
        if !self
            .display
            .iter()
            .flatten()
            .any(|t| frontier & s.colour_mask[t.colour().index()] != 0)
        {
            let mut seen = [false; N_COLOURS];
            for t in self.display.iter().flatten() {
                let c = t.colour();
                if !std::mem::replace(&mut seen[c.index()], true) {
                    out.push(Action::Sweep(c));
                }
            }
        }
        for (item, stored) in s.storage[..s.capacity as usize].iter().enumerate() {
            let spaces = match stored {
                Stored::Empty => continue,
                Stored::Wood => frontier,
                Stored::Tile(t) => frontier & s.colour_mask[t.colour().index()],
            };
            for sp in bits(spaces) {
                if can_pay(s, s.colour[sp] as usize) {
                    out.push(Action::Place {
                        item: item as u8,
                        space: sp as u8,
                    });
                }
            }
        }
        if out.is_empty() {
            out.push(Action::EndTurn); // T3.5: no action is possible, the player passes
        }
    }

    /// Whether `action` is among the pending decision's options (for checking callers).
    pub fn is_legal(&self, comps: &Components, action: Action) -> bool {
        let mut opts = Vec::new();
        self.options(comps, &mut opts);
        opts.contains(&action)
    }

    /// The seats still to lay their pieces see no other layout (T12.3).
    pub fn all_laid(&self) -> bool {
        self.seats[..self.n].iter().all(|s| s.layout != NO_LAYOUT)
    }
}

/// The set bits of a mask, lowest first.
pub fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let b = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(b)
    })
}

/// Bonus kinds still in the supply.
pub fn tokens_left(supply: &[u8; N_BONUS]) -> usize {
    supply.iter().filter(|&&k| k > 0).count()
}
