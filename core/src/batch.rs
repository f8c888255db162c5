//! A chunk of a run played inside the core, returned as columns (asked for by
//! `cdsim/batch/queue.py`'s `core_chunk_frames`): game `g` deals setup `setups[g]` from
//! the seed `(entropy, [setup])` (rng.rs), with the line-up the runner chose for it.
//! The rows are Python's, in its order: game by game, seat by seat.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::components::Components;
use crate::game::GameConfig;
use crate::play::play_game;
use crate::players::{make, Player};
use crate::records::{CardColumns, GameRecord};
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

/// Integer columns of the run rows, named as in `cdsim/rules/records.py` (and the runner's
/// `game`, `setup`, `seed`, `players`); `strategy` is an index into the chunk's
/// strategies.
#[derive(Default, Debug)]
pub struct Columns {
    pub names: Vec<&'static str>,
    pub ints: Vec<Vec<i64>>,
    pub won: Vec<bool>,
    pub tiebreak: Vec<bool>,
    pub strategy: Vec<u8>,
    /// The games' card rows (`records::card_records`).
    pub cards: CardColumns,
}

/// The integer fields of one seat row, in `INT_FIELDS` order.
const INT_FIELDS: [&str; 40] = [
    "seat", "start_vp", "vp_start", "vp_cards", "vp_villas", "vp_leftovers", "vp_scroll",
    "vp_fountains", "vp_frame", "final_vp", "failed_cards", "scroll", "stack", "rank",
    "vp_phase1", "vp_phase2", "vp_phase3", "vp_phase4", "tiles_taken", "tiles_built",
    "tiles_stored", "villas", "chimneys", "villa_chimneys", "landscapes", "merchants", "bakers",
    "administrators", "artisans", "markets", "bakeries", "fountains", "fountain_cards",
    "bread_moves", "artisan_lost", "leftover_items", "seed", "players", "game", "setup",
];

fn push_record(out: &mut Columns, record: &GameRecord, seed: i64, game: i64, setup: i64,
               lineup: &[u8]) {
    for (s, seat) in record.seats.iter().enumerate() {
        let values = [
            seat.seat, seat.start_vp, seat.vp_start, seat.vp_cards, seat.vp_villas,
            seat.vp_leftovers, seat.vp_scroll, seat.vp_fountains, seat.vp_frame, seat.final_vp,
            seat.failed_cards, seat.scroll, seat.stack, seat.rank, seat.vp_phase1,
            seat.vp_phase2, seat.vp_phase3, seat.vp_phase4, seat.tiles_taken, seat.tiles_built,
            seat.tiles_stored, seat.villas, seat.chimneys, seat.villa_chimneys, seat.landscapes,
            seat.merchants, seat.bakers, seat.administrators, seat.artisans, seat.markets,
            seat.bakeries, seat.fountains, seat.fountain_cards, seat.bread_moves,
            seat.artisan_lost, seat.leftover_items, seed, record.players as i64, game, setup,
        ];
        for (column, value) in out.ints.iter_mut().zip(values) {
            column.push(value);
        }
        out.won.push(seat.won);
        out.tiebreak.push(record.tiebreak);
        out.strategy.push(lineup[s]);
    }
    out.cards.push(game, &record.cards);
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
    let rows = chunk.games.len() * n;
    let mut out = Columns {
        names: INT_FIELDS.to_vec(),
        ints: vec![Vec::with_capacity(rows); INT_FIELDS.len()],
        won: Vec::with_capacity(rows),
        tiebreak: Vec::with_capacity(rows),
        strategy: Vec::with_capacity(rows),
        cards: CardColumns::default(),
    };
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
        push_record(&mut out, &record, seed, game, setup, lineup);
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

    #[test]
    fn a_chunk_is_its_games_played_one_by_one() {
        let comps = comps();
        let config = GameConfig::new(3);
        let strategies = specs(&["greedy", "random", "bread"]);
        let chunk = Chunk { config, entropy: 11, games: &[4, 5], setups: &[4, 5],
                            lineups: &[0, 1, 2, 2, 0, 1], strategies: &strategies,
                            stop: None };
        let columns = play_chunk(&comps, &chunk).unwrap();
        let final_vp = &columns.ints[INT_FIELDS.iter().position(|&f| f == "final_vp").unwrap()];
        let mut players = vec![make("bread", &[]).unwrap(), make("greedy", &[]).unwrap(),
                               make("random", &[]).unwrap()];
        let alone = play_game(&comps, &config, &mut players, SeedSequence::new(11, &[5]));
        let expected: Vec<i64> = alone.seats.iter().map(|s| s.final_vp).collect();
        assert_eq!(final_vp[3..], expected[..]);
        assert_eq!(columns.strategy, vec![0, 1, 2, 2, 0, 1]);
        assert_eq!(columns.won.iter().filter(|&&w| w).count(), 2);
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
        assert_eq!(play_chunk(&comps, &chunk).unwrap().won.len(), 4);
    }
}
