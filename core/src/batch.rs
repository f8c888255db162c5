//! A chunk of a run played inside the core, returned as columns (asked for by
//! `cdsim/batch/queue.py`'s `core_chunk_frames`): game `g` deals setup `setups[g]` from
//! the seed `(entropy, [setup])` (rng.rs), with the line-up the runner chose for it.
//! The rows are Python's, in its order: game by game, seat by seat.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::components::Components;
use crate::game::GameConfig;
use crate::play::play_game;
use crate::players::{make, Player};
use crate::records::{CardColumns, ColumnType, GameRecord, SeatValue, GAME_COLUMNS,
                     SEAT_COLUMNS};
use crate::rng::SeedSequence;

/// A built-in strategy of the run and its parameter overrides (`--strategy-params`).
#[derive(Clone, Debug)]
pub struct StrategySpec {
    pub name: String,
    pub overrides: Vec<(String, f64)>,
}

/// What one chunk plays.
pub struct Chunk<'a> {
    pub config: GameConfig,
    /// The run seed: the entropy of every game's `SeedSequence`.
    pub entropy: u128,
    /// Game ids and their setup ids (the deal), one each per game.
    pub games: &'a [i64],
    pub setups: &'a [i64],
    /// `games.len() * players` indices into `strategies`, seat by seat.
    pub lineups: &'a [u8],
    pub strategies: &'a [StrategySpec],
    /// Set by the driver on a stop: the chunk ends before its next game (an `Err`), so
    /// that a thread playing it does not hold the process for the rest of its games.
    pub stop: Option<&'a AtomicBool>,
}

/// The error of a chunk that a stop ended early (its rows are never written).
pub const STOPPED: &str = "stopped before the chunk was finished";

/// The columns the runner adds to each row of a game: its id and its deal.
pub const RUN_COLUMNS: [(&str, ColumnType); 2] =
    [("game", ColumnType::Int), ("setup", ColumnType::Int)];

/// One column of the run rows. The seat row's one text column, `strategy`, is held as
/// indices into the chunk's strategies.
#[derive(Debug, PartialEq, Eq)]
pub enum Values {
    Int(Vec<i64>),
    Bool(Vec<bool>),
    Strategy(Vec<u8>),
}

/// The run rows of a chunk as columns: the seat row's (`records::SEAT_COLUMNS`), the
/// game's (`records::GAME_COLUMNS`), then `RUN_COLUMNS`, each by name.
#[derive(Debug)]
pub struct Columns {
    pub columns: Vec<(&'static str, Values)>,
    /// The games' card rows (`records::card_records`).
    pub cards: CardColumns,
}

impl Columns {
    fn with_capacity(rows: usize) -> Self {
        let columns = SEAT_COLUMNS.iter().chain(&GAME_COLUMNS).chain(&RUN_COLUMNS)
            .map(|&(name, kind)| (name, match kind {
                ColumnType::Int => Values::Int(Vec::with_capacity(rows)),
                ColumnType::Bool => Values::Bool(Vec::with_capacity(rows)),
                ColumnType::Text => Values::Strategy(Vec::with_capacity(rows)),
            }))
            .collect();
        Columns { columns, cards: CardColumns::default() }
    }

    /// The column `name`, if the rows have one.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns.iter().find(|(n, _)| *n == name).map(|(_, values)| values)
    }

    fn push(&mut self, record: &GameRecord, seed: i64, game: i64, setup: i64, lineup: &[u8]) {
        let run = [SeatValue::Int(game), SeatValue::Int(setup)];
        for (s, seat) in record.seats.iter().enumerate() {
            let values = seat.values().into_iter().chain(record.game_values(seed)).chain(run);
            for ((_, column), value) in self.columns.iter_mut().zip(values) {
                match (column, value) {
                    (Values::Int(c), SeatValue::Int(v)) => c.push(v),
                    (Values::Bool(c), SeatValue::Bool(v)) => c.push(v),
                    (Values::Strategy(c), SeatValue::Text(_)) => c.push(lineup[s]),
                    (column, value) => unreachable!("{value:?} in a column of {column:?}"),
                }
            }
        }
        self.cards.push(game, &record.cards);
    }
}

/// Play every game of the chunk. A bad strategy name or override is an `Err` (the
/// binding checks them before any game is played).
pub fn play_chunk(comps: &Components, chunk: &Chunk) -> Result<Columns, String> {
    let n = chunk.config.players;
    if chunk.games.len() != chunk.setups.len() || chunk.lineups.len() != chunk.games.len() * n {
        return Err("games, setups and line-ups differ in length".into());
    }
    for spec in chunk.strategies {
        make(&spec.name, &spec.overrides)?;
    }
    if let Some(&bad) = chunk.lineups.iter().find(|&&i| i as usize >= chunk.strategies.len()) {
        return Err(format!("line-up index {bad} names no strategy"));
    }
    let mut out = Columns::with_capacity(chunk.games.len() * n);
    let seed = i64::try_from(chunk.entropy).map_err(|_| "the run seed must fit 63 bits")?;
    for (g, (&game, &setup)) in chunk.games.iter().zip(chunk.setups).enumerate() {
        if chunk.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return Err(STOPPED.into());
        }
        let lineup = &chunk.lineups[g * n..(g + 1) * n];
        let mut players: Vec<Player> = lineup
            .iter()
            .map(|&i| {
                let spec = &chunk.strategies[i as usize];
                make(&spec.name, &spec.overrides)
            })
            .collect::<Result<_, _>>()?;
        let key = u64::try_from(setup).map_err(|_| "setup ids are >= 0")?;
        let record = play_game(comps, &chunk.config, &mut players,
                               SeedSequence::new(chunk.entropy, &[key]));
        out.push(&record, seed, game, setup, lineup);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comps() -> Components {
        crate::components::fixture()
    }

    fn specs(names: &[&str]) -> Vec<StrategySpec> {
        names.iter().map(|n| StrategySpec { name: n.to_string(), overrides: vec![] }).collect()
    }

    /// Row `r` of the columns as a JSON object, the strategy by its name.
    fn row(columns: &Columns, r: usize, strategies: &[StrategySpec]) -> serde_json::Value {
        columns.columns.iter().map(|(name, values)| (name.to_string(), match values {
            Values::Int(v) => serde_json::Value::from(v[r]),
            Values::Bool(v) => v[r].into(),
            Values::Strategy(v) => strategies[v[r] as usize].name.clone().into(),
        })).collect()
    }

    #[test]
    fn a_chunk_is_its_games_played_one_by_one() {
        let comps = comps();
        let config = GameConfig::new(3);
        let strategies = specs(&["greedy", "random", "bread"]);
        let lineups = [0, 1, 2, 2, 0, 1];
        let chunk = Chunk { config, entropy: 11, games: &[4, 5], setups: &[7, 5],
                            lineups: &lineups, strategies: &strategies, stop: None };
        let columns = play_chunk(&comps, &chunk).unwrap();
        let mut rows = Vec::new();
        for (g, (game, setup)) in [(4, 7), (5, 5)].into_iter().enumerate() {
            let mut players: Vec<Player> = lineups[g * 3..(g + 1) * 3].iter()
                .map(|&i| make(&strategies[i as usize].name, &[]).unwrap()).collect();
            let alone = play_game(&comps, &config, &mut players,
                                  SeedSequence::new(11, &[setup as u64]));
            for mut seat in alone.rows_json(11) {
                seat["game"] = game.into();
                seat["setup"] = setup.into();
                rows.push(seat);
            }
        }
        assert_eq!((0..6).map(|r| row(&columns, r, &strategies)).collect::<Vec<_>>(), rows);
        let names: Vec<_> = columns.columns.iter().map(|&(name, _)| name).collect();
        let row_names: Vec<_> = SEAT_COLUMNS.iter().chain(&GAME_COLUMNS).chain(&RUN_COLUMNS)
            .map(|&(name, _)| name).collect();
        assert_eq!(names, row_names);
        assert_eq!(columns.column("strategy"), Some(&Values::Strategy(lineups.to_vec())));
    }

    #[test]
    fn the_seat_rows_one_text_column_is_the_strategy() {
        // a chunk writes its text column as indices into its strategies
        let texts: Vec<_> = SEAT_COLUMNS.iter().filter(|&&(_, kind)| kind == ColumnType::Text)
            .map(|&(name, _)| name).collect();
        assert_eq!(texts, ["strategy"]);
    }

    #[test]
    fn bad_specs_are_errors_not_panics() {
        let comps = comps();
        let strategies = specs(&["nope"]);
        let chunk = Chunk { config: GameConfig::new(2), entropy: 1, games: &[0], setups: &[0],
                            lineups: &[0, 0], strategies: &strategies, stop: None };
        assert!(play_chunk(&comps, &chunk).is_err());
        let strategies = specs(&["random"]);
        let chunk = Chunk { lineups: &[0, 3], strategies: &strategies, ..chunk };
        assert!(play_chunk(&comps, &chunk).is_err());
    }

    #[test]
    fn a_stopped_chunk_plays_no_further_game() {
        let comps = comps();
        let strategies = specs(&["random"]);
        let stop = AtomicBool::new(true);
        let chunk = Chunk { config: GameConfig::new(2), entropy: 1, games: &[0, 1],
                            setups: &[0, 1], lineups: &[0, 0, 0, 0], strategies: &strategies,
                            stop: Some(&stop) };
        assert_eq!(play_chunk(&comps, &chunk).unwrap_err(), STOPPED);
        stop.store(false, Ordering::Relaxed);
        let columns = play_chunk(&comps, &chunk).unwrap();
        assert!(matches!(columns.column("won"), Some(Values::Bool(won)) if won.len() == 4));
    }
}
