//! cdsim's compiled core: the Carpe Diem engine and the built-in players, mirroring
//! the Python reference (`cdsim/`, `strategies/`) module for module. Pure Rust: the
//! one binding module (`python`, feature `python`) converts at the boundary.

pub mod batch;
pub mod cards;
pub mod castles;
pub mod checking;
pub mod components;
pub mod district;
pub mod game;
pub mod games;
pub mod kinds;
pub mod luck;
pub mod mediterranean;
pub mod play;
pub mod players;
pub mod records;
pub mod rng;
pub mod scoring;

#[cfg(feature = "python")]
mod python;
