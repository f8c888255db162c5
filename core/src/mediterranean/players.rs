//! Built-in players, each a `Strategy<MedState>`: random (the seam's `RandomPlayer`),
//! greedy (one ply: the gold and temple points an option brings, the miles it costs),
//! three scripted styles as weight profiles of the one `Scripted` player (gold-first,
//! temple-majority, long-haul: each a table of strategies/mediterranean-profiles.toml,
//! profiles.rs), and mcts (the seam's `UctPlayer`, greedy rollouts).
//! `make` makes them by name. They read the public state and their own hand only: never
//! another seat's face-down rowing card (it is private to `hidden.rs`) nor any VP total.

use super::actions::Action;
use super::components::Components;
use super::profiles::{profile, Weights};
use super::state::{MedState, Pending, Seat, Status, MAX_REGIONS, NONE};
use crate::players::{RandomPlayer, Strategy, UctParams, UctPlayer, View};
use crate::rng::Generator;

/// The scripted player: the option of highest one-ply value, ties broken by its stream.
#[derive(Clone, Debug)]
pub struct Scripted {
    pub name: &'static str,
    pub weights: Weights,
}

impl Scripted {
    /// greedy: the profiles file's `[defaults]` (mcts's rollouts).
    pub fn greedy() -> Scripted {
        scripted("greedy", &[]).expect("the profiles file has [greedy] (profiles::tests)")
            .expect("the profiles file's [greedy] builds (profiles::tests)")
    }
}

pub type Player = Box<dyn Strategy<MedState>>;

/// Every built-in player: random, the profiles file's tables in its order (greedy and the
/// styles; `scripted_players_are_the_profiles_files_tables`), mcts.
pub const PLAYER_NAMES: [&str; 6] =
    ["random", "greedy", "gold-first", "temple-majority", "long-haul", "mcts"];

/// The scripted player `name` as its table of the profiles file states it, with weights
/// overridden by name; `None` if the file has no such table.
fn scripted(name: &str, overrides: &[(String, f64)]) -> Option<Result<Scripted, String>> {
    let name = *PLAYER_NAMES.iter().find(|&&n| n == name)?;
    let weights = profile(name)?.and_then(|w| {
        w.with_overrides(overrides).map_err(|e| format!("mediterranean {name}: {e}"))
    });
    Some(weights.map(|weights| Scripted { name, weights }))
}

/// mcts's settings: UCT's 200 simulations, half the value the seat's share of all VP
/// gained (a round's scoring separates few seats by a whole win).
pub fn mcts_params() -> UctParams {
    UctParams { margin: 0.5, ..UctParams::default() }
}

/// A built-in player by name, with its settings overridden: mcts's search settings, a
/// scripted player's weights (profiles.rs's `FIELDS`); random takes none.
pub fn make(name: &str, overrides: &[(String, f64)]) -> Result<Player, String> {
    if name == "mcts" {
        let params = mcts_params().with_overrides(overrides)?;
        return Ok(Box::new(UctPlayer::with_rollout(params, Scripted::greedy())));
    }
    if name == "random" {
        if let Some((key, _)) = overrides.first() {
            return Err(format!("mediterranean {name}: takes no setting, got {key:?}"));
        }
        return Ok(Box::new(RandomPlayer));
    }
    match scripted(name, overrides) {
        Some(made) => made.map(|p| Box::new(p) as Player),
        None => Err(format!("mediterranean: unknown player {name:?} (known: {})",
                            PLAYER_NAMES.join(", "))),
    }
}

impl Strategy<MedState> for Scripted {
    fn name(&self) -> &'static str {
        self.name
    }

    fn choose(&mut self, view: &View<MedState>, options: &[Action], rng: &mut Generator)
        -> usize {
        let mut eval = Eval { state: view.state, comps: view.comps, seat: view.seat,
                              s: &view.state.seats[view.seat], w: &self.weights,
                              tp: [0.0; MAX_REGIONS], base_route: 0.0 };
        eval.prepare();
        let (mut best, mut best_value, mut ties) = (0, f32::NEG_INFINITY, 0u64);
        for (i, &a) in options.iter().enumerate() {
            let v = eval.value(a);
            if v > best_value + 1e-6 {
                (best, best_value, ties) = (i, v, 1);
            } else if (v - best_value).abs() <= 1e-6 {
                ties += 1;
                if rng.integers(ties) == 0 {
                    best = i;
                }
            }
        }
        best
    }
}

struct Eval<'a> {
    state: &'a MedState,
    comps: &'a Components,
    seat: usize,
    s: &'a Seat,
    w: &'a Weights,
    /// A temple point's worth, per region.
    tp: [f32; MAX_REGIONS],
    /// The route's miles before any new contract.
    base_route: f32,
}

impl Eval<'_> {
    fn prepare(&mut self) {
        for r in 0..self.comps.tables().regions() {
            self.tp[r] = self.temple_point(r);
        }
        if matches!(self.state.pending, Pending::Choose { .. } | Pending::Turned { .. }) {
            self.base_route = self.route(None);
        }
    }

    fn value(&self, a: Action) -> f32 {
        match a {
            Action::Take { offer, column } => self.take_value(offer as usize, column as usize),
            Action::Turn | Action::Refuse => self.unseen_value(),
            Action::Pick(card) => self.pick_value(card),
            Action::Sail { to, deliver, buy } => self.sail_value(to, deliver, buy),
            Action::Extra(yes) => self.extra_value(yes),
        }
    }

    fn dist(&self, a: u8, b: u8) -> f32 {
        f32::from(self.state.distance(self.comps.tables(), a, b))
    }

    /// A temple point in `region`, dearer where the seat leads or is close.
    fn temple_point(&self, region: usize) -> f32 {
        let mine = i32::from(self.s.temple[region]);
        let best = self.state.seats.iter().map(|s| i32::from(s.temple[region])).max()
            .unwrap_or(0);
        let close = 1.0 / (1.0 + (best - mine).max(0) as f32 / 3.0);
        self.w.temple * (1.0 + self.w.majority * close)
    }

    /// A contract's reward in coins.
    fn reward(&self, city_card: u8, goods: u8) -> f32 {
        let t = self.comps.tables();
        let face = t.city_cards[city_card as usize];
        let g = t.goods_cards[goods as usize] as usize;
        if face.gold[g] > 0 {
            f32::from(face.gold[g]) * self.w.gold
        } else {
            let region = t.region_of[face.city as usize] as usize;
            f32::from(face.temple[g]) * self.tp[region]
        }
    }

    /// The miles of the round's route through the register's cities in column order,
    /// with `extra` in `column` (the ship's start first).
    fn route(&self, extra: Option<(usize, u8)>) -> f32 {
        let t = self.comps.tables();
        let mut at = self.s.ship;
        let mut miles = 0.0;
        for c in 0..self.s.register.len() {
            let city = match extra {
                Some((col, city)) if col == c => city,
                _ if self.s.register[c].status == Status::Open => {
                    t.city_cards[self.s.register[c].city as usize].city
                }
                _ => continue,
            };
            miles += self.dist(at, city);
            at = city;
        }
        miles
    }

    fn take_value(&self, offer: usize, column: usize) -> f32 {
        let t = self.comps.tables();
        let o = self.state.row[offer];
        let city = t.city_cards[o.city as usize].city;
        let added = self.route(Some((column, city))) - self.base_route;
        self.reward(o.city, o.goods) + f32::from(o.gold) * self.w.gold
            + f32::from(t.rowing[o.rowing as usize].power) * self.w.power
            - added * self.w.miles + self.dist(t.start, city) * self.w.far
    }

    /// A contract not yet seen: the mean reward of the city cards, a middling card and
    /// route.
    fn unseen_value(&self) -> f32 {
        let t = self.comps.tables();
        let temple: f32 = t.mean_temple.iter().zip(&self.tp).map(|(m, v)| m * v).sum();
        t.mean_gold * self.w.gold + temple + t.mean_power * self.w.power - 6.0 * self.w.miles + 8.0 * self.w.far - 0.5
    }

    /// The next open contract's city, from the left.
    fn target(&self, after: usize) -> Option<u8> {
        let t = self.comps.tables();
        self.s.open().find(|&c| c > after || after == usize::MAX)
            .map(|c| t.city_cards[self.s.register[c].city as usize].city)
    }

    /// The card that just reaches the next contract (the wind as it stands), keeping the
    /// strong ones.
    fn pick_value(&self, card: u8) -> f32 {
        let t = self.comps.tables();
        let r = t.rowing[card as usize];
        let range = (i32::from(r.power) + i32::from(self.state.wind)).max(0) as f32;
        let keep = f32::from(r.power) * self.w.keep;
        match self.target(usize::MAX) {
            Some(city) => {
                let short = (self.dist(self.s.ship, city) - range).max(0.0);
                -short * self.w.gold - keep
            }
            None => -keep,
        }
    }

    fn sail_value(&self, to: u8, deliver: u8, buy: bool) -> f32 {
        let t = self.comps.tables();
        let range = self.state.range(self.comps, self.seat) as f32;
        let cost = (self.dist(self.s.ship, to) - range).max(0.0);
        let mut v = -cost * self.w.gold;
        let mut after = usize::MAX;
        if deliver != NONE {
            let c = deliver as usize;
            let col = self.s.register[c];
            v += self.reward(col.city, col.goods) + 1.0;
            for left in self.s.open().filter(|&l| l < c) {
                let l = self.s.register[left];
                v -= self.w.lose * self.reward(l.city, l.goods);
            }
            after = c;
            if buy {
                let region = t.region_of[to as usize] as usize;
                v += self.tp[region] - t.temple_price as f32 * self.w.gold;
            }
        }
        let next = if after == usize::MAX { self.target(usize::MAX) } else { self.target(after) };
        if let Some(city) = next {
            v -= self.dist(to, city) * self.w.position;
        }
        v
    }

    /// An extra turn when an open contract is within reach of the best card and the
    /// seat's coins, its reward less the coins the miles cost worth more than the card
    /// kept for a later round.
    fn extra_value(&self, yes: bool) -> f32 {
        if !yes {
            return 0.0;
        }
        let t = self.comps.tables();
        let best = self.s.hand.iter().map(|&c| t.rowing[c as usize].power).max().unwrap_or(0);
        let range = (i32::from(best) + i32::from(self.state.wind)).max(0) as f32;
        let later = f32::from(t.rounds - 1 - self.state.round) * self.w.extra_card;
        self.s.open().filter_map(|c| {
            let col = self.s.register[c];
            let city = t.city_cards[col.city as usize].city;
            let cost = (self.dist(self.s.ship, city) - range).max(0.0);
            (cost <= self.s.gold as f32)
                .then(|| self.reward(col.city, col.goods) + 1.0 - cost * self.w.gold)
        }).fold(f32::NEG_INFINITY, f32::max) - later
    }
}

/// Whether `state`'s pending decision is a face-down rowing card (M5.1).
pub fn hidden_choice(state: &MedState) -> bool {
    matches!(state.pending, Pending::Pick { .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mediterranean::profiles::names;

    #[test]
    fn scripted_players_are_the_profiles_files_tables() {
        let scripted: Vec<&str> = PLAYER_NAMES.iter().copied()
            .filter(|n| !matches!(*n, "random" | "mcts")).collect();
        assert_eq!(names(), scripted, "strategies/mediterranean-profiles.toml's tables");
        for name in scripted {
            assert_eq!(make(name, &[]).unwrap().name(), name);
        }
    }

    #[test]
    fn settings_are_weights_for_the_scripted_and_none_for_random() {
        let gold = [("gold".to_string(), 2.0)];
        assert_eq!(scripted("gold-first", &gold).unwrap().unwrap().weights.gold, 2.0);
        let err = make("long-haul", &[("colour".into(), 1.0)]).err().unwrap();
        assert!(err.starts_with("mediterranean long-haul: ") && err.contains("no weight"), "{err}");
        assert!(make("random", &gold).is_err());
        assert!(make("defaults", &[]).err().unwrap().contains("unknown player"));
    }
}
