//! The Mediterranean game through the seam's generic parts (not yet in the registry's
//! `GAMES`: an `Entry` of its own plays it): a chunk by the batch runner with its
//! declared columns, a replay record, the players by name, and mcts beating random.

mod mediterranean_common;
use mediterranean_common::*;

use cdsim_core::batch::{Chunk, StrategySpec, RUN_COLUMNS};
use cdsim_core::games::registry::{Entry, OneGame, Registered};
use cdsim_core::games::{Outcome, Values};
use cdsim_core::mediterranean::players::{make, PLAYER_NAMES};
use cdsim_core::mediterranean::{MedState, Player, Scores};

static ENTRY: Entry<MedState, Player> = Entry::new("mediterranean", make);

fn specs(names: &[&str]) -> Vec<StrategySpec> {
    names.iter().map(|n| StrategySpec { name: n.to_string(), overrides: vec![] }).collect()
}

#[test]
fn a_chunk_through_the_batch_runner_gives_the_declared_columns() {
    let json = ENTRY.builtin_components().unwrap();
    let comps = ENTRY.components(&json).unwrap();
    let strategies = specs(&PLAYER_NAMES[..5]);
    let lineups = [0, 1, 2, 3, 4, 4, 3, 2, 1];
    let start = [0, 2, -1];
    let chunk = Chunk { players: 3, start_vp: &start, check: true, entropy: 3,
                        games: &[0, 1, 2], setups: &[1, 2, 3], lineups: &lineups,
                        strategies: &strategies, stop: None, uses: false };
    let cols = ENTRY.play_chunk(&*comps, &chunk).unwrap();
    let names: Vec<_> = cols.columns.iter().map(|&(n, _)| n).collect();
    let declared: Vec<_> = Scores::columns().into_iter().chain(RUN_COLUMNS)
        .map(|(n, _)| n).collect();
    assert_eq!(names, declared);
    for source in Scores::BREAKDOWN {
        assert!(names.contains(&format!("vp_{source}").as_str()));
    }
    let Some(Values::Int(rank)) = cols.column("rank") else { panic!() };
    assert_eq!(rank.len(), 9);
    for g in 0..3 {
        let mut r = rank[3 * g..3 * g + 3].to_vec();
        r.sort_unstable();
        assert_eq!(r, vec![1, 2, 3]);
    }
}

#[test]
fn a_replay_records_a_five_player_game() {
    let comps = ENTRY.components(&ENTRY.builtin_components().unwrap()).unwrap();
    let lineup = specs(&["greedy", "random", "gold-first", "long-haul", "temple-majority"]);
    let one = OneGame { players: 5, start_vp: &[0; 5], entropy: 4, setup: Some(1),
                        lineup: &lineup, check: true };
    let json = ENTRY.replay(&*comps, &one).unwrap();
    assert!(json.contains("sails Crete"), "options in words");
    assert!(json.contains("takes "));
}

#[test]
fn the_replay_frame_draws_the_map_and_names_every_contract() {
    // the page draws from the frame alone: the map (every city and route of the set, each
    // route's distance tile), each ship by its city, each register column as its city,
    // region, good and reward (M1.3), each rowing card's face by its number
    let c = comps();
    let t = c.tables();
    let g = to_delivery(&c, 4, 3);
    let f = g.frame(&c);
    let board = &f["board"];
    let cities: Vec<&str> = board["cities"].as_array().unwrap().iter()
        .map(|x| x["name"].as_str().unwrap()).collect();
    assert_eq!(cities, t.city_names.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(board["routes"].as_array().unwrap().len(), t.routes.len());
    assert_eq!(f["miles"].as_array().unwrap().len(), t.routes.len());
    assert_eq!(board["rowing"].as_array().unwrap().len(), t.rowing.len());
    assert_eq!(board["temples"].as_array().unwrap().len(), t.regions() + 1);
    assert_eq!(board["start"], "Crete");
    for (seat, s) in f["seats"].as_array().unwrap().iter().enumerate() {
        assert_eq!(s["ship"], "Crete");
        let register = s["register"].as_array().unwrap();
        assert_eq!(register.len(), 5);
        for (k, col) in register.iter().enumerate() {
            let want = g.seats[seat].register[k];
            let face = t.city_cards[want.city as usize];
            let good = t.goods_cards[want.goods as usize] as usize;
            assert_eq!(col["status"], "open");
            assert_eq!(col["city"], t.city_names[face.city as usize].as_str());
            assert_eq!(col["good"], t.good_names[good].as_str());
            assert_eq!(col["gold"], face.gold[good]);
            assert_eq!(col["temple"], face.temple[good]);
            let region = t.region_names[t.region_of[face.city as usize] as usize].as_str();
            assert_eq!(col["region"], region);
        }
    }
    // a register column is empty before the first contract
    let start = game(&c, 4, 3).frame(&c);
    assert_eq!(start["seats"][0]["register"][0], serde_json::json!({"status": "empty"}));
}

#[test]
fn players_by_name_and_bad_names() {
    for name in PLAYER_NAMES {
        assert_eq!(make(name, &[]).unwrap().name(), name);
    }
    let err = |r: Result<Player, String>| r.err().expect("an error");
    assert!(err(make("castle-monastery", &[])).contains("unknown player"));
    assert!(err(make("random", &[("c".into(), 1.0)])).contains("takes no setting"));
    // a scripted player's settings are its profile's weights (profiles.rs)
    assert!(err(make("greedy", &[("c".into(), 1.0)])).contains("no weight \"c\""));
    assert!(make("greedy", &[("gold".into(), 1.0)]).is_ok());
    assert!(make("mcts", &[("playouts".into(), 0.5)]).is_err());
}

#[test]
fn mcts_beats_random() {
    let c = comps();
    let mut wins = 0;
    let games = 6;
    for seed in 0..games {
        let seat = (seed % 3) as usize;
        let mut names = ["random"; 3];
        names[seat] = "mcts";
        let config = MedState::config(3, &[0; 3], false).unwrap();
        let mut players: Vec<_> = names.iter()
            .map(|n| make(n, &[("playouts".into(), 40.0)].iter()
                .filter(|_| *n == "mcts").cloned().collect::<Vec<_>>()).unwrap()).collect();
        use cdsim_core::games::Game;
        let s = cdsim_core::play::play_game::<MedState, _>(
            &c, &config, &mut players, cdsim_core::rng::SeedSequence::new(1, &[seed]));
        wins += usize::from(s.rank(seat) == 1);
    }
    assert!(wins >= 4, "mcts won {wins} of {games} against two random seats");
}

/// No built-in player lets the starting VP change a decision (M8.3: added at the end, read
/// by no rule and no player): the same deals under two starting vectors give every seat
/// the same points from play and the same final play order.
#[test]
fn starting_vp_change_no_decision_of_any_built_in_player() {
    let json = ENTRY.builtin_components().unwrap();
    let comps = ENTRY.components(&json).unwrap();
    let names: Vec<&str> = PLAYER_NAMES.iter().copied().filter(|&n| n != "mcts").collect();
    let strategies = specs(&names);
    let n = 4;
    let k = names.len();
    let lineups: Vec<u8> = (0..k).flat_map(|p| (0..n).map(move |s| ((p + s) % k) as u8))
        .collect();
    let games: Vec<i64> = (0..k as i64).collect();
    let setups: Vec<i64> = (1..=k as i64).collect();
    let play = |start: &[i32]| {
        let chunk = Chunk { players: n, start_vp: start, check: true, entropy: 11,
                            games: &games, setups: &setups, lineups: &lineups,
                            strategies: &strategies, stop: None, uses: false };
        ENTRY.play_chunk(&*comps, &chunk).unwrap()
    };
    let (plain, shifted) = (play(&[0; 4]), play(&[9, -3, 4, 1]));
    let mut compared = 0;
    for source in Scores::BREAKDOWN.iter().filter(|&&s| s != "start") {
        let column = format!("vp_{source}");
        let (Some(Values::Int(a)), Some(Values::Int(b))) =
            (plain.column(&column), shifted.column(&column)) else { panic!("{column}") };
        assert_eq!(a, b, "{column} moved with the starting VP");
        compared += 1;
    }
    let (Some(Values::Int(a)), Some(Values::Int(b))) =
        (plain.column("final_order"), shifted.column("final_order")) else { panic!() };
    assert_eq!(a, b, "the final play order moved with the starting VP");
    assert!(compared >= 2);
}
