//! M6: the scoring of a round, and M7: its end. A bonus tile for every seat that lost no
//! contract; in each region's temple the most temple points win its points tile (on a
//! tie, the token below, which arrived first), in the gold temple the most gold (on a tie,
//! the earlier in play order); rounds 2 and 3 pay second and third places too. Then the
//! cards go back to their decks and are reshuffled, the individual rowing cards played
//! go back to the box, the ships return to Crete and the next round begins.

use super::components::Components;
use super::state::{Column, MedState, Pending, Phase, Status, COLUMNS};

impl MedState {
    /// M6.1-M6.4, then the end of the round (M7) or of the game (M8): the rules call it
    /// after the last extra turn (public for hand-checked positions).
    pub fn score_round(&mut self, comps: &Components) {
        let t = comps.tables();
        let r = self.round as usize;
        for s in 0..self.n {
            self.delivered[s] += self.seats[s].count(Status::Done) as u8;
            self.lost[s] += self.seats[s].count(Status::Lost) as u8;
        }
        // M6.1: all five contracts delivered
        for s in 0..self.n {
            if self.seats[s].count(Status::Done) == COLUMNS {
                if let Some(b) = self.bonus_pile.pop() {
                    self.seats[s].bonus.push(b);
                }
            }
        }
        // M6.2, M6.3: each region's temple
        for region in 0..t.regions() {
            let ranked = self.temple_ranking(region);
            self.award(region, r, &t.points[region][r], &ranked);
        }
        // M6.4: the gold temple
        let gold = self.gold_ranking();
        let g = t.gold_temple();
        self.award(g, r, &t.points[g][r], &gold);
        if self.round + 1 < t.rounds {
            self.end_round(comps);
        } else {
            self.phase = Phase::Over;
            self.pending = Pending::Over;
        }
    }

    /// M6.2, M6.3: the seats with points in `region`'s temple, most first, on a tie the
    /// token lower in the stack (the earlier arrival) first (M6.6 decision: 0 points
    /// win nothing).
    pub fn temple_ranking(&self, region: usize) -> Vec<usize> {
        let mut seats: Vec<usize> = (0..self.n).filter(|&s| self.seats[s].temple[region] > 0)
            .collect();
        seats.sort_by_key(|&s| (std::cmp::Reverse(self.seats[s].temple[region]),
                                self.seats[s].arrived[region]));
        seats
    }

    /// M6.4: the seats with gold, most first, on a tie the earlier in play order.
    pub fn gold_ranking(&self) -> Vec<usize> {
        let mut seats: Vec<usize> = (0..self.n).filter(|&s| self.seats[s].gold > 0).collect();
        seats.sort_by_key(|&s| (std::cmp::Reverse(self.seats[s].gold), self.place_in_order(s)));
        seats
    }

    /// M6.5: the round's tiles of a temple, best first, to its first places.
    fn award(&mut self, temple: usize, round: usize, tiles: &[u8], ranked: &[usize]) {
        for (&points, &s) in tiles.iter().zip(ranked) {
            self.seats[s].tiles.push((temple as u8, round as u8, points));
        }
    }

    /// M7: the round's end: hands kept; played rowing cards discarded (individual ones to
    /// the box); every other card discarded (the register's, the row's, the row's coins
    /// back to the supply); each discard pile shuffled into its deck; temple tokens stay;
    /// ships back to the start; the next round's contract phase.
    fn end_round(&mut self, comps: &Components) {
        let t = comps.tables();
        for s in &mut self.seats {
            for c in s.played.drain(..) {
                if t.is_individual(c) {
                    self.boxed.push(c);
                } else {
                    self.rowing_discard.push(c);
                }
            }
            for col in &mut s.register {
                if col.status == Status::Lost || col.status == Status::Open {
                    self.city_discard.push(col.city);
                    self.goods_discard.push(col.goods);
                }
                *col = Column::EMPTY;
            }
            s.ship = t.start;
        }
        for o in self.row.drain(..) {
            self.city_discard.push(o.city);
            self.goods_discard.push(o.goods);
            self.rowing_discard.push(o.rowing);
            self.bank += i32::from(o.gold);
        }
        for (deck, discard) in [(&mut self.city_deck, &mut self.city_discard),
                                (&mut self.goods_deck, &mut self.goods_discard),
                                (&mut self.rowing_deck, &mut self.rowing_discard)] {
            deck.append(discard);
            let all = std::mem::take(deck);
            *deck = super::state::shuffled(&mut self.rng, all);
        }
        self.round += 1;
        self.turn = 0;
        self.start_contract_turn(comps);
    }
}
