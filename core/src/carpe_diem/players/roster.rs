//! Carpe Diem's built-in players by name: `make` takes the names of
//! `cdsim/games/carpe_diem/players/registry.py` (`BUILTIN` and the core-only `SEARCH`).

use crate::carpe_diem::game::{Action, GameState};
use crate::carpe_diem::players::profile::{self, Profile};
use crate::carpe_diem::players::{learned, LearnedParams, LearnedPlayer, MctsParams, MctsPlayer,
                     RandomPlayer, ScriptedPlayer, Strategy, View};
use crate::rng::Generator;

/// A seat's player: a built-in one, or any other `Strategy` (tests, search players).
pub enum Player {
    Random(RandomPlayer),
    Scripted(Box<ScriptedPlayer>),
    Other(Box<dyn Strategy<GameState>>),
}

impl Player {
    fn inner(&mut self) -> &mut dyn Strategy<GameState> {
        match self {
            Player::Random(p) => p,
            Player::Scripted(p) => p.as_mut(),
            Player::Other(p) => p.as_mut(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Player::Random(p) => Strategy::<GameState>::name(p),
            Player::Scripted(p) => p.name(),
            Player::Other(p) => p.name(),
        }
    }
}

impl Strategy<GameState> for Player {
    fn name(&self) -> &'static str {
        Player::name(self)
    }
    fn reads_scores(&self) -> bool {
        match self {
            Player::Random(p) => Strategy::<GameState>::reads_scores(p),
            Player::Scripted(p) => p.reads_scores(),
            Player::Other(p) => p.reads_scores(),
        }
    }
    fn choose(&mut self, view: &View<GameState>, options: &[Action], rng: &mut Generator)
        -> usize {
        self.inner().choose(view, options, rng)
    }
}

/// The built-in player names (cdsim/games/carpe_diem/players/registry.py BUILTIN, less the search players):
/// random and every scripted profile (`profile::names`).
pub fn builtin() -> Vec<&'static str> {
    let mut names = vec!["random"];
    names.extend(profile::names());
    names
}

/// The search and learned players: built in, but only in the core
/// (cdsim/games/carpe_diem/players/registry.py CORE_ONLY).
pub const SEARCH: [&str; 2] = ["mcts", "learned"];

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
        let mut mcts = MctsPlayer::new(params);
        if params.leaf > 0 {
            mcts = mcts.with_leaf_value(learned::evaluator(learned::Model::builtin()?));
        }
        return Ok(Player::Other(Box::new(mcts)));
    }
    if name == "learned" {
        let params = LearnedParams::default().with_overrides(overrides)?;
        return Ok(Player::Other(Box::new(LearnedPlayer::new(params)?)));
    }
    let Some(profile) = Profile::named(name) else {
        return Err(format!(
            "unknown strategy {name:?} (built-in: {}, {})",
            builtin().join(", "),
            SEARCH.join(", ")
        ));
    };
    let params = profile.params().with_overrides(overrides)?;
    Ok(Player::Scripted(Box::new(ScriptedPlayer::new(profile, params))))
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
    use crate::carpe_diem::components::Components;

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
        for name in builtin() {
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
