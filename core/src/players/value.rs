//! One shared value model: what an option is worth, in victory points; mirrors
//! `strategies/value.py` expression for expression.
//!
//! Every scripted player uses this model; they differ only by their `Params` profile
//! and by a few plan rules in scripted.rs. The floats must equal Python's bit for bit
//! (the players compare them, and ties go to the first option), so every expression
//! keeps Python's association (`a + b + c` is `(a + b) + c`, `value += a + b` adds the
//! sum), its int -> float conversion points, and its summing order.

use crate::cards::{
    payment_options, settle, shortfall, CardOutcome, Payment, BREAD_PER_MULTIPLE, FAILED_CARD_VP,
};
use crate::components::{Components, ObjectiveCard, TileType, FOUNTAIN_CARDS};
use crate::district::{
    cell_lines, have_index, Around, District, Lines, H_CHIMNEYS, H_DWELLINGS, H_LANDSCAPES, H_LANDSCAPES_3PLUS,
    H_VILLAS,
};
use crate::kinds::{
    is_dwelling, is_landscape, landscape_good, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, MARKET,
    MERCHANT, N_KINDS, VILLA,
};
use crate::players::{Params, PlayerView};

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
                best = f64::max(best, card_reward_value(p, card) / f64::from(per) - p.good);
            }
        }
    }
    f64::max(best, 0.0) * 0.5
}

/// The card plan's price of one missing good, coin or feature, in VP.
pub const GAP_COST: f64 = 2.0;
/// The plan values scroll steps only when this few overtake a disc ahead.
pub const STEP_REACH: i32 = 3;

/// What the coming scoring phase (R8) asks of this player, as VP per unit.
///
/// `card_plan` fills it before a turn: `good`/`coin`/`bread`/`step` and `have` (per
/// HAVE_KEYS index) are the extra value of one more of each towards the cards the
/// player will likely get; `keep` is what losing one bread costs (cards that only bread
/// still fulfils).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CardPlan {
    pub good: [f64; 4],
    pub coin: f64,
    pub bread: f64,
    pub step: f64,
    pub keep: f64,
    pub have: [f64; 16],
}

/// R8.2: (players who take a circle before this one, the fewest steps that put this
/// disc ahead of one of them; 0 when none is ahead). A disc that lands on a shared space
/// goes on top (R5.4), so reaching a space is enough.
pub fn scoring_ahead(view: &PlayerView) -> (usize, i32) {
    let me = view.me();
    let (mut ahead, mut gap) = (0, 0);
    for (seat, q) in view.state.players[..view.state.n].iter().enumerate() {
        if seat != view.seat
            && (q.scroll > me.scroll || (q.scroll == me.scroll && q.stamp > me.stamp))
        {
            ahead += 1;
            let steps = (i32::from(q.scroll) - i32::from(me.scroll)).max(1);
            if gap == 0 || steps < gap {
                gap = steps;
            }
        }
    }
    (ahead, gap)
}

/// Goods/coins (red card) or features (green card) still missing for one multiple
/// without bread (R8.4); 0 = the card is fulfilled.
pub fn card_gap(card: &ObjectiveCard, goods: &[i32; 4], coins: i32, have: &[i32]) -> i32 {
    if card.pay {
        return (shortfall(card, goods, 1) - coins).max(0);
    }
    card.requires
        .iter()
        .map(|&(key, n)| (n - have[key]).max(0))
        .sum()
}

/// The card plan (R8): which circles are likely still free at this player's scoring
/// turn, what their cards still need, and what each unit of that is worth (value.py's
/// `card_plan` explains the model; the same floats in the same order here).
pub fn card_plan(view: &PlayerView, p: &Params) -> CardPlan {
    let mut plan = CardPlan::default();
    if p.plan <= 0.0 {
        return plan;
    }
    let state = view.state;
    let me = view.me();
    let failed = f64::from(FAILED_CARD_VP);
    let bread_per = f64::from(BREAD_PER_MULTIPLE);
    let mut worth = [0.0f64; 12];
    let mut gaps = [0i32; 12];
    let mut prospect = [0.0f64; 12];
    let circles = state.circles();
    for (i, &(a, b)) in circles.iter().enumerate() {
        if state.circle_owner[i] >= 0 {
            continue;
        }
        for slot in [a as usize, b as usize] {
            let id = state.grid[slot];
            if id == crate::game::NONE || worth[slot] != 0.0 {
                continue;
            }
            let card = &view.comps.objectives[id as usize];
            let w = card_reward_value(p, card);
            let g = card_gap(card, &me.goods, me.coins, &me.district.have);
            worth[slot] = w;
            gaps[slot] = g;
            prospect[slot] = if g == 0 {
                w
            } else if me.bread >= BREAD_PER_MULTIPLE {
                f64::max(failed, w - bread_per * p.bread)
            } else {
                f64::max(failed, w - GAP_COST * f64::from(g))
            };
        }
    }
    // free circles by prospect, best first; equals by circle index
    let mut ranked = [(0.0f64, 0usize); 17];
    let mut n = 0;
    for (i, &(a, b)) in circles.iter().enumerate() {
        if state.circle_owner[i] < 0 {
            ranked[n] = (prospect[a as usize] + prospect[b as usize], i);
            n += 1;
        }
    }
    if n == 0 {
        return plan;
    }
    let ranked = &mut ranked[..n];
    ranked.sort_by(|x, y| {
        y.0.partial_cmp(&x.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(x.1.cmp(&y.1))
    });
    let (ahead, gap) = scoring_ahead(view);
    let likely = &ranked[..(ahead + 1).min(n)];
    let weight = p.plan / likely.len() as f64;
    for &(_, i) in likely {
        // one circle's cards: a unit goes to one of them, so per circle the better use
        let mut good = [0.0f64; 4];
        let mut have = [0.0f64; 16];
        let (mut coin, mut bread, mut keep) = (0.0f64, 0.0f64, 0.0f64);
        let mut uncovered = 0;
        let (a, b) = circles[i];
        for slot in [a as usize, b as usize] {
            let g = gaps[slot];
            let card = &view.comps.objectives[state.grid[slot] as usize];
            let units: i32 = card.requires.iter().map(|&(_, n)| n).sum();
            // a unit buys a share of one more multiple; a missing one also saves the -4
            let mut per = worth[slot] / f64::from(units);
            if g != 0 {
                per -= failed / f64::from(g);
            }
            if card.pay {
                for &(key, _) in &card.requires {
                    good[key] = f64::max(good[key], per);
                }
                coin = f64::max(coin, per);
            } else {
                for &(key, _) in &card.requires {
                    have[key] = f64::max(have[key], per);
                }
            }
            if g == 0 {
                continue;
            }
            let save = worth[slot] - failed;
            uncovered += 1;
            if me.bread < BREAD_PER_MULTIPLE * uncovered {
                bread = f64::max(bread, save / bread_per);
            } else if me.bread - 1 < BREAD_PER_MULTIPLE * uncovered {
                keep = f64::max(keep, save);
            }
        }
        for (total, unit) in plan.good.iter_mut().zip(good) {
            *total += unit * weight;
        }
        for (total, unit) in plan.have.iter_mut().zip(have) {
            *total += unit * weight;
        }
        plan.coin += coin * weight;
        plan.bread += bread * weight;
        plan.keep += keep * weight;
    }
    if ahead > 0 && gap <= STEP_REACH {
        let now = likely.iter().fold(0.0, |s, t| s + t.0) / likely.len() as f64;
        let earlier = &likely[..ahead.min(likely.len())];
        let before = earlier.iter().fold(0.0, |s, t| s + t.0) / earlier.len() as f64;
        plan.step = (before - now) / f64::from(gap) * p.plan;
    }
    plan
}

/// R6.5: the expected end VP of the fountain card a new fountain keeps: the better of 2
/// drawn from the fountain cards this player does not hold, each worth its VP per
/// complete feature of its goal expected at the end (value.py's `fountain_draw_value`).
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
        let d = self.d;
        let scroll = d.scrolls >> cell & 1 != 0;
        if ttype.building != 0 {
            let b = ttype.building;
            let worth = match b {
                MARKET => self.prices.coin,
                BAKERY => self.prices.bread,
                _ => self.prices.fountain,
            };
            let mut value = if scroll { self.prices.step } else { 0.0 };
            value += worth;
            return value + self.completion_bonus(b, cell_lines(cell));
        }
        let progress = self.prices.progress;
        let open_edge = p.open_edge;
        let chimneys = f64::from(ttype.chimneys);
        let chimney_term = p.chimney * chimneys * progress;
        let card_term =
            (self.prices.interest[H_CHIMNEYS] * p.card_match + self.prices.plan.have[H_CHIMNEYS]) * chimneys;
        let credit = p.progress_credit * progress;
        let villa_credit = p.progress_credit * p.villa_complete;
        let plan_have = &self.prices.plan.have;
        let mut value = if scroll { self.prices.step } else { 0.0 };
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
                let good = self.prices.good[landscape_good(k)];
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
                let reward = self.prices.dwelling_worth[(k - MERCHANT) as usize];
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
