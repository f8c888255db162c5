//! The player interface and the built-in players, which live only here (a Python
//! strategy chooses through `cdsim/rules/strategy.py`; `cdsim/players/registry.py`
//! parses the names `make` takes).
//!
//! A player decides with one method: it receives a read-only view of the game and the
//! pending decision's options (`game::Options`, one `Action` each, in the engine's order)
//! and returns the index of one of them; a player may hand each decision kind to a
//! helper of its own. The engine never offers an illegal option and rejects an index out
//! of range. Players live outside the game state (passed alongside it), so a state can
//! be copied and played on with any players.

pub mod features;
pub mod learned;
pub mod mcts;
pub mod params;
pub mod plan;
pub mod position;
pub mod random;
pub mod scripted;
pub mod settings;
pub mod value;

use crate::components::Components;
use crate::game::{Action, GameState, Options, PlayerState};
use crate::rng::Generator;

pub use learned::{LearnedParams, LearnedPlayer};
pub use mcts::{MctsParams, MctsPlayer};
pub use params::Params;
pub use random::RandomPlayer;
pub use scripted::ScriptedPlayer;

/// What a player may look at: the whole state, read-only (the built-in players never
/// read victory-point totals).
#[derive(Clone, Copy)]
pub struct PlayerView<'a> {
    pub state: &'a GameState,
    pub comps: &'a Components,
    pub seat: usize,
}

impl<'a> PlayerView<'a> {
    pub fn me(&self) -> &'a PlayerState {
        &self.state.players[self.seat]
    }
}

/// A player: the index of its choice among the pending decision's options. `rng` is the
/// seat's own stream (a strategy's chance never moves the game's).
pub trait Strategy: Send {
    fn name(&self) -> &'static str;
    /// Built-in players never read victory-point totals (docs/rules.md R2.7).
    fn reads_scores(&self) -> bool {
        false
    }
    /// `options` are those of `view.state.pending` (never empty, all of its kind).
    fn choose(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize;
}

/// A seat's player: a built-in one, or any other `Strategy` (tests, search players).
pub enum Player {
    Random(RandomPlayer),
    Scripted(Box<ScriptedPlayer>),
    Other(Box<dyn Strategy>),
}

impl Player {
    fn inner(&mut self) -> &mut dyn Strategy {
        match self {
            Player::Random(p) => p,
            Player::Scripted(p) => p.as_mut(),
            Player::Other(p) => p.as_mut(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Player::Random(p) => p.name(),
            Player::Scripted(p) => p.name(),
            Player::Other(p) => p.name(),
        }
    }
}

impl Strategy for Player {
    fn name(&self) -> &'static str {
        Player::name(self)
    }
    fn reads_scores(&self) -> bool {
        match self {
            Player::Random(p) => p.reads_scores(),
            Player::Scripted(p) => p.reads_scores(),
            Player::Other(p) => p.reads_scores(),
        }
    }
    fn choose(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize {
        self.inner().choose(view, options, rng)
    }
}

/// Let `lineup` (a player and a stream per seat) play a copy of a game on while `go_on`
/// holds: the search players' playouts and replies (OpenSpiel's rollouts). A game itself
/// is played by the driver (`play::run`), which also checks invariants in checking mode
/// and names a player that chooses out of range.
pub(crate) fn play_on(
    state: &mut GameState,
    comps: &Components,
    lineup: &mut [Player],
    rngs: &mut [Generator],
    buf: &mut Options,
    go_on: impl FnMut(&GameState) -> bool,
) {
    play_on_telling(state, comps, lineup, rngs, buf, go_on, |_| {});
}

/// `play_on`, telling `chosen` each action played (the learned player keeps its replies).
pub(crate) fn play_on_telling(
    state: &mut GameState,
    comps: &Components,
    lineup: &mut [Player],
    rngs: &mut [Generator],
    buf: &mut Options,
    mut go_on: impl FnMut(&GameState) -> bool,
    mut chosen: impl FnMut(Action),
) {
    while let Some(seat) = state.pending.seat() {
        if !go_on(state) {
            break;
        }
        state.options(comps, buf);
        let view = PlayerView { state, comps, seat };
        let i = lineup[seat].choose(&view, buf, &mut rngs[seat]);
        chosen(buf[i]);
        state.apply(comps, buf[i]);
    }
}

/// The built-in player names (cdsim/players/registry.py BUILTIN, less the search players).
pub const BUILTIN: [&str; 5] = ["random", "greedy", "villa", "landscape", "bread"];

/// The search and learned players: built in, but only in the core
/// (cdsim/players/registry.py CORE_ONLY).
pub const SEARCH: [&str; 2] = ["mcts", "learned"];

/// A player's setting that must be a whole number from `low` to 1e9 (a count, a budget),
/// or the error line naming `player.name` (`mcts.playouts`, `learned.reply`, ...).
pub fn whole_setting(player: &str, name: &str, value: f64, low: f64) -> Result<usize, String> {
    if value.fract() == 0.0 && (low..=1e9).contains(&value) {
        Ok(value as usize)
    } else {
        Err(format!("{player}.{name} must be a whole number >= {low}, got {value}"))
    }
}

/// A fresh built-in player; `overrides` change its profile's weights (Params field
/// names), mcts's search settings (`MctsParams`) or the learned player's
/// (`LearnedParams`), as `--strategy-params` does.
pub fn make(name: &str, overrides: &[(String, f64)]) -> Result<Player, String> {
    if name == "random" {
        if let Some((key, _)) = overrides.first() {
            return Err(format!("random has no parameters (got {key:?})"));
        }
        return Ok(Player::Random(RandomPlayer));
    }
    if name == "mcts" {
        let params = MctsParams::default().with_overrides(overrides)?;
        return Ok(Player::Other(Box::new(MctsPlayer::new(params))));
    }
    if name == "learned" {
        let params = LearnedParams::default().with_overrides(overrides)?;
        return Ok(Player::Other(Box::new(LearnedPlayer::new(params)?)));
    }
    let Some(kind) = scripted::Profile::named(name) else {
        return Err(format!(
            "unknown strategy {name:?} (built-in: {}, {})",
            BUILTIN.join(", "),
            SEARCH.join(", ")
        ));
    };
    let params = kind.params().with_overrides(overrides)?;
    Ok(Player::Scripted(Box::new(ScriptedPlayer::new(
        kind, params,
    ))))
}

/// One player per seat; a single name fills every seat (registry.make_lineup).
pub fn make_lineup(names: &[&str], players: usize) -> Result<Vec<Player>, String> {
    let names: Vec<&str> = if names.len() == 1 {
        vec![names[0]; players]
    } else {
        names.to_vec()
    };
    if names.len() != players {
        return Err(format!("{} strategies for {players} players", names.len()));
    }
    names.iter().map(|n| make(n, &[])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send<T: Send>() {}
    fn sync<T: Sync>() {}

    #[test]
    fn players_and_states_cross_threads() {
        // the binding plays batches with the GIL released
        send::<Player>();
        send::<GameState>();
        sync::<GameState>();
        sync::<Components>();
    }

    #[test]
    fn make_knows_the_built_in_names_and_their_parameters() {
        for name in BUILTIN {
            assert_eq!(make(name, &[]).unwrap().name(), name);
        }
        let villa = make("villa", &[("chimney".to_string(), 2.0)]).unwrap();
        let Player::Scripted(p) = villa else {
            panic!("villa is scripted")
        };
        assert_eq!((p.params.chimney, p.params.villa_complete), (2.0, 1.5));
        assert!(make("villa", &[("chimneys".to_string(), 2.0)]).is_err());
        assert!(make("random", &[("good".to_string(), 2.0)]).is_err());
        assert!(make("minimax", &[]).is_err());
        let mcts = make("mcts", &[("playouts".to_string(), 7.0)]).unwrap();
        assert_eq!((mcts.name(), mcts.reads_scores()), ("mcts", false));
        for bad in [
            ("playouts", 0.0),
            ("playouts", 2.5),
            ("top_k", 0.0),
            ("c", -1.0),
            ("leaf", 1.5),
            ("cp", 1.0),
        ] {
            let err = make("mcts", &[(bad.0.to_string(), bad.1)]).err().unwrap();
            assert!(err.contains("mcts"), "{err}");
        }
    }
}
