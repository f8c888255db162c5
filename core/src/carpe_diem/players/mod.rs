//! Carpe Diem's built-in players: the scripted ones (one value model, `profile`s of its
//! parameters), `mcts` (its own search, which knows the game's decisions) and `learned`
//! (a value function fitted to search labels); `roster` makes them by name (`make`, for
//! `crate::games::registry`). The players every game uses (`Strategy`, random, the
//! generic `uct`) are `crate::players`', re-exported here beside them.

pub mod evaluate;
pub mod features;
pub mod learned;
pub mod mcts;
pub mod params;
pub mod plan;
pub mod position;
pub mod profile;
mod roster;
pub mod scripted;
pub mod value;

use crate::carpe_diem::game::{GameState, PlayerState};

pub use crate::players::{random, settings, uct, whole_setting, RandomPlayer, Strategy, UctParams,
                         UctPlayer, View};
pub(crate) use crate::players::{play_on, play_on_telling};
pub use learned::{LearnedParams, LearnedPlayer};
pub use mcts::{MctsParams, MctsPlayer};
pub use params::Params;
pub use roster::{builtin, make, make_lineup, Player, SEARCH};
pub use scripted::ScriptedPlayer;

/// A Carpe Diem seat's view.
pub type PlayerView<'a> = View<'a, GameState>;

impl<'a> View<'a, GameState> {
    pub fn me(&self) -> &'a PlayerState {
        &self.state.players[self.seat]
    }
}
