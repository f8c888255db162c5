//! Training (`cdsim train`): the positions the learned player compares at a decision,
//! and their values by playouts to the end.

use std::sync::Arc;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::game::{GameState, Options, Pending};
use crate::carpe_diem::kinds::CELLS;
use crate::carpe_diem::players::features::{all_inputs, banked, features, Scratch, N_FEATURES, N_INPUTS};
use crate::carpe_diem::players::mcts::{MctsParams, MctsPlayer};
use crate::carpe_diem::players::{play_on, PlayerView};
use crate::rng::{Generator, SeedSequence};

use super::{shuffle_sorted, LearnedParams, LearnedPlayer, Model};

/// The rows `State.learned_playouts` gives `cdsim train`: per position the learned player
/// compares at the pending decision, the deciding seat's inputs, the VP it has gained if
/// the game ended there, the phase and the VP it gains on average by playouts
/// (`playout_gains`); then the other seats' mean inputs, VP gained so far and at the end.
/// A position where the game is over is left out (its end is its banked VP). `rng` (a
/// copy of the seat's stream) draws the copies' fountain decks.
pub fn playout_rows(
    state: &GameState,
    comps: &Components,
    rng: &mut Generator,
    playouts: u32,
    seed: u64,
    rollout: &str,
) -> Result<Vec<Vec<f64>>, String> {
    let Some(seat) = state.pending.seat() else {
        return Ok(Vec::new());
    };
    // the one-ply player the weights are fitted for (no replies: `cdsim train`)
    let params = LearnedParams { reply: 0, ..Default::default() };
    let mut player = LearnedPlayer::with_model(params, Arc::new(Model::banked_only()));
    let mut positions = player.candidates(state, comps, rng);
    positions.retain(|p| !p.is_over());
    let gains = playout_gains(&positions, comps, seat, playouts, seed, rollout)?;
    let mut scratch = Scratch::default();
    Ok(positions.iter().zip(gains).map(|(p, gains)| row(p, comps, seat, gains, &mut scratch))
        .collect())
}

/// One row of `playout_rows`.
fn row(p: &GameState, comps: &Components, seat: usize, [gain, others]: [f64; 2],
       scratch: &mut Scratch) -> Vec<f64> {
    let mut out = [0.0; N_FEATURES];
    features(p, comps, seat, scratch, &mut out);
    let mut row = out.to_vec();
    row.extend([banked(p, comps, seat), p.phase as f64, gain]);
    let mut mean = [0.0; N_FEATURES];
    let mut banked_others = 0.0;
    let k = (p.n - 1) as f64;
    for s in (0..p.n).filter(|&s| s != seat) {
        features(p, comps, s, scratch, &mut out);
        for (m, x) in mean.iter_mut().zip(out) {
            *m += x / k;
        }
        banked_others += banked(p, comps, s) / k;
    }
    row.extend(mean);
    row.extend([banked_others, others]);
    row
}

/// One option the learned player weighs at a decision (`LearnedPlayer::shortlist`).
pub struct Shortlisted {
    /// The option's index in the pending decision (for a move, then the take's).
    pub choice: Vec<usize>,
    /// The position after it and the seat's follow-ups (the one the weights value).
    pub position: GameState,
    /// The greedy profile's value of its build (`Evaluator::placement` of the tile on its
    /// cell; the store price for storing; 0 for a decision that builds nothing). The
    /// same for every orientation of one tile on one cell.
    pub placement: f64,
}

/// Training: the positions the player compares at a decision, each valued by playouts.
impl LearnedPlayer {
    /// The positions this player would value at the pending decision of `state` (after
    /// the seat's follow-ups and, with `reply` in force, the other seats' replies; a move
    /// through each shortlisted take): what `cdsim train` values by playouts. Empty when
    /// the decision is not valued (the blind start).
    pub fn candidates(&mut self, state: &GameState, comps: &Components, rng: &mut Generator)
        -> Vec<GameState> {
        self.shortlist(state, comps, rng).into_iter().map(|o| o.position).collect()
    }

    /// `candidates` with the choice that reaches each (the option's index in the pending
    /// decision, and for a move the take's index in the decision after it) and the greedy
    /// profile's placement value of its build.
    pub fn shortlist(&mut self, state: &GameState, comps: &Components, rng: &mut Generator)
        -> Vec<Shortlisted> {
        let mut out = Vec::new();
        let Some(seat) = state.pending.seat() else {
            return out;
        };
        let seen = self.seen(state, rng);
        let mut options = Options::new();
        seen.options(comps, &mut options);
        let view = PlayerView { state: &seen, comps, seat };
        let mut list = Vec::new();
        match seen.pending {
            Pending::Move { .. } => {
                let mut takes = Options::new();
                for i in self.move_order(&view, &options) {
                    let mut moved = seen.clone();
                    moved.apply(comps, options[i]);
                    if !matches!(moved.pending, Pending::Take { .. }) {
                        continue;
                    }
                    moved.options(comps, &mut takes);
                    let view = PlayerView { state: &moved, comps, seat };
                    self.shortlist_builds(&view, &takes, &mut list);
                    for &(k, placement) in &list {
                        let mut copy = moved.clone();
                        copy.apply(comps, takes[k]);
                        self.follow_up(&mut copy, comps, seat);
                        out.push(Shortlisted { choice: vec![i, k], position: copy, placement });
                    }
                }
                return out;
            }
            Pending::Take { .. } | Pending::Seal { .. } => {
                self.shortlist_builds(&view, &options, &mut list)
            }
            Pending::Start { .. } | Pending::Over => {}
            _ => list.extend((0..options.len()).map(|i| (i, 0.0))),
        }
        for (i, placement) in list {
            let mut copy = seen.clone();
            copy.apply(comps, options[i]);
            self.follow_up(&mut copy, comps, seat);
            out.push(Shortlisted { choice: vec![i], position: copy, placement });
        }
        out
    }
}

/// One option of a decision as search values it (`search_labels`).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchLabel {
    /// The option's index in the pending decision (for a move, then the take's).
    pub choice: Vec<usize>,
    /// mcts's mean margin of the position after the seat's turn (this seat's VP gained
    /// less the most another seat gains).
    pub value: f64,
    /// The learned player's value of that position (its weights `weights`, one ply).
    pub learned: f64,
    /// The phase, then per seat from the deciding one on in turn order: its banked VP
    /// and its inputs (`features::NAMES`, then `PLACEMENT_NAMES`); zero inputs where the
    /// game is over (the player values a finished game by its banked VP alone).
    pub inputs: Vec<f64>,
    /// The greedy profile's value of the option's build (`Shortlisted::placement`).
    pub placement: f64,
    /// The deciding seat's district after the option: per cell its four sides' kinds
    /// (top, right, bottom, left), 255 for an empty cell (for fits that read the grid).
    pub district: Vec<u8>,
}

/// Labels for the learned player's own decision (Expert Iteration): every option it
/// shortlists at the pending decision of `state` (one ply, no replies: the positions its
/// weights value), each position valued by `playouts` simulations of an mcts tree
/// (`mcts.top_k`, `mcts.c` as `search`) with the same deck orders for every option, from
/// `seed`. `rng` (a copy of the seat's stream) draws the copies' fountain decks. A
/// position where the game is over is valued by its margin.
pub fn search_labels(
    state: &GameState,
    comps: &Components,
    rng: &mut Generator,
    search: MctsParams,
    seed: u64,
    weights: usize,
) -> Result<Vec<SearchLabel>, String> {
    let Some(seat) = state.pending.seat() else {
        return Ok(Vec::new());
    };
    let params = LearnedParams { reply: 0, weights, ..Default::default() };
    let mut player = LearnedPlayer::new(params)?;
    let mut mcts = MctsPlayer::new(search);
    let mut scratch = Scratch::default();
    let mut labels = Vec::new();
    for Shortlisted { choice, position, placement } in player.shortlist(state, comps, rng) {
        let value = mcts.position_value(&position, comps, seat, search.playouts, seed);
        let learned = player.value(&position, comps, seat);
        let mut inputs = vec![position.phase as f64];
        let mut out = [0.0; N_INPUTS];
        for s in (0..position.n).map(|k| (seat + k) % position.n) {
            if !position.is_over() {
                all_inputs(&position, comps, s, &mut scratch, &mut out);
            }
            inputs.push(banked(&position, comps, s));
            inputs.extend(out);
        }
        let d = &position.players[seat].district;
        let district = (0..CELLS)
            .flat_map(|c| if d.is_built(c) { d.edges[c] } else { [u8::MAX; 4] })
            .collect();
        labels.push(SearchLabel { choice, value, learned, inputs, placement, district });
    }
    Ok(labels)
}

/// The VP `seat` gains, and the other seats gain (their mean), on average when every seat
/// plays `rollout` (a built-in name) from each position to the end, over `playouts`
/// orders of the decks as the seat may know them (the same orders for every position:
/// their differences are the positions'). Starting VP are set to 0 in the copies (R2.7).
pub fn playout_gains(
    positions: &[GameState],
    comps: &Components,
    seat: usize,
    playouts: u32,
    seed: u64,
    rollout: &str,
) -> Result<Vec<[f64; 2]>, String> {
    let mut totals = vec![[0.0; 2]; positions.len()];
    let Some(first) = positions.first() else {
        return Ok(totals);
    };
    let n = first.n;
    let mut lineup = crate::carpe_diem::players::make_lineup(&[rollout], n)?;
    let idle = Generator::new(&SeedSequence::new(0, &[]));
    let mut buf = Options::new();
    for j in 0..playouts {
        let order = Generator::new(&SeedSequence::new(u128::from(seed), &[u64::from(j)]));
        for (total, position) in totals.iter_mut().zip(positions) {
            let mut copy = position.clone();
            let mut rng = order.clone();
            shuffle_sorted(&mut copy.light_deck, &mut rng);
            shuffle_sorted(&mut copy.dark_deck, &mut rng);
            shuffle_sorted(&mut copy.fountain_deck, &mut rng);
            for p in copy.players.iter_mut() {
                p.start_vp = 0;
            }
            let mut streams = vec![idle.clone(); n];
            play_on(&mut copy, comps, &mut lineup, &mut streams, &mut buf, |_| true);
            total[0] += banked(&copy, comps, seat);
            let others: f64 = (0..n).filter(|&s| s != seat).map(|s| banked(&copy, comps, s)).sum();
            total[1] += others / (n - 1) as f64;
        }
    }
    let k = f64::from(playouts.max(1));
    Ok(totals.into_iter().map(|[a, b]| [a / k, b / k]).collect())
}
