//! M5.1: the rowing cards chosen face down, held where no other module reads them. The
//! simultaneous choice is played as one seat after another in play order; a seat
//! choosing must not see an earlier seat's card, so the cards live in a private field:
//! the rules set them and reveal them all at once, the observation shows a seat only its
//! own, and a search redraws the others' (`redraw_others`). Nothing else can read them.

use super::components::MAX_PLAYERS;
use super::state::NONE;
use crate::rng::Generator;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picks {
    cards: [u8; MAX_PLAYERS],
}

impl Default for Picks {
    fn default() -> Picks {
        Picks { cards: [NONE; MAX_PLAYERS] }
    }
}

impl Picks {
    /// `seat` lays `card` face down.
    pub(super) fn lay(&mut self, seat: usize, card: u8) {
        self.cards[seat] = card;
    }

    /// Whether `seat` has laid its card (public: the table sees a card lying there).
    pub fn laid(&self, seat: usize) -> bool {
        self.cards[seat] != NONE
    }

    /// `seat`'s own card, for `seat`'s observation only.
    pub(super) fn own(&self, seat: usize) -> Option<u8> {
        Some(self.cards[seat]).filter(|&c| c != NONE)
    }

    /// M5.2: every card turned up at once (seat order), the row emptied.
    pub(super) fn reveal(&mut self, n: usize) -> Vec<u8> {
        let out = self.cards[..n].to_vec();
        *self = Picks::default();
        out
    }

    /// A card every seat laid, lying face down: the cards still hidden, for the
    /// invariants' census (how many, not which).
    pub(super) fn hidden_count(&self) -> usize {
        self.cards.iter().filter(|&&c| c != NONE).count()
    }

    /// The laid cards, for a replay frame (read after the game).
    pub(super) fn all(&self) -> [u8; MAX_PLAYERS] {
        self.cards
    }

    /// What `seat` cannot know drawn anew: each other seat's laid card goes back into
    /// its hand and one card of the hand is laid in its place.
    pub(super) fn redraw_others(&mut self, seat: usize, hands: &mut [Vec<u8>],
                                rng: &mut Generator) {
        for (s, hand) in hands.iter_mut().enumerate() {
            if s == seat || self.cards[s] == NONE {
                continue;
            }
            hand.push(self.cards[s]);
            // sorted first: which card was laid must not steer the draw
            hand.sort_unstable();
            let k = rng.integers(hand.len() as u64) as usize;
            self.cards[s] = hand.swap_remove(k);
            hand.sort_unstable();
        }
    }

    /// A test's position: `seat`'s laid card set directly.
    pub fn set_for_test(&mut self, seat: usize, card: u8) {
        self.cards[seat] = card;
    }
}
