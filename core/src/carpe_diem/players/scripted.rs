//! The scripted players: one shared value model (value.rs), profiles of its weights
//! stated as data in `strategies/profiles.toml` (profile.rs; a new player is a table).
//!
//! - greedy: the best immediate value under the default profile.
//! - villa: grows few large, high-chimney villas and completes them; favours chimney
//!   and villa cards (C) and villa frame goals.
//! - landscape: completes landscapes early for goods, turns them into coins with
//!   merchant dwellings, favours goods cards (A/B) and landscape cards (D).
//! - bread: collects bread (baker dwellings, bakeries), spends 1 bread on moves that
//!   reach a clearly better depot, and pays rich cards with sets of 3 bread.
//!
//! None reads victory-point totals (R2.7). Values are kept only while everything they
//! read is the same (carpe_diem/players/position.rs), so a player can be used on copied states
//! safely.

use crate::carpe_diem::cards::Payment;
use crate::carpe_diem::game::{Action, CircleChoice, GameState, Pending, SPACES};
use crate::carpe_diem::players::profile::Profile;
use crate::carpe_diem::players::position::{Position, PositionKey};
use crate::carpe_diem::players::value::{best_card_payment, card_interest, good_interest, Evaluator, Prices};
use crate::carpe_diem::players::{Params, PlayerView, Strategy};
use crate::rng::Generator;

/// R2.5: (reach shared with the placed pawns, minus the distance to the nearest one).
pub fn blind_start_key(view: &PlayerView, space: usize) -> (i32, i32) {
    let reach = [(space + 1) % SPACES, (space + SPACES - 1) % SPACES]; // R4.2
    let (mut overlap, mut nearest) = (0, SPACES as i32);
    for p in &view.state.players[..view.state.n] {
        if p.pawn >= 0 && p.seat as usize != view.seat {
            let pawn = p.pawn as usize;
            let theirs = [(pawn + 1) % SPACES, (pawn + SPACES - 1) % SPACES];
            overlap += reach.iter().filter(|r| theirs.contains(r)).count() as i32;
            let gap = (space as i32 - pawn as i32).abs();
            nearest = nearest.min(gap).min(SPACES as i32 - gap);
        }
    }
    (overlap, -nearest)
}

/// The shared decision logic of the four profiles.
#[derive(Clone, Debug)]
pub struct ScriptedPlayer {
    pub profile: Profile,
    pub params: Params,
    /// The values of the last position decided on, kept while it holds.
    position: Position,
    /// card_interest and good_interest, until the grid or a scoring disc changes.
    grid_key: Option<GridKey>,
    grid_values: ([f64; 16], f64),
    payments: Vec<Payment>,
}

/// What the grid values read: the component set (its address and digest), the cards and
/// the free circles.
#[derive(Clone, Debug, PartialEq, Eq)]
struct GridKey {
    comps: usize,
    digest: String,
    players: usize,
    grid: [u8; 12],
    owners: [i8; 17],
}

impl GridKey {
    fn holds(&self, view: &PlayerView) -> bool {
        let state = view.state;
        self.comps == view.comps as *const _ as usize
            && self.players == state.n
            && self.grid == state.grid
            && self.owners == state.circle_owner
            && self.digest == view.comps.digest
    }
}

/// The index of the first greatest value (Python's `max(options, key=...)`).
fn first_max(n: usize, mut value: impl FnMut(usize) -> f64) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for i in 0..n {
        let v = value(i);
        if i == 0 || v > best_value {
            best = i;
            best_value = v;
        }
    }
    best
}

impl ScriptedPlayer {
    /// The compiled-in greedy profile's player (the search players' cheap rules).
    pub fn greedy() -> ScriptedPlayer {
        let profile = Profile::greedy();
        let params = profile.params();
        ScriptedPlayer::new(profile, params)
    }

    pub fn new(profile: Profile, params: Params) -> ScriptedPlayer {
        ScriptedPlayer {
            profile,
            params,
            position: Position::default(),
            grid_key: None,
            grid_values: ([0.0; 16], 0.0),
            payments: Vec::new(),
        }
    }

    /// The evaluator of a decision: the grid values are kept while the grid is unchanged,
    /// the prices (and the placements' values) while the position is.
    fn evaluator<'a>(&mut self, view: &PlayerView<'a>, params: &'a Params) -> Evaluator<'a> {
        if !self.grid_key.as_ref().is_some_and(|k| k.holds(view)) {
            let state = view.state;
            self.grid_key = Some(GridKey {
                comps: view.comps as *const _ as usize,
                digest: view.comps.digest.clone(),
                players: state.n,
                grid: state.grid,
                owners: state.circle_owner,
            });
            self.grid_values = (card_interest(view, params), good_interest(view, params));
            self.position.forget(); // perhaps another component set at the same address
        }
        self.position.enter(PositionKey::of(view, params));
        let grid_values = self.grid_values;
        let prices = *self
            .position
            .prices
            .get_or_insert_with(|| Prices::of(view, params, grid_values));
        Evaluator::with_prices(view, params, prices)
    }

    fn depot_value(&mut self, view: &PlayerView, ev: &Evaluator, space: usize) -> f64 {
        let mut best = 0.0; // an empty depot
        for (i, &t) in view.state.depots[space].as_slice().iter().enumerate() {
            let value = self.position.best(ev, view.comps, t, self.params.store);
            if i == 0 || value > best {
                best = value;
            }
        }
        best
    }

    fn fountain_card_value(&self, view: &PlayerView, card: u8) -> f64 {
        let card = &view.comps.fountains[card as usize];
        let have = view.me().district.complete_count[card.goal as usize];
        let favoured = if self.profile.favours(card.goal) {
            1.5
        } else {
            0.5
        };
        f64::from(card.vp) * (f64::from(have) + favoured)
    }

    fn scoring_params(&self, view: &PlayerView) -> Params {
        scoring_params(&self.params, view.state)
    }
}

impl Strategy<GameState> for ScriptedPlayer {
    fn name(&self) -> &'static str {
        self.profile.name()
    }

    fn choose(&mut self, view: &PlayerView, options: &[Action], _: &mut Generator) -> usize {
        match view.state.pending {
            Pending::Start { .. } => blind_start(view, options),
            Pending::Move { .. } => self.choose_move(view, options),
            Pending::Take { .. } => self.choose_take(view, options),
            Pending::Seal { .. } => self.choose_seal(view, options),
            Pending::Fountain { .. } => self.choose_fountain(view, options),
            Pending::Circle { .. } => self.choose_circle(view, options),
            Pending::Payment { slot, .. } => self.choose_payment(view, slot, options),
            Pending::Over => 0,
        }
    }
}

/// R2.5: the pawn is placed blind (no tile is dealt yet), so the only thing to go by is
/// the other pawns: start where the two spaces within reach are shared with the fewest
/// earlier pawns' reach, then as far from them as possible; the lowest space of equals.
fn blind_start(view: &PlayerView, options: &[Action]) -> usize {
    let mut best = 0;
    let mut best_key = (i32::MAX, i32::MAX);
    for (i, o) in options.iter().enumerate() {
        let Action::Start(space) = *o else { unreachable!("a start offers spaces") };
        let key = blind_start_key(view, space as usize);
        if key < best_key {
            best = i;
            best_key = key;
        }
    }
    best
}

/// The decisions, one helper each (the options are all of the decision's kind).
impl ScriptedPlayer {
    fn choose_move(&mut self, view: &PlayerView, options: &[Action]) -> usize {
        let params = self.params;
        let ev = self.evaluator(view, &params);
        // a bread move spends a bread the card plan may need (R4.4, R7.1)
        let cost = params.bread_move_cost + ev.prices.plan.bread + ev.prices.plan.keep;
        let mut depots = [f64::NAN; SPACES]; // a space is offered with and without bread
        first_max(options.len(), |i| {
            let Action::Move(m) = options[i] else { unreachable!("a move offers moves") };
            let dest = m.dest as usize;
            if depots[dest].is_nan() {
                depots[dest] = self.depot_value(view, &ev, dest);
            }
            let v = depots[dest];
            if m.bread {
                v - cost
            } else {
                v
            }
        })
    }

    /// The best option (the first of equals, as max() would pick).
    fn choose_take(&mut self, view: &PlayerView, options: &[Action]) -> usize {
        let params = self.params;
        let ev = self.evaluator(view, &params);
        first_max(options.len(), |i| {
            let Action::Take(o) = options[i] else { unreachable!("a take offers takes") };
            if o.stores() {
                return params.store;
            }
            self.position.placement(&ev, view.comps, o.tile_type, o.cell as usize)
        })
    }

    fn choose_seal(&mut self, view: &PlayerView, options: &[Action]) -> usize {
        let params = self.params;
        let ev = self.evaluator(view, &params);
        first_max(options.len(), |i| {
            let Action::Seal(o) = options[i] else { unreachable!("a seal offers seal tiles") };
            self.position.placement(&ev, view.comps, o.tile_type, o.cell as usize)
        })
    }

    fn choose_fountain(&mut self, view: &PlayerView, options: &[Action]) -> usize {
        let kept = view.me().fountain_cards;
        first_max(options.len(), |i| {
            let Action::Fountain(o) = options[i] else { unreachable!("a fountain offers cards") };
            let mut value = 0.0;
            for &c in o.keep() {
                value += self.fountain_card_value(view, c);
            }
            if let Some(back) = o.give_back {
                if kept.contains(back) {
                    value -= self.fountain_card_value(view, back);
                }
            }
            value
        })
    }

    fn choose_circle(&mut self, view: &PlayerView, options: &[Action]) -> usize {
        let p = self.scoring_params(view);
        // (cards it fails, value): never -4 when another circle avoids it (R8.5); the
        // first of equals
        let (mut best, mut best_key) = (0, (i32::MAX, f64::NEG_INFINITY));
        for (i, o) in options.iter().enumerate() {
            let Action::Circle(o) = *o else { unreachable!("a circle offers circles") };
            let key = circle_outcome(view, &p, o, &mut self.payments);
            if i == 0 || key.0 < best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                best = i;
                best_key = key;
            }
        }
        best
    }

    /// R8.4: the card on `slot` paid the best way the value model knows.
    fn choose_payment(&mut self, view: &PlayerView, slot: u8, options: &[Action]) -> usize {
        let p = self.scoring_params(view);
        let me = view.me();
        let index = view.state.grid[slot as usize] as usize;
        let (_, best, _) = best_card_payment(
            &p,
            index,
            &view.comps.objectives[index],
            &me.district.have,
            &me.goods,
            me.coins,
            me.bread,
            p.good,
            &mut self.payments,
        );
        best.and_then(|b| options.iter().position(|&o| o == Action::Payment(b)))
            .unwrap_or(0)
    }
}

/// After the last scoring phase resources are only leftovers (the scripted players and
/// the search player's cheap rules).
pub(crate) fn scoring_params(p: &Params, state: &GameState) -> Params {
    if state.phase == 3 {
        return Params {
            good: 0.5,
            coin: 0.5,
            bread: 0.5,
            step: 1.0,
            ..*p
        };
    }
    *p
}

/// R8.3-R8.6: (cards that fail, value) of both cards of a circle resolved in order at
/// their best payments (also the search player's candidate order).
pub(crate) fn circle_outcome(
    view: &PlayerView,
    p: &Params,
    o: CircleChoice,
    scratch: &mut Vec<Payment>,
) -> (i32, f64) {
    let me = view.me();
    let (mut goods, mut coins, mut bread) = (me.goods, me.coins, me.bread);
    let mut total = 0.0;
    let mut failed = 0;
    for slot in [o.first, o.second] {
        let index = view.state.grid[slot as usize] as usize;
        let card = &view.comps.objectives[index];
        let (v, _, out) = best_card_payment(
            p,
            index,
            card,
            &me.district.have,
            &goods,
            coins,
            bread,
            p.good,
            scratch,
        );
        for (g, paid) in goods.iter_mut().zip(out.paid_goods) {
            *g -= paid;
        }
        coins += out.coins - out.paid_coins;
        bread += out.bread - out.paid_bread;
        total += v;
        failed += i32::from(out.failed);
    }
    (failed, total)
}
