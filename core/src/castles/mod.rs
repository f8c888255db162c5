//! The Castles of Tuscany (Stefan Feld, 2–4 players), every rule of the Spanish rulebook
//! as docs/rules-castles.md numbers them (T1–T12), pull-style like Carpe Diem's
//! `GameState`: a state made from (components, config, seed) says whose decision is
//! pending (`to_move`), lists its options as one `Action` type (`options`), applies one
//! (`apply`), and at the end gives each seat's VP and their breakdown by source.
//!
//! Chance (the shuffles and draws) comes from the state's own stream, seeded from the
//! `SeedSequence`, so the same seed and the same decisions replay the same game; each
//! seat gets its own stream for its player. The state is fixed-size arrays (a clone is
//! a copy); a board is a 30-bit mask per feature.

pub mod actions;
mod builtin;
pub mod components;
mod effects;
mod entries;
pub mod learned;
pub mod inputs;
pub mod observe;
mod pending;
pub mod players;
pub mod replay;
pub mod roster;
pub mod scoring;
pub mod seam;
mod sources;
pub mod state;
pub mod tables;
mod turn;

pub use actions::{Action, Payment, Pending, Stage};
pub use components::{BonusKind, Colour, Components};
pub use observe::Observation;
pub use roster::Player;
pub use scoring::VpSource;
pub use seam::{GameConfig, Scores};
pub use state::{CastlesConfig, CastlesState, Stored};
pub use tables::Tile;
