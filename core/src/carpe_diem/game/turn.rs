//! R2.5 and R4: the pawns placed blind, then a turn (move, then take: build or store);
//! part of Python's `cdsim/games/carpe_diem/rules/game.py`.

use crate::carpe_diem::components::Components;

use super::{
    takes_per_depot, Action, Event, GameState, Move, Options, Pending, Take, ROUNDS, SPACES,
};

impl GameState {
    pub(super) fn end_turn(&mut self) {
        self.turn += 1;
        if self.turn == self.n {
            self.turn = 0;
            if self.round + 1 == ROUNDS {
                self.begin_scoring();
                return;
            }
            self.round += 1;
        }
        self.pending = Pending::Move {
            seat: self.seat_at(self.turn) as u8,
        };
    }

    // -- R2.5: pawns -------------------------------------------------------------
    /// The free patrician spaces, ascending.
    pub(super) fn start_options(&self, out: &mut Options) {
        for s in 0..SPACES as i8 {
            if !self.players[..self.n].iter().any(|p| p.pawn == s) {
                out.push(Action::Start(s as u8));
            }
        }
    }

    pub fn apply_start(&mut self, space: u8) {
        let Pending::Start { seat } = self.pending else {
            panic!("no pawn to place")
        };
        self.players[seat as usize].pawn = space as i8;
        self.log.push(Event::Pawn { seat, space });
        self.turn += 1;
        if self.turn < self.n {
            self.pending = Pending::Start {
                seat: self.seat_at(self.turn) as u8,
            };
            return;
        }
        self.turn = 0;
        self.deal();
        self.pending = Pending::Move {
            seat: self.seat_at(0) as u8,
        };
    }

    // -- R4: a turn ----------------------------------------------------------------
    pub(super) fn move_options(&self, seat: usize, out: &mut Options) {
        let p = &self.players[seat];
        let pawn = p.pawn as usize;
        for step in [1, SPACES - 1] {
            // R4.2, R4.3: skip empty depots in the same direction
            let mut pos = (pawn + step) % SPACES;
            while self.depots[pos].is_empty() {
                pos = (pos + step) % SPACES;
            }
            let plain = Action::Move(Move {
                dest: pos as u8,
                bread: false,
            });
            if !out.contains(&plain) {
                out.push(plain);
            }
        }
        if p.bread >= 1 {
            // R4.4 [decision]: only spaces whose depot has a tile
            for s in 0..SPACES {
                if !self.depots[s].is_empty() {
                    out.push(Action::Move(Move {
                        dest: s as u8,
                        bread: true,
                    }));
                }
            }
        }
    }

    pub fn apply_move(&mut self, m: Move) {
        let Pending::Move { seat } = self.pending else {
            panic!("no move pending")
        };
        let p = &mut self.players[seat as usize];
        if m.bread {
            p.bread -= 1;
            p.bread_moves += 1;
        }
        p.pawn = m.dest as i8;
        self.log.push(Event::Move { seat, dest: m.dest, bread: m.bread });
        self.pending = Pending::Take {
            seat,
            space: m.dest,
        };
    }

    /// R4.5: one option per distinct tile (identical tiles are one option) per placement,
    /// then storing it (R9.3: always allowed).
    pub(super) fn take_options(
        &self,
        comps: &Components,
        seat: usize,
        space: usize,
        out: &mut Options,
    ) {
        let district = &self.players[seat].district;
        let depot = self.depots[space].as_slice();
        for (slot, &t) in depot.iter().enumerate() {
            if depot[..slot].contains(&t) {
                continue;
            }
            let (slot, tile_type) = (slot as u8, t);
            district.each_placement(&comps.tile_types[t as usize], |cell, edges| {
                out.push(Action::Take(Take { slot, tile_type, cell: cell as i8, edges }));
            });
            out.push(Action::Take(Take { slot, tile_type, cell: -1, edges: [0; 4] }));
        }
    }

    pub fn apply_take(&mut self, comps: &Components, take: Take) {
        let Pending::Take { seat, space } = self.pending else {
            panic!("no take pending")
        };
        let (seat, space) = (seat as usize, space as usize);
        let depot = &mut self.depots[space];
        let tile = depot.remove(take.slot as usize);
        assert_eq!(tile, take.tile_type, "the take names another tile");
        self.players[seat].taken[self.phase] += 1;
        self.log.push(Event::Take {
            seat: seat as u8,
            space: space as u8,
            tile,
            cell: take.cell,
            edges: take.edges,
        });
        self.depot_taken[space] += 1;
        if self.depot_taken[space] >= takes_per_depot(self.n) {
            // R4.6
            self.discarded += depot.len() as u16;
            depot.clear();
        }
        if take.stores() {
            self.players[seat].stored += 1;
            self.end_turn();
            return;
        }
        self.build(comps, seat, tile, take.cell as usize, take.edges);
        self.go_on(comps, seat);
    }
}
