//! One shared value model: what an option is worth, in victory points (its weights per
//! profile: `strategies/profiles.toml`).
//!
//! Every scripted player uses this model; they differ only by their `Params` profile
//! and by a few plan rules in scripted.rs; the card plan (R8) is plan.rs. The floats must equal Python's bit for bit
//! (the players compare them, and ties go to the first option), so every expression
//! keeps Python's association (`a + b + c` is `(a + b) + c`, `value += a + b` adds the
//! sum), its int -> float conversion points, and its summing order.

use crate::carpe_diem::cards::{payment_options, settle, CardOutcome, Payment};
use crate::carpe_diem::components::{Components, ObjectiveCard, TileType, FOUNTAIN_CARDS};
use crate::carpe_diem::district::{
    cell_lines, have_index, Around, District, Lines, H_CHIMNEYS, H_DWELLINGS, H_LANDSCAPES,
    H_LANDSCAPES_3PLUS, H_VILLAS,
};
use crate::carpe_diem::kinds::{
    is_dwelling, is_landscape, landscape_good, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, MARKET,
    MERCHANT, N_KINDS, VILLA,
};
use crate::carpe_diem::players::{Params, PlayerView};

pub use crate::carpe_diem::players::plan::{
    card_gap, card_interest, card_plan, good_interest, reward_value, scoring_ahead, CardPlan,
    GAP_COST, STEP_REACH,
};

/// R6.5: the expected end VP of the fountain card a new fountain keeps: the better of 2
/// drawn from the fountain cards this player does not hold, each worth its VP per
/// complete feature of its goal expected at the end.
pub fn fountain_draw_value(view: &PlayerView, turns_left: i32) -> f64 {
    let me = view.me();
    let played = 28 - turns_left;
    // every evaluator (each decision, each rollout step) computes this: no allocation
    let mut buf = [0.0f64; FOUNTAIN_CARDS];
    let mut n = 0;
    for (index, card) in view.comps.fountains.iter().enumerate() {
        if me.fountain_cards.contains(index as u8) {
            continue;
        }
        let c = f64::from(me.district.complete_count[card.goal as usize]);
        buf[n] =
            f64::from(card.vp) * (c + f64::from(turns_left) * (c + 0.5) / f64::from(played + 7));
        n += 1;
    }
    if n < 2 {
        return 0.0;
    }
    let values = &mut buf[..n];
    values.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let mut total = 0.0;
    for (j, v) in values.iter().enumerate() {
        total += v * j as f64;
    }
    total / ((n * (n - 1)) as f64 / 2.0)
}

/// What the value model prices for one player at one moment, all but the tile and the
/// cell: a player may keep them while nothing they read changes (scripted.rs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prices {
    pub interest: [f64; 16],
    pub goods_bonus: f64,
    pub fountain_goal: [f64; N_KINDS],
    pub progress: f64,
    /// The card plan and the prices it sets: one more coin, bread, scroll step or good
    /// (by good) now, and a fountain (R6.5).
    pub plan: CardPlan,
    pub coin: f64,
    pub bread: f64,
    pub step: f64,
    pub good: [f64; 4],
    pub fountain: f64,
    /// Completing a dwelling of each colour now (merchant, baker, administrator, artisan).
    dwelling_worth: [f64; 4],
}

impl Prices {
    /// `grid_values`: (card_interest, good_interest), when the caller has them already
    /// (they change only when a scoring disc is placed).
    pub fn of(view: &PlayerView, p: &Params, grid_values: ([f64; 16], f64)) -> Prices {
        let (interest, goods_bonus) = grid_values;
        let me = view.me();
        let mut fountain_goal = [0.0; N_KINDS];
        for &f in me.fountain_cards.as_slice() {
            let card = &view.comps.fountains[f as usize];
            fountain_goal[card.goal as usize] += f64::from(card.vp) * p.fountain_card;
        }
        // incomplete features are worthless at the end: progress counts less late
        let turns_left = 7 * (3 - view.state.phase as i32) + (7 - view.state.round as i32);
        let progress = f64::min(1.0, f64::from(turns_left) / 10.0);
        let fountain = p.fountain * fountain_draw_value(view, turns_left);
        let plan = card_plan(view, p);
        // a resource is worth the profile's price or what the plan would buy with it
        let good = p.good + goods_bonus;
        let mut prices = Prices {
            interest,
            goods_bonus,
            fountain_goal,
            progress,
            plan,
            coin: f64::max(p.coin, plan.coin),
            bread: f64::max(p.bread, plan.bread),
            step: p.step + plan.step,
            good: [0, 1, 2, 3].map(|g| f64::max(good, plan.good[g])),
            fountain,
            dwelling_worth: [0.0; 4],
        };
        for (i, kind) in (MERCHANT..=ARTISAN).enumerate() {
            prices.dwelling_worth[i] = p.dwelling_complete + prices.dwelling_reward(p, kind, &me.goods);
        }
        prices
    }

    pub fn dwelling_reward(&self, p: &Params, kind: u8, goods: &[i32; 4]) -> f64 {
        let total = f64::from(goods.iter().sum::<i32>());
        match kind {
            MERCHANT => {
                let mut lost = 0.0;
                for (g, &n) in goods.iter().enumerate() {
                    lost += self.good[g] * f64::from(n);
                }
                self.coin * (total + 1.0) - lost
            }
            BAKER => 2.0 * self.bread,
            ADMINISTRATOR => 2.0 * self.step,
            ARTISAN => p.artisan,
            _ => 0.0,
        }
    }
}

/// Values placements for one player at one moment.
pub struct Evaluator<'a> {
    pub p: &'a Params,
    pub d: &'a District,
    comps: &'a Components,
    pub prices: Prices,
}

impl<'a> Evaluator<'a> {
    pub fn new(view: &PlayerView<'a>, p: &'a Params) -> Evaluator<'a> {
        Evaluator::with_grid(view, p, (card_interest(view, p), good_interest(view, p)))
    }

    /// `grid_values`: (card_interest, good_interest), when the caller has them already.
    pub fn with_grid(
        view: &PlayerView<'a>,
        p: &'a Params,
        grid_values: ([f64; 16], f64),
    ) -> Evaluator<'a> {
        Evaluator::with_prices(view, p, Prices::of(view, p, grid_values))
    }

    /// With the prices of this view and `p` already made (`Prices::of`).
    pub fn with_prices(view: &PlayerView<'a>, p: &'a Params, prices: Prices) -> Evaluator<'a> {
        Evaluator {
            p,
            d: &view.me().district,
            comps: view.comps,
            prices,
        }
    }

    /// What completing a feature of `kind` adds beyond its reward: fountain cards, grid
    /// cards and the card plan counting it, and the frame goals of its kind it would be
    /// the first to cross (`lines`: the rows and columns it touches).
    pub fn completion_bonus(&self, kind: u8, lines: Lines) -> f64 {
        let p = self.p;
        let index = if kind == VILLA {
            H_VILLAS
        } else {
            have_index(kind)
        };
        let mut bonus = self.prices.fountain_goal[kind as usize]
            + p.card_match * self.prices.interest[index]
            + self.prices.plan.have[index];
        for g in self.d.frame_goals() {
            if g.kind == kind
                && lines & g.line != 0
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
        let prices = &self.prices;
        let scroll = self.d.scrolls >> cell & 1 != 0;
        if ttype.building != 0 {
            return self.building(ttype.building, cell, scroll);
        }
        let progress = prices.progress;
        let open_edge = p.open_edge;
        let chimneys = f64::from(ttype.chimneys);
        let chimney_term = p.chimney * chimneys * progress;
        let card_term =
            (prices.interest[H_CHIMNEYS] * p.card_match + prices.plan.have[H_CHIMNEYS]) * chimneys;
        let credit = p.progress_credit * progress;
        let villa_credit = p.progress_credit * p.villa_complete;
        let plan_have = &prices.plan.have;
        let mut value = if scroll { prices.step } else { 0.0 };
        let here = cell_lines(cell);
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
                    value += self.completion_bonus(VILLA, here | near.lines);
                } else {
                    // a villa counts only complete: credit what it may become
                    value += villa_credit * f64::from(self.comps.villa_points(total)) * progress;
                }
            } else if is_landscape(k) {
                let good = prices.good[landscape_good(k)];
                if own_open + o == 0 {
                    value += self.completion_bonus(k, here | near.lines);
                    value += f64::from(s) * good + p.landscape_complete; // (tiles - 1) goods, R6.2
                    value += plan_have[H_LANDSCAPES]; // the card plan: landscape counts
                    if s >= 2 {
                        value += plan_have[H_LANDSCAPES_3PLUS];
                    }
                } else {
                    // one more tile would pay about this much
                    value += credit * (f64::from(1 + s) * good + p.landscape_complete);
                }
            } else if is_dwelling(k) {
                let reward = prices.dwelling_worth[(k - MERCHANT) as usize];
                if own_open + o == 0 {
                    value += reward + self.completion_bonus(k, here | near.lines);
                    value += plan_have[H_DWELLINGS];
                } else {
                    value += credit * reward;
                }
            }
        }
        value
    }

    /// A single building (market, bakery, fountain) on a cell: complete at once (R6.4).
    fn building(&self, b: u8, cell: usize, scroll: bool) -> f64 {
        let worth = match b {
            MARKET => self.prices.coin,
            BAKERY => self.prices.bread,
            _ => self.prices.fountain,
        };
        let mut value = if scroll { self.prices.step } else { 0.0 };
        value += worth;
        value + self.completion_bonus(b, cell_lines(cell))
    }

    /// The value of one tile type on each cell of `cells` (a bit per cell), into `out`.
    pub fn by_cell(&self, ttype: &TileType, mut cells: u64, out: &mut [f64; 36]) {
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            out[cell] = self.placement(ttype, cell);
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

/// The value model's worth of a depot: its best tile, built at its best cell or stored
/// (as the greedy profile's move).
pub fn depot_value(view: &PlayerView, ev: &Evaluator, space: usize) -> f64 {
    let mut best = 0.0;
    for (i, &t) in view.state.depots[space].as_slice().iter().enumerate() {
        let ttype = &view.comps.tile_types[t as usize];
        let mut cells = view.me().district.placement_cells(ttype);
        let mut value = ev.p.store;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            value = value.max(ev.placement(ttype, cell));
        }
        if i == 0 || value > best {
            best = value;
        }
    }
    best
}
