//! `apply`: the setup decisions (T2.6–T2.8), the turn and its actions (T3–T7), the
//! tasks a placement leaves (T8.1, T8.2), and the ends of turns, rounds and phases (T10).

use super::actions::{tokens_left, Action, Payment, Pending, Stage, Task, KEEP};
use super::components::{BonusKind, Colour, Components, N_COLOURS};
use super::state::{CastlesState, Stored, DISPLAY, DRAW};
use super::tables::Tile;

impl CastlesState {
    /// Apply one option of the pending decision. Debug builds check it is legal.
    pub fn apply(&mut self, comps: &Components, action: Action) {
        debug_assert!(
            self.is_legal(comps, action),
            "{action:?} is not an option of {:?}",
            self.pending
        );
        let seat = self.pending.seat().expect("apply on a finished game");
        let n = self.n;
        let next_or = |p: Pending, last: Pending| if seat + 1 < n { p } else { last };
        match (self.pending, action) {
            (Pending::Lay { .. }, Action::Lay(id)) => {
                self.lay(comps, seat, id);
                self.pending = next_or(
                    Pending::Lay {
                        seat: seat as u8 + 1,
                    },
                    Pending::StartCastle { seat: 0 },
                );
            }
            (Pending::StartCastle { .. }, Action::StartCastle(space)) => {
                self.seats[seat].filled |= 1 << space; // T2.7: no VP, no effect
                self.pending = next_or(
                    Pending::StartCastle {
                        seat: seat as u8 + 1,
                    },
                    Pending::SetupToken { seat: 0 },
                );
            }
            (Pending::SetupToken { .. }, Action::Token(kind)) => {
                self.take_token(seat, kind);
                self.pending = next_or(
                    Pending::SetupToken {
                        seat: seat as u8 + 1,
                    },
                    Pending::Turn {
                        seat: 0,
                        stage: Stage::Main,
                    },
                );
            }
            (Pending::Turn { stage, .. }, action) => self.turn_action(comps, seat, stage, action),
            (Pending::Pay { item, space, .. }, Action::Pay(p)) => {
                self.pay(seat, space as usize, p);
                let what = std::mem::take(&mut self.seats[seat].storage[item as usize]);
                self.place(comps, seat, space as usize, what);
                self.run(comps);
            }
            (Pending::Castle { .. }, Action::Skip) => self.run(comps),
            (Pending::Castle { .. }, Action::Free { slot, space }) => {
                let tile = self.display[slot as usize].take().expect("a display tile");
                self.push_task(Task::Refill(slot)); // T8.1: the gap is filled after the effects
                self.place(comps, seat, space as usize, Stored::Tile(tile));
                self.run(comps);
            }
            (Pending::Token { .. }, Action::Token(kind)) => {
                self.take_token(seat, kind);
                self.run(comps);
            }
            (pending, action) => panic!("{action:?} does not answer {pending:?}"),
        }
    }

    /// T7.2: the cards go to the discard pile, the workers back to the supply.
    fn pay(&mut self, seat: usize, space: usize, p: Payment) {
        let s = &mut self.seats[seat];
        let (cards, workers) = p.cost(s.colour[space] as usize);
        for (c, &k) in cards.iter().enumerate() {
            s.hand[c] -= k;
            self.discard[c] += k;
        }
        s.workers -= workers as u16;
    }

    /// T2.6: the seat lays its three pieces as layout `id`.
    fn lay(&mut self, comps: &Components, seat: usize, id: u16) {
        let t = comps.tables();
        let s = &mut self.seats[seat];
        s.layout = id;
        s.colour_mask = [0; N_COLOURS];
        for kind in 0..3 {
            let colours = &t.piece_colour[s.pieces[kind] as usize];
            for (local, &c) in colours.iter().enumerate() {
                let space = 10 * kind + local;
                s.colour[space] = c;
                s.colour_mask[c as usize] |= 1 << space;
            }
        }
    }

    /// T3.3, T3.4: the turn's action, or the marble's extra one.
    fn turn_action(&mut self, comps: &Components, seat: usize, stage: Stage, action: Action) {
        if stage == Stage::Extra && action != Action::EndTurn {
            self.seats[seat].marble -= 1; // T3.4
            self.in_extra = true;
        }
        if stage == Stage::Main {
            // T3.5, T10.6: every player passing in turn ends the phase, as a stack would
            self.passes = if action == Action::EndTurn { self.passes + 1 } else { 0 };
            if usize::from(self.passes) >= self.n {
                self.triggered = true;
            }
        }
        match action {
            Action::EndTurn => self.end_turn(),
            Action::Draw => {
                let extra = self.seats[seat].tokens[BonusKind::Card.index()] as usize;
                self.draw_cards(seat, DRAW + extra); // T4.1
                self.run(comps);
            }
            Action::Take { slot, discard } => {
                let tile = self.display[slot as usize].take().expect("a display tile");
                let s = &mut self.seats[seat];
                if discard != KEEP {
                    // T5.2: the occupant goes back in the box (a wooden hex to the supply)
                    if let Stored::Tile(_) = std::mem::take(&mut s.storage[discard as usize]) {
                        self.boxed += 1;
                    }
                }
                let free = s.free_storage().expect("a free storage space");
                s.storage[free] = Stored::Tile(tile); // T5.1
                self.push_task(Task::Refill(slot));
                self.run(comps);
            }
            Action::Sweep(colour) => {
                self.sweep(colour);
                if self.display.iter().any(Option::is_some) {
                    self.pending = Pending::Turn {
                        seat: seat as u8,
                        stage: Stage::Sweep,
                    };
                } else {
                    self.run(comps); // T6.3: nothing came back, so nothing to take
                }
            }
            Action::Place { item, space } => {
                self.pending = Pending::Pay {
                    seat: seat as u8,
                    item,
                    space,
                };
            }
            other => panic!("{other:?} is not a turn action"),
        }
    }

    /// T5.6: every display tile of `colour` is set aside and replaced from the reserve.
    fn sweep(&mut self, colour: Colour) {
        for slot in 0..DISPLAY {
            if self.display[slot].is_some_and(|t: Tile| t.colour() == colour) {
                let tile = self.display[slot].take().expect("checked");
                self.set_aside(tile);
            }
        }
        for slot in 0..DISPLAY {
            if self.display[slot].is_none() {
                self.display[slot] = self.draw_neutral();
            }
        }
        self.check_five();
    }

    /// Run the queued tasks until one needs a decision; then the action is done.
    fn run(&mut self, comps: &Components) {
        let seat = self.turn_seat as usize;
        while self.n_tasks > 0 {
            self.n_tasks -= 1;
            match self.tasks[self.n_tasks as usize] {
                Task::Refill(slot) => self.refill_from_stack(seat, slot as usize),
                Task::Castle => {
                    self.pending = Pending::Castle { seat: seat as u8 };
                    return;
                }
                Task::Token => {
                    if tokens_left(&self.bonus_supply) > 0 {
                        self.pending = Pending::Token { seat: seat as u8 };
                        return;
                    }
                }
                Task::Finish => unreachable!("never queued"),
            }
        }
        let _ = comps;
        if !self.in_extra && self.seats[seat].marble > 0 {
            self.pending = Pending::Turn {
                seat: seat as u8,
                stage: Stage::Extra,
            }; // T3.4
        } else {
            self.end_turn();
        }
    }

    /// T3.2, T10: the next seat, and at a round's end the phase's end if triggered.
    fn end_turn(&mut self) {
        self.in_extra = false;
        let mut next = self.turn_seat as usize + 1;
        if next == self.n {
            next = 0;
            if self.triggered {
                if self.phase < 3 {
                    self.score_phase(); // T10.1, T10.3
                    self.phase += 1;
                    self.triggered = false;
                    self.check_trigger();
                } else if !self.final_round {
                    self.final_round = true; // T10.4: one more whole round
                } else {
                    self.score_phase();
                    self.final_scoring();
                    self.pending = Pending::Over;
                    return;
                }
            }
        }
        self.turn_seat = next as u8;
        self.pending = Pending::Turn {
            seat: next as u8,
            stage: Stage::Main,
        };
    }

    /// T11.1: every seat's green VP onto its red track.
    fn score_phase(&mut self) {
        for s in &mut self.seats[..self.n] {
            s.score_phase();
        }
    }
}
