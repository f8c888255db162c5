//! The player interface every game uses, and the players that play any game: a player
//! decides with one method, for any game (`crate::games::Game`): it receives a read-only
//! view of the game and the pending decision's options (the game's one action type, in the
//! engine's order) and returns the index of one of them; a player may hand each decision
//! kind to a helper of its own. The engine never offers an illegal option and rejects an
//! index out of range. Players live outside the game state (passed alongside it), so a
//! state can be copied and played on with any players.
//!
//! `random`, `uct` (a game's `mcts`) and `fitted` (a game's learned player over its
//! inputs, `games::inputs`) play any game through the trait; `settings`
//! declares a player's settings once. Each game's own players live in its folder
//! (`crate::carpe_diem::players`, `crate::castles::players`). A Python strategy chooses
//! through `cdsim/games/carpe_diem/rules/strategy.py`; `cdsim/games/carpe_diem/players/registry.py` parses the names.

pub mod fitted;
pub mod random;
pub mod settings;
pub mod uct;

use crate::games::Game;
use crate::rng::Generator;

pub use random::RandomPlayer;
pub use uct::{UctParams, UctPlayer};

/// What a player may look at: the whole state, read-only (the built-in players never
/// read victory-point totals).
pub struct View<'a, G: Game> {
    pub state: &'a G,
    pub comps: &'a G::Components,
    pub seat: usize,
}

impl<G: Game> Clone for View<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for View<'_, G> {}

/// A player of `G`: the index of its choice among the pending decision's options. `rng`
/// is the seat's own stream (a strategy's chance never moves the game's).
pub trait Strategy<G: Game>: Send {
    fn name(&self) -> &'static str;
    /// Built-in players never read victory-point totals (docs/rules.md R2.7).
    fn reads_scores(&self) -> bool {
        false
    }
    /// `options` are those of the pending decision of `view.state` (never empty, all of
    /// its kind).
    fn choose(&mut self, view: &View<G>, options: &[G::Action], rng: &mut Generator) -> usize;
}

impl<G: Game, S: Strategy<G> + ?Sized> Strategy<G> for Box<S> {
    fn name(&self) -> &'static str {
        self.as_ref().name()
    }
    fn reads_scores(&self) -> bool {
        self.as_ref().reads_scores()
    }
    fn choose(&mut self, view: &View<G>, options: &[G::Action], rng: &mut Generator) -> usize {
        self.as_mut().choose(view, options, rng)
    }
}

/// Let `lineup` (a player and a stream per seat) play a copy of a game on while `go_on`
/// holds: the search players' playouts and replies (OpenSpiel's rollouts). A game itself
/// is played by the driver (`play::run`), which also checks invariants in checking mode
/// and names a player that chooses out of range.
pub(crate) fn play_on<G: Game, P: Strategy<G>>(
    state: &mut G,
    comps: &G::Components,
    lineup: &mut [P],
    rngs: &mut [Generator],
    buf: &mut Vec<G::Action>,
    go_on: impl FnMut(&G) -> bool,
) {
    play_on_telling(state, comps, lineup, rngs, buf, go_on, |_| {});
}

/// `play_on`, telling `chosen` each action played (the learned player keeps its replies).
pub(crate) fn play_on_telling<G: Game, P: Strategy<G>>(
    state: &mut G,
    comps: &G::Components,
    lineup: &mut [P],
    rngs: &mut [Generator],
    buf: &mut Vec<G::Action>,
    mut go_on: impl FnMut(&G) -> bool,
    mut chosen: impl FnMut(G::Action),
) {
    while let Some(seat) = state.current_seat() {
        if !go_on(state) {
            break;
        }
        state.options(comps, buf);
        let view = View { state: &*state, comps, seat };
        let i = lineup[seat].choose(&view, buf, &mut rngs[seat]);
        chosen(buf[i]);
        state.apply(comps, buf[i]);
    }
}

/// A player's setting that must be a whole number from `low` to 1e9 (a count, a budget),
/// or the error line naming `player.name` (`mcts.playouts`, `learned.reply`, ...).
pub fn whole_setting(player: &str, name: &str, value: f64, low: f64) -> Result<usize, String> {
    if value.fract() == 0.0 && (low..=1e9).contains(&value) {
        Ok(value as usize)
    } else {
        Err(format!("{player}.{name} must be a whole number >= {low}, got {value}"))
    }
}
