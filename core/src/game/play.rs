//! The turn loop's driver (Python's `run_game`, `choose` and `play_game`): ask the
//! player on the pending decision, apply its choice, until the game is over.

use crate::cards::Payment;
use crate::checking;
use crate::components::Components;
use crate::players::{
    CircleChoice, FountainChoice, Move, Player, PlayerView, SealBuild, Strategy, Take,
};
use crate::records::GameRecord;
use crate::rng::{Generator, SeedSequence};
use crate::scoring;

use super::{GameConfig, GameState, Pending};

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

/// The seat on `pending` with its player and stream.
struct Asked<'a> {
    state: &'a GameState,
    comps: &'a Components,
    seat: usize,
    player: &'a mut Player,
    rng: &'a mut Generator,
}

impl Asked<'_> {
    /// The player's choice among `options`: an index out of range is a bug in that
    /// player (Python's `choose` raises IllegalChoice).
    fn choose<T: Copy>(self, options: &[T], what: &str, choose: Chooser<T>) -> T {
        let view = PlayerView {
            state: self.state,
            comps: self.comps,
            seat: self.seat,
        };
        let i = choose(self.player, &view, options, self.rng);
        let (name, seat, n) = (self.player.name(), self.seat, options.len());
        assert!(
            i < n,
            "strategy {name:?} (seat {seat}) chose option {i} of {n} in {what}"
        );
        options[i]
    }
}

type Chooser<'c, T> = &'c dyn Fn(&mut Player, &PlayerView, &[T], &mut Generator) -> usize;

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
    let (player, rng) = (&mut lineup[seat], &mut rngs[seat]);
    let asked = Asked {
        state,
        comps,
        seat,
        player,
        rng,
    };
    match state.pending {
        Pending::Over => {}
        Pending::Start { .. } => {
            state.start_options(&mut buf.starts);
            let c = asked.choose(&buf.starts, "choose_start", &Player::choose_start);
            state.apply_start(c);
        }
        Pending::Move { .. } => {
            state.move_options(seat, &mut buf.moves);
            let c = asked.choose(&buf.moves, "choose_move", &Player::choose_move);
            state.apply_move(c);
        }
        Pending::Take { space, .. } => {
            state.take_options(comps, seat, space as usize, &mut buf.takes);
            let c = asked.choose(&buf.takes, "choose_take", &Player::choose_take);
            state.apply_take(comps, c);
        }
        Pending::Seal { .. } => {
            state.seal_options(comps, seat, &mut buf.seals);
            let c = asked.choose(&buf.seals, "choose_seal", &Player::choose_seal);
            state.apply_seal(comps, c);
        }
        Pending::Fountain { .. } => {
            state.fountain_options(&mut buf.fountains);
            let c = asked.choose(&buf.fountains, "choose_fountain", &Player::choose_fountain);
            state.apply_fountain(comps, c);
        }
        Pending::Circle { .. } => {
            state.circle_options(&mut buf.circles);
            let c = asked.choose(&buf.circles, "choose_circle", &Player::choose_circle);
            state.apply_circle(comps, c);
        }
        Pending::Payment { slot, .. } => {
            state.payment_options(comps, seat, slot as usize, &mut buf.payments);
            let card = &comps.objectives[state.grid[slot as usize] as usize];
            let pay = |p: &mut Player, v: &PlayerView, o: &[Payment], r: &mut Generator| {
                p.choose_payment(v, card, o, r)
            };
            let c = asked.choose(&buf.payments, "choose_payment", &pay);
            state.apply_payment(comps, c);
        }
    }
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
