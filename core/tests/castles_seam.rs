//! The Castles of Tuscany through the game seam: its chunks played by the game-free batch
//! runner by name (`games::registry`), its rows' declared columns, determinism, the
//! starting VP read by no built-in player, and the generic mcts against random and greedy.

use cdsim_core::batch::{Chunk, Columns, StrategySpec, RUN_COLUMNS};
use cdsim_core::castles::roster::{make, PLAYER_NAMES};
use cdsim_core::castles::{Action, CastlesState, Components, Player, Scores};
use cdsim_core::games::registry;
use cdsim_core::games::{Game, Outcome, Values};
use cdsim_core::play::{ask, play_game};
use cdsim_core::rng::{Generator, SeedSequence};

fn specs(names: &[&str]) -> Vec<StrategySpec> {
    names.iter().map(|n| StrategySpec { name: n.to_string(), overrides: vec![] }).collect()
}

fn ints<'a>(columns: &'a Columns, name: &str) -> &'a [i64] {
    match columns.column(name) {
        Some(Values::Int(v)) => v,
        other => panic!("{name}: {other:?}"),
    }
}

fn bools<'a>(columns: &'a Columns, name: &str) -> &'a [bool] {
    match columns.column(name) {
        Some(Values::Bool(v)) => v,
        other => panic!("{name}: {other:?}"),
    }
}

/// A 4-player chunk of three games of the scripted styles and random, by name.
fn castles_chunk(entropy: u128, start_vp: &[i32]) -> Columns {
    let castles = registry::game("castles").unwrap();
    let json = castles.builtin_components().expect("the core holds Castles' set");
    let comps = castles.components(&json).unwrap();
    let strategies = specs(&PLAYER_NAMES[..5]);
    let lineups = [1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 1, 0];
    let chunk = Chunk { players: 4, start_vp, check: true, entropy, games: &[0, 1, 2],
                        setups: &[5, 6, 5], lineups: &lineups, strategies: &strategies,
                        stop: None, uses: false };
    castles.play_chunk(&*comps, &chunk).unwrap()
}

#[test]
fn a_chunk_by_name_gives_the_declared_columns_and_each_games_rows() {
    let start = [3, 0, -2, 7];
    let columns = castles_chunk(11, &start);
    let names: Vec<_> = columns.columns.iter().map(|&(name, _)| name).collect();
    let declared: Vec<_> = Scores::columns().into_iter().chain(RUN_COLUMNS)
        .map(|(name, _)| name).collect();
    assert_eq!(names, declared);
    assert_eq!(registry::game("castles").unwrap().columns(), Scores::columns());
    for source in Scores::BREAKDOWN {
        assert!(names.contains(&format!("vp_{source}").as_str()), "vp_{source}");
    }
    let rows = 3 * 4;
    assert!(columns.columns.iter().all(|(_, v)| match v {
        Values::Int(v) => v.len() == rows,
        Values::Bool(v) => v.len() == rows,
        Values::Index(v) => v.len() == rows,
    }));
    let (fin, rank, won) = (ints(&columns, "final_vp"), ints(&columns, "rank"),
                            bools(&columns, "won"));
    for r in 0..rows {
        let sum: i64 = Scores::BREAKDOWN.iter()
            .map(|s| ints(&columns, &format!("vp_{s}"))[r]).sum();
        assert_eq!(sum, fin[r], "row {r}: final VP is the breakdown's sum");
        assert_eq!(ints(&columns, "vp_start")[r], i64::from(start[r % 4]));
        assert_eq!(won[r], rank[r] == 1);
    }
    for g in 0..3 {
        // T13.2: unique places
        let mut places: Vec<i64> = rank[4 * g..4 * g + 4].to_vec();
        places.sort_unstable();
        assert_eq!(places, [1, 2, 3, 4], "game {g}: unique places");
        // the winner has the most VP (T11.4's tie-breaks only order equal VP)
        let best = fin[4 * g..4 * g + 4].iter().max().unwrap();
        let winner = (0..4).find(|&s| rank[4 * g + s] == 1).unwrap();
        assert_eq!(fin[4 * g + winner], *best);
    }
    // each game's rows are that game played alone by the driver from its deal's seed
    let comps = Components::builtin();
    let config = CastlesState::config(4, &start, true).unwrap();
    let mut lineup: Vec<Player> = ["greedy", "castle-monastery", "trade-workers",
                                   "animal-farms"].iter().map(|n| make(n, &[]).unwrap())
        .collect();
    let alone: Scores = play_game(&comps, &config, &mut lineup, SeedSequence::new(11, &[5]));
    for seat in 0..4 {
        assert_eq!(alone.vp(seat), fin[seat]);
        assert_eq!(alone.rank(seat) as i64, rank[seat]);
    }
}

#[test]
fn the_same_seed_gives_the_same_rows_and_another_seed_others() {
    let a = castles_chunk(21, &[0; 4]);
    let b = castles_chunk(21, &[0; 4]);
    assert_eq!(a.columns, b.columns);
    let c = castles_chunk(22, &[0; 4]);
    assert_ne!(ints(&a, "final_vp"), ints(&c, "final_vp"));
}

/// The actions of one game of `names` from `seed` under the starting VP `start`, and its
/// outcome.
fn actions(comps: &Components, names: &[&str], start: &[i32], seed: u64,
           overrides: &[(String, f64)]) -> (Vec<Action>, Scores) {
    let config = CastlesState::config(names.len(), start, false).unwrap();
    let (mut state, mut rngs) = <CastlesState as Game>::new(comps, &config,
                                                            SeedSequence::new(9, &[seed]));
    let mut lineup: Vec<Player> = names.iter()
        .map(|n| make(n, if *n == "mcts" { overrides } else { &[] }).unwrap()).collect();
    let (mut log, mut options) = (Vec::new(), Vec::new());
    while let Some(seat) = state.current_seat() {
        state.options(comps, &mut options);
        let i = ask(&state, comps, &mut lineup[seat], &mut rngs[seat], &options);
        log.push(options[i]);
        state.apply(comps, options[i]);
    }
    let names: Vec<&'static str> = lineup.iter().map(|p| p.name()).collect();
    let outcome = state.outcome(comps, &names);
    (log, outcome)
}

#[test]
fn the_starting_vp_change_no_decision_of_any_builtin_player() {
    // T13.1, T13.4: the rulebook gives no starting VP: they are a compensation no player
    // reads, so a run can be re-ranked under others
    let comps = Components::builtin();
    let few = [("playouts".to_string(), 4.0)];
    for seed in 0..12u64 {
        let n = 2 + (seed % 3) as usize;
        // every player but mcts (below, few games: it is slow), learned among them
        let cheap: Vec<&str> = PLAYER_NAMES.iter().copied().filter(|&p| p != "mcts").collect();
        let names: Vec<&str> = (0..n).map(|s| cheap[(s + seed as usize) % cheap.len()])
            .collect();
        let (zero, _) = actions(&comps, &names, &vec![0; n], seed, &few);
        let skew: Vec<i32> = (0..n as i32).map(|s| 40 * s - 25).collect();
        let (skewed, scores) = actions(&comps, &names, &skew, seed, &few);
        assert_eq!(zero, skewed, "seed {seed}, {names:?}");
        assert!((0..n).all(|s| scores.start_vp(s) == i64::from(skew[s])));
    }
    for seed in 0..2u64 {
        let names = ["mcts", "greedy"];
        let (zero, _) = actions(&comps, &names, &[0, 0], seed, &few);
        let (skewed, _) = actions(&comps, &names, &[-30, 50], seed, &few);
        assert_eq!(zero, skewed, "mcts, seed {seed}");
    }
}

/// The share of 2-player games mcts (its Castles settings) wins against `other`, over
/// `deals` deals, each played with the seats swapped.
fn mcts_share(other: &str, deals: u64) -> f64 {
    let comps = Components::builtin();
    let config = CastlesState::config(2, &[0, 0], false).unwrap();
    let mut won = 0;
    for deal in 0..deals {
        for searcher in 0..2 {
            let mut lineup: Vec<Player> = vec![make(other, &[]).unwrap(),
                                               make(other, &[]).unwrap()];
            lineup[searcher] = make("mcts", &[]).unwrap();
            let scores: Scores = play_game(&comps, &config, &mut lineup,
                                           SeedSequence::new(4, &[deal]));
            won += usize::from(scores.rank(searcher) == 1);
        }
    }
    won as f64 / (2 * deals) as f64
}

#[test]
fn mcts_beats_random_and_is_at_least_level_with_greedy() {
    // not timed: a fixed number of simulations per decision, fixed deals
    let against_random = mcts_share("random", 4);
    assert!(against_random >= 0.99, "{against_random}");
    let against_greedy = mcts_share("greedy", 6);
    assert!(against_greedy >= 0.5, "{against_greedy}");
}

#[test]
fn bad_player_names_and_settings_are_one_line_errors() {
    let err = |name: &str, overrides: &[(String, f64)]| make(name, overrides).err().unwrap();
    assert!(err("chess", &[]).contains("\"chess\""));
    assert!(err("mcts", &[("margin".into(), 2.0)]).contains("mcts.margin"));
    assert!(err("mcts", &[("depth".into(), 2.0)]).contains("\"depth\""));
    assert!(err("greedy", &[("playouts".into(), 2.0)]).contains("greedy"));
    assert!(CastlesState::config(5, &[0; 5], false).unwrap_err().contains("2, 3 or 4"));
    assert!(CastlesState::config(3, &[0; 2], false).unwrap_err().contains("one start VP"));
    assert!(CastlesState::components("{").unwrap_err().contains("castles components JSON"));
}

#[test]
fn t13_3_determinize_draws_anew_only_what_the_seat_cannot_see() {
    // a mid-game 3-player position: whatever is drawn anew, the seat's observation (T12)
    // and every invariant stay; the hidden orders and the others' hands move
    let comps = Components::builtin();
    let config = CastlesState::config(3, &[0; 3], true).unwrap();
    let (mut state, mut rngs) = <CastlesState as Game>::new(&comps, &config,
                                                            SeedSequence::new(5, &[2]));
    let mut lineup: Vec<Player> = ["greedy"; 3].iter().map(|n| make(n, &[]).unwrap()).collect();
    let mut options = Vec::new();
    for _ in 0..120 {
        cdsim_core::play::step(&mut state, &comps, &mut lineup, &mut rngs, &mut options);
    }
    let seat = state.current_seat().expect("mid-game");
    let mut moved = (false, false, false);
    for k in 0..8u64 {
        let mut copy = state.clone();
        copy.determinize(&comps, seat, &mut Generator::new(&SeedSequence::new(1, &[k])));
        assert_eq!(Game::observe(&copy, &comps, seat), Game::observe(&state, &comps, seat),
                   "draw {k}");
        copy.invariants(&comps).unwrap();
        assert_eq!(copy.seats[seat].hand, state.seats[seat].hand);
        let others = |s: &CastlesState| (0..3).filter(|&i| i != seat)
            .map(|i| s.seats[i].hand).collect::<Vec<_>>();
        moved.0 |= others(&copy) != others(&state);
        moved.1 |= copy.deck[..copy.deck_len as usize] != state.deck[..state.deck_len as usize];
        moved.2 |= copy.seats[seat].stack[copy.seats[seat].drawn as usize..]
            != state.seats[seat].stack[state.seats[seat].drawn as usize..];
    }
    assert_eq!(moved, (true, true, true), "others' hands, the deck, the seat's own stacks");
}
