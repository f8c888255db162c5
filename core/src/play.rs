//! The driver (Python's `run_game`, `choose` and `play_game`): ask the player on the
//! pending decision, apply its choice, until the game is over. It stands above the rules
//! (`game`) and the players, and is the only module that joins them: the rules never
//! see a player, and a player sees the game only through its view and options.

use crate::checking;
use crate::components::Components;
use crate::players::{Player, PlayerView, Strategy};
use crate::records::GameRecord;
use crate::rng::{Generator, SeedSequence};
use crate::scoring;

use crate::game::{Action, GameConfig, GameState, Options};

/// The index `player` (on the pending seat, with that seat's stream) chooses among the
/// pending decision's `options` (`GameState::options`). An index out of range is a bug
/// in that player (Python's `choose` raises IllegalChoice).
pub fn ask(
    state: &GameState,
    comps: &Components,
    player: &mut Player,
    rng: &mut Generator,
    options: &[Action],
) -> usize {
    let Some(seat) = state.pending.seat() else {
        return 0;
    };
    let view = PlayerView { state, comps, seat };
    let i = player.choose(&view, options, rng);
    let (name, n, what) = (player.name(), options.len(), state.pending.name());
    assert!(i < n, "strategy {name:?} (seat {seat}) chose option {i} of {n} in {what}");
    i
}

/// Ask the player on `pending` and apply its choice: one decision.
pub fn step(
    state: &mut GameState,
    comps: &Components,
    lineup: &mut [Player],
    rngs: &mut [Generator],
    buf: &mut Options,
) {
    let Some(seat) = state.pending.seat() else {
        return;
    };
    state.options(comps, buf);
    let i = ask(state, comps, &mut lineup[seat], &mut rngs[seat], buf);
    state.apply(comps, buf[i]);
}

/// Play on from the state's pending decision to the end of the fourth scoring phase.
/// In checking mode every invariant is verified after every action.
pub fn run(
    state: &mut GameState,
    comps: &Components,
    lineup: &mut [Player],
    rngs: &mut [Generator],
) {
    assert!(
        lineup.len() == state.n && rngs.len() == state.n,
        "one player and stream per seat"
    );
    let mut buf = Options::new();
    while !state.is_over() {
        step(state, comps, lineup, rngs, &mut buf);
        if state.check {
            if let Err(e) = checking::check_state(state, comps, false) {
                panic!(
                    "invariant broken in phase {} round {}: {e}",
                    state.phase + 1,
                    state.round + 1
                );
            }
        }
    }
}

/// Play one complete game. Same (config, players, seed) -> same record.
pub fn play_game(
    comps: &Components,
    config: &GameConfig,
    lineup: &mut [Player],
    seed: SeedSequence,
) -> GameRecord {
    assert_eq!(lineup.len(), config.players, "one player per seat");
    let (mut state, mut rngs) = GameState::new(comps, config, seed);
    run(&mut state, comps, lineup, &mut rngs);
    let names: Vec<&'static str> = lineup.iter().map(Player::name).collect();
    scoring::final_scoring(&state, comps, &names)
}
