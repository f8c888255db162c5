//! The Castles of Tuscany's built-in players by name, as the registry (`games::registry`)
//! makes them: random, greedy and the scripted styles and mcts (`players`), and learned
//! (`learned`, which plays on `players`' prior and mcts's settings). Kept apart from both
//! so that the files depend one way: players <- learned <- roster.

use super::learned;
use super::players::{mcts_params, Scripted, Weights};
use super::state::CastlesState;
use crate::players::{RandomPlayer, Strategy, UctPlayer};

/// A Castles seat's player, as the registry makes it.
pub type Player = Box<dyn Strategy<CastlesState>>;

/// The built-in players' names (`make`).
pub const PLAYER_NAMES: [&str; 7] = [
    "random",
    "greedy",
    "castle-monastery",
    "trade-workers",
    "animal-farms",
    "mcts",
    "learned",
];

/// The scripted players' names and weights.
fn scripted(name: &str) -> Option<Scripted> {
    let (name, weights) = match name {
        "greedy" => ("greedy", Weights::greedy()),
        "castle-monastery" => ("castle-monastery", Weights::castle_monastery()),
        "trade-workers" => ("trade-workers", Weights::trade_workers()),
        "animal-farms" => ("animal-farms", Weights::animal_farms()),
        _ => return None,
    };
    Some(Scripted { name, weights })
}

/// A built-in player by name, with its settings overridden (mcts's: `mcts.playouts`,
/// `mcts.c`; learned's: `learned.shortlist`, ...); an unknown name or setting is an error naming it.
pub fn make(name: &str, overrides: &[(String, f64)]) -> Result<Player, String> {
    if name == "mcts" {
        let params = mcts_params().with_overrides(overrides)?;
        return Ok(Box::new(UctPlayer::with_rollout(params, Scripted::greedy())));
    }
    if name == "learned" {
        return Ok(Box::new(learned::player(overrides)?));
    }
    if let Some((key, _)) = overrides.first() {
        return Err(format!("castles {name}: takes no setting, got {key:?}"));
    }
    match name {
        "random" => Ok(Box::new(RandomPlayer)),
        _ => scripted(name).map(|p| Box::new(p) as Player).ok_or_else(|| {
            format!("castles: unknown player {name:?} (known: {})", PLAYER_NAMES.join(", "))
        }),
    }
}
