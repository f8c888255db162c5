//! The learned player (players/learned.rs, players/features.rs): legal, reproducible games;
//! decisions blind to the starting VP (R2.7) and to the order of the decks; its inputs
//! and the VP it banks; the weights files it reads and refuses. Strength is measured by
//! `cdsim ladder` (docs/strength.md), not here.

mod common;

use std::sync::{Arc, Mutex};

use cdsim_core::carpe_diem::district::District;
use cdsim_core::carpe_diem::game::{GameConfig, GameState, List, Options, Pending};
use cdsim_core::play::{ask, play_game, step};
use cdsim_core::carpe_diem::kinds::{CELLS, MEADOW, NEIGHBOUR, VILLA};
use cdsim_core::carpe_diem::players::features::{
    all_inputs, banked, features, names, Scratch, NAMES, N_FEATURES, N_INPUTS,
};
use cdsim_core::carpe_diem::players::learned::{register, Model, DEFAULT_WEIGHTS, INPUTS};
use cdsim_core::carpe_diem::players::{make, LearnedParams, LearnedPlayer, Player, Strategy};
use cdsim_core::carpe_diem::records::GameRecord;
use cdsim_core::rng::SeedSequence;
use common::{comps, Logged, START_VP_COLUMNS};

/// A game with a logged learned player in seat 0 and built-ins in the other seats.
fn logged_game(config: &GameConfig, others: &[&str], seed: u64) -> (Vec<(&'static str, usize)>,
                                                                     GameRecord) {
    let c = comps();
    let log: Arc<Mutex<Vec<(&'static str, usize)>>> = Arc::default();
    let note = {
        let log = log.clone();
        move |_: &LearnedPlayer, what: &'static str, i: usize| log.lock().unwrap().push((what, i))
    };
    let inner = LearnedPlayer::new(LearnedParams::default()).unwrap();
    let mut players = vec![Player::Other(Box::new(Logged { inner, note }))];
    players.extend(others.iter().map(|n| make(n, &[]).unwrap()));
    let record = play_game(&c, config, &mut players, SeedSequence::new(u128::from(seed), &[]));
    let decisions = log.lock().unwrap().clone();
    (decisions, record)
}

#[test]
fn learned_games_are_legal_and_a_seed_replays_its_game() {
    // checking mode verifies every invariant after every action; the engine rejects any
    // index out of range
    let c = comps();
    let mut config = GameConfig::new(3);
    config.check = true;
    let play = |seed: u64| {
        let mut players = vec![make("greedy", &[]).unwrap(), make("learned", &[]).unwrap(),
                               make("learned", &[]).unwrap()];
        play_game(&c, &config, &mut players, SeedSequence::new(u128::from(seed), &[]))
    };
    let a = play(4);
    assert_eq!(a.seats[1].strategy, "learned");
    assert_eq!(a.seats[1].tiles_taken, 28); // R4.6: 7 a phase
    assert_eq!(a, play(4));
    assert_ne!(a, play(5));
}

#[test]
fn starting_vp_never_change_a_decision() {
    // R2.7: the same seed under two very different starting-VP vectors gives the same
    // decisions and the same rows but for the VP that include the start, and the ranks
    // (at 2 players the positions are valued after the other seat's greedy reply)
    for (players, others) in [(3, &["greedy", "learned"][..]), (2, &["bread"][..])] {
        let mut runs = Vec::new();
        for start in [[8, 9, 13, 0], [0, 60, -20, 0]] {
            let config = GameConfig { players, start_vp: start, check: false };
            let (decisions, record) = logged_game(&config, others, 5);
            runs.push((decisions, record.rows_json(5), start));
        }
        same_but_the_start(&runs);
    }
}

type Run = (Vec<(&'static str, usize)>, Vec<serde_json::Value>, [i32; 4]);

fn same_but_the_start(runs: &[Run]) {
    let (log_a, rows_a, start_a) = &runs[0];
    let (log_b, rows_b, start_b) = &runs[1];
    assert!(log_a.len() > 50);
    assert_eq!(log_a, log_b);
    for (a, b) in rows_a.iter().zip(rows_b) {
        let strip = |row: &serde_json::Value| {
            let mut row = row.as_object().unwrap().clone();
            row.retain(|k, _| !START_VP_COLUMNS.contains(&k.as_str()));
            row
        };
        assert_eq!(strip(a), strip(b));
        let seat = a["seat"].as_u64().unwrap() as usize;
        assert_eq!(a["final_vp"].as_i64().unwrap() - b["final_vp"].as_i64().unwrap(),
                   i64::from(start_a[seat] - start_b[seat]));
    }
}

/// A copy of `state` whose light, dark and fountain decks lie in another order.
fn reordered(state: &GameState) -> GameState {
    fn reverse<const N: usize>(list: &List<N>) -> List<N> {
        let mut items = list.as_slice().to_vec();
        items.reverse();
        List::from_slice(&items)
    }
    let mut other = state.clone();
    other.light_deck = reverse(&state.light_deck);
    other.dark_deck = reverse(&state.dark_deck);
    other.fountain_deck = reverse(&state.fountain_deck);
    other
}

#[test]
fn decisions_never_read_the_order_of_the_decks_nor_the_starting_vp() {
    // the decks' order is the game's only hidden information: from a copy whose decks lie
    // in another order and whose starting VP differ, with the same stream, every decision
    // is the same and leaves the stream in the same place
    let c = comps();
    let config = GameConfig::new(2);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(8, &[]));
    let mut players: Vec<Player> = ["greedy", "bread"].iter().map(|n| make(n, &[]).unwrap())
        .collect();
    let mut buf = Options::default();
    let mut compared = 0;
    while !state.is_over() {
        if state.pending.seat() == Some(0) && !matches!(state.pending, Pending::Start { .. }) {
            let mut other = reordered(&state);
            other.players[0].start_vp += 50;
            other.players[1].start_vp -= 30;
            let (mut a, mut b) = (make("learned", &[]).unwrap(), make("learned", &[]).unwrap());
            let (mut ra, mut rb) = (rngs[0].clone(), rngs[0].clone());
            state.options(&c, &mut buf);
            let ia = ask(&state, &c, &mut a, &mut ra, &buf);
            let ib = ask(&other, &c, &mut b, &mut rb, &buf);
            assert_eq!(ia, ib, "{:?}", state.pending);
            assert_eq!(ra.integers(1 << 40), rb.integers(1 << 40));
            compared += 1;
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(compared > 40, "{compared}");
}

#[test]
fn inputs_and_banked_vp_are_gained_vp_and_open_information() {
    // banked VP at the end of a game are the seat's final VP less its starting VP; the
    // inputs are finite, and the same under other starting VP
    let c = comps();
    let mut config = GameConfig::new(4);
    config.start_vp = [8, 9, 10, 11];
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(3, &[]));
    let mut players: Vec<Player> = ["greedy", "villa", "landscape", "bread"].iter()
        .map(|n| make(n, &[]).unwrap()).collect();
    let mut buf = Options::default();
    let mut scratch = Scratch::default();
    let (mut a, mut b) = ([0.0; N_FEATURES], [0.0; N_FEATURES]);
    let mut seen = 0;
    while !state.is_over() {
        for seat in 0..4 {
            features(&state, &c, seat, &mut scratch, &mut a);
            let mut other = state.clone();
            other.players[seat].start_vp = -1000;
            features(&other, &c, seat, &mut Scratch::default(), &mut b);
            assert_eq!(a, b);
            assert!(a.iter().all(|x| x.is_finite()));
            assert_eq!(banked(&state, &c, seat), banked(&other, &c, seat));
            seen += 1;
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(seen > 400);
    let record = cdsim_core::carpe_diem::scoring::final_scoring(&state, &c, &["a", "b", "c", "d"]);
    for seat in 0..4 {
        let gained = record.seats[seat].final_vp - record.seats[seat].start_vp;
        assert_eq!(banked(&state, &c, seat), gained as f64);
    }
}

#[test]
fn open_features_are_the_districts_incomplete_features() {
    // the inputs count a district's open villas, landscapes and dwellings as District's
    // own union-find has them (District::open_features)
    let c = comps();
    let config = GameConfig::new(2);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(11, &[]));
    let mut players: Vec<Player> = ["greedy", "villa"].iter().map(|n| make(n, &[]).unwrap())
        .collect();
    let mut buf = Options::default();
    let at = |name: &str| NAMES.iter().position(|&n| n == name).unwrap();
    let mut out = [0.0; N_FEATURES];
    let mut checked = 0;
    while !state.is_over() {
        for seat in 0..2 {
            let d: &District = &state.players[seat].district;
            features(&state, &c, seat, &mut Scratch::default(), &mut out);
            let villas = d.open_features(1);
            assert_eq!(out[at("open_villas")], villas.len() as f64);
            let edges: i32 = villas.iter().map(|v| v.0).sum();
            assert_eq!(out[at("villa_open_edges")], f64::from(edges));
            let points: i32 = villas.iter().map(|v| c.villa_points(v.2)).sum();
            assert_eq!(out[at("villa_potential")], f64::from(points));
            let lands: Vec<_> = (2..=5).flat_map(|k| d.open_features(k)).collect();
            assert_eq!(out[at("open_landscapes")], lands.len() as f64);
            assert_eq!(out[at("landscape_tiles")], f64::from(lands.iter().map(|l| l.1).sum::<i32>()));
            let dwellings: usize = (6..=9).map(|k| d.open_features(k).len()).sum();
            assert_eq!(out[at("open_dwellings")], dwellings as f64);
            checked += 1;
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(checked > 100);
}

#[test]
fn the_built_in_weights_load_and_bad_files_are_one_line_errors() {
    let model = Model::from_json(DEFAULT_WEIGHTS).expect("the built-in weights");
    assert!(!model.components_digest.is_empty(), "trained on a named component set");
    let mut data: serde_json::Value = serde_json::from_str(DEFAULT_WEIGHTS).unwrap();
    let text = |d: &serde_json::Value| d.to_string();
    assert_eq!(register(&text(&data)), register(&text(&data)), "one entry per text");
    for (edit, says) in [
        (("format", serde_json::json!("other")), "\"format\" is not \"cdsim-weights\""),
        // Carpe Diem's format before there was one for every game: how to convert it
        (("format", serde_json::json!("cdsim-learned-weights")), "cdsim train --convert"),
        (("version", serde_json::json!(99)), "\"version\" 99"),
        (("game", serde_json::json!("castles")), "\"castles\"'s, not \"carpe-diem\"'s"),
        (("phases", serde_json::json!(3)), "\"phases\""),
        (("inputs", serde_json::json!(["bias"])), "other inputs"),
        (("weights", serde_json::json!({"2": []})), "weights[\"2\"]"),
    ] {
        let mut bad = data.clone();
        bad[edit.0] = edit.1;
        let err = Model::from_json(&text(&bad)).unwrap_err();
        assert!(err.contains(says), "{err}");
        assert!(!err.contains('\n'));
    }
    // input set 1 (the inputs before the placement ones) is read from its names
    let mut first = data.clone();
    let base = cdsim_core::carpe_diem::players::features::names(1).unwrap();
    let set1: Vec<String> = base.iter().map(|n| n.to_string())
        .chain(base.iter().map(|n| format!("{n}*takes_left"))).collect();
    first["inputs"] = serde_json::json!(set1);
    for per_phase in first["weights"].as_object_mut().unwrap().values_mut() {
        for row in per_phase.as_array_mut().unwrap() {
            *row = serde_json::json!(vec![0.5; set1.len()]);
        }
    }
    assert_eq!(Model::from_json(&text(&first)).unwrap().version(), 1);
    assert_eq!(model.version(), 2);
    assert!(Model::from_json("{").unwrap_err().contains("not a weights file"));
    data["weights"]["3"][1][INPUTS - 1] = serde_json::json!("x");
    assert!(Model::from_json(&text(&data)).unwrap_err().contains("finite numbers"));
}

#[test]
fn make_knows_learned_and_its_parameters() {
    let p = make("learned", &[("top_k".into(), 2.0), ("explore".into(), 0.5)]).unwrap();
    assert_eq!((p.name(), p.reads_scores()), ("learned", false));
    for (bad, says) in [
        (("top_k", 0.0), "whole number"),
        (("moves", 1.5), "whole number"),
        (("explore", 2.0), "0-1"),
        (("opponents", -1.0), ">= 0"),
        (("reply", 2.5), "whole number"),
        (("joint", -1.0), "whole number"),
        (("circles", 0.5), "whole number"),
        (("pin", 2.0), "0 or 1"),
        (("weights", 9999.0), "no weights loaded"),
        (("nope", 1.0), "no parameter"),
    ] {
        let err = make("learned", &[(bad.0.to_string(), bad.1)]).err().unwrap();
        assert!(err.contains(says), "{err}");
    }
    let id = register(DEFAULT_WEIGHTS).unwrap();
    assert!(id >= 1);
    assert!(make("learned", &[("weights".into(), id as f64)]).is_ok());
}

#[test]
fn a_finished_game_is_worth_its_gained_vp_less_the_others() {
    // whatever the weights: the seat's VP gained, less `opponents` times the other seats'
    // mean gain
    let c = comps();
    let config = GameConfig::new(2);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(2, &[]));
    let mut players: Vec<Player> = ["learned", "greedy"].iter().map(|n| make(n, &[]).unwrap())
        .collect();
    let mut buf = Options::default();
    while !state.is_over() {
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    let (mine, other) = (banked(&state, &c, 0), banked(&state, &c, 1));
    let mut player = LearnedPlayer::new(LearnedParams::default()).unwrap();
    assert_eq!(player.value(&state, &c, 0), mine - other);
    let own = LearnedParams { opponents: 0.0, ..LearnedParams::default() };
    let mut player = LearnedPlayer::new(own).unwrap();
    assert_eq!(player.value(&state, &c, 0), mine);
    let half = LearnedParams { opponents: 0.5, ..LearnedParams::default() };
    assert_eq!(LearnedPlayer::new(half).unwrap().value(&state, &c, 1), other - 0.5 * mine);
}

#[test]
fn search_labels_value_each_option_on_the_same_deck_orders_blind_to_deck_and_start() {
    // Expert Iteration's labels: each shortlisted option's value is the one its position
    // gets alone from a fresh tree with that seed (the deck orders of simulation j come
    // from (seed, j) only: common random numbers across the options), and neither the
    // real order of the decks nor the starting VP move a label (R2.7)
    use cdsim_core::carpe_diem::players::learned::search_labels;
    use cdsim_core::carpe_diem::players::{MctsParams, MctsPlayer};
    let c = comps();
    let config = GameConfig::new(4);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(12, &[]));
    let mut players: Vec<Player> = (0..4).map(|_| make("greedy", &[]).unwrap()).collect();
    let mut buf = Options::default();
    for _ in 0..30 {
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    while !matches!(state.pending, Pending::Move { .. }) {
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    let seat = state.pending.seat().unwrap();
    let search = MctsParams { playouts: 6, ..Default::default() };
    let labels = search_labels(&state, &c, &mut rngs[seat].clone(), search, 3, 0).unwrap();
    assert!(labels.len() > 4, "{}", labels.len());

    let mut learned = LearnedPlayer::new(LearnedParams { reply: 0, ..Default::default() })
        .unwrap();
    let shortlist = learned.shortlist(&state, &c, &mut rngs[seat].clone());
    assert_eq!(shortlist.len(), labels.len());
    for (option, label) in shortlist.iter().zip(&labels) {
        let (choice, position) = (&option.choice, &option.position);
        assert_eq!(choice, &label.choice);
        assert_eq!(option.placement, label.placement);
        let d = &position.players[seat].district;
        for cell in 0..36 {
            let sides = &label.district[4 * cell..4 * cell + 4];
            assert_eq!(sides == [255; 4], !d.is_built(cell));
            if d.is_built(cell) {
                assert_eq!(sides, d.edges[cell]);
            }
        }
        assert_eq!(choice.len(), 2, "a move and its take");
        let alone = MctsPlayer::new(search).position_value(position, &c, seat, 6, 3);
        assert_eq!(alone, label.value);
        assert_eq!(label.inputs.len(), 1 + 4 * (1 + N_INPUTS));
    }
    // greedy's placement values tell the shortlisted builds apart
    let first = labels[0].placement;
    assert!(labels.iter().any(|l| l.placement != first));

    let mut other = reordered(&state);
    for (p, vp) in other.players.iter_mut().zip([40, -7, 0, 13]) {
        p.start_vp += vp;
    }
    let blind = search_labels(&other, &c, &mut rngs[seat].clone(), search, 3, 0).unwrap();
    assert_eq!(blind, labels);
    let reseeded = search_labels(&state, &c, &mut rngs[seat].clone(), search, 4, 0).unwrap();
    assert_ne!(reseeded.iter().map(|l| l.value).collect::<Vec<_>>(),
               labels.iter().map(|l| l.value).collect::<Vec<_>>());
}

/// (open edges facing each empty cell, the non-meadow kinds facing it as bits) of a
/// district, from its built neighbours.
fn asked(d: &District) -> ([u8; CELLS], [u16; CELLS]) {
    let (mut count, mut kinds) = ([0u8; CELLS], [0u16; CELLS]);
    for cell in (0..CELLS).filter(|&c| !d.is_built(c)) {
        for (side, &n) in NEIGHBOUR[cell].iter().enumerate() {
            if n >= 0 && d.is_built(n as usize) && d.edges[n as usize][side ^ 2] != MEADOW {
                count[cell] += 1;
                kinds[cell] |= 1 << d.edges[n as usize][side ^ 2];
            }
        }
    }
    (count, kinds)
}

#[test]
fn placement_inputs_are_what_the_district_shows() {
    // weights version 2's inputs, each against the district worked out another way: a
    // dead cell is one no tile type fits in any orientation (District::matches), a
    // squeezed one faces open edges of two kinds, a hard one three open edges; features
    // one tile from closing as District's own union-find has them
    let c = comps();
    let config = GameConfig::new(3);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(12, &[]));
    let mut players: Vec<Player> = ["greedy", "villa", "landscape"].iter()
        .map(|n| make(n, &[]).unwrap()).collect();
    let mut buf = Options::default();
    let v2 = names(2).unwrap();
    assert_eq!(v2.len(), N_INPUTS);
    assert_eq!(&v2[..N_FEATURES], &NAMES[..]);
    let at = |name: &str| v2.iter().position(|&n| n == name).unwrap();
    let mut out = [0.0; N_INPUTS];
    let (mut checked, mut dead_seen, mut squeezed_seen) = (0, 0, 0);
    while !state.is_over() {
        for seat in 0..3 {
            let d: &District = &state.players[seat].district;
            all_inputs(&state, &c, seat, &mut Scratch::default(), &mut out);
            let (count, kinds) = asked(d);
            let dead = (0..CELLS).filter(|&cell| count[cell] > 0 && !c.tile_types.iter().any(
                |t| t.orientations().iter().any(|e| d.matches(cell, e)))).count();
            assert_eq!(out[at("dead_cells")], dead as f64);
            let squeezed = kinds.iter().filter(|k| k.count_ones() >= 2).count();
            assert_eq!(out[at("squeezed")], squeezed as f64);
            assert_eq!(out[at("squeezed_hard")], count.iter().filter(|&&k| k >= 3).count() as f64);
            let one = |ks: &[u8]| ks.iter().flat_map(|&k| d.open_features(k))
                .filter(|f| f.0 == 1).count() as f64;
            assert_eq!(out[at("villa_one")], one(&[VILLA]));
            assert_eq!(out[at("landscape_one")], one(&[2, 3, 4, 5]));
            dead_seen += usize::from(dead > 0);
            squeezed_seen += usize::from(squeezed > 0);
            checked += 1;
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(checked > 100 && dead_seen > 0 && squeezed_seen > 0, "{dead_seen} {squeezed_seen}");
}

#[test]
fn the_tile_values_kept_between_positions_know_the_grid() {
    // the inputs of a position are the same worked out with a scratch that has seen other
    // positions as with a fresh one, also when only the objective cards on the grid
    // differ (they change what a tile is worth through the prices)
    let c = comps();
    let config = GameConfig::new(4);
    let (mut state, mut rngs) = GameState::new(&c, &config, SeedSequence::new(13, &[]));
    let mut players: Vec<Player> = ["greedy", "villa", "landscape", "bread"].iter()
        .map(|n| make(n, &[]).unwrap()).collect();
    let mut buf = Options::default();
    let mut scratch = Scratch::default();
    let (mut kept, mut fresh, mut before) = ([0.0; N_FEATURES], [0.0; N_FEATURES], [0.0; N_FEATURES]);
    let reach = NAMES.iter().position(|&n| n == "reach_best").unwrap();
    let mut moved = 0;
    while !state.is_over() {
        for seat in 0..4 {
            features(&state, &c, seat, &mut scratch, &mut before);
            let mut other = state.clone();
            other.grid.rotate_left(1);
            features(&other, &c, seat, &mut scratch, &mut kept);
            features(&other, &c, seat, &mut Scratch::default(), &mut fresh);
            assert_eq!(kept, fresh);
            moved += usize::from(fresh[reach] != before[reach]);
        }
        step(&mut state, &c, &mut players, &mut rngs, &mut buf);
    }
    assert!(moved > 10, "the grid moved a tile's value {moved} times");
}

#[test]
fn every_declared_setting_is_taken_by_its_parser() {
    // a setting declared once (players/settings.rs) and not assigned by its parser would
    // be refused at play after Python's registry accepted it
    use cdsim_core::carpe_diem::players::settings::Kind;
    use cdsim_core::carpe_diem::players::{learned, mcts};
    for (player, table) in [("mcts", &mcts::SETTINGS[..]), ("learned", &learned::SETTINGS[..])] {
        for s in table {
            let value = match s.kind {
                Kind::Whole | Kind::Path => 0.0,
                _ => 1.0,
            };
            let made = make(player, &[(s.name.to_string(), value)]);
            assert!(made.is_ok(), "{player}.{}: {:?}", s.name, made.err());
        }
    }
}
