//! A Dirk Henn Mediterranean trading game (3-5 players; Roman merchants sail contracts
//! of goods to the cities of the Mediterranean for gold and the temples' favour), every
//! rule of the Spanish seed rulebook as docs/rules-mediterranean.md numbers them (M1-M8,
//! the components MC1-MC9): three rounds of a contract phase, a delivery phase with a
//! hidden simultaneous rowing card and the wind, and a scoring by temple majorities.
//!
//! Chance (tiles, shuffles, the play order) comes from the state's own stream, seeded
//! from the `SeedSequence`, so a seed and the same decisions replay the same game.

pub mod actions;
pub mod components;
mod contracts;
mod delivery;
mod frame;
pub mod hidden;
pub mod map;
pub mod observe;
pub mod players;
pub mod profiles;
pub mod scoring;
pub mod seam;
pub mod state;
pub mod validate;

pub use actions::Action;
pub use contracts::next_order as contracts_order;
pub use components::{Components, Source};
pub use observe::Observation;
pub use players::Player;
pub use seam::{GameConfig, Scores};
pub use state::{MedState, Pending, Phase, Status, NONE};
