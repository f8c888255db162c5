//! Objective cards: how many multiples a player can fulfil and what they pay (R7,
//! R8.4-R8.6); mirrors `cdsim/games/carpe_diem/rules/cards.py`.
//!
//! A red ("pay") card is paid in goods, each good replaceable by a coin (R7.2); a
//! green ("have") card counts complete features (chimneys count in every villa).
//! On either, 3 bread fulfil one more multiple (R7.1). Paying goods before coins
//! is never worse for the player — a coin can stand in for any good later — so the
//! engine always pays that way; the player chooses how many multiples (R8.5).

use crate::carpe_diem::components::ObjectiveCard;

pub const FAILED_CARD_VP: i32 = -4; // R8.5
pub const BREAD_PER_MULTIPLE: i32 = 3; // R7.1
/// The most multiples a payment option pays by goods/coins, and the most it pays by
/// bread: every enumeration of options is bounded (at most 256 x 256 options), whatever
/// the component set lets a player hoard. Far above anything a game of the reconstructed
/// set reaches, so its games are the Python engine's.
pub const MAX_MULTIPLES: i32 = 255;

/// How a card is fulfilled: multiples by goods/coins (or by having), and by 3 bread each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Payment {
    pub paid: i32,
    pub bread: i32,
}

impl Payment {
    pub fn multiples(&self) -> i32 {
        self.paid + self.bread
    }
}

/// Green card: multiples the district already has (R8.4).
pub fn have_multiples(card: &ObjectiveCard, have: &[i32]) -> i32 {
    card.requires
        .iter()
        .map(|&(key, n)| have[key] / n)
        .min()
        .unwrap_or(0)
}

/// Coins a red card needs on top of the goods for this many multiples (saturating: a
/// need beyond i32 is more than anyone holds).
pub fn shortfall(card: &ObjectiveCard, goods: &[i32; 4], multiples: i32) -> i32 {
    card.requires
        .iter()
        .map(|&(key, n)| {
            multiples
                .saturating_mul(n)
                .saturating_sub(goods[key])
                .max(0)
        })
        .fold(0i32, i32::saturating_add)
}

/// Red card: the most multiples goods plus coins can pay (R7.2, R8.4).
pub fn max_paid_multiples(card: &ObjectiveCard, goods: &[i32; 4], coins: i32) -> i32 {
    let per: i64 = card.requires.iter().map(|&(_, n)| i64::from(n)).sum();
    let held: i64 = card
        .requires
        .iter()
        .map(|&(key, _)| i64::from(goods[key]))
        .sum::<i64>()
        + i64::from(coins);
    let bound = (held / per.max(1)).clamp(0, i64::from(MAX_MULTIPLES)) as i32;
    let mut k = 0;
    while k < bound && shortfall(card, goods, k + 1) <= coins {
        k += 1;
    }
    k
}

/// Every legal way to fulfil the card, appended to `out` in Python's order; nothing
/// when it cannot be fulfilled (R8.5: -4).
///
/// R8.5 [decision]: a player who can fulfil the card must take at least one multiple;
/// multiples from having are all taken; paid and bread multiples are the player's choice.
pub fn payment_options(
    card: &ObjectiveCard,
    have: &[i32],
    goods: &[i32; 4],
    coins: i32,
    bread: i32,
    out: &mut Vec<Payment>,
) {
    each_payment(card, have, goods, coins, bread, |p| out.push(p));
}

/// `payment_options`, handed one by one to `found` (no list in between).
pub fn each_payment(
    card: &ObjectiveCard,
    have: &[i32],
    goods: &[i32; 4],
    coins: i32,
    bread: i32,
    mut found: impl FnMut(Payment),
) {
    let bread_max = (bread / BREAD_PER_MULTIPLE).min(MAX_MULTIPLES);
    if card.pay {
        let top = max_paid_multiples(card, goods, coins);
        for k in 0..=top {
            for b in 0..=bread_max {
                if k + b > 0 {
                    found(Payment { paid: k, bread: b });
                }
            }
        }
        return;
    }
    let free = have_multiples(card, have);
    for b in 0..=bread_max {
        if free + b > 0 {
            found(Payment {
                paid: free,
                bread: b,
            });
        }
    }
}

/// The most multiples, spending bread only where goods and coins fall short (the
/// first of equals, as Python's `max`).
pub fn best_payment(options: &[Payment]) -> Option<Payment> {
    let mut best: Option<Payment> = None;
    for &o in options {
        match best {
            Some(b) if (o.multiples(), -o.bread) <= (b.multiples(), -b.bread) => {}
            _ => best = Some(o),
        }
    }
    best
}

/// What fulfilling (or failing) a card moves: paid goods/coins/bread, rewards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardOutcome {
    /// Index into `Components::objectives`.
    pub card: usize,
    pub multiples: i32,
    pub failed: bool,
    pub paid_goods: [i32; 4],
    pub paid_coins: i32,
    pub paid_bread: i32,
    pub vp: i32,
    pub coins: i32,
    pub bread: i32,
    pub steps: i32,
}

/// The outcome of a payment choice (None = the card fails, R8.5), without applying it.
pub fn settle(
    index: usize,
    card: &ObjectiveCard,
    payment: Option<Payment>,
    goods: &[i32; 4],
    coins: i32,
) -> CardOutcome {
    let Some(payment) = payment else {
        return CardOutcome {
            card: index,
            multiples: 0,
            failed: true,
            paid_goods: [0; 4],
            paid_coins: 0,
            paid_bread: 0,
            vp: FAILED_CARD_VP,
            coins: 0,
            bread: 0,
            steps: 0,
        };
    };
    let mut paid = [0; 4];
    let mut coins_paid = 0;
    if card.pay {
        for &(key, n) in &card.requires {
            let need = payment.paid.saturating_mul(n);
            let from_goods = need.min(goods[key]);
            paid[key] += from_goods;
            coins_paid = i32::saturating_add(coins_paid, need - from_goods);
        }
        assert!(
            coins_paid <= coins,
            "a payment option the player cannot pay"
        );
    }
    let m = payment.multiples();
    CardOutcome {
        card: index,
        multiples: m,
        failed: false,
        paid_goods: paid,
        paid_coins: coins_paid,
        paid_bread: payment.bread.saturating_mul(BREAD_PER_MULTIPLE),
        vp: card.vp.saturating_mul(m),
        coins: card.coins.saturating_mul(m),
        bread: card.bread.saturating_mul(m),
        steps: card.steps.saturating_mul(m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(pay: bool, requires: Vec<(usize, i32)>) -> ObjectiveCard {
        ObjectiveCard {
            id: "X".into(),
            deck: 'A',
            pay,
            requires,
            vp: 1000,
            coins: 9,
            bread: 0,
            steps: 0,
        }
    }

    #[test]
    fn payment_options_are_bounded_whatever_a_player_holds() {
        let most = ((MAX_MULTIPLES + 1) * (MAX_MULTIPLES + 1)) as usize;
        for pay in [true, false] {
            let c = card(pay, vec![(0, 1), (1, 99)]);
            let mut out = Vec::new();
            payment_options(
                &c,
                &[i32::MAX; 16],
                &[i32::MAX; 4],
                i32::MAX,
                i32::MAX,
                &mut out,
            );
            assert!(
                !out.is_empty() && out.len() <= most,
                "{} options",
                out.len()
            );
            for &o in out.iter().rev().take(50) {
                let done = settle(0, &c, Some(o), &[i32::MAX; 4], i32::MAX);
                assert!(done.vp > 0 && done.coins > 0 && done.paid_coins >= 0);
            }
        }
        let c = card(true, vec![(2, 3)]);
        assert_eq!(max_paid_multiples(&c, &[0, 0, 7, 0], 2), 3);
        assert_eq!(max_paid_multiples(&c, &[0; 4], i32::MAX), MAX_MULTIPLES);
    }
}
