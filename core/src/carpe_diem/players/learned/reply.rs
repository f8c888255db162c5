//! The greedy profile's replies of the other seats in a decision's copies (`learned.reply`),
//! by a few greedy players per seat, one for each placing of the scroll discs met.
//!
//! A greedy player keeps the values of the last position it decided on while everything
//! they read holds (position.rs), and its prices read every scroll disc (the scoring
//! order). A decision's copies differ in what the deciding seat did, and one that steps
//! its disc on the scroll gives the other seats other prices: one greedy player per seat
//! would work out both positions' values again on every copy that alternates between
//! them. Each disc placing gets its own player here, so each finds its values kept. The
//! choices are the same (a greedy player's choice reads the position only; its kept
//! values are only ever what it would work out).

use crate::carpe_diem::game::{Action, GameState, MAX_PLAYERS};
use crate::carpe_diem::players::scripted::ScriptedPlayer;
use crate::carpe_diem::players::{PlayerView, Strategy};
use crate::rng::Generator;

/// Greedy players kept per seat.
const KEPT: usize = 4;

/// Every seat's scroll disc (its step, and the stamp that orders equal steps).
type Discs = [(u8, u16); MAX_PLAYERS];

/// One seat's greedy players, each with the disc placing it last decided on.
#[derive(Default)]
pub(super) struct Replier {
    players: Vec<(Discs, ScriptedPlayer)>,
    next: usize,
}

impl Strategy<GameState> for Replier {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, view: &PlayerView, options: &[Action], rng: &mut Generator) -> usize {
        let state = view.state;
        let discs: Discs = std::array::from_fn(|s| {
            let p = &state.players[s];
            (p.scroll, p.stamp)
        });
        let i = match self.players.iter().position(|(d, _)| *d == discs) {
            Some(i) => i,
            None if self.players.len() < KEPT => {
                self.players.push((discs, ScriptedPlayer::greedy()));
                self.players.len() - 1
            }
            None => {
                let i = self.next;
                self.next = (i + 1) % KEPT;
                self.players[i].0 = discs;
                i
            }
        };
        self.players[i].1.choose(view, options, rng)
    }
}
