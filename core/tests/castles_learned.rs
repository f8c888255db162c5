//! The Castles of Tuscany's `learned` (the seam's fitted player on Castles' inputs): its
//! inputs, whole games in checking mode, its built-in weights, its settings and labels.

use std::sync::Arc;

use cdsim_core::castles::inputs::{NAMES, N_INPUTS};
use cdsim_core::castles::roster::make;
use cdsim_core::castles::{learned, CastlesState, Components, Player, Scores};
use cdsim_core::games::inputs::Inputs;
use cdsim_core::games::registry;
use cdsim_core::games::{Game, Outcome};
use cdsim_core::play::play_game;
use cdsim_core::players::fitted::labels::LabelSpec;
use cdsim_core::players::fitted::{FittedParams, Model};
use cdsim_core::rng::SeedSequence;

#[test]
fn the_inputs_are_named_finite_and_read_no_hidden_order() {
    let comps = Components::builtin();
    let config = CastlesState::config(3, &[0, 0, 0], true).unwrap();
    let (mut state, _) = <CastlesState as Game>::new(&comps, &config, SeedSequence::new(2, &[1]));
    let mut unique = NAMES.to_vec();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), N_INPUTS);
    let (mut out, mut again, mut options) = (Vec::new(), Vec::new(), Vec::new());
    let mut lineup: Vec<Player> = (0..3).map(|_| make("greedy", &[]).unwrap()).collect();
    let mut rngs: Vec<_> = (0..3).map(|s| cdsim_core::rng::Generator::new(
        &SeedSequence::new(8, &[s]))).collect();
    let mut draw = cdsim_core::rng::Generator::new(&SeedSequence::new(9, &[]));
    let mut turns = 0;
    while let Some(seat) = state.current_seat() {
        for s in 0..3 {
            state.inputs(&comps, s, &mut out);
            assert_eq!(out.len(), N_INPUTS);
            assert!(out.iter().all(|x| x.is_finite()));
            // the piles' order is what a seat may not know: drawn anew, the inputs stay
            let mut other = state.clone();
            other.determinize(&comps, s, &mut draw);
            other.inputs(&comps, s, &mut again);
            assert_eq!(out, again, "seat {s}");
        }
        state.options(&comps, &mut options);
        let i = cdsim_core::play::ask(&state, &comps, &mut lineup[seat], &mut rngs[seat],
                                      &options);
        state.apply(&comps, options[i]);
        turns += 1;
    }
    assert!(turns > 100);
    // at the end, the VP gained are the red track (T11.2's leftovers scored)
    let scores = state.outcome(&comps, &["a", "b", "c"]);
    for s in 0..3 {
        assert_eq!(state.gained(&comps, s), scores.vp(s) as f64);
    }
}

#[test]
fn inputs_again_after_another_seats_move_are_the_inputs_afresh() {
    // the learned player values the other seats on a decision's copies by bringing their
    // inputs up to date (Inputs::inputs_again): the same numbers as computing them anew
    let comps = Components::builtin();
    let n = 4;
    let config = CastlesState::config(n, &vec![0; n], true).unwrap();
    let (mut state, mut rngs) = <CastlesState as Game>::new(&comps, &config,
                                                           SeedSequence::new(4, &[2]));
    let mut lineup: Vec<Player> = (0..n).map(|s| make(["learned", "greedy", "castle-monastery",
        "animal-farms"][s], &[]).unwrap()).collect();
    let (mut before, mut again, mut fresh, mut options) = (Vec::new(), Vec::new(), Vec::new(),
                                                          Vec::new());
    let (mut checked, mut changed) = (0, 0);
    while let Some(seat) = state.current_seat() {
        let was: Vec<Vec<f32>> = (0..n).map(|s| {
            state.inputs(&comps, s, &mut before);
            before.clone()
        }).collect();
        let phase = state.phase();
        state.options(&comps, &mut options);
        let i = cdsim_core::play::ask(&state, &comps, &mut lineup[seat], &mut rngs[seat],
                                      &options);
        state.apply(&comps, options[i]);
        if state.is_over() || state.phase() != phase {
            continue;
        }
        for s in (0..n).filter(|&s| s != seat) {
            again.clone_from(&was[s]);
            state.inputs_again(&comps, s, &mut again);
            state.inputs(&comps, s, &mut fresh);
            assert_eq!(again, fresh, "seat {s} after seat {seat}'s move");
            checked += 1;
            changed += usize::from(fresh != was[s]);
        }
    }
    assert!(checked > 300 && changed > 50, "{checked} checked, {changed} changed");
}

#[test]
fn the_prior_plays_by_castle_monasterys_values_and_trains_by_greedys() {
    use cdsim_core::castles::players::{prior_values, Weights};
    let comps = Components::builtin();
    let config = CastlesState::config(2, &[0, 0], true).unwrap();
    let (mut state, mut rngs) = <CastlesState as Game>::new(&comps, &config,
                                                           SeedSequence::new(6, &[1]));
    let mut lineup: Vec<Player> = (0..2).map(|_| make("greedy", &[]).unwrap()).collect();
    let (mut options, mut got, mut want) = (Vec::new(), Vec::new(), Vec::new());
    let mut differ = 0;
    while let Some(seat) = state.current_seat() {
        state.options(&comps, &mut options);
        for (which, w) in [(0, Weights::castle_monastery()), (1, Weights::greedy())] {
            assert!(state.prior(&comps, seat, &options, which, &mut got));
            prior_values(&state, &comps, seat, &options, &w, &mut want);
            assert_eq!(got, want, "prior {which}");
        }
        state.prior(&comps, seat, &options, 0, &mut got);
        state.prior(&comps, seat, &options, 1, &mut want);
        differ += usize::from(got != want);
        let i = cdsim_core::play::ask(&state, &comps, &mut lineup[seat], &mut rngs[seat],
                                      &options);
        state.apply(&comps, options[i]);
    }
    assert!(differ > 10, "{differ}");
}

#[test]
fn learned_plays_whole_games_at_every_player_count_with_its_builtin_weights() {
    let comps = Components::builtin();
    let model = learned::builtin().unwrap();
    assert_eq!(*model, Model::from_json::<CastlesState>(learned::DEFAULT_WEIGHTS, "castles")
               .unwrap());
    for n in 2..=4 {
        let config = CastlesState::config(n, &vec![0; n], true).unwrap();
        let mut lineup: Vec<Player> = (0..n)
            .map(|s| make(if s == 0 { "learned" } else { "greedy" }, &[]).unwrap()).collect();
        let scores: Scores = play_game(&comps, &config, &mut lineup,
                                       SeedSequence::new(3, &[n as u64]));
        assert!((0..n).all(|s| scores.vp(s) > 0), "{n} players");
        assert_eq!(lineup[0].name(), "learned");
    }
    let err = make("learned", &[("depth".into(), 1.0)]).err().unwrap();
    assert!(err.contains("\"depth\"") && err.contains("shortlist"), "{err}");
    // Python's registry names Carpe Diem's weights for any learned: passed over
    assert!(make("learned", &[("shortlist".into(), 3.0), ("weights".into(), 1.0)]).is_ok());
}

#[test]
fn labels_by_name_are_the_seams_and_refuse_other_weights() {
    let castles = registry::game("castles").unwrap();
    let comps = castles.components(&castles.builtin_components().unwrap()).unwrap();
    let spec = LabelSpec { players: 2, entropy: 7, games: vec![3], every: 40, playouts: 4,
                           player: FittedParams { explore: 0.1, ..FittedParams::default() } };
    let rows = castles.labels(&*comps, &spec, None).unwrap();
    assert_eq!(rows.width, N_INPUTS);
    assert!(rows.group.len() >= 4, "{}", rows.group.len());
    assert_eq!(rows, castles.labels(&*comps, &spec, None).unwrap());
    assert_eq!(rows.inputs.len(), rows.group.len() * 2 * N_INPUTS);
    // the training labels greedy's 8 best options (learned::TRAIN_SHORTLIST), more than the
    // 4 the player weighs
    let widest = (0..=*rows.group.iter().max().unwrap())
        .map(|g| rows.group.iter().filter(|&&x| x == g).count()).max().unwrap();
    assert!(widest > FittedParams::default().shortlist && widest <= learned::TRAIN_SHORTLIST,
            "{widest}");
    let err = castles.labels(&*comps, &spec, Some("{}")).unwrap_err();
    assert!(err.contains("format"), "{err}");
    let cd = registry::game("carpe-diem").unwrap();
    assert!(cd.labels(&*Arc::new(0u8), &spec, None).is_err());
}
