//! One shared value model: what an option is worth, in victory points; mirrors
//! `strategies/value.py` expression for expression.
//!
//! Every scripted player uses this model; they differ only by their `Params` profile
//! and by a few plan rules in scripted.rs. The floats must equal Python's bit for bit
//! (the players compare them, and ties go to the first option), so every expression
//! keeps Python's association (`a + b + c` is `(a + b) + c`, `value += a + b` adds the
//! sum), its int -> float conversion points, and its summing order.

use crate::cards::{payment_options, settle, CardOutcome, Payment};
use crate::components::{Components, ObjectiveCard, TileType};
use crate::district::{have_index, Around, District};
use crate::kinds::{
    is_dwelling, is_landscape, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, MARKET, MERCHANT, N_KINDS,
    VILLA,
};
use crate::players::{Params, PlayerView};

/// Python's `max(a, b)` on floats: the first unless the second is greater.
pub fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// Python's `min(a, b)` on floats: the first unless the second is less.
pub fn py_min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

pub fn reward_value(p: &Params, vp: i32, coins: i32, bread: i32, steps: i32) -> f64 {
    f64::from(vp)
        + p.coin * f64::from(coins)
        + p.bread * f64::from(bread)
        + p.step * f64::from(steps)
}

fn card_reward_value(p: &Params, card: &ObjectiveCard) -> f64 {
    reward_value(p, card.vp, card.coins, card.bread, card.steps)
}

/// VP-equivalent per unit of each have-key, over grid cards next to a free circle
/// (slots ascending: a fixed float summing order, as value.py).
pub fn card_interest(view: &PlayerView, p: &Params) -> [f64; 16] {
    let state = view.state;
    let mut open_slots = 0u16;
    for (i, &(a, b)) in state.circles().iter().enumerate() {
        if state.circle_owner[i] < 0 {
            open_slots |= 1 << a | 1 << b;
        }
    }
    let mut interest = [0.0; 16];
    for slot in 0..12 {
        if open_slots >> slot & 1 == 0 || state.grid[slot] == crate::game::NONE {
            continue;
        }
        let card = &view.comps.objectives[state.grid[slot] as usize];
        if card.pay {
            continue;
        }
        let worth = card_reward_value(p, card);
        let parts = card.requires.len() as f64;
        for &(key, n) in &card.requires {
            interest[key] += worth / f64::from(n) / parts;
        }
    }
    interest
}

/// Extra value of one good from red cards still reachable on the grid.
pub fn good_interest(view: &PlayerView, p: &Params) -> f64 {
    let state = view.state;
    let mut best = 0.0;
    for (i, &(a, b)) in state.circles().iter().enumerate() {
        if state.circle_owner[i] >= 0 {
            continue;
        }
        for slot in [a, b] {
            let id = state.grid[slot as usize];
            if id == crate::game::NONE {
                continue;
            }
            let card = &view.comps.objectives[id as usize];
            if card.pay {
                let per: i32 = card.requires.iter().map(|&(_, n)| n).sum();
                best = py_max(best, card_reward_value(p, card) / f64::from(per) - p.good);
            }
        }
    }
    py_max(best, 0.0) * 0.5
}

/// Values placements for one player at one moment.
pub struct Evaluator<'a> {
    pub p: &'a Params,
    pub d: &'a District,
    comps: &'a Components,
    pub interest: [f64; 16],
    pub goods_bonus: f64,
    pub fountain_goal: [f64; N_KINDS],
    pub progress: f64,
    /// Completing a dwelling of each colour now (merchant, baker, administrator, artisan).
    dwelling_worth: [f64; 4],
}

impl<'a> Evaluator<'a> {
    pub fn new(view: &PlayerView<'a>, p: &'a Params) -> Evaluator<'a> {
        Evaluator::with_grid(view, p, (card_interest(view, p), good_interest(view, p)))
    }

    /// `grid_values`: (card_interest, good_interest), when the caller has them already
    /// (they change only when a scoring disc is placed).
    pub fn with_grid(
        view: &PlayerView<'a>,
        p: &'a Params,
        grid_values: ([f64; 16], f64),
    ) -> Evaluator<'a> {
        let (interest, goods_bonus) = grid_values;
        let me = view.me();
        let mut fountain_goal = [0.0; N_KINDS];
        for &f in me.fountain_cards.as_slice() {
            let card = &view.comps.fountains[f as usize];
            fountain_goal[card.goal as usize] += f64::from(card.vp) * p.fountain_card;
        }
        // incomplete features are worthless at the end: progress counts less late
        let turns_left = 7 * (3 - view.state.phase as i32) + (7 - view.state.round as i32);
        let progress = py_min(1.0, f64::from(turns_left) / 10.0);
        let mut ev = Evaluator {
            p,
            d: &me.district,
            comps: view.comps,
            interest,
            goods_bonus,
            fountain_goal,
            progress,
            dwelling_worth: [0.0; 4],
        };
        for (i, kind) in (MERCHANT..=ARTISAN).enumerate() {
            ev.dwelling_worth[i] = p.dwelling_complete + ev.dwelling_reward(kind, &me.goods);
        }
        ev
    }

    pub fn completion_bonus(&self, kind: u8, mask: u64) -> f64 {
        let p = self.p;
        let index = if kind == VILLA { 1 } else { have_index(kind) };
        let mut bonus = self.fountain_goal[kind as usize] + p.card_match * self.interest[index];
        for g in self.d.frame_goals() {
            if g.kind == kind
                && mask & g.mask != 0
                && self.d.complete_mask[kind as usize] & g.mask == 0
            {
                bonus += p.frame_goal * f64::from(g.vp);
            }
        }
        bonus
    }

    /// The value of a tile on a cell where it has a legal placement. It does not depend
    /// on the orientation: it reads the tile's parts (the same in every rotation) and
    /// what the cell's built neighbours face it with (`District::around`), which every
    /// orientation that fits must match (Python's `by_cell` for one cell).
    pub fn placement(&self, ttype: &TileType, cell: usize) -> f64 {
        if ttype.building != 0 {
            return self.placement_with(ttype, cell, &Around::default());
        }
        self.placement_with(ttype, cell, &self.d.around(cell))
    }

    /// `placement` with the cell's `District::around` given (callers may cache it).
    pub fn placement_with(&self, ttype: &TileType, cell: usize, around: &Around) -> f64 {
        let p = self.p;
        let d = self.d;
        let scroll = d.scrolls >> cell & 1 != 0;
        if ttype.building != 0 {
            let b = ttype.building;
            let worth = match b {
                MARKET => p.coin,
                BAKERY => p.bread,
                _ => p.fountain,
            };
            let mut value = if scroll { p.step } else { 0.0 };
            value += worth;
            return value + self.completion_bonus(b, 1 << cell);
        }
        let progress = self.progress;
        let open_edge = p.open_edge;
        let chimneys = f64::from(ttype.chimneys);
        let chimney_term = p.chimney * chimneys * progress;
        let card_term = self.interest[0] * chimneys * p.card_match;
        let credit = p.progress_credit * progress;
        let villa_credit = p.progress_credit * p.villa_complete;
        let good = p.good + self.goods_bonus;
        let mut value = if scroll { p.step } else { 0.0 };
        let bit = 1u64 << cell;
        for &(k, own) in ttype.parts() {
            let near = around.get(k); // what the tile's parts would join (R6)
            let (o, s) = (i32::from(near.open), i32::from(near.tiles));
            let own_open = i32::from(own) - 2 * i32::from(near.sides);
            value -= open_edge * f64::from(own_open) * progress;
            if k == VILLA {
                value += chimney_term;
                value += card_term;
                let total = i32::from(ttype.chimneys) + i32::from(near.chimneys);
                if own_open + o == 0 && s >= 1 {
                    // R6.1: closed, at least 2 tiles
                    value += p.villa_complete * f64::from(self.comps.villa_points(total));
                    value += self.completion_bonus(VILLA, bit | near.cells);
                } else {
                    // a villa counts only complete: credit what it may become
                    value += villa_credit * f64::from(self.comps.villa_points(total)) * progress;
                }
            } else if is_landscape(k) {
                if own_open + o == 0 {
                    value += self.completion_bonus(k, bit | near.cells);
                    value += f64::from(s) * good + p.landscape_complete; // (tiles - 1) goods, R6.2
                } else {
                    // one more tile would pay about this much
                    value += credit * (f64::from(1 + s) * good + p.landscape_complete);
                }
            } else if is_dwelling(k) {
                let reward = self.dwelling_worth[(k - MERCHANT) as usize];
                if own_open + o == 0 {
                    value += reward + self.completion_bonus(k, bit | near.cells);
                } else {
                    value += credit * reward;
                }
            }
        }
        value
    }

    /// The value of one tile type on each cell of `cells` (a bit per cell), into `out`.
    pub fn by_cell(&self, ttype: &TileType, mut cells: u64, out: &mut [f64; 36]) {
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            out[cell] = self.placement(ttype, cell);
        }
    }

    pub fn dwelling_reward(&self, kind: u8, goods: &[i32; 4]) -> f64 {
        let p = self.p;
        let total = f64::from(goods.iter().sum::<i32>());
        match kind {
            MERCHANT => p.coin * (total + 1.0) - (p.good + self.goods_bonus) * total,
            BAKER => 2.0 * p.bread,
            ADMINISTRATOR => 2.0 * p.step,
            ARTISAN => p.artisan,
            _ => 0.0,
        }
    }
}

pub fn payment_value(
    p: &Params,
    index: usize,
    card: &ObjectiveCard,
    pay: Option<Payment>,
    goods: &[i32; 4],
    coins: i32,
    good_value: f64,
) -> (f64, CardOutcome) {
    let out = settle(index, card, pay, goods, coins);
    let mut value = reward_value(p, out.vp, out.coins, out.bread, out.steps);
    value -= good_value * f64::from(out.paid_goods.iter().sum::<i32>())
        + p.coin * f64::from(out.paid_coins);
    value -= p.bread * f64::from(out.paid_bread);
    if let Some(pay) = pay {
        value += p.bread_for_cards * f64::from(pay.bread);
    }
    (value, out)
}

/// The best way to resolve a card: (value, payment or None if it fails, outcome);
/// of equal values, the one with more multiples, else the first.
#[allow(clippy::too_many_arguments)]
pub fn best_card_payment(
    p: &Params,
    index: usize,
    card: &ObjectiveCard,
    have: &[i32],
    goods: &[i32; 4],
    coins: i32,
    bread: i32,
    good_value: f64,
    scratch: &mut Vec<Payment>,
) -> (f64, Option<Payment>, CardOutcome) {
    scratch.clear();
    payment_options(card, have, goods, coins, bread, scratch);
    let mut best: Option<(f64, Payment, CardOutcome)> = None;
    for &pay in scratch.iter() {
        let (value, out) = payment_value(p, index, card, Some(pay), goods, coins, good_value);
        let better = match &best {
            None => true,
            Some((v, b, _)) => value > *v || (value == *v && pay.multiples() > b.multiples()),
        };
        if better {
            best = Some((value, pay, out));
        }
    }
    match best {
        Some((value, pay, out)) => (value, Some(pay), out),
        None => {
            let (value, out) = payment_value(p, index, card, None, goods, coins, good_value);
            (value, None, out)
        }
    }
}
