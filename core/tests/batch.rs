//! Carpe Diem's chunks through the game-free batch runner: the rows are its records',
//! and its card rows come as the game's table `cards`.

mod common;

use cdsim_core::batch::{play_chunk, Chunk, Columns, StrategySpec, RUN_COLUMNS};
use cdsim_core::carpe_diem::game::{GameConfig, GameState};
use cdsim_core::games::{Outcome, Values};
use cdsim_core::play::play_game;
use cdsim_core::carpe_diem::players::{make, Player};
use cdsim_core::carpe_diem::records::{GameRecord, CARD_COLUMNS};
use cdsim_core::rng::SeedSequence;
use common::comps;

fn specs(names: &[&str]) -> Vec<StrategySpec> {
    names.iter().map(|n| StrategySpec { name: n.to_string(), overrides: vec![] }).collect()
}

/// Row `r` of the columns as a JSON object, the strategy by its name.
fn row(columns: &Columns, r: usize, strategies: &[StrategySpec]) -> serde_json::Value {
    columns.columns.iter().map(|(name, values)| (name.to_string(), match values {
        Values::Int(v) => serde_json::Value::from(v[r]),
        Values::Bool(v) => v[r].into(),
        Values::Index(v) => strategies[v[r] as usize].name.clone().into(),
    })).collect()
}

#[test]
fn a_chunk_is_its_games_played_one_by_one() {
    let comps = comps();
    let config = GameConfig::new(3);
    let strategies = specs(&["greedy", "random", "bread"]);
    let lineups = [0, 1, 2, 2, 0, 1];
    let chunk = Chunk { players: 3, start_vp: &config.start_vp[..3], check: false, entropy: 11,
                        games: &[4, 5], setups: &[7, 5], lineups: &lineups,
                        strategies: &strategies, stop: None, uses: false };
    let columns = play_chunk::<GameState, _>(&comps, &chunk, make).unwrap();
    let mut rows = Vec::new();
    let mut cards = 0;
    for (g, (game, setup)) in [(4, 7), (5, 5)].into_iter().enumerate() {
        let mut players: Vec<Player> = lineups[g * 3..(g + 1) * 3].iter()
            .map(|&i| make(&strategies[i as usize].name, &[]).unwrap()).collect();
        let alone = play_game(&comps, &config, &mut players, SeedSequence::new(11, &[setup]));
        cards += alone.cards.len();
        for mut seat in alone.rows_json(11) {
            seat["game"] = game.into();
            seat["setup"] = setup.into();
            rows.push(seat);
        }
    }
    assert_eq!((0..6).map(|r| row(&columns, r, &strategies)).collect::<Vec<_>>(), rows);
    let names: Vec<_> = columns.columns.iter().map(|&(name, _)| name).collect();
    let row_names: Vec<_> = GameRecord::columns().into_iter().chain(RUN_COLUMNS)
        .map(|(name, _)| name).collect();
    assert_eq!(names, row_names);
    assert_eq!(columns.column("strategy"), Some(&Values::Index(lineups.to_vec())));
    // the card rows: the game, then CARD_COLUMNS, with the names their indices stand for
    let table = columns.table("cards").expect("Carpe Diem's card table");
    let names: Vec<_> = table.columns.iter().map(|&(name, _)| name).collect();
    let declared: Vec<_> = CARD_COLUMNS.iter().map(|&(name, _)| name).collect();
    assert_eq!(names, [&["game"][..], &declared].concat());
    assert!(matches!(&table.columns[0].1, Values::Int(game) if game.len() == cards));
    let labels: Vec<_> = table.labels.iter().map(|(name, ids)| (*name, ids.len())).collect();
    assert_eq!(labels, [("objective_ids", comps.objectives.len()),
                        ("fountain_ids", comps.fountains.len()), ("outcomes", 4)]);
}

#[test]
fn bad_specs_are_errors_not_panics() {
    let comps = comps();
    let strategies = specs(&["nope"]);
    let chunk = Chunk { players: 2, start_vp: &[8, 9], check: false, entropy: 1, games: &[0],
                        setups: &[0], lineups: &[0, 0], strategies: &strategies, stop: None, uses: false };
    assert!(play_chunk::<GameState, _>(&comps, &chunk, make).is_err());
    let strategies = specs(&["random"]);
    let chunk = Chunk { lineups: &[0, 3], strategies: &strategies, ..chunk };
    assert!(play_chunk::<GameState, _>(&comps, &chunk, make).is_err());
    let chunk = Chunk { players: 5, start_vp: &[0; 5], lineups: &[0; 5], ..chunk };
    let err = play_chunk::<GameState, _>(&comps, &chunk, make).unwrap_err();
    assert!(err.contains("players must be 2-4"), "{err}");
}

#[test]
fn the_seat_rows_one_text_column_is_the_strategy() {
    // a chunk writes its text column as indices into its strategies (and refuses a game
    // whose seat row has another)
    let texts: Vec<_> = GameRecord::columns().into_iter()
        .filter(|&(_, kind)| kind == cdsim_core::games::ColumnType::Text)
        .map(|(name, _)| name).collect();
    assert_eq!(texts, ["strategy"]);
}
