//! The Castles of Tuscany (Stefan Feld, 2–4 players): the component set (TC1–TC9).

pub mod components;
pub mod tables;
