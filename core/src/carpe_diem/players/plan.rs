//! The card plan (R8): what the coming scoring phase asks of a player, as the shared
//! value model prices it (value.rs): the grid cards' interest, the circles likely
//! still free at the player's scoring turn, and what one more good, coin, bread, step
//! or feature is worth towards their cards.

use crate::carpe_diem::cards::{shortfall, BREAD_PER_MULTIPLE, FAILED_CARD_VP};
use crate::carpe_diem::components::ObjectiveCard;
use crate::carpe_diem::game::GRID_SLOTS;
use crate::carpe_diem::players::{Params, PlayerView};

pub fn reward_value(p: &Params, vp: i32, coins: i32, bread: i32, steps: i32) -> f64 {
    f64::from(vp)
        + p.coin * f64::from(coins)
        + p.bread * f64::from(bread)
        + p.step * f64::from(steps)
}

pub(crate) fn card_reward_value(p: &Params, card: &ObjectiveCard) -> f64 {
    reward_value(p, card.vp, card.coins, card.bread, card.steps)
}

/// VP-equivalent per unit of each have-key, over grid cards next to a free circle
/// (slots ascending: a fixed float summing order).
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
        if open_slots >> slot & 1 == 0 || state.grid[slot] == crate::carpe_diem::game::NONE {
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
            if id == crate::carpe_diem::game::NONE {
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
/// turn, what their cards still need, and what each unit of that is worth.
pub fn card_plan(view: &PlayerView, p: &Params) -> CardPlan {
    let mut plan = CardPlan::default();
    if p.plan <= 0.0 {
        return plan;
    }
    let state = view.state;
    let slots = slot_prospects(view, p);
    // free circles by prospect, best first; equals by circle index
    let circles = state.circles();
    let mut ranked = [(0.0f64, 0usize); 17];
    let mut n = 0;
    for (i, &(a, b)) in circles.iter().enumerate() {
        if state.circle_owner[i] < 0 {
            ranked[n] = (slots.prospect[a as usize] + slots.prospect[b as usize], i);
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
        plan_circle(&mut plan, view, &slots, circles[i], weight);
    }
    if ahead > 0 && gap <= STEP_REACH {
        let now = likely.iter().fold(0.0, |s, t| s + t.0) / likely.len() as f64;
        let earlier = &likely[..ahead.min(likely.len())];
        let before = earlier.iter().fold(0.0, |s, t| s + t.0) / earlier.len() as f64;
        plan.step = (before - now) / f64::from(gap) * p.plan;
    }
    plan
}

/// Per grid slot on a free circle: the card's worth, what it still misses (`card_gap`)
/// and its prospect (its worth, or what bread or the missing units cost, at worst -4).
struct SlotProspects {
    worth: [f64; GRID_SLOTS],
    gaps: [i32; GRID_SLOTS],
    prospect: [f64; GRID_SLOTS],
}

fn slot_prospects(view: &PlayerView, p: &Params) -> SlotProspects {
    let (state, me) = (view.state, view.me());
    let failed = f64::from(FAILED_CARD_VP);
    let bread_per = f64::from(BREAD_PER_MULTIPLE);
    let mut out = SlotProspects {
        worth: [0.0; GRID_SLOTS],
        gaps: [0; GRID_SLOTS],
        prospect: [0.0; GRID_SLOTS],
    };
    for (i, &(a, b)) in state.circles().iter().enumerate() {
        if state.circle_owner[i] >= 0 {
            continue;
        }
        for slot in [a as usize, b as usize] {
            let id = state.grid[slot];
            if id == crate::carpe_diem::game::NONE || out.worth[slot] != 0.0 {
                continue;
            }
            let card = &view.comps.objectives[id as usize];
            let w = card_reward_value(p, card);
            let g = card_gap(card, &me.goods, me.coins, &me.district.have);
            out.worth[slot] = w;
            out.gaps[slot] = g;
            out.prospect[slot] = if g == 0 {
                w
            } else if me.bread >= BREAD_PER_MULTIPLE {
                f64::max(failed, w - bread_per * p.bread)
            } else {
                f64::max(failed, w - GAP_COST * f64::from(g))
            };
        }
    }
    out
}

/// Add one likely circle's cards to the plan, `weight` each unit: a unit goes to one of
/// them, so per circle the better use.
fn plan_circle(
    plan: &mut CardPlan,
    view: &PlayerView,
    slots: &SlotProspects,
    (a, b): (u8, u8),
    weight: f64,
) {
    let me = view.me();
    let failed = f64::from(FAILED_CARD_VP);
    let bread_per = f64::from(BREAD_PER_MULTIPLE);
    let mut good = [0.0f64; 4];
    let mut have = [0.0f64; 16];
    let (mut coin, mut bread, mut keep) = (0.0f64, 0.0f64, 0.0f64);
    let mut uncovered = 0;
    for slot in [a as usize, b as usize] {
        let g = slots.gaps[slot];
        let card = &view.comps.objectives[view.state.grid[slot] as usize];
        let units: i32 = card.requires.iter().map(|&(_, n)| n).sum();
        // a unit buys a share of one more multiple; a missing one also saves the -4
        let mut per = slots.worth[slot] / f64::from(units);
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
        let save = slots.worth[slot] - failed;
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
