//! The turn loop's driver (Python's `run_game`, `choose` and `play_game`): ask the
//! player on the pending decision, apply its choice, until the game is over.

use crate::cards::Payment;
use crate::checking;
use crate::components::Components;
use crate::players::{Player, PlayerView, Strategy};
use crate::records::GameRecord;
use crate::rng::{Generator, SeedSequence};
use crate::scoring;

use super::{Action, CircleChoice, FountainChoice, GameConfig, GameState, Move, Pending, SealBuild, Take};

/// Reusable option lists (no allocation per decision once warm).
#[derive(Default)]
pub struct Options {
    pub starts: Vec<u8>,
    pub moves: Vec<Move>,
    pub takes: Vec<Take>,
    pub seals: Vec<SealBuild>,
    pub fountains: Vec<FountainChoice>,
    pub circles: Vec<CircleChoice>,
    pub payments: Vec<Payment>,
}

impl Options {
    /// Option `i` of the pending decision (None when the game is over).
    pub fn action(&self, pending: &Pending, i: usize) -> Option<Action> {
        Some(match pending {
            Pending::Over => return None,
            Pending::Start { .. } => Action::Start(self.starts[i]),
            Pending::Move { .. } => Action::Move(self.moves[i]),
            Pending::Take { .. } => Action::Take(self.takes[i]),
            Pending::Seal { .. } => Action::Seal(self.seals[i]),
            Pending::Fountain { .. } => Action::Fountain(self.fountains[i]),
            Pending::Circle { .. } => Action::Circle(self.circles[i]),
            Pending::Payment { .. } => Action::Payment(self.payments[i]),
        })
    }

    /// How many options the pending decision has.
    pub fn len(&self, pending: &Pending) -> usize {
        match pending {
            Pending::Over => 0,
            Pending::Start { .. } => self.starts.len(),
            Pending::Move { .. } => self.moves.len(),
            Pending::Take { .. } => self.takes.len(),
            Pending::Seal { .. } => self.seals.len(),
            Pending::Fountain { .. } => self.fountains.len(),
            Pending::Circle { .. } => self.circles.len(),
            Pending::Payment { .. } => self.payments.len(),
        }
    }
}

/// Fill `buf` with the options of the pending decision; returns how many there are
/// (0 when the game is over).
pub fn fill_options(state: &GameState, comps: &Components, buf: &mut Options) -> usize {
    let Some(seat) = state.pending.seat() else {
        return 0;
    };
    match state.pending {
        Pending::Over => 0,
        Pending::Start { .. } => {
            state.start_options(&mut buf.starts);
            buf.starts.len()
        }
        Pending::Move { .. } => {
            state.move_options(seat, &mut buf.moves);
            buf.moves.len()
        }
        Pending::Take { space, .. } => {
            state.take_options(comps, seat, space as usize, &mut buf.takes);
            buf.takes.len()
        }
        Pending::Seal { .. } => {
            state.seal_options(comps, seat, &mut buf.seals);
            buf.seals.len()
        }
        Pending::Fountain { .. } => {
            state.fountain_options(&mut buf.fountains);
            buf.fountains.len()
        }
        Pending::Circle { .. } => {
            state.circle_options(&mut buf.circles);
            buf.circles.len()
        }
        Pending::Payment { slot, .. } => {
            state.payment_options(comps, seat, slot as usize, &mut buf.payments);
            buf.payments.len()
        }
    }
}

/// The index `player` (on the pending seat, with that seat's stream) chooses among the
/// options `fill_options` put in `buf`. An index out of range is a bug in that player
/// (Python's `choose` raises IllegalChoice).
pub fn ask(
    state: &GameState,
    comps: &Components,
    player: &mut Player,
    rng: &mut Generator,
    buf: &Options,
) -> usize {
    let Some(seat) = state.pending.seat() else {
        return 0;
    };
    let view = PlayerView { state, comps, seat };
    let (i, n, what) = match state.pending {
        Pending::Over => return 0,
        Pending::Start { .. } => {
            (player.choose_start(&view, &buf.starts, rng), buf.starts.len(), "choose_start")
        }
        Pending::Move { .. } => {
            (player.choose_move(&view, &buf.moves, rng), buf.moves.len(), "choose_move")
        }
        Pending::Take { .. } => {
            (player.choose_take(&view, &buf.takes, rng), buf.takes.len(), "choose_take")
        }
        Pending::Seal { .. } => {
            (player.choose_seal(&view, &buf.seals, rng), buf.seals.len(), "choose_seal")
        }
        Pending::Fountain { .. } => (
            player.choose_fountain(&view, &buf.fountains, rng),
            buf.fountains.len(),
            "choose_fountain",
        ),
        Pending::Circle { .. } => (
            player.choose_circle(&view, &buf.circles, rng),
            buf.circles.len(),
            "choose_circle",
        ),
        Pending::Payment { slot, .. } => {
            let card = &comps.objectives[state.grid[slot as usize] as usize];
            let i = player.choose_payment(&view, card, &buf.payments, rng);
            (i, buf.payments.len(), "choose_payment")
        }
    };
    let name = player.name();
    assert!(i < n, "strategy {name:?} (seat {seat}) chose option {i} of {n} in {what}");
    i
}

/// Apply option `i` of those `fill_options` put in `buf`, and run the game on to the
/// next decision.
pub fn apply_option(state: &mut GameState, comps: &Components, buf: &Options, i: usize) {
    if let Some(action) = buf.action(&state.pending, i) {
        state.apply(comps, action);
    }
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
    fill_options(state, comps, buf);
    let i = ask(state, comps, &mut lineup[seat], &mut rngs[seat], buf);
    apply_option(state, comps, buf, i);
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
    let mut buf = Options::default();
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
