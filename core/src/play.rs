//! The driver (Python's `run_game`, `choose` and `play_game`), for any game
//! (`crate::games::Game`): ask the player on the pending decision, apply its choice,
//! until the game is over. It stands above the rules and the players, and is the only
//! module that joins them: the rules never see a player, and a player sees the game only
//! through its view and options.

use crate::games::Game;
use crate::players::{Strategy, View};
use crate::rng::{Generator, SeedSequence};

/// The index `player` (on the pending seat, with that seat's stream) chooses among the
/// pending decision's `options` (`Game::options`). An index out of range is a bug in
/// that player (Python's `choose` raises IllegalChoice).
pub fn ask<G: Game, P: Strategy<G> + ?Sized>(
    state: &G,
    comps: &G::Components,
    player: &mut P,
    rng: &mut Generator,
    options: &[G::Action],
) -> usize {
    let Some(seat) = state.current_seat() else {
        return 0;
    };
    let view = View { state, comps, seat };
    let i = player.choose(&view, options, rng);
    let (name, n, what) = (player.name(), options.len(), state.decision());
    assert!(i < n, "strategy {name:?} (seat {seat}) chose option {i} of {n} in {what}");
    i
}

/// Ask the player on the pending seat and apply its choice: one decision.
pub fn step<G: Game, P: Strategy<G>>(
    state: &mut G,
    comps: &G::Components,
    lineup: &mut [P],
    rngs: &mut [Generator],
    buf: &mut Vec<G::Action>,
) {
    let Some(seat) = state.current_seat() else {
        return;
    };
    state.options(comps, buf);
    let i = ask(state, comps, &mut lineup[seat], &mut rngs[seat], buf);
    state.apply(comps, buf[i]);
}

/// Play on from the state's pending decision to the end of the game. In checking mode
/// every invariant is verified after every action (`Game::verify`).
pub fn run<G: Game, P: Strategy<G>>(
    state: &mut G,
    comps: &G::Components,
    lineup: &mut [P],
    rngs: &mut [Generator],
) {
    assert!(
        lineup.len() == state.seats() && rngs.len() == state.seats(),
        "one player and stream per seat"
    );
    let mut buf = Vec::new();
    while !state.is_over() {
        step(state, comps, lineup, rngs, &mut buf);
        if let Err(e) = state.verify(comps) {
            panic!("invariant broken {e}");
        }
    }
}

/// Play one complete game. Same (config, players, seed) -> same outcome.
pub fn play_game<G: Game, P: Strategy<G>>(
    comps: &G::Components,
    config: &G::Config,
    lineup: &mut [P],
    seed: SeedSequence,
) -> G::Outcome {
    let (mut state, mut rngs) = G::new(comps, config, seed);
    assert_eq!(lineup.len(), state.seats(), "one player per seat");
    run(&mut state, comps, lineup, &mut rngs);
    let names: Vec<&'static str> = lineup.iter().map(|p| p.name()).collect();
    state.outcome(comps, &names)
}
