//! Luck measured as a game is played (AIVAT, Burch et al. 2018): at every step that
//! reveals chance (the set-up deal, a phase's deal of tiles, a fountain draw, R2-R3,
//! R6.5) each seat's luck is how much its chance to win moved, against what the same
//! step would have done on average: V(after the step) less the mean of V after the same
//! step on `copies` copies whose hidden order was drawn anew. Every term has mean zero
//! given the game so far, so `won - luck` has the mean of `won`, for any V fixed before
//! the games, and a smaller variance when V predicts the winner.
//!
//! - The game is the driver's (`play::play_game`): the same players ask with the same
//!   streams and see the same state, so the decisions and the record are the same. The
//!   copies are shuffled from a stream of their own and the game's is never drawn from.
//! - Hidden from every seat: the order of the light and dark tile decks (every tile left
//!   in them is unseen) and of the fountain cards never drawn (a card put back goes under
//!   the deck where the seat that put it there knows it is: it keeps its place, R6.5).
//!   The set-up is a chance step of its own: its baseline is `copies` fresh set-ups.
//! - V is a win predictor made from an evaluation of positions (`players::evaluate`; the binding
//!   gives learned weights, scripts/luck.py the greedy-playout ones): each seat's expected
//!   final VP (its starting VP plus the model's value, VP gained and still to gain), and
//!   a seat's chance is the softmax of `beta` times those (at 2 players, a logistic of
//!   the margin). A fountain draw is valued after the drawing seat keeps the card the
//!   model likes best for it, since the model does not read the cards waiting to be
//!   chosen. With `lookahead` a position is valued after the rest of its phase is played
//!   out by the greedy profile instead (a V that sees a deal before the seats act on it;
//!   measured worse, docs/statistics.md).


use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{Action, GameConfig, GameState, List, Options, Pending, MAX_PLAYERS};
use crate::play::ask;
use crate::carpe_diem::players::evaluate::Evaluate;
use crate::carpe_diem::players::{make, play_on, Player};
use crate::carpe_diem::records::GameRecord;
use crate::rng::{Generator, SeedSequence};
use crate::carpe_diem::scoring;

/// The kinds of chance step, in the order the luck columns list them.
pub const KINDS: [&str; 3] = ["setup", "deal", "fountain"];
const SETUP: usize = 0;
const DEAL: usize = 1;
const FOUNTAIN: usize = 2;

/// What a measurement uses: the copies per chance step and the win predictor's scales.
pub struct Measure {
    /// Copies of each chance step whose mean is the baseline (>= 1).
    pub copies: usize,
    /// The softmax scales (per VP) luck is measured for, each on its own.
    pub betas: Vec<f64>,
    /// Value a position after the rest of its phase is played out by the greedy profile
    /// (on a copy whose hidden order is drawn anew), so a deal's luck shows before the
    /// seats act on it; otherwise value it as it is.
    pub lookahead: bool,
    /// What the win predictor values positions by (the binding gives the learned weights).
    pub evaluation: Box<dyn Evaluate>,
}

/// One game measured: its record and each seat's luck.
pub struct GameLuck {
    pub record: GameRecord,
    /// Luck by `[seat][beta][kind]` (seats of the game, `Measure::betas`, `KINDS`).
    pub luck: Vec<f64>,
    /// Chance steps with a luck term (the set-up included).
    pub chance_steps: u32,
    /// Positions the predictor valued (the cost: each is one model value per seat).
    pub valuations: u32,
}

/// The win predictor: the model's values turned into each seat's chance to win.
struct Predictor<'a> {
    comps: &'a Components,
    measure: &'a Measure,
    evaluation: Box<dyn Evaluate>,
    buf: Options,
    valuations: u32,
    /// The greedy profile in every seat, its streams, and the draws of the lookahead's
    /// hidden order (`Measure::lookahead`).
    greedy: Vec<Player>,
    streams: Vec<Generator>,
    rng: Generator,
    /// Fountain cards seen before the step valued.
    seen: u32,
}

impl<'a> Predictor<'a> {
    fn new(comps: &'a Components, measure: &'a Measure, n: usize, seed: &SeedSequence)
        -> Self {
        let greedy = (0..n).map(|_| make("greedy", &[]).expect("a built-in")).collect();
        let idle = Generator::new(&SeedSequence::new(0, &[]));
        Predictor { comps, measure, evaluation: measure.evaluation.fresh(),
                    buf: Options::default(), valuations: 0, greedy,
                    streams: vec![idle; n], rng: Generator::new(seed), seen: 0 }
    }

    /// Each seat's expected final VP, after the rest of the phase played out.
    fn looked_ahead_vp(&mut self, state: &GameState) -> [f64; MAX_PLAYERS] {
        let mut copy = state.clone();
        reshuffle(&mut copy, self.seen, &mut self.rng);
        let phase = copy.phase;
        let mut buf = std::mem::take(&mut self.buf);
        play_on(&mut copy, self.comps, &mut self.greedy, &mut self.streams, &mut buf,
                |s| s.phase == phase);
        self.buf = buf;
        self.final_vp(&copy)
    }

    /// Each seat's expected final VP: its starting VP plus the model's value.
    fn final_vp(&mut self, state: &GameState) -> [f64; MAX_PLAYERS] {
        self.valuations += 1;
        let mut out = [0.0; MAX_PLAYERS];
        for (seat, vp) in out.iter_mut().enumerate().take(state.n) {
            let value = self.evaluation.value(state, self.comps, seat);
            *vp = f64::from(state.players[seat].start_vp) + value;
        }
        out
    }

    /// `final_vp`, with drawn fountain cards waiting: after the drawing seat's choice
    /// the model values most for it (the cards drawn are the luck of the draw).
    fn resolved_vp(&mut self, state: &GameState) -> [f64; MAX_PLAYERS] {
        if self.measure.lookahead {
            return self.looked_ahead_vp(state);
        }
        let Pending::Fountain { seat, .. } = state.pending else {
            return self.final_vp(state);
        };
        let mut options = std::mem::take(&mut self.buf);
        state.options(self.comps, &mut options);
        let mut best: Option<[f64; MAX_PLAYERS]> = None;
        for &option in options.iter() {
            let mut copy = state.clone();
            copy.apply(self.comps, option);
            let vp = self.final_vp(&copy);
            if best.is_none_or(|b| vp[seat as usize] > b[seat as usize]) {
                best = Some(vp);
            }
        }
        self.buf = options;
        best.unwrap_or_else(|| self.final_vp(state))
    }

    /// Each seat's chance to win by each beta, added into `out` (`[beta][seat]`).
    fn add_chances(&mut self, state: &GameState, out: &mut [f64]) {
        let vp = self.resolved_vp(state);
        let n = state.n;
        let top = vp[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for (b, &beta) in self.measure.betas.iter().enumerate() {
            let weights: Vec<f64> = vp[..n].iter().map(|v| (beta * (v - top)).exp()).collect();
            let total: f64 = weights.iter().sum();
            for (seat, w) in weights.iter().enumerate() {
                out[b * n + seat] += w / total;
            }
        }
    }
}

/// Fountain cards some seat has seen (drawn), as a mask of card indices.
fn mark_drawn(state: &GameState, seen: &mut u32) {
    if let Pending::Fountain { drawn, n, .. } = state.pending {
        for &card in &drawn[..n as usize] {
            *seen |= 1 << card;
        }
    }
}

/// Cards of each hidden order still to come: light tiles, dark tiles, unseen fountain
/// cards. A step that lowers one of them revealed chance.
fn hidden(state: &GameState, seen: u32) -> [usize; 3] {
    let unseen = state.fountain_deck.as_slice().iter().filter(|&&c| seen >> c & 1 == 0).count();
    [state.light_deck.len(), state.dark_deck.len(), unseen]
}

/// What nobody has seen drawn anew from `rng`: both tile decks, and the fountain cards
/// never drawn among their own places (the cards put back stay where they are).
fn reshuffle(state: &mut GameState, seen: u32, rng: &mut Generator) {
    state.light_deck.shuffle(rng);
    state.dark_deck.shuffle(rng);
    let deck = state.fountain_deck.as_slice();
    let places: Vec<usize> = (0..deck.len()).filter(|&i| seen >> deck[i] & 1 == 0).collect();
    let cards: Vec<u8> = places.iter().map(|&i| deck[i]).collect();
    let mut unseen: List<24> = List::from_slice(&cards);
    unseen.shuffle(rng);
    let mut cards = [0u8; 24];
    cards[..deck.len()].copy_from_slice(deck);
    for (&place, &card) in places.iter().zip(unseen.as_slice()) {
        cards[place] = card;
    }
    state.fountain_deck = List::from_slice(&cards[..deck.len()]);
}

/// One game's luck, as it is played.
struct Ledger<'a> {
    predictor: Predictor<'a>,
    rng: Generator,
    luck: Vec<f64>,
    chance_steps: u32,
    n: usize,
}

impl Ledger<'_> {
    /// Credit `actual - baseline / copies` (both `[beta][seat]`) to `kind`.
    fn credit(&mut self, kind: usize, actual: &[f64], baseline: &[f64]) {
        let copies = self.predictor.measure.copies as f64;
        let betas = self.predictor.measure.betas.len();
        for (i, (a, b)) in actual.iter().zip(baseline).enumerate() {
            let (beta, seat) = (i / self.n, i % self.n);
            self.luck[(seat * betas + beta) * KINDS.len() + kind] += a - b / copies;
        }
        self.chance_steps += 1;
    }

    /// The set-up's luck: this deal against fresh ones.
    fn setup(&mut self, state: &GameState, config: &GameConfig) {
        let width = self.predictor.measure.betas.len() * self.n;
        let (mut actual, mut baseline) = (vec![0.0; width], vec![0.0; width]);
        self.predictor.add_chances(state, &mut actual);
        for _ in 0..self.predictor.measure.copies {
            let entropy = u128::from(self.rng.integers(1 << 62));
            let (fresh, _) = GameState::new(self.predictor.comps, config,
                                            SeedSequence::new(entropy, &[]));
            self.predictor.add_chances(&fresh, &mut baseline);
        }
        self.credit(SETUP, &actual, &baseline);
    }

    /// A step's luck: `after` (the game's) against `action` applied to copies of
    /// `before` whose hidden order was drawn anew.
    fn step(&mut self, kind: usize, before: &GameState, seen: u32, action: Action,
            after: &GameState) {
        let width = self.predictor.measure.betas.len() * self.n;
        let (mut actual, mut baseline) = (vec![0.0; width], vec![0.0; width]);
        self.predictor.add_chances(after, &mut actual);
        for _ in 0..self.predictor.measure.copies {
            let mut copy = before.clone();
            reshuffle(&mut copy, seen, &mut self.rng);
            copy.apply(self.predictor.comps, action);
            self.predictor.add_chances(&copy, &mut baseline);
        }
        self.credit(kind, &actual, &baseline);
    }
}

/// Play one game as `play::play_game` does (the same record) and measure its luck;
/// `luck_seed` draws the copies.
pub fn measure_game(
    comps: &Components,
    config: &GameConfig,
    lineup: &mut [Player],
    seed: SeedSequence,
    luck_seed: &SeedSequence,
    measure: &Measure,
) -> GameLuck {
    assert_eq!(lineup.len(), config.players, "one player per seat");
    assert!(measure.copies >= 1, "at least one copy per chance step");
    let n = config.players;
    let (mut state, mut rngs) = GameState::new(comps, config, seed);
    let mut ledger = Ledger {
        predictor: Predictor::new(comps, measure, n, &luck_seed.clone().spawn(1)[0]),
        rng: Generator::new(luck_seed),
        luck: vec![0.0; measure.betas.len() * n * KINDS.len()],
        chance_steps: 0,
        n,
    };
    ledger.setup(&state, config);
    let (mut buf, mut seen) = (Options::new(), 0u32);
    while let Some(seat) = state.pending.seat() {
        state.options(comps, &mut buf);
        let i = ask(&state, comps, &mut lineup[seat], &mut rngs[seat], &buf);
        let before = state.clone();
        state.apply(comps, buf[i]);
        let (was, is) = (hidden(&before, seen), hidden(&state, seen));
        let kind = if was[..2] != is[..2] {
            Some(DEAL)
        } else if was[2] != is[2] {
            Some(FOUNTAIN)
        } else {
            None
        };
        if let Some(kind) = kind {
            ledger.predictor.seen = seen;
            ledger.step(kind, &before, seen, buf[i], &state);
        }
        mark_drawn(&state, &mut seen);
    }
    let names: Vec<&'static str> = lineup.iter().map(Player::name).collect();
    GameLuck {
        record: scoring::final_scoring(&state, comps, &names),
        luck: ledger.luck,
        chance_steps: ledger.chance_steps,
        valuations: ledger.predictor.valuations,
    }
}

/// Games of a run measured: deal `setups[g]` from the seed `(entropy, [setup])` (as
/// `batch::play_chunk` plays it) with `lineup` (name, overrides) by seat, the copies
/// drawn from `(luck_entropy, [setup])`. A bad strategy is an `Err`.
pub fn measure_chunk(
    comps: &Components,
    config: &GameConfig,
    entropy: u128,
    luck_entropy: u128,
    setups: &[u64],
    lineup: &[(String, Vec<(String, f64)>)],
    measure: &Measure,
) -> Result<Vec<GameLuck>, String> {
    if lineup.len() != config.players {
        return Err(format!("{} players need {} strategies, got {}", config.players,
                           config.players, lineup.len()));
    }
    let mut out = Vec::with_capacity(setups.len());
    for &setup in setups {
        let mut players: Vec<Player> = lineup.iter()
            .map(|(name, overrides)| make(name, overrides))
            .collect::<Result<_, _>>()?;
        out.push(measure_game(comps, config, &mut players, SeedSequence::new(entropy, &[setup]),
                              &SeedSequence::new(luck_entropy, &[setup]), measure));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::play_game;

    fn comps() -> Components {
        crate::carpe_diem::components::fixture()
    }

    fn measure() -> Measure {
        Measure { copies: 2, betas: vec![0.3], lookahead: false,
                  evaluation: crate::carpe_diem::players::learned::evaluator(
                      crate::carpe_diem::players::learned::Model::builtin().expect("weights")) }
    }

    #[test]
    fn the_measured_game_is_the_played_game() {
        let comps = comps();
        for (players, names) in [(2, ["greedy", "random"].as_slice()),
                                 (3, ["villa", "greedy", "bread"].as_slice())] {
            let config = GameConfig::new(players);
            let lineup: Vec<(String, Vec<(String, f64)>)> =
                names.iter().map(|n| (n.to_string(), vec![])).collect();
            let games = measure_chunk(&comps, &config, 9, 4, &[3, 8], &lineup, &measure())
                .unwrap();
            for (game, setup) in games.iter().zip([3u64, 8]) {
                let mut alone: Vec<Player> = names.iter().map(|n| make(n, &[]).unwrap()).collect();
                let played = play_game(&comps, &config, &mut alone, SeedSequence::new(9, &[setup]));
                assert_eq!(game.record, played);
                assert!(game.chance_steps >= 5, "the set-up and four deals at least");
                let per_beta: f64 = game.luck.iter().sum();
                assert!(per_beta.abs() < 1e-9, "the seats' chances sum to 1: luck sums to 0");
            }
        }
    }

    #[test]
    fn a_reshuffle_keeps_what_was_seen_in_place() {
        let comps = comps();
        let (mut state, _) = GameState::new(&comps, &GameConfig::new(2), SeedSequence::new(1, &[]));
        let deck = state.fountain_deck;
        let seen = 1 << deck.as_slice()[0] | 1 << deck.as_slice()[5];
        let mut rng = Generator::new(&SeedSequence::new(2, &[]));
        reshuffle(&mut state, seen, &mut rng);
        let (old, new) = (deck.as_slice(), state.fountain_deck.as_slice());
        assert_eq!((new[0], new[5]), (old[0], old[5]));
        assert_ne!(old, new);
        let (mut a, mut b) = (old.to_vec(), new.to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }
}
