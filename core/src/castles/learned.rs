//! The Castles of Tuscany's `learned`: the seam's fitted player (`players::fitted`) on
//! Castles' inputs (`inputs`), with the weights `cdsim train --game castles` fits
//! (strategies/weights/castles-learned.json, built in), and its search labels (the
//! game's mcts settings, greedy rollouts).

use std::sync::{Arc, OnceLock};

use super::components::Components;
use super::players::{mcts_params, Scripted};
use super::state::CastlesState;
use crate::players::fitted::labels::{search_labels, LabelRows, LabelSpec};
use crate::players::fitted::{FittedParams, FittedPlayer, Model};

/// The game's name in a weights file.
pub const GAME: &str = "castles";

/// The built-in weights (`make train-castles` writes them; `make install` builds them in).
pub const DEFAULT_WEIGHTS: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"),
                                                       "/../strategies/weights/castles-learned.json"));

/// The built-in weights' model (an error when the file built in does not fit this core's
/// inputs: `make train-castles`, then `make install`).
pub fn builtin() -> Result<Arc<Model>, String> {
    static MODEL: OnceLock<Result<Arc<Model>, String>> = OnceLock::new();
    MODEL.get_or_init(|| Model::from_json::<CastlesState>(DEFAULT_WEIGHTS, GAME).map(Arc::new)
            .map_err(|e| format!("the built-in castles learned weights: {e}")))
        .clone()
}

/// The learned player with the built-in weights and these settings. A `weights` setting
/// is passed over: Python's registry names Carpe Diem's weights file by it for any
/// `learned` (castles plays its built-in weights only).
pub fn player(overrides: &[(String, f64)]) -> Result<FittedPlayer<CastlesState>, String> {
    let own: Vec<(&str, f64)> = overrides.iter().filter(|(name, _)| name != "weights")
        .map(|(name, value)| (name.as_str(), *value)).collect();
    let params = FittedParams::default().with_overrides(&own)?;
    Ok(FittedPlayer::new(params, builtin()?))
}

/// The training's self-play and labels shortlist greedy's `TRAIN_SHORTLIST` best options
/// (prior 1): a broader spread of options to fit on than the 4 best by castle-monastery's
/// values the player weighs (fitted on those alone, it fell to level with castle-monastery
/// at 4 players, docs/castles.md).
pub const TRAIN_SHORTLIST: usize = 8;
const TRAIN_PRIOR: usize = 1;

/// Search labels of Castles (`games::registry::Registered::labels`): self-play with the
/// weights file `weights` (None: VP gained alone), positions valued by mcts's settings.
pub fn labels(comps: &Components, spec: &LabelSpec, weights: Option<&str>)
    -> Result<LabelRows, String> {
    let player = FittedParams { shortlist: TRAIN_SHORTLIST, prior: TRAIN_PRIOR, ..spec.player };
    let spec = &LabelSpec { player, ..spec.clone() };
    let model = match weights {
        Some(text) => Model::from_json::<CastlesState>(text, GAME)?,
        None => Model::banked_only::<CastlesState>(),
    };
    search_labels::<CastlesState, _>(comps, spec, Arc::new(model), mcts_params(),
                                     Scripted::greedy())
}
