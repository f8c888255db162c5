//! The smallest game behind the seam: a test fixture for the code written over `Game`
//! (driver, batch, `random`, `uct`) and the shape a new game's module takes. Not
//! registered: no one studies it.
//!
//! Market: a face-down deck of numbered cards (the components) is shuffled; three lie face
//! up. In turn each seat takes one face-up card and scores its number; the gap is filled
//! from the deck. The game ends when no card is left face up. Most VP wins; on a tie the
//! later seat (it took last).

use serde_json::{json, Value};

use crate::games::rows::{Own, SeatRow};
use crate::games::{ColumnType, Game, Outcome, SeatValue, Use};
use crate::rng::{Generator, SeedSequence};

/// Face-up cards.
pub const MARKET: usize = 3;

/// The deck, as numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cards {
    pub cards: Vec<u8>,
}

impl Cards {
    /// 0 to 9, twice.
    pub fn standard() -> Cards {
        Cards { cards: (0..20).map(|i| i % 10).collect() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub start_vp: Vec<i32>,
    pub check: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Market {
    deck: Vec<u8>,
    pub face_up: Vec<u8>,
    /// VP gained in play, by seat.
    pub gained: Vec<i64>,
    /// The cards each seat took, in turn.
    pub taken: Vec<Vec<u8>>,
    start_vp: Vec<i32>,
    turn: usize,
    check: bool,
}

/// Each seat's VP and place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    pub strategies: Vec<&'static str>,
    pub start_vp: Vec<i64>,
    pub gained: Vec<i64>,
    pub rank: Vec<usize>,
    pub taken: Vec<Vec<u8>>,
}

impl Game for Market {
    type Components = Cards;
    type Config = Config;
    /// The face-up card taken.
    type Action = u8;
    type Outcome = Scores;
    type Tables = ();
    type Observation = Value;

    fn components(json: &str) -> Result<Cards, String> {
        let value: Value = serde_json::from_str(json).map_err(|e| format!("cards: {e}"))?;
        let cards = value["cards"].as_array().ok_or("cards: a list of numbers")?
            .iter().map(|c| c.as_u64().and_then(|c| u8::try_from(c).ok()))
            .collect::<Option<Vec<u8>>>().ok_or("cards: whole numbers 0-255")?;
        Ok(Cards { cards })
    }

    fn config(players: usize, start_vp: &[i32], check: bool) -> Result<Config, String> {
        if !(2..=4).contains(&players) || start_vp.len() != players {
            return Err("players must be 2-4, with one start VP per seat".into());
        }
        Ok(Config { start_vp: start_vp.to_vec(), check })
    }

    fn new(comps: &Cards, config: &Config, mut seed: SeedSequence) -> (Market, Vec<Generator>) {
        let n = config.start_vp.len();
        let seqs = seed.spawn(1 + n);
        let mut rng = Generator::new(&seqs[0]);
        let mut deck: Vec<u8> = rng.permutation(comps.cards.len()).iter()
            .map(|&i| comps.cards[i]).collect();
        let face_up = deck.split_off(deck.len().saturating_sub(MARKET));
        let state = Market { deck, face_up, gained: vec![0; n], taken: vec![Vec::new(); n],
                             start_vp: config.start_vp.clone(), turn: 0, check: config.check };
        (state, seqs[1..].iter().map(Generator::new).collect())
    }

    fn seats(&self) -> usize {
        self.gained.len()
    }

    fn current_seat(&self) -> Option<usize> {
        (!self.face_up.is_empty()).then_some(self.turn)
    }

    fn decision(&self) -> &'static str {
        "take"
    }

    fn options(&self, _comps: &Cards, out: &mut Vec<u8>) {
        out.clear();
        out.extend(0..self.face_up.len() as u8);
    }

    fn apply(&mut self, _comps: &Cards, action: u8) {
        let taken = self.face_up.swap_remove(action as usize);
        self.gained[self.turn] += i64::from(taken);
        self.taken[self.turn].push(taken);
        if let Some(card) = self.deck.pop() {
            self.face_up.push(card);
        }
        self.turn = (self.turn + 1) % self.seats();
    }

    fn verify(&self, comps: &Cards) -> Result<(), String> {
        let total = |cards: &[u8]| cards.iter().map(|&c| i64::from(c)).sum::<i64>();
        let held = total(&self.deck) + total(&self.face_up) + self.gained.iter().sum::<i64>();
        if self.check && held != total(&comps.cards) {
            return Err(format!("{held} points in play, the deck has {}", total(&comps.cards)));
        }
        Ok(())
    }

    fn determinize(&mut self, _comps: &Cards, _seat: usize, rng: &mut Generator) {
        self.deck.sort_unstable();
        let order = rng.permutation(self.deck.len());
        self.deck = order.iter().map(|&i| self.deck[i]).collect();
    }

    fn observe(&self, _comps: &Cards, seat: usize) -> Value {
        json!({"seat": seat, "face_up": self.face_up, "deck": self.deck.len(),
               "gained": self.gained})
    }

    fn outcome(&self, _comps: &Cards, strategies: &[&'static str]) -> Scores {
        let n = self.seats();
        let vp = |s: usize| i64::from(self.start_vp[s]) + self.gained[s];
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&s| (-vp(s), std::cmp::Reverse(s)));
        let mut rank = vec![0; n];
        for (place, &s) in order.iter().enumerate() {
            rank[s] = place + 1;
        }
        Scores { strategies: strategies.to_vec(), start_vp: self.start_vp.iter()
                 .map(|&v| i64::from(v)).collect(), gained: self.gained.clone(), rank,
                 taken: self.taken.clone() }
    }
}

impl Outcome for Scores {
    const BREAKDOWN: &'static [&'static str] = &["start", "cards"];

    /// The shared columns (`rows::Own`) around its own: only its VP sources.
    fn columns() -> Vec<(&'static str, ColumnType)> {
        Own { vp: &["vp_start", "vp_cards"], before_place: &[], after_place: &[] }.columns()
    }

    fn seats(&self) -> usize {
        self.rank.len()
    }

    fn vp(&self, seat: usize) -> i64 {
        self.start_vp[seat] + self.gained[seat]
    }

    fn start_vp(&self, seat: usize) -> i64 {
        self.start_vp[seat]
    }

    fn rank(&self, seat: usize) -> usize {
        self.rank[seat]
    }

    fn breakdown(&self, seat: usize) -> Vec<i64> {
        vec![self.start_vp[seat], self.gained[seat]]
    }

    /// The tie-break decided the winner where another seat has its VP.
    fn row(&self, seat: usize, seed: i64, out: &mut Vec<SeatValue>) {
        let winner = (0..self.seats()).find(|&s| self.rank[s] == 1).unwrap_or(0);
        let tiebreak = (0..self.seats()).any(|s| s != winner && self.vp(s) == self.vp(winner));
        SeatRow { seat, strategy: self.strategies[seat], start_vp: self.start_vp[seat],
                  final_vp: self.vp(seat), rank: self.rank[seat], seed, players: self.seats(),
                  tiebreak }
            .write(out, self.breakdown(seat), [], []);
    }

    /// Each card it took, by its number, as a change of the deck's cards would be judged.
    fn uses(&self, seat: usize, out: &mut Vec<Use>) {
        let mut counts = [0i64; 256];
        for &card in &self.taken[seat] {
            counts[usize::from(card)] += 1;
        }
        for (card, &count) in counts.iter().enumerate().filter(|(_, &c)| c > 0) {
            out.push(Use { kind: "cards", id: card.to_string(), count });
        }
    }
}
