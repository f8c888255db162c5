//! cdsim's compiled core: the games it plays, each in its own folder (`carpe_diem`,
//! `castles`, `mediterranean`), registered by name in `games::registry`; the seam they share (`games`: the
//! `Game` trait, rows, replays), the driver (`play`), the batch runner (`batch`), the
//! random stream (`rng`) and the players every game uses (`players`: the `Strategy`
//! interface, random, the generic search). Pure Rust: the one binding module (`python`,
//! feature `python`) converts at the boundary.

pub mod batch;
pub mod carpe_diem;
pub mod castles;
pub mod games;
pub mod mediterranean;
pub mod play;
pub mod players;
pub mod rng;

#[cfg(feature = "python")]
mod python;
