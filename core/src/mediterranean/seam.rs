//! The game behind the seam (`crate::games::Game`): the configuration (3-5 seats,
//! starting VP, checking mode), the invariants as `verify`, what a seat cannot know
//! drawn anew (`determinize`), and the outcome: each seat's points by source and a
//! unique rank (M8.2: the rulebook shares a tied victory; the seam's rank is made unique
//! by the earlier place in the final play order, and `shared_win` keeps the sharing).

use super::components::{Components, MAX_PLAYERS};
use super::state::{MedState, Pending, Status};
use super::{Action, Observation};
use crate::games::rows::{Own, SeatRow};
use crate::games::{ColumnType, Game, Outcome, SeatValue};
use crate::rng::{Generator, SeedSequence};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    pub players: usize,
    pub start_vp: [i32; MAX_PLAYERS],
    pub check: bool,
}

/// VP sources: the starting VP, the regions' temples' tiles, the gold temple's tiles,
/// the bonus tiles.
const SOURCES: [&str; 4] = ["start", "temples", "gold_temple", "bonus"];
const VP_COLUMNS: [&str; 4] = ["vp_start", "vp_temples", "vp_gold_temple", "vp_bonus"];
/// Its own columns of the seat row (`rows::Own`).
const OWN: Own = Own {
    vp: &VP_COLUMNS,
    before_place: &[("gold", ColumnType::Int), ("temple_points", ColumnType::Int),
                    ("delivered", ColumnType::Int), ("lost", ColumnType::Int),
                    ("extra_turns", ColumnType::Int), ("final_order", ColumnType::Int)],
    after_place: &[("shared_win", ColumnType::Bool)],
};

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    pub strategies: Vec<&'static str>,
    /// Per seat, `SOURCES` order.
    pub by: Vec<[i64; 4]>,
    pub gold: Vec<i64>,
    pub temple_points: Vec<i64>,
    pub delivered: Vec<i64>,
    pub lost: Vec<i64>,
    pub extras: Vec<i64>,
    /// Place in the final play order (0 first).
    pub order: Vec<usize>,
    pub rank: Vec<usize>,
    /// M8.2: the seats sharing the most VP (all win, the rulebook says).
    pub shared: Vec<bool>,
    pub tiebreak: bool,
}

impl Scores {
    pub fn of(state: &MedState, comps: &Components, strategies: &[&'static str]) -> Scores {
        let g = comps.tables().gold_temple() as u8;
        let n = state.n;
        let by: Vec<[i64; 4]> = state.seats.iter().enumerate().map(|(i, s)| {
            let temples = s.tiles.iter().filter(|t| t.0 != g).map(|t| i64::from(t.2)).sum();
            let gold = s.tiles.iter().filter(|t| t.0 == g).map(|t| i64::from(t.2)).sum();
            let bonus = s.bonus.iter().map(|&b| i64::from(b)).sum();
            [i64::from(state.start_vp[i]), temples, gold, bonus]
        }).collect();
        let total: Vec<i64> = by.iter().map(|b| b.iter().sum()).collect();
        let order: Vec<usize> = (0..n).map(|s| state.place_in_order(s)).collect();
        let mut seats: Vec<usize> = (0..n).collect();
        seats.sort_by_key(|&s| (std::cmp::Reverse(total[s]), order[s]));
        let mut rank = vec![0; n];
        for (place, &s) in seats.iter().enumerate() {
            rank[s] = place + 1;
        }
        let best = total[seats[0]];
        let shared: Vec<bool> = total.iter().map(|&v| v == best).collect();
        let tiebreak = shared.iter().filter(|&&x| x).count() > 1;
        Scores {
            strategies: strategies.to_vec(),
            by,
            gold: state.seats.iter().map(|s| i64::from(s.gold)).collect(),
            temple_points: state.seats.iter()
                .map(|s| s.temple.iter().map(|&p| i64::from(p)).sum()).collect(),
            delivered: state.delivered.iter().map(|&d| i64::from(d)).collect(),
            lost: state.lost.iter().map(|&d| i64::from(d)).collect(),
            extras: state.seats.iter().map(|s| i64::from(s.extras)).collect(),
            order, rank, shared, tiebreak,
        }
    }
}

impl Outcome for Scores {
    const BREAKDOWN: &'static [&'static str] = &SOURCES;

    /// The shared columns (`rows::Own`) around its own: the VP sources, then what a seat
    /// gathered and its place in the final play order (M8.2) before the place, whether it
    /// shares the victory (M8.2) after it.
    fn columns() -> Vec<(&'static str, ColumnType)> {
        OWN.columns()
    }

    fn seats(&self) -> usize {
        self.rank.len()
    }

    fn vp(&self, seat: usize) -> i64 {
        self.by[seat].iter().sum()
    }

    fn start_vp(&self, seat: usize) -> i64 {
        self.by[seat][0]
    }

    fn rank(&self, seat: usize) -> usize {
        self.rank[seat]
    }

    fn breakdown(&self, seat: usize) -> Vec<i64> {
        self.by[seat].to_vec()
    }

    fn row(&self, seat: usize, seed: i64, out: &mut Vec<SeatValue>) {
        let shared = SeatRow { seat, strategy: self.strategies[seat], start_vp: self.start_vp(seat),
                               final_vp: self.vp(seat), rank: self.rank[seat], seed,
                               players: self.rank.len(), tiebreak: self.tiebreak };
        shared.write(out, self.by[seat].iter().copied(),
                     [self.gold[seat].into(), self.temple_points[seat].into(),
                      self.delivered[seat].into(), self.lost[seat].into(),
                      self.extras[seat].into(), (self.order[seat] as i64).into()],
                     [self.shared[seat].into()]);
    }
}

impl Game for MedState {
    type Components = Components;
    type Config = GameConfig;
    type Action = Action;
    type Outcome = Scores;
    type Tables = ();
    type Observation = Observation;

    fn components(json: &str) -> Result<Components, String> {
        Components::from_json(json).map_err(|errors| errors.join("; "))
    }

    fn builtin_components() -> Option<String> {
        Some(Components::builtin().to_json())
    }

    fn config(players: usize, start_vp: &[i32], check: bool) -> Result<GameConfig, String> {
        if !(3..=MAX_PLAYERS).contains(&players) {
            return Err(format!("mediterranean: players must be 3, 4 or 5, got {players}"));
        }
        if start_vp.len() != players {
            return Err(format!("mediterranean: one start VP per seat ({players}), got {}",
                               start_vp.len()));
        }
        let mut vp = [0; MAX_PLAYERS];
        vp[..players].copy_from_slice(start_vp);
        Ok(GameConfig { players, start_vp: vp, check })
    }

    fn new(comps: &Components, config: &GameConfig, seed: SeedSequence)
        -> (MedState, Vec<Generator>) {
        let (mut state, streams) = MedState::new(comps, config.players, seed);
        state.start_vp = config.start_vp;
        state.check = config.check;
        (state, streams)
    }

    fn seats(&self) -> usize {
        self.n
    }

    fn current_seat(&self) -> Option<usize> {
        self.to_move()
    }

    fn decision(&self) -> &'static str {
        match self.pending {
            Pending::Choose { .. } => "contract",
            Pending::Turned { .. } => "turned-contract",
            Pending::Pick { .. } => "rowing-card",
            Pending::Sail { .. } => "sail",
            Pending::Extra { .. } => "extra-turn",
            Pending::ExtraPick { .. } => "extra-rowing-card",
            Pending::Over => "over",
        }
    }

    fn options(&self, comps: &Components, out: &mut Vec<Action>) {
        MedState::options(self, comps, out);
    }

    fn apply(&mut self, comps: &Components, action: Action) {
        MedState::apply(self, comps, action);
    }

    fn verify(&self, comps: &Components) -> Result<(), String> {
        if self.check { self.invariants(comps) } else { Ok(()) }
    }

    /// M5.1, M2.4: the decks' order and the face-down contracts of the row (their cards
    /// back with the decks), the others' face-down rowing cards (each back into its
    /// hand, one laid again), the bonus tiles' order and the engine's own stream.
    fn determinize(&mut self, _comps: &Components, seat: usize, rng: &mut Generator) {
        let hidden: Vec<usize> = (0..self.row.len()).filter(|&i| !self.row[i].face_up).collect();
        for (kind, deck) in [(0, &mut self.city_deck), (1, &mut self.goods_deck),
                             (2, &mut self.rowing_deck)] {
            let mut pool = std::mem::take(deck);
            for &i in &hidden {
                let o = &self.row[i];
                pool.push([o.city, o.goods, o.rowing][kind]);
            }
            let mut pool = super::state::shuffled(rng, pool);
            for &i in &hidden {
                let card = pool.pop().expect("the pool holds the row's cards");
                let o = &mut self.row[i];
                match kind {
                    0 => o.city = card,
                    1 => o.goods = card,
                    _ => o.rowing = card,
                }
            }
            *deck = pool;
        }
        let mut hands: Vec<Vec<u8>> = self.seats.iter_mut().map(|s| std::mem::take(&mut s.hand))
            .collect();
        self.picks.redraw_others(seat, &mut hands, rng);
        for (s, hand) in self.seats.iter_mut().zip(hands) {
            s.hand = hand;
        }
        let pile = std::mem::take(&mut self.bonus_pile);
        self.bonus_pile = super::state::shuffled(rng, pile);
        self.rng = Generator::new(&SeedSequence::new(u128::from(rng.integers(u64::MAX)), &[]));
    }

    fn observe(&self, comps: &Components, seat: usize) -> Observation {
        MedState::observe(self, comps, seat)
    }

    fn outcome(&self, comps: &Components, strategies: &[&'static str]) -> Scores {
        Scores::of(self, comps, strategies)
    }

    fn describe(&self, comps: &Components, action: &Action) -> String {
        MedState::describe(self, comps, action)
    }

    fn frame(&self, comps: &Components) -> serde_json::Value {
        MedState::frame(self, comps)
    }
}

impl MedState {
    /// Every invariant: coins, city, goods and rowing cards conserved; register columns
    /// as many as contract turns played; temple tokens never behind where they were.
    pub fn invariants(&self, comps: &Components) -> Result<(), String> {
        let t = comps.tables();
        let coins = self.bank + self.seats.iter().map(|s| s.gold).sum::<i32>()
            + self.row.iter().map(|o| i32::from(o.gold)).sum::<i32>();
        if coins != t.coins || self.bank < 0 || self.seats.iter().any(|s| s.gold < 0) {
            return Err(format!("coins: {coins} in play, the set has {} (supply {})", t.coins,
                               self.bank));
        }
        let held = |s: &super::state::Seat| s.register.iter()
            .filter(|c| matches!(c.status, Status::Open | Status::Lost)).count();
        let cities = self.city_deck.len() + self.city_discard.len() + self.row.len()
            + self.seats.iter().map(held).sum::<usize>();
        if cities != t.city_cards.len() {
            return Err(format!("city cards: {cities} in play, the set has {}",
                               t.city_cards.len()));
        }
        let goods = self.goods_deck.len() + self.goods_discard.len() + self.row.len()
            + self.seats.iter().map(held).sum::<usize>();
        if goods != t.goods_cards.len() {
            return Err(format!("goods cards: {goods} in play, the set has {}",
                               t.goods_cards.len()));
        }
        let rowing = self.rowing_deck.len() + self.rowing_discard.len() + self.row.len()
            + self.boxed.len() + self.picks.hidden_count()
            + self.seats.iter().map(|s| s.hand.len() + s.played.len()).sum::<usize>();
        let want = t.deck_rowing + self.n * t.individual;
        if rowing != want {
            return Err(format!("rowing cards: {rowing} in play, the set has {want}"));
        }
        if self.row.len() > self.n + 1 {
            return Err(format!("{} contracts on offer, at most {}", self.row.len(), self.n + 1));
        }
        let (start, limit) = (t.start_wind, t.wind_limit);
        if !(start - limit..=start + limit).contains(&self.wind) {
            return Err(format!("wind {} off the track", self.wind));
        }
        Ok(())
    }
}
