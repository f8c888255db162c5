//! Carpe Diem (Stefan Feld, 2018): its rules (`game`, `district`, `cards`, `scoring`,
//! `kinds`), its component set (`components`), its records and luck terms, the invariant
//! checks of checking mode, and its built-in players (`players`), mirroring the Python
//! reference (`cdsim/`, `strategies/`) module for module. Registered as `carpe-diem` in
//! `crate::games::registry`.

pub mod cards;
pub mod checking;
pub mod components;
pub mod district;
pub mod game;
pub mod kinds;
pub mod luck;
pub mod players;
pub mod records;
pub mod scoring;
