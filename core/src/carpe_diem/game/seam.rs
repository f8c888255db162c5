//! Carpe Diem behind the seam (`crate::games::Game`): the state, its options and its
//! final scoring as the driver, the batch runner and the generic players see them. Each
//! item hands over to the rules' own (no behaviour of its own).

use crate::carpe_diem::checking;
use crate::carpe_diem::components::Components;
use crate::games::{ColumnType, Game, Outcome, SeatValue, Table, Tables, Use};
use crate::carpe_diem::records::{CardColumns, GameRecord, BREAKDOWN, CARD_OUTCOMES, GAME_COLUMNS,
                     SEAT_COLUMNS};
use crate::rng::{Generator, SeedSequence};
use crate::carpe_diem::scoring;

use super::{Action, GameConfig, GameState, List};

impl Game for GameState {
    type Components = Components;
    type Config = GameConfig;
    type Action = Action;
    type Outcome = GameRecord;
    type Tables = CardColumns;
    type Observation = serde_json::Value;

    fn components(json: &str) -> Result<Components, String> {
        Components::from_json(json)
    }

    fn config(players: usize, start_vp: &[i32], check: bool) -> Result<GameConfig, String> {
        if !(2..=4).contains(&players) || start_vp.len() != players {
            return Err("players must be 2-4, with one start VP per seat".into());
        }
        let mut config = GameConfig::new(players);
        config.start_vp[..players].copy_from_slice(start_vp);
        config.check = check;
        Ok(config)
    }

    fn new(comps: &Components, config: &GameConfig, seed: SeedSequence)
        -> (GameState, Vec<Generator>) {
        GameState::new(comps, config, seed)
    }

    fn seats(&self) -> usize {
        self.n
    }

    fn current_seat(&self) -> Option<usize> {
        self.pending.seat()
    }

    fn is_over(&self) -> bool {
        GameState::is_over(self)
    }

    fn decision(&self) -> &'static str {
        self.pending.name()
    }

    fn options(&self, comps: &Components, out: &mut Vec<Action>) {
        GameState::options(self, comps, out);
    }

    fn apply(&mut self, comps: &Components, action: Action) {
        GameState::apply(self, comps, action);
    }

    fn verify(&self, comps: &Components) -> Result<(), String> {
        if !self.check {
            return Ok(());
        }
        checking::check_state(self, comps, false)
            .map_err(|e| format!("in phase {} round {}: {e}", self.phase + 1, self.round + 1))
    }

    /// What `observe` hides drawn anew: the light and dark decks' orders (face down,
    /// R2.3, R2.4), and the fountain cards no one has shown `seat` (the deck and the
    /// other seats' kept cards) dealt back in the same numbers. The copy is laid out in a
    /// fixed order first, so the new one depends on `rng` alone, never on the real one.
    fn determinize(&mut self, _comps: &Components, seat: usize, rng: &mut Generator) {
        redeal(&mut self.light_deck, rng);
        redeal(&mut self.dark_deck, rng);
        let mut unseen: List<24> = List::from_slice(self.fountain_deck.as_slice());
        let others = (0..self.n).filter(|&s| s != seat);
        for s in others.clone() {
            for &c in self.players[s].fountain_cards.as_slice() {
                unseen.push(c);
            }
        }
        redeal(&mut unseen, rng);
        let mut cards = unseen.as_slice().iter().copied();
        for s in others {
            let held = self.players[s].fountain_cards.len();
            self.players[s].fountain_cards = List::from_slice(&cards.by_ref().take(held)
                .collect::<Vec<_>>());
        }
        self.fountain_deck = List::from_slice(&cards.collect::<Vec<_>>());
    }

    fn observe(&self, comps: &Components, seat: usize) -> serde_json::Value {
        GameState::observe(self, comps, seat)
    }

    fn outcome(&self, comps: &Components, strategies: &[&'static str]) -> GameRecord {
        scoring::final_scoring(self, comps, strategies)
    }
}

impl Outcome for GameRecord {
    const BREAKDOWN: &'static [&'static str] = &BREAKDOWN;

    /// The seat row (`records::SEAT_COLUMNS`), then the game's (`records::GAME_COLUMNS`).
    fn columns() -> Vec<(&'static str, ColumnType)> {
        SEAT_COLUMNS.iter().chain(&GAME_COLUMNS).copied().collect()
    }

    fn seats(&self) -> usize {
        self.seats.len()
    }

    fn vp(&self, seat: usize) -> i64 {
        self.seats[seat].final_vp
    }

    fn start_vp(&self, seat: usize) -> i64 {
        self.seats[seat].start_vp
    }

    fn rank(&self, seat: usize) -> usize {
        self.seats[seat].rank as usize
    }

    fn breakdown(&self, seat: usize) -> Vec<i64> {
        self.seats[seat].breakdown().to_vec()
    }

    /// The frame parts the seat scored a goal of and the villa-table rows it scored at
    /// (`records::SeatUses::rows`).
    fn uses(&self, seat: usize, out: &mut Vec<Use>) {
        self.uses[seat].rows(out);
    }

    fn row(&self, seat: usize, seed: i64, out: &mut Vec<SeatValue>) {
        out.extend(self.seats[seat].values());
        out.extend(self.game_values(seed));
    }
}

/// A chunk's card rows (`records::CARD_COLUMNS`), the table `cards`.
impl Tables<GameState> for CardColumns {
    fn push(&mut self, game: i64, outcome: &GameRecord) {
        CardColumns::push(self, game, &outcome.cards);
    }

    /// `cards`: `game`, then `CARD_COLUMNS`; `kind` 0 = objective, 1 = fountain, and
    /// `card` indexes that deck's ids (`objective_ids`, `fountain_ids`); `outcome` indexes
    /// `outcomes`.
    fn into_tables(self, comps: &Components) -> Vec<(&'static str, Table)> {
        let ids = |ids: Vec<&str>| ids.into_iter().map(str::to_owned).collect();
        let labels = vec![
            ("objective_ids", ids(comps.objectives.iter().map(|c| c.id.as_str()).collect())),
            ("fountain_ids", ids(comps.fountains.iter().map(|c| c.id.as_str()).collect())),
            ("outcomes", ids(CARD_OUTCOMES.to_vec())),
        ];
        vec![("cards", Table { columns: self.into_columns(), labels })]
    }
}

/// A face-down pile in a uniformly random order drawn from `rng` alone: sorted, then
/// shuffled.
fn redeal<const N: usize>(list: &mut List<N>, rng: &mut Generator) {
    let mut items = list.as_slice().to_vec();
    items.sort_unstable();
    *list = List::from_slice(&items);
    list.shuffle(rng);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::play_game;
    use crate::carpe_diem::players::make;

    fn midgame(comps: &Components, seed: u64) -> GameState {
        let (mut state, mut rngs) =
            GameState::new(comps, &GameConfig::new(3), SeedSequence::new(seed.into(), &[]));
        let mut lineup: Vec<_> = (0..3).map(|_| make("greedy", &[]).unwrap()).collect();
        let mut buf = Vec::new();
        while state.phase < 1 {
            crate::play::step(&mut state, comps, &mut lineup, &mut rngs, &mut buf);
        }
        state
    }

    #[test]
    fn determinizing_keeps_what_the_seat_may_know_and_redraws_the_rest() {
        let comps = crate::carpe_diem::components::fixture();
        let mut drew_anew = false;
        for seed in 0..4 {
            let state = midgame(&comps, seed);
            let mut copy = state.clone();
            let mut rng = Generator::new(&SeedSequence::new(5, &[seed]));
            copy.determinize(&comps, 1, &mut rng);
            assert_eq!(copy.observe(&comps, 1), state.observe(&comps, 1));
            let sorted = |l: &[u8]| { let mut v = l.to_vec(); v.sort_unstable(); v };
            assert_eq!(sorted(copy.light_deck.as_slice()), sorted(state.light_deck.as_slice()));
            assert_eq!(copy.players[1].fountain_cards, state.players[1].fountain_cards);
            drew_anew |= copy.light_deck != state.light_deck;
            // the new order is the stream's alone: the same draw from another real order
            let mut other = state.clone();
            let mut shuffle = Generator::new(&SeedSequence::new(9, &[]));
            other.light_deck.shuffle(&mut shuffle);
            other.dark_deck.shuffle(&mut shuffle);
            other.determinize(&comps, 1, &mut Generator::new(&SeedSequence::new(5, &[seed])));
            assert_eq!((other.light_deck, other.dark_deck, other.fountain_deck),
                       (copy.light_deck, copy.dark_deck, copy.fountain_deck));
        }
        assert!(drew_anew);
    }

    #[test]
    fn an_observation_shows_no_deck_order_no_others_fountain_cards_and_no_vp() {
        let comps = crate::carpe_diem::components::fixture();
        let mut state = midgame(&comps, 1);
        state.players[0].fountain_cards = List::from_slice(&[3]);
        state.players[2].fountain_cards = List::from_slice(&[4, 5]);
        let seen = state.observe(&comps, 0);
        assert_eq!(seen["light_deck"], state.light_deck.len());
        assert_eq!(seen["players"][2]["fountain_cards"], 2);
        assert_eq!(seen["players"][0]["fountain_cards"][0], comps.fountains[3].id.as_str());
        assert!(seen["players"][0].get("vp").is_none());
        assert_eq!(seen["seat"], 0);
    }

    #[test]
    fn the_outcome_is_the_final_scoring_and_its_rows_are_the_records() {
        let comps = crate::carpe_diem::components::fixture();
        let mut lineup: Vec<_> = ["greedy", "random"].iter().map(|n| make(n, &[]).unwrap())
            .collect();
        let record = play_game(&comps, &GameConfig::new(2), &mut lineup, SeedSequence::new(4, &[]));
        let names: Vec<_> = GameRecord::columns().into_iter().map(|(name, _)| name).collect();
        for (seat, json) in record.rows_json(4).into_iter().enumerate() {
            let mut row = Vec::new();
            record.row(seat, 4, &mut row);
            let row: serde_json::Map<_, _> = names.iter().map(|n| n.to_string())
                .zip(row.into_iter().map(serde_json::Value::from)).collect();
            assert_eq!(serde_json::Value::Object(row), json);
            assert_eq!(Outcome::breakdown(&record, seat).iter().sum::<i64>(), record.vp(seat));
            assert_eq!(GameRecord::BREAKDOWN.len(), Outcome::breakdown(&record, seat).len());
        }
        assert_eq!((1..=2).map(|r| (0..2).filter(|&s| record.rank(s) == r).count())
                   .collect::<Vec<_>>(), [1, 1]);
    }
}
