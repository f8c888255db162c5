//! The seam between a game and everything that plays it (OpenSpiel's `Game` / `State`
//! and `register_game` are the model): a game is a state made from its components, a
//! configuration and a seed; it says whose decision is pending and lists that decision's
//! options as its one action type; `apply` makes one and runs the rules on to the next;
//! at the end it gives each seat's result. The driver (`crate::play`), the batch runner
//! (`crate::batch`), `random` and the plain search `uct` are written over this trait and
//! name no game; `registry` holds the games by name.
//!
//! A game is a pure function of (components, config, seed, players): every chance
//! outcome comes from the game's own stream, spawned from the seed, and each seat gets a
//! stream of its own, so a seat's chance never moves the game's.

pub mod inputs;
pub mod json;
pub mod registry;
pub mod replay;
pub mod rows;
pub mod table;
pub mod toy;

use std::fmt::Debug;

use crate::rng::{Generator, SeedSequence};

pub use rows::{ColumnType, SeatValue, Table, Use, Values};

/// One game's state and rules. The state holds no player: a driver asks a player on
/// `current_seat` and applies its choice.
pub trait Game: Clone + Send + Sync + Sized + 'static {
    /// The component set the rules read (the same for every game of a run).
    type Components: Send + Sync + 'static;
    /// The static facts of one game: player count, starting VP, checking mode.
    type Config: Clone + Send + Sync;
    /// One option of any decision, tagged by its kind (a game with several decision kinds
    /// makes this an enum; shakmaty's `Move`).
    type Action: Copy + PartialEq + Debug + Send + Sync;
    /// A finished game's record: each seat's result and the rows it writes.
    type Outcome: Outcome;
    /// The tables a chunk of this game's games writes beside its seat rows (`()`: none).
    type Tables: Tables<Self>;
    /// What one seat may know (`observe`), serialisable so that one conversion hands any
    /// game's observation to a Python seat.
    type Observation: serde::Serialize;

    /// The component set from the normalised JSON the binding hands over (a bad set is
    /// an `Err` naming what is wrong).
    fn components(json: &str) -> Result<Self::Components, String>;

    /// The built-in component set as the JSON `components` reads, for a game whose set
    /// lives in the core (None: the caller supplies the set, as Carpe Diem's Python does).
    fn builtin_components() -> Option<String> {
        None
    }

    /// The configuration of a game of `players` seats with these starting VP (one per
    /// seat); `check` verifies every invariant after every action (tests). A count the
    /// rulebook does not allow is an `Err`.
    fn config(players: usize, start_vp: &[i32], check: bool) -> Result<Self::Config, String>;

    /// Setup, drawn from the game's own stream spawned from `seed`: the state waiting for
    /// its first decision, and one stream per seat for that seat's player.
    fn new(comps: &Self::Components, config: &Self::Config, seed: SeedSequence)
        -> (Self, Vec<Generator>);

    /// The number of seats.
    fn seats(&self) -> usize;

    /// The seat whose decision is pending (None when the game is over).
    fn current_seat(&self) -> Option<usize>;

    fn is_over(&self) -> bool {
        self.current_seat().is_none()
    }

    /// The pending decision kind's name (the players' logs and error messages).
    fn decision(&self) -> &'static str;

    /// The pending decision's options into `out` (emptied first; none when the game is
    /// over). Every decision has one, and none is illegal.
    fn options(&self, comps: &Self::Components, out: &mut Vec<Self::Action>);

    /// Make the choice `action` (one of the pending options) and run the rules on to the
    /// next decision.
    fn apply(&mut self, comps: &Self::Components, action: Self::Action);

    /// In checking mode, every invariant of the state (an `Err` says where and which
    /// broke); `Ok` when checking is off. The driver asks after every action.
    fn verify(&self, _comps: &Self::Components) -> Result<(), String> {
        Ok(())
    }

    /// Draw anew what `seat` cannot know (the order of face-down decks, others' hidden
    /// holdings), from `rng`, so that a search on the copy cannot read the future
    /// (ISMCTS's determinization). A game of perfect information leaves it as it is.
    fn determinize(&mut self, _comps: &Self::Components, _seat: usize, _rng: &mut Generator) {}

    /// What `seat` may know (OpenSpiel's `observation_string`): the public state, its
    /// own holdings, none of the hidden chance outcomes, and no VP totals (built-in players
    /// never read them: a run can be re-ranked under other starting VP).
    fn observe(&self, comps: &Self::Components, seat: usize) -> Self::Observation;

    /// The final scoring of a finished game, `strategies` naming each seat's player.
    fn outcome(&self, comps: &Self::Components, strategies: &[&'static str]) -> Self::Outcome;

    /// `action` (one of the pending options) in words, for a replay: a game names its
    /// options in its own terms; the default is the action as the code spells it.
    fn describe(&self, _comps: &Self::Components, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// The state as a replay draws it (`replay::record`), as JSON. A replay is read after
    /// the game, so a game may show everything here; the default is the pending seat's
    /// observation (seat 0's once the game is over), which every game has.
    fn frame(&self, comps: &Self::Components) -> serde_json::Value {
        let seat = self.current_seat().unwrap_or(0);
        serde_json::to_value(self.observe(comps, seat)).expect("an observation serialises")
    }
}

/// A finished game: each seat's result and the rows it writes (one per seat, its
/// `columns`; a run's rows then add the runner's `game` and `setup`).
pub trait Outcome: Send {
    /// The VP sources a seat's final VP sums, in `breakdown` order (the seat row holds
    /// each as `vp_<source>`).
    const BREAKDOWN: &'static [&'static str];

    /// The seat row's columns, in order. Its one text column is the seat's strategy.
    fn columns() -> Vec<(&'static str, ColumnType)>;

    fn seats(&self) -> usize;

    /// `seat`'s final VP (the sum of its `breakdown`).
    fn vp(&self, seat: usize) -> i64;

    /// `seat`'s starting VP: a search compares VP gained (`vp - start_vp`), so that no
    /// decision depends on the starting VP.
    fn start_vp(&self, seat: usize) -> i64;

    /// `seat`'s place, 1 = the winner (unique after the game's tie-break).
    fn rank(&self, seat: usize) -> usize;

    /// `seat`'s VP by source (`BREAKDOWN` order).
    fn breakdown(&self, seat: usize) -> Vec<i64>;

    /// `seat`'s row (`columns` order) onto `out`, for a game played from the run seed
    /// `seed`.
    fn row(&self, seat: usize, seed: i64, out: &mut Vec<SeatValue>);

    /// `seat`'s uses of the game's components onto `out` (`rows::Use`: a frame part that
    /// scored, a villa-table row that paid, a card taken), for a run that judges a change
    /// of them (`batch::Chunk::uses`; the default: none recorded).
    fn uses(&self, _seat: usize, _out: &mut Vec<Use>) {}
}

/// The tables a chunk of `G`'s games collects beside its seat rows, game by game.
pub trait Tables<G: Game>: Default + Send {
    /// Add the rows of game `game`.
    fn push(&mut self, game: i64, outcome: &G::Outcome);
    /// The tables by name (their index columns' names read from `comps`).
    fn into_tables(self, comps: &G::Components) -> Vec<(&'static str, Table)>;
}

/// No tables.
impl<G: Game> Tables<G> for () {
    fn push(&mut self, _game: i64, _outcome: &G::Outcome) {}
    fn into_tables(self, _comps: &G::Components) -> Vec<(&'static str, Table)> {
        Vec::new()
    }
}
