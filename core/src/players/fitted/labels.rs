//! Search labels for the fitted player (Expert Iteration), for any game with inputs: games
//! of self-play by the player (its weights, or none: VP gained alone), and at a sampled
//! decision every shortlisted option's position (the option and the rest of the seat's
//! turn, on a copy drawn anew for the seat, as the player values it) valued by the
//! generic search (`UctPlayer::position_gains`: each seat's mean VP gained at the end),
//! with each seat's inputs there. `cdsim train --game NAME` fits the weights to them.

use std::sync::Arc;

use crate::games::inputs::Inputs;
use crate::players::{Strategy, UctParams, UctPlayer, View};
use crate::rng::{Generator, SeedSequence};

use super::{FittedParams, FittedPlayer, Model};

/// What to label: games `games` (each dealt from `(entropy, [game])`) of `players` seats.
#[derive(Clone, Debug)]
pub struct LabelSpec {
    pub players: usize,
    pub entropy: u64,
    pub games: Vec<u64>,
    /// A decision of two or more options is labelled with chance 1 / `every`.
    pub every: u64,
    /// Simulations of the search a labelled position.
    pub playouts: u32,
    /// The self-play player's settings (its `explore` varies the games).
    pub player: FittedParams,
}

/// The labelled positions, one row an option, seats from the deciding one on (`n` a row).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabelRows {
    /// The inputs' names (`Inputs::input_names`): `width` a seat.
    pub names: &'static [&'static str],
    pub width: usize,
    /// The phases weights are kept for (`Inputs::phases`).
    pub phases: usize,
    pub players: usize,
    /// The game each row's decision was sampled from.
    pub game: Vec<u64>,
    /// The decision, numbered from 0 within this call (its options share it).
    pub group: Vec<u64>,
    /// The position's phase (`Inputs::phase`).
    pub phase: Vec<u64>,
    /// The search's mean VP gained at the end, `players` a row.
    pub label: Vec<f64>,
    /// VP gained in the position, `players` a row.
    pub gained: Vec<f64>,
    /// Inputs, `players * width` a row (a finished game's: zeros).
    pub inputs: Vec<f32>,
}

/// The labels of `spec`'s games of `G`, searched by the game's mcts settings `search`
/// (`spec.playouts` simulations) with rollouts by `rollout`, self-play by the player with
/// `model`.
pub fn search_labels<G: Inputs, R: Strategy<G> + Clone>(
    comps: &G::Components, spec: &LabelSpec, model: Arc<Model>, search: UctParams, rollout: R,
) -> Result<LabelRows, String> {
    let n = spec.players;
    let config = G::config(n, &vec![0; n], false)?;
    let width = G::input_names().len();
    let mut rows = LabelRows { names: G::input_names(), width, phases: G::phases(), players: n,
                              ..LabelRows::default() };
    let search = UctParams { playouts: spec.playouts.max(1), ..search };
    let mut search = UctPlayer::with_rollout(search, rollout);
    let mut labeller = FittedPlayer::<G>::new(FittedParams { explore: 0.0, ..spec.player },
                                              Arc::clone(&model));
    let (mut options, mut values, mut inputs) = (Vec::new(), Vec::new(), Vec::new());
    let mut group = 0;
    for &game in &spec.games {
        let (mut state, mut rngs) = G::new(comps, &config, SeedSequence::new(
            u128::from(spec.entropy), &[game]));
        let mut lineup: Vec<FittedPlayer<G>> =
            (0..n).map(|_| FittedPlayer::new(spec.player, Arc::clone(&model))).collect();
        let mut labels = Generator::new(&SeedSequence::new(u128::from(spec.entropy),
                                                           &[game, 1]));
        while let Some(seat) = state.current_seat() {
            state.options(comps, &mut options);
            if options.len() > 1 && labels.integers(spec.every.max(1)) == 0 {
                labeller.shortlist(&state, comps, seat, &options);
                if labeller.order.len() > 1 {
                    let mut seen = state.clone();
                    seen.determinize(comps, seat, &mut labels);
                    for &i in &labeller.order.clone() {
                        let mut copy = seen.clone();
                        copy.apply(comps, options[i]);
                        labeller.finish_turn(&mut copy, comps, seat);
                        search.position_gains(&copy, comps, seat, &mut labels, &mut values);
                        rows.game.push(game);
                        rows.group.push(group);
                        rows.phase.push(copy.phase() as u64);
                        for s in (0..n).map(|k| (seat + k) % n) {
                            rows.label.push(values[s]);
                            rows.gained.push(copy.gained(comps, s));
                            if copy.is_over() {
                                inputs.clear();
                                inputs.resize(width, 0.0);
                            } else {
                                copy.inputs(comps, s, &mut inputs);
                            }
                            rows.inputs.extend_from_slice(&inputs);
                        }
                    }
                    group += 1;
                }
            }
            let view = View { state: &state, comps, seat };
            let i = lineup[seat].choose(&view, &options, &mut rngs[seat]);
            state.apply(comps, options[i]);
        }
    }
    Ok(rows)
}
