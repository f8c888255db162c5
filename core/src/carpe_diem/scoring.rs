//! Scoring phases (R8) and final scoring (R10); mirrors `cdsim/games/carpe_diem/rules/scoring.py`. The scoring
//! phase is a run of decisions (circle, then a payment per card) on `GameState`.

use crate::carpe_diem::cards::{each_payment, settle, Payment};
use crate::carpe_diem::checking;
use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::have_index;
use crate::carpe_diem::game::{
    Action, CardTaken, CircleChoice, Event, GameState, Options, Pending, PlayerState, MAX_PLAYERS, NONE,
    PHASES,
};
use crate::carpe_diem::kinds::{ADMINISTRATOR, ARTISAN, BAKER, BAKERY, FOUNTAIN, MARKET, MERCHANT};
use crate::carpe_diem::records::{card_records, GameRecord, SeatRecord, SeatUses};

/// R8.2: furthest on the scroll track first; on a shared space, the disc on top first.
///
/// [decision] The order is fixed when the scoring phase begins; steps gained during it
/// do not reorder it.
pub fn scoring_order(state: &GameState) -> [u8; MAX_PLAYERS] {
    let mut order = [0u8, 1, 2, 3];
    let seats = &mut order[..state.n];
    seats.sort_by_key(|&s| {
        let p = &state.players[s as usize];
        (std::cmp::Reverse(p.scroll), std::cmp::Reverse(p.stamp))
    });
    order
}


/// R8.3-R8.6: the scoring phase, one decision at a time (Python's `scoring_phase` and
/// `resolve_card`).
impl GameState {
    pub(crate) fn begin_scoring(&mut self) {
        self.scoring_order = scoring_order(self);
        self.scoring_index = 0;
        self.log.push(Event::ScoringPhase {
            phase: self.phase as u8,
            order: self.scoring_order,
            n: self.n as u8,
        });
        self.pending = Pending::Circle {
            seat: self.scoring_order[0],
        };
    }

    /// R8.3: both orders of the two cards of each free circle.
    pub(crate) fn circle_options(&self, out: &mut Options) {
        for (i, &(a, b)) in self.circles().iter().enumerate() {
            if self.circle_owner[i] < 0 {
                let circle = i as u8;
                for (first, second) in [(a, b), (b, a)] {
                    out.push(Action::Circle(CircleChoice { circle, first, second }));
                }
            }
        }
    }

    pub fn apply_circle(&mut self, comps: &Components, choice: CircleChoice) {
        let Pending::Circle { seat } = self.pending else {
            panic!("no circle pending")
        };
        self.circle_owner[choice.circle as usize] = seat as i8;
        self.log.push(Event::Circle {
            seat,
            circle: choice.circle,
            first: choice.first,
            second: choice.second,
        });
        self.start_card(comps, seat as usize, choice.first, choice.second);
    }

    /// R8.4: the options to pay the card on `slot` (empty: it fails, R8.5).
    pub(crate) fn payment_options(
        &self,
        comps: &Components,
        seat: usize,
        slot: usize,
        out: &mut Options,
    ) {
        self.each_payment(comps, seat, slot, |p| out.push(Action::Payment(p)));
    }

    fn each_payment(&self, comps: &Components, seat: usize, slot: usize, found: impl FnMut(Payment)) {
        let p = &self.players[seat];
        let card = &comps.objectives[self.grid[slot] as usize];
        each_payment(card, &p.district.have, &p.goods, p.coins, p.bread, found);
    }

    fn start_card(&mut self, comps: &Components, seat: usize, slot: u8, next: u8) {
        let mut payable = false;
        self.each_payment(comps, seat, slot as usize, |_| payable = true);
        if !payable {
            self.resolve_card(comps, seat, slot as usize, None);
            self.next_card(comps, seat, next);
            return;
        }
        self.pending = Pending::Payment {
            seat: seat as u8,
            slot,
            next,
        };
    }

    pub fn apply_payment(&mut self, comps: &Components, payment: Payment) {
        let Pending::Payment { seat, slot, next } = self.pending else {
            panic!("no payment pending")
        };
        self.resolve_card(comps, seat as usize, slot as usize, Some(payment));
        self.next_card(comps, seat as usize, next); // R8.6: after the first card's rewards
    }

    /// R8.4-R8.6: fulfil one card as the player chose, or lose 4 VP.
    pub fn resolve_card(
        &mut self,
        comps: &Components,
        seat: usize,
        slot: usize,
        payment: Option<Payment>,
    ) {
        let index = self.grid[slot] as usize;
        let p = &mut self.players[seat];
        let out = settle(index, &comps.objectives[index], payment, &p.goods, p.coins);
        for g in 0..4 {
            p.goods[g] -= out.paid_goods[g];
        }
        p.coins += out.coins - out.paid_coins;
        p.bread += out.bread - out.paid_bread;
        p.card_vp += out.vp;
        if out.failed {
            p.failed_cards += 1;
        }
        p.cards_taken[p.n_cards_taken as usize] = CardTaken {
            card: index as u8,
            phase: self.phase as u8,
            failed: out.failed,
            multiples: out.multiples,
            vp: out.vp,
        };
        p.n_cards_taken += 1;
        self.log.push(Event::Card {
            seat: seat as u8,
            slot: slot as u8,
            card: index as u8,
            failed: out.failed,
            multiples: out.multiples,
            vp: out.vp,
        });
        self.advance_scroll(comps, seat, out.steps);
    }

    fn next_card(&mut self, comps: &Components, seat: usize, next: u8) {
        if next != NONE {
            self.start_card(comps, seat, next, NONE);
            return;
        }
        self.scoring_index += 1;
        if (self.scoring_index as usize) < self.n {
            self.pending = Pending::Circle {
                seat: self.scoring_order[self.scoring_index as usize],
            };
            return;
        }
        let mut vp = [0; MAX_PLAYERS];
        for (seat, p) in self.players[..self.n].iter_mut().enumerate() {
            p.vp_after_phase[self.phase] = p.current_vp();
            vp[seat] = p.current_vp();
        }
        self.log.push(Event::PhaseEnd {
            phase: self.phase as u8,
            vp,
            n: self.n as u8,
        });
        if self.check {
            if let Err(e) = checking::check_state(self, comps, true) {
                panic!(
                    "invariant broken at the end of phase {}: {e}",
                    self.phase + 1
                );
            }
        }
        if self.phase + 1 == PHASES {
            self.pending = Pending::Over;
        } else {
            self.begin_phase(self.phase + 1);
        }
    }
}

/// R10.4: each kept fountain card scores its goal; duplicates both score.
pub fn fountain_points(comps: &Components, p: &PlayerState) -> i32 {
    p.fountain_cards
        .as_slice()
        .iter()
        .map(|&f| {
            let card = &comps.fountains[f as usize];
            card.vp * p.district.complete_count[card.goal as usize]
        })
        .sum()
}

/// The seven VP sources of one player (records::BREAKDOWN order).
pub fn breakdown(comps: &Components, p: &PlayerState) -> [i32; 7] {
    let d = &p.district;
    [
        p.start_vp,
        p.card_vp,
        d.villa_chimneys()
            .iter()
            .map(|&c| comps.villa_points(i32::from(c)))
            .sum(),
        p.leftover_items() / 2,
        comps.scroll_points[p.scroll as usize] + p.overflow_vp,
        fountain_points(comps, p),
        d.frame_points(),
    ]
}

/// R10: villas, leftovers, scroll, fountains, frame; rank with the R10.6 tie-break.
pub fn final_scoring(state: &GameState, comps: &Components, names: &[&'static str]) -> GameRecord {
    let n = state.n;
    let players = &state.players[..n];
    let parts: Vec<[i32; 7]> = players.iter().map(|p| breakdown(comps, p)).collect();
    let totals: Vec<i32> = parts.iter().map(|v| v.iter().sum()).collect();
    // R10.6: most VP; tied: the disc furthest behind, then lower in the stack, wins.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&s| (-totals[s], players[s].scroll, players[s].stamp));
    let mut rank = [0i64; MAX_PLAYERS];
    for (i, &s) in order.iter().enumerate() {
        rank[s] = i as i64 + 1;
    }
    let tiebreak = n > 1 && totals[order[0]] == totals[order[1]];
    let seats = players
        .iter()
        .enumerate()
        .map(|(s, p)| {
            let d = &p.district;
            let h = &d.have;
            let stack = players
                .iter()
                .filter(|q| q.scroll == p.scroll && q.stamp < p.stamp)
                .count();
            let vp = parts[s].map(i64::from);
            let count = |kind: u8| i64::from(h[have_index(kind)]);
            SeatRecord {
                seat: s as i64,
                strategy: names[s],
                start_vp: i64::from(p.start_vp),
                vp_start: vp[0],
                vp_cards: vp[1],
                vp_villas: vp[2],
                vp_leftovers: vp[3],
                vp_scroll: vp[4],
                vp_fountains: vp[5],
                vp_frame: vp[6],
                final_vp: i64::from(totals[s]),
                failed_cards: i64::from(p.failed_cards),
                scroll: i64::from(p.scroll),
                stack: stack as i64,
                rank: rank[s],
                won: rank[s] == 1,
                vp_phase1: i64::from(p.vp_after_phase[0]),
                vp_phase2: i64::from(p.vp_after_phase[1]),
                vp_phase3: i64::from(p.vp_after_phase[2]),
                vp_phase4: i64::from(p.vp_after_phase[3]),
                tiles_taken: p.taken.iter().map(|&t| i64::from(t)).sum(),
                tiles_built: i64::from(p.tiles_built),
                tiles_stored: i64::from(p.stored),
                villas: i64::from(h[1]),
                chimneys: i64::from(h[0]),
                villa_chimneys: d.villa_chimneys().iter().map(|&c| i64::from(c)).sum(),
                landscapes: i64::from(h[2]),
                merchants: count(MERCHANT),
                bakers: count(BAKER),
                administrators: count(ADMINISTRATOR),
                artisans: count(ARTISAN),
                markets: count(MARKET),
                bakeries: count(BAKERY),
                fountains: count(FOUNTAIN),
                fountain_cards: p.fountain_cards.len() as i64,
                bread_moves: i64::from(p.bread_moves),
                artisan_lost: i64::from(p.artisan_lost),
                leftover_items: i64::from(p.leftover_items()),
            }
        })
        .collect();
    GameRecord {
        players: n,
        seats,
        tiebreak,
        cards: card_records(state, comps),
        uses: (0..n).map(|s| seat_uses(state, comps, s)).collect(),
    }
}

/// A seat's frame parts with the goals of each it scored (R10.5: the district's goals are
/// its parts' goals, side by side), and the chimney count of each complete villa (R10.1).
fn seat_uses(state: &GameState, comps: &Components, seat: usize) -> SeatUses {
    let d = &state.players[seat].district;
    let mut goals = d.frame_goals().iter();
    let parts = state.frames[seat].map(|i| {
        let part = &comps.frame_parts[i as usize];
        let scored = goals.by_ref().take(part.goals.len())
            .filter(|g| d.complete_mask[g.kind as usize] & g.mask != 0).count();
        (part.id, scored as i64)
    });
    let p = &state.players[seat];
    SeatUses { parts, villas: d.villa_chimneys().to_vec(), scroll: p.scroll,
               board: comps.boards[state.boards[seat] as usize].id,
               district: Some(std::sync::Arc::clone(&p.district)) }
}
