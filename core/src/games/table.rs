//! One game at a table where some seats are open: a seat without a built-in player is
//! played from outside the core (a user's Python strategy, through the binding), for any
//! game (`Game`), its types erased (`Seated`) so that the binding holds any registered
//! game's table by name. The core drives: its built-in seats decide until an open seat is
//! to (`Seated::play`), and the open seat is shown only what the seam lets a seat know
//! (`Game::observe`, never `Game::frame`, which a replay may fill with hidden cards), the
//! pending options in words (`Game::describe`, as the replay pages name them) and takes
//! one by its index (`Seated::apply`). The same seed and the same choices play the game a
//! run's chunk plays (`batch::play_chunk`: the same `SeedSequence` and per-seat streams).

use std::sync::Arc;

use serde_json::Value;

use crate::games::{Game, Outcome};
use crate::play::ask;
use crate::players::Strategy;
use crate::rng::{Generator, SeedSequence};

/// The strategy name an open seat's row holds until its caller names it (the binding's
/// caller writes the user's spelling over it).
pub const OPEN: &str = "open";

/// A game at a table with open seats, of any registered game.
pub trait Seated: Send {
    /// The number of seats.
    fn seats(&self) -> usize;
    /// The seat whose decision is pending (None when the game is over).
    fn current_seat(&self) -> Option<usize>;
    /// Whether `seat` is open (played from outside the core).
    fn is_open(&self, seat: usize) -> bool;
    /// The pending decision kind's name (`Game::decision`).
    fn decision(&self) -> &'static str;
    /// The pending decision's options in words, in the engine's order (`Game::describe`).
    fn options(&self) -> Vec<String>;
    /// What the pending seat may know (`Game::observe`), as JSON: only that seat's, and
    /// only while an open seat decides (a built-in seat's is not handed out).
    fn observe(&self) -> Result<Value, String>;
    /// Take option `index` of the pending decision for the open seat deciding.
    fn apply(&mut self, index: usize) -> Result<(), String>;
    /// Let the built-in seats decide until an open seat is to, or the game is over.
    fn play(&mut self) -> Result<(), String>;
    /// The decisions taken so far, by any seat.
    fn decisions(&self) -> u64;
    /// The finished game's seat rows (`Outcome::columns` order, an open seat's strategy
    /// `OPEN`): the columns' names and one row a seat.
    fn rows(&self) -> Result<(Vec<&'static str>, Vec<Vec<Value>>), String>;
}

/// `G` at a table: a built-in player `P` in each seat that has one.
pub struct Table<G: Game, P> {
    comps: Arc<G::Components>,
    state: G,
    rngs: Vec<Generator>,
    lineup: Vec<Option<P>>,
    /// The pending decision's options.
    options: Vec<G::Action>,
    decisions: u64,
    run_seed: i64,
}

impl<G: Game, P: Strategy<G>> Table<G, P> {
    /// The game of `config` dealt from the run seed `entropy` and deal `setup` (None: the
    /// seed's own deal), `lineup` by seat (None: an open seat).
    pub fn new(comps: Arc<G::Components>, config: &G::Config, entropy: u64, setup: Option<u64>,
               lineup: Vec<Option<P>>) -> Result<Self, String> {
        let run_seed = i64::try_from(entropy).map_err(|_| "the seed must fit 63 bits")?;
        let key: Vec<u64> = setup.into_iter().collect();
        let (state, rngs) = G::new(&comps, config, SeedSequence::new(u128::from(entropy), &key));
        if lineup.len() != state.seats() {
            return Err(format!("{} players for {} seats", lineup.len(), state.seats()));
        }
        let mut table = Table { comps, state, rngs, lineup, options: Vec::new(), decisions: 0,
                                run_seed };
        table.state.options(&table.comps, &mut table.options);
        Ok(table)
    }

    fn open_seat(&self) -> Result<usize, String> {
        match self.state.current_seat() {
            None => Err("the game is over: no decision is pending".into()),
            Some(seat) if self.lineup[seat].is_some() =>
                Err(format!("seat {seat} is a built-in player's: play() decides for it")),
            Some(seat) => Ok(seat),
        }
    }

    fn take(&mut self, index: usize) -> Result<(), String> {
        self.state.apply(&self.comps, self.options[index]);
        self.decisions += 1;
        self.state.verify(&self.comps).map_err(|e| format!("invariant broken {e}"))?;
        self.state.options(&self.comps, &mut self.options);
        Ok(())
    }
}

impl<G: Game, P: Strategy<G>> Seated for Table<G, P> {
    fn seats(&self) -> usize {
        self.state.seats()
    }

    fn current_seat(&self) -> Option<usize> {
        self.state.current_seat()
    }

    fn is_open(&self, seat: usize) -> bool {
        self.lineup.get(seat).is_some_and(Option::is_none)
    }

    fn decision(&self) -> &'static str {
        self.state.decision()
    }

    fn options(&self) -> Vec<String> {
        self.options.iter().map(|a| self.state.describe(&self.comps, a)).collect()
    }

    fn observe(&self) -> Result<Value, String> {
        let seat = self.open_seat()?;
        serde_json::to_value(self.state.observe(&self.comps, seat)).map_err(|e| e.to_string())
    }

    fn apply(&mut self, index: usize) -> Result<(), String> {
        self.open_seat()?;
        let n = self.options.len();
        if index >= n {
            return Err(format!("option {index} of {n} in the {} decision", self.state.decision()));
        }
        self.take(index)
    }

    fn play(&mut self) -> Result<(), String> {
        while let Some(seat) = self.state.current_seat() {
            let Some(player) = self.lineup[seat].as_mut() else { break };
            let i = ask(&self.state, &self.comps, player, &mut self.rngs[seat], &self.options);
            self.take(i)?;
        }
        Ok(())
    }

    fn decisions(&self) -> u64 {
        self.decisions
    }

    fn rows(&self) -> Result<(Vec<&'static str>, Vec<Vec<Value>>), String> {
        if !self.state.is_over() {
            return Err(format!("the game is not over: {} is pending", self.state.decision()));
        }
        let names: Vec<&'static str> =
            self.lineup.iter().map(|p| p.as_ref().map_or(OPEN, |p| p.name())).collect();
        let outcome = self.state.outcome(&self.comps, &names);
        let columns = <G::Outcome as Outcome>::columns().into_iter().map(|(c, _)| c).collect();
        let rows = (0..outcome.seats()).map(|seat| {
            let mut row = Vec::new();
            outcome.row(seat, self.run_seed, &mut row);
            row.into_iter().map(Value::from).collect()
        }).collect();
        Ok((columns, rows))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::{Cards, Market};
    use crate::games::replay::record;
    use crate::players::RandomPlayer;

    fn table(open: &[bool]) -> Table<Market, RandomPlayer> {
        let config = Market::config(3, &[0, 1, 2], true).unwrap();
        let lineup = open.iter().map(|&o| (!o).then_some(RandomPlayer)).collect();
        Table::new(Arc::new(Cards::standard()), &config, 7, Some(2), lineup).unwrap()
    }

    #[test]
    fn built_in_seats_play_until_an_open_seat_decides_and_only_it_is_shown() {
        let mut t = table(&[false, true, false]);
        let mut asked = 0;
        loop {
            t.play().unwrap();
            let Some(seat) = t.current_seat() else { break };
            assert_eq!(seat, 1, "play() stops only at the open seat");
            let seen = t.observe().unwrap();
            let want = serde_json::to_value(t.state.observe(&t.comps, 1)).unwrap();
            assert_eq!(seen, want, "the open seat's own observation");
            let names = t.options();
            assert_eq!(names.len(), t.options.len());
            assert!(t.apply(names.len()).is_err(), "an index out of range is refused");
            t.apply(0).unwrap();
            asked += 1;
        }
        assert!(asked > 0 && t.decisions() > asked);
        assert!(t.observe().is_err() && t.apply(0).is_err(), "the game is over");
        let (columns, rows) = t.rows().unwrap();
        assert_eq!(rows.len(), 3);
        let strategy = columns.iter().position(|&c| c == "strategy").unwrap();
        assert_eq!(rows[1][strategy], OPEN);
    }

    #[test]
    fn a_table_of_built_in_seats_is_the_game_a_replay_records() {
        let mut t = table(&[false, false, false]);
        t.play().unwrap();
        assert!(t.current_seat().is_none());
        let config = Market::config(3, &[0, 1, 2], true).unwrap();
        let mut lineup = [RandomPlayer, RandomPlayer, RandomPlayer];
        let want = record::<Market, _>(&Cards::standard(), &config, &mut lineup,
                                       SeedSequence::new(7, &[2]), 7).unwrap();
        assert_eq!(t.rows().unwrap().1, want.rows);
        // a built-in seat's observation is not handed out, nor is it decided for from outside
        let mut t = table(&[false, false, false]);
        assert!(t.observe().is_err() && t.apply(0).is_err());
    }
}
