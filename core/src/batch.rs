//! A chunk of a run played inside the core, for any game (`crate::games::Game`),
//! returned as columns (asked for by `cdsim/batch/queue.py`'s `core_chunk_frames`): game
//! `g` deals setup `setups[g]` from the seed `(entropy, [setup])` (rng.rs), with the
//! line-up the runner chose for it. The rows are Python's, in its order: game by game,
//! seat by seat; their columns are the game's (`Outcome::columns`), then the runner's.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::games::{ColumnType, Game, Outcome, SeatValue, Table, Tables, Use, Values};
use crate::play::play_game;
use crate::players::Strategy;
use crate::rng::SeedSequence;

/// A built-in strategy of the run and its parameter overrides (`--strategy-params`).
#[derive(Clone, Debug)]
pub struct StrategySpec {
    pub name: String,
    pub overrides: Vec<(String, f64)>,
}

/// What one chunk plays.
pub struct Chunk<'a> {
    pub players: usize,
    /// The starting VP, one per seat.
    pub start_vp: &'a [i32],
    /// Verify every invariant after every action (tests).
    pub check: bool,
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
    /// Record each seat's uses of the game's components (`Outcome::uses`) as the `uses`
    /// table: only a run that judges a change of them asks (its other rows are the same).
    pub uses: bool,
}

/// The error of a chunk that a stop ended early (its rows are never written).
pub const STOPPED: &str = "stopped before the chunk was finished";

/// The columns the runner adds to each row of a game: its id and its deal.
pub const RUN_COLUMNS: [(&str, ColumnType); 2] =
    [("game", ColumnType::Int), ("setup", ColumnType::Int)];

/// The run rows of a chunk as columns: the game's seat row (`Outcome::columns`), then
/// `RUN_COLUMNS`, each by name; the seat row's one text column, `strategy`, held as
/// indices into the chunk's strategies.
#[derive(Debug)]
pub struct Columns {
    pub columns: Vec<(&'static str, Values)>,
    /// The game's own tables (`Game::Tables`), by name.
    pub tables: Vec<(&'static str, Table)>,
}

impl Columns {
    fn with_capacity<O: Outcome>(rows: usize) -> Result<Self, String> {
        let seat_row = O::columns();
        let texts: Vec<_> = seat_row.iter().filter(|&&(_, kind)| kind == ColumnType::Text)
            .map(|&(name, _)| name).collect();
        if texts != ["strategy"] {
            return Err(format!("a seat row's one text column is `strategy`, not {texts:?}"));
        }
        let columns = seat_row.iter().chain(&RUN_COLUMNS)
            .map(|&(name, kind)| (name, match kind {
                ColumnType::Int => Values::Int(Vec::with_capacity(rows)),
                ColumnType::Bool => Values::Bool(Vec::with_capacity(rows)),
                ColumnType::Text => Values::Index(Vec::with_capacity(rows)),
            }))
            .collect();
        Ok(Columns { columns, tables: Vec::new() })
    }

    /// The column `name`, if the rows have one.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.columns.iter().find(|(n, _)| *n == name).map(|(_, values)| values)
    }

    /// The table `name`, if the game writes one.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|(n, _)| *n == name).map(|(_, table)| table)
    }

    fn push<O: Outcome>(&mut self, outcome: &O, seed: i64, game: i64, setup: i64,
                        lineup: &[u8], row: &mut Vec<SeatValue>) {
        for (s, &strategy) in lineup.iter().enumerate() {
            row.clear();
            outcome.row(s, seed, row);
            row.extend([SeatValue::Int(game), SeatValue::Int(setup)]);
            for ((_, column), &value) in self.columns.iter_mut().zip(row.iter()) {
                match (column, value) {
                    (Values::Int(c), SeatValue::Int(v)) => c.push(v),
                    (Values::Bool(c), SeatValue::Bool(v)) => c.push(v),
                    (Values::Index(c), SeatValue::Text(_)) => c.push(strategy),
                    (column, value) => unreachable!("{value:?} in a column of {column:?}"),
                }
            }
        }
    }
}

/// Play every game of the chunk, each seat's player made by `make` (the game's built-in
/// players by name). A bad strategy name or override, or a configuration the game refuses,
/// is an `Err` (the binding checks them before any game is played).
pub fn play_chunk<G: Game, P: Strategy<G>>(
    comps: &G::Components,
    chunk: &Chunk,
    make: impl Fn(&str, &[(String, f64)]) -> Result<P, String>,
) -> Result<Columns, String> {
    let n = chunk.players;
    let config = G::config(n, chunk.start_vp, chunk.check)?;
    if chunk.games.len() != chunk.setups.len() || chunk.lineups.len() != chunk.games.len() * n {
        return Err("games, setups and line-ups differ in length".into());
    }
    for spec in chunk.strategies {
        make(&spec.name, &spec.overrides)?;
    }
    if let Some(&bad) = chunk.lineups.iter().find(|&&i| i as usize >= chunk.strategies.len()) {
        return Err(format!("line-up index {bad} names no strategy"));
    }
    let mut out = Columns::with_capacity::<G::Outcome>(chunk.games.len() * n)?;
    let mut tables = G::Tables::default();
    let mut uses = chunk.uses.then(UseTable::default);
    let mut row = Vec::new();
    let seed = i64::try_from(chunk.entropy).map_err(|_| "the run seed must fit 63 bits")?;
    for (g, (&game, &setup)) in chunk.games.iter().zip(chunk.setups).enumerate() {
        if chunk.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return Err(STOPPED.into());
        }
        let lineup = &chunk.lineups[g * n..(g + 1) * n];
        let mut players: Vec<P> = lineup
            .iter()
            .map(|&i| {
                let spec = &chunk.strategies[i as usize];
                make(&spec.name, &spec.overrides)
            })
            .collect::<Result<_, _>>()?;
        let key = u64::try_from(setup).map_err(|_| "setup ids are >= 0")?;
        let outcome: G::Outcome = play_game(comps, &config, &mut players,
                                            SeedSequence::new(chunk.entropy, &[key]));
        out.push(&outcome, seed, game, setup, lineup, &mut row);
        tables.push(game, &outcome);
        if let Some(uses) = uses.as_mut() {
            uses.push(game, &outcome)?;
        }
    }
    out.tables = tables.into_tables(comps);
    out.tables.extend(uses.map(|u| ("uses", u.into_table())));
    Ok(out)
}

/// The `uses` table of a chunk (`Chunk::uses`): one row per seat and component it used,
/// game by game, seat by seat: `game`, `seat`, `kind` and `id` (indices into the names
/// `kinds` and `ids`) and `count`.
#[derive(Default)]
struct UseTable {
    game: Vec<i64>,
    seat: Vec<i64>,
    kind: Vec<u8>,
    id: Vec<u8>,
    count: Vec<i64>,
    kinds: Vec<String>,
    ids: Vec<String>,
    found: Vec<Use>,
}

impl UseTable {
    fn push<O: Outcome>(&mut self, game: i64, outcome: &O) -> Result<(), String> {
        for seat in 0..outcome.seats() {
            self.found.clear();
            outcome.uses(seat, &mut self.found);
            for used in &self.found {
                self.game.push(game);
                self.seat.push(seat as i64);
                self.kind.push(label(&mut self.kinds, used.kind)?);
                self.id.push(label(&mut self.ids, &used.id)?);
                self.count.push(used.count);
            }
        }
        Ok(())
    }

    fn into_table(self) -> Table {
        Table {
            columns: vec![("game", self.game.into()), ("seat", self.seat.into()),
                          ("kind", self.kind.into()), ("id", self.id.into()),
                          ("count", self.count.into())],
            labels: vec![("kinds", self.kinds), ("ids", self.ids)],
        }
    }
}

/// The index of `name` in `names` (added when new); a chunk's table indexes 256 names.
fn label(names: &mut Vec<String>, name: &str) -> Result<u8, String> {
    let at = names.iter().position(|n| n == name).unwrap_or_else(|| {
        names.push(name.to_string());
        names.len() - 1
    });
    u8::try_from(at).map_err(|_| "a chunk's uses name more than 256 components".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::{Cards, Market, Scores};
    use crate::players::RandomPlayer;

    fn specs(names: &[&str]) -> Vec<StrategySpec> {
        names.iter().map(|n| StrategySpec { name: n.to_string(), overrides: vec![] }).collect()
    }

    fn make(name: &str, overrides: &[(String, f64)]) -> Result<RandomPlayer, String> {
        match (name, overrides) {
            ("random", []) => Ok(RandomPlayer),
            _ => Err(format!("no player {name:?} with {overrides:?}")),
        }
    }

    fn chunk<'a>(lineups: &'a [u8], strategies: &'a [StrategySpec], stop: Option<&'a AtomicBool>)
        -> Chunk<'a> {
        Chunk { players: 2, start_vp: &[3, 0], check: true, entropy: 11, games: &[4, 5],
                setups: &[7, 5], lineups, strategies, stop, uses: false }
    }

    #[test]
    fn a_chunk_is_its_games_played_one_by_one_in_the_games_columns() {
        let cards = Cards::standard();
        let strategies = specs(&["random"]);
        let columns = play_chunk::<Market, _>(&cards, &chunk(&[0; 4], &strategies, None), make)
            .unwrap();
        let config = Market::config(2, &[3, 0], true).unwrap();
        let mut want: Vec<Vec<SeatValue>> = Vec::new();
        for (game, setup) in [(4, 7), (5, 5)] {
            let alone: Scores = play_game::<Market, _>(&cards, &config,
                                                       &mut [RandomPlayer, RandomPlayer],
                                                       SeedSequence::new(11, &[setup]));
            for seat in 0..2 {
                let mut row = Vec::new();
                alone.row(seat, 11, &mut row);
                row.extend([SeatValue::Int(game), SeatValue::Int(setup as i64)]);
                want.push(row);
            }
        }
        let names: Vec<_> = columns.columns.iter().map(|&(name, _)| name).collect();
        let declared: Vec<_> = Scores::columns().into_iter().chain(RUN_COLUMNS)
            .map(|(name, _)| name).collect();
        assert_eq!(names, declared);
        for (c, (_, values)) in columns.columns.iter().enumerate() {
            let got: Vec<SeatValue> = match values {
                Values::Int(v) => v.iter().map(|&x| SeatValue::Int(x)).collect(),
                Values::Bool(v) => v.iter().map(|&x| SeatValue::Bool(x)).collect(),
                Values::Index(v) => v.iter().map(|&i| SeatValue::Text(
                    if i == 0 { "random" } else { "?" })).collect(),
            };
            assert_eq!(got, want.iter().map(|row| row[c]).collect::<Vec<_>>(), "{}", names[c]);
        }
        assert!(columns.tables.is_empty());
    }

    #[test]
    fn bad_specs_and_configurations_are_errors_not_panics() {
        let cards = Cards::standard();
        let strategies = specs(&["nope"]);
        assert!(play_chunk::<Market, _>(&cards, &chunk(&[0; 4], &strategies, None), make)
            .is_err());
        let strategies = specs(&["random"]);
        assert!(play_chunk::<Market, _>(&cards, &chunk(&[0, 0, 0, 3], &strategies, None), make)
            .is_err());
        let five = Chunk { players: 5, start_vp: &[0; 5], lineups: &[0; 10],
                           ..chunk(&[], &strategies, None) };
        assert!(play_chunk::<Market, _>(&cards, &five, make).is_err());
    }

    #[test]
    fn the_uses_table_is_written_only_when_asked_and_holds_each_seats_uses() {
        // the toy game (games/toy.rs) records each card a seat took as a use
        let cards = Cards::standard();
        let strategies = specs(&["random"]);
        let base = Chunk { players: 3, lineups: &[0; 6], start_vp: &[0; 3],
                           ..chunk(&[], &strategies, None) };
        let plain = play_chunk::<Market, _>(&cards, &base, make).unwrap();
        assert!(plain.table("uses").is_none());
        let asked = play_chunk::<Market, _>(&cards, &Chunk { uses: true, ..base }, make)
            .unwrap();
        assert_eq!(asked.columns, plain.columns, "the seat rows are the same either way");
        let uses = asked.table("uses").unwrap();
        let names: Vec<_> = uses.columns.iter().map(|&(n, _)| n).collect();
        assert_eq!(names, ["game", "seat", "kind", "id", "count"]);
        let (Values::Int(game), Values::Int(count)) = (&uses.columns[0].1, &uses.columns[4].1)
            else { panic!("game and count are ints") };
        assert!(game.iter().all(|g| [4, 5].contains(g)) && count.iter().all(|&c| c > 0));
        let Values::Index(kind) = &uses.columns[2].1 else { panic!("kind is an index") };
        assert_eq!((uses.labels[0].0, uses.labels[0].1[0].as_str()), ("kinds", "cards"));
        // every card of the deck was taken, in each of the two games
        let taken: i64 = kind.iter().zip(count).filter(|(&k, _)| k == 0).map(|(_, c)| c).sum();
        assert_eq!(taken, 2 * cards.cards.len() as i64);
    }

    #[test]
    fn a_stopped_chunk_plays_no_further_game() {
        let cards = Cards::standard();
        let strategies = specs(&["random"]);
        let stop = AtomicBool::new(true);
        let stopped = chunk(&[0; 4], &strategies, Some(&stop));
        assert_eq!(play_chunk::<Market, _>(&cards, &stopped, make).unwrap_err(), STOPPED);
        stop.store(false, Ordering::Relaxed);
        let columns = play_chunk::<Market, _>(&cards, &stopped, make).unwrap();
        assert!(matches!(columns.column("won"), Some(Values::Bool(won)) if won.len() == 4));
    }
}
