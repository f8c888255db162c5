//! One whole game recorded for a replay, for any game (`Game::describe`, `Game::frame`):
//! the state before every decision (the seat, the decision kind, the option chosen in
//! words), the state at the end and the final rows. It is the driver's loop
//! (`crate::play::run`) with a note taken at each step, so the same seed and players
//! play the same game as a run's chunk does.

use serde::Serialize;
use serde_json::Value;

use crate::games::{Game, Outcome};
use crate::play::ask;
use crate::players::Strategy;
use crate::rng::SeedSequence;

/// One decision: who took it, of which kind, what was chosen, and the state it was
/// taken in (`Game::frame`).
#[derive(Debug, Serialize)]
pub struct Step {
    pub seat: usize,
    pub decision: &'static str,
    pub option: String,
    /// How many options the decision offered.
    pub options: usize,
    pub frame: Value,
}

/// A whole game: its steps, the state at the end, and each seat's final row
/// (`Outcome::columns`, in order).
#[derive(Debug, Serialize)]
pub struct Replay {
    pub steps: Vec<Step>,
    pub end: Value,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<Value>>,
}

/// Play one game of `config` from `seed` with `lineup` (one player per seat), noting
/// every decision. In checking mode every invariant is verified after every action.
pub fn record<G: Game, P: Strategy<G>>(
    comps: &G::Components,
    config: &G::Config,
    lineup: &mut [P],
    seed: SeedSequence,
    run_seed: i64,
) -> Result<Replay, String> {
    let (mut state, mut rngs) = G::new(comps, config, seed);
    if lineup.len() != state.seats() {
        return Err(format!("{} players for {} seats", lineup.len(), state.seats()));
    }
    let mut steps = Vec::new();
    let mut options = Vec::new();
    while let Some(seat) = state.current_seat() {
        state.options(comps, &mut options);
        let frame = state.frame(comps);
        let i = ask(&state, comps, &mut lineup[seat], &mut rngs[seat], &options);
        steps.push(Step { seat, decision: state.decision(), frame, options: options.len(),
                          option: state.describe(comps, &options[i]) });
        state.apply(comps, options[i]);
        state.verify(comps).map_err(|e| format!("invariant broken {e}"))?;
    }
    let names: Vec<&'static str> = lineup.iter().map(|p| p.name()).collect();
    let outcome = state.outcome(comps, &names);
    let columns = <G::Outcome as Outcome>::columns().into_iter().map(|(c, _)| c).collect();
    let rows = (0..outcome.seats())
        .map(|seat| {
            let mut row = Vec::new();
            outcome.row(seat, run_seed, &mut row);
            row.into_iter().map(Value::from).collect()
        })
        .collect();
    Ok(Replay { steps, end: state.frame(comps), columns, rows })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::toy::Market;
    use crate::play::play_game;
    use crate::players::RandomPlayer;

    #[test]
    fn a_recorded_game_is_the_game_the_driver_plays() {
        let comps = crate::games::toy::Cards::standard();
        let config = Market::config(3, &[0, 1, 2], true).unwrap();
        let seed = || SeedSequence::new(7, &[2]);
        let mut lineup = [RandomPlayer, RandomPlayer, RandomPlayer];
        let replay = record::<Market, _>(&comps, &config, &mut lineup, seed(), 7).unwrap();
        let outcome = play_game::<Market, _>(&comps, &config, &mut lineup, seed());
        assert!(!replay.steps.is_empty());
        let mut want = Vec::new();
        for seat in 0..3 {
            let mut row = Vec::new();
            outcome.row(seat, 7, &mut row);
            want.push(row.into_iter().map(Value::from).collect::<Vec<_>>());
        }
        assert_eq!(replay.rows, want);
        assert_eq!(replay.columns.len(), want[0].len());
        assert!(replay.steps.iter().all(|s| s.seat < 3 && s.options >= 1));
    }
}
