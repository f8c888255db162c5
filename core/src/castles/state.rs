//! The game state (fixed-size arrays: a clone is a copy) and T2, the setup in the
//! rulebook's order; the decks, the neutral reserve and the display (T4.2, T5.3–T5.5, T6).

use super::pending::{Pending, Stage, Task, MAX_TASKS};
use super::components::{
    Components, BOARD_SPACES, MAX_CARDS, MAX_HARVEST, MAX_NEUTRAL, N_BONUS, N_COLOURS, PLAYER_TILES,
};
use super::sources::N_SOURCES;
use super::tables::Tile;
use crate::rng::{Generator, SeedSequence};

pub const MAX_PLAYERS: usize = 4;
/// T2.4: tiles in the display.
pub const DISPLAY: usize = 8;
/// T5.1: 1 storage space + 5 tokens at most.
pub const MAX_STORAGE: usize = 1 + 5;
/// T2.5 and T4.1: cards dealt, cards drawn.
pub const START_HAND: usize = 5;
pub const DRAW: usize = 3;
/// T5.3: tiles per stack.
pub const STACK: u8 = 7;
/// Tiles that can be set aside (T6.1): every tile of the game.
const MAX_ASIDE: usize = MAX_NEUTRAL + MAX_PLAYERS * PLAYER_TILES;
/// A seat that has not laid its pieces yet (T2.6).
pub const NO_LAYOUT: u16 = u16::MAX;

/// The game's configuration: the player count (T2: 2–4); seat 0 is the start player (T2.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlesConfig {
    pub players: usize,
}

/// What one storage space holds (T5.1, T8.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum Stored {
    #[default]
    Empty,
    Wood,
    Tile(Tile),
}

/// What a seat used of the components besides the game cards, for a run's `uses` rows
/// (`seam::Scores::uses`): the tiles it placed by colour, its own (T2.2) and neutral ones
/// (T6), the colours whose bonus it claimed (a bit each, T9), the areas it completed by
/// size (1, 2, 3 or more spaces: the area VP table's row, T7.5) and the harvest cards
/// revealed for it by reward (T8.9, TC5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Used {
    pub placed: [[u8; N_COLOURS]; 2],
    pub claimed: u8,
    pub areas: [u8; 3],
    pub harvested: [u8; 6],
}

/// One player's holdings: stacks, storage, hand, resources, tokens, board and tracks.
#[derive(Clone, Debug)]
pub struct Seat {
    /// T2.2: the three stacks, top of stack 1 first; `drawn` tiles have left them.
    pub stack: [Tile; PLAYER_TILES],
    pub drawn: u8,
    pub storage: [Stored; MAX_STORAGE],
    /// T5.1: usable storage spaces.
    pub capacity: u8,
    /// Game cards in hand, per colour.
    pub hand: [u8; N_COLOURS],
    /// Game cards that came into the hand (dealt or drawn, T2.5, T4.1), per colour: the
    /// run's `uses` rows (`seam::Scores::uses`); no rule or player reads it.
    pub taken: [u16; N_COLOURS],
    /// The other components the seat used, for the same rows (`Used`); no rule or player
    /// reads it.
    pub used: Used,
    pub workers: u16,
    pub marble: u16,
    pub tokens: [u8; N_BONUS],
    /// The piece dealt of each kind A, B, C (index into the component set's pieces).
    pub pieces: [u8; 3],
    pub layout: u16,
    /// Each space's colour index (space = kind * 10 + local index, TC8).
    pub colour: [u8; BOARD_SPACES],
    pub colour_mask: [u32; N_COLOURS],
    /// Covered spaces (the start castle included).
    pub filled: u32,
    /// Each covered farm space's crops (bits as `Tile::crops`).
    pub crops: [u8; BOARD_SPACES],
    pub placed_tiles: u8,
    pub placed_wood: u8,
    pub green: i32,
    pub red: i32,
    pub green_by: [i32; N_SOURCES],
    pub red_by: [i32; N_SOURCES],
}

impl Seat {
    fn new(stack: [Tile; PLAYER_TILES]) -> Seat {
        Seat {
            stack,
            drawn: 0,
            storage: [Stored::Empty; MAX_STORAGE],
            capacity: 1,
            hand: [0; N_COLOURS],
            taken: [0; N_COLOURS],
            used: Used::default(),
            workers: 0,
            marble: 0,
            tokens: [0; N_BONUS],
            pieces: [0; 3],
            layout: NO_LAYOUT,
            colour: [0; BOARD_SPACES],
            colour_mask: [0; N_COLOURS],
            filled: 0,
            crops: [0; BOARD_SPACES],
            placed_tiles: 0,
            placed_wood: 0,
            green: 0,
            red: 0,
            green_by: [0; N_SOURCES],
            red_by: [0; N_SOURCES],
        }
    }

    pub fn hand_size(&self) -> u32 {
        self.hand.iter().map(|&c| c as u32).sum()
    }

    /// The storage spaces in use and the first free one, if any.
    pub fn free_storage(&self) -> Option<usize> {
        self.storage[..self.capacity as usize]
            .iter()
            .position(|s| *s == Stored::Empty)
    }

    /// T7.3: free spaces touching a covered one.
    pub fn frontier(&self, comps: &Components) -> u32 {
        if self.layout == NO_LAYOUT {
            return 0;
        }
        let adj = &comps.tables().adjacency[self.layout as usize];
        let mut reach = 0u32;
        let mut bits = self.filled;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            reach |= adj[s];
            bits &= bits - 1;
        }
        reach & !self.filled
    }

    /// T7.6: the area of space `s` (a board mask).
    pub fn area(&self, comps: &Components, s: usize) -> u32 {
        let kind = s / 10;
        let local = comps.tables().piece_area[self.pieces[kind] as usize][s % 10];
        (local as u32) << (10 * kind)
    }
}

/// The whole game.
#[derive(Clone, Debug)]
pub struct CastlesState {
    pub n: usize,
    /// T3.1: 1, 2, 3.
    pub phase: u8,
    /// T10: the phase's end has been triggered in this round.
    pub triggered: bool,
    /// T10.4: the extra round of phase 3 is being played.
    pub final_round: bool,
    /// T3.5, T10.6: turns passed one after another (no action was possible).
    pub passes: u8,
    pub pending: Pending,
    /// The seat whose turn it is (or who is setting up).
    pub turn_seat: u8,
    /// T3.4: the current action is the marble's extra one.
    pub in_extra: bool,
    pub seats: [Seat; MAX_PLAYERS],
    pub display: [Option<Tile>; DISPLAY],
    pub deck: [u8; MAX_CARDS],
    pub deck_len: u8,
    pub discard: [u8; N_COLOURS],
    pub harvest: [u8; MAX_HARVEST],
    pub harvest_len: u8,
    pub harvest_discard: [u8; MAX_HARVEST],
    pub harvest_discard_len: u8,
    pub reserve: [Tile; MAX_NEUTRAL],
    pub reserve_len: u8,
    pub aside: [Tile; MAX_ASIDE],
    pub aside_len: u8,
    /// Tiles out of the game: discarded from storage (T5.2) or set aside with a
    /// coloured back when the reserve ran out (T6.2).
    pub boxed: u16,
    pub bonus_supply: [u8; N_BONUS],
    /// T9: how often each colour's bonus tile has been claimed (0, 1, 2).
    pub colour_claims: [u8; N_COLOURS],
    pub(crate) tasks: [Task; MAX_TASKS],
    pub(crate) n_tasks: u8,
    pub(crate) rng: Generator,
    /// Starting VP per seat, a compensation the rulebook does not give (the seam's
    /// config, 0 by default): added to the red track's total in the outcome, never read
    /// by the rules or the players.
    pub start_vp: [i32; MAX_PLAYERS],
    /// Checking mode: `Game::verify` checks every invariant after every action.
    pub check: bool,
}

/// `items` shuffled into a fixed-size pile, with its length.
fn pile<T: Copy, const N: usize>(rng: &mut Generator, items: &[T], fill: T) -> ([T; N], u8) {
    let mut out = [fill; N];
    out[..items.len()].copy_from_slice(&shuffled(rng, items));
    (out, items.len() as u8)
}

fn shuffled<T: Copy>(rng: &mut Generator, items: &[T]) -> Vec<T> {
    rng.permutation(items.len())
        .into_iter()
        .map(|i| items[i])
        .collect()
}

impl CastlesState {
    /// T2: the setup in the rulebook's order, drawn from the engine's stream; returns the
    /// state (waiting for seat 0 to lay its pieces, T2.6) and each seat's own stream.
    pub fn new(
        comps: &Components,
        config: &CastlesConfig,
        mut seed: SeedSequence,
    ) -> (CastlesState, Vec<Generator>) {
        let n = config.players;
        assert!(
            (2..=MAX_PLAYERS).contains(&n),
            "castles: players must be 2, 3 or 4, got {n}"
        );
        let t = comps.tables();
        let seqs = seed.spawn(1 + n);
        let mut rng = Generator::new(&seqs[0]);
        // T2.1: the decks and the token piles; T2.2: each player's stacks, the reserve.
        let (deck, deck_len) = pile::<u8, MAX_CARDS>(&mut rng, &t.cards, 0);
        let ids: Vec<u8> = (0..t.harvest.len() as u8).collect();
        let (harvest, harvest_len) = pile::<u8, MAX_HARVEST>(&mut rng, &ids, 0);
        let seats = std::array::from_fn(|seat| {
            let mut stack = [Tile(0); PLAYER_TILES];
            if seat < n {
                stack.copy_from_slice(&shuffled(&mut rng, &t.player_tiles));
            }
            Seat::new(stack)
        });
        let (reserve, reserve_len) = pile::<Tile, MAX_NEUTRAL>(&mut rng, &t.neutral_tiles, Tile(0));
        let mut state = CastlesState {
            n,
            phase: 1,
            triggered: false,
            final_round: false,
            passes: 0,
            pending: Pending::Lay { seat: 0 },
            turn_seat: 0, // T2.3
            in_extra: false,
            seats,
            display: [None; DISPLAY],
            deck,
            deck_len,
            discard: [0; N_COLOURS],
            harvest,
            harvest_len,
            harvest_discard: [0; MAX_HARVEST],
            harvest_discard_len: 0,
            reserve,
            reserve_len,
            aside: [Tile(0); MAX_ASIDE],
            aside_len: 0,
            boxed: 0,
            bonus_supply: t.bonus_supply,
            colour_claims: [0; N_COLOURS],
            tasks: [Task::Finish; MAX_TASKS],
            n_tasks: 0,
            rng,
            start_vp: [0; MAX_PLAYERS],
            check: false,
        };
        state.deal(comps);
        let streams = seqs[1..].iter().map(Generator::new).collect();
        (state, streams)
    }

    /// T2.4–T2.6: the display, the hands, the territory pieces.
    fn deal(&mut self, comps: &Components) {
        for slot in 0..DISPLAY {
            self.display[slot] = self.draw_neutral(); // T2.4
        }
        self.check_five();
        for seat in 0..self.n {
            self.draw_cards(seat, START_HAND); // T2.5
        }
        for (kind, copies) in comps.tables().pieces_by_kind.iter().enumerate() {
            let copies = shuffled(&mut self.rng, copies); // T2.6: dealt at random
            for seat in 0..self.n {
                self.seats[seat].pieces[kind] = copies[seat % copies.len()];
            }
        }
    }

    /// The seat whose decision is pending; None once the game is over.
    pub fn to_move(&self) -> Option<usize> {
        self.pending.seat()
    }

    pub fn is_over(&self) -> bool {
        self.pending == Pending::Over
    }

    pub fn stage(&self) -> Option<Stage> {
        match self.pending {
            Pending::Turn { stage, .. } => Some(stage),
            _ => None,
        }
    }

    /// T4.1, T4.2, T8.8: `count` cards into the seat's hand, reshuffling the discards
    /// when the pile runs out; fewer if both are empty.
    pub(crate) fn draw_cards(&mut self, seat: usize, count: usize) {
        for _ in 0..count {
            if self.deck_len == 0 {
                let mut pile = Vec::with_capacity(MAX_CARDS);
                for (c, k) in self.discard.iter_mut().enumerate() {
                    pile.extend(std::iter::repeat_n(c as u8, *k as usize));
                    *k = 0;
                }
                let pile = shuffled(&mut self.rng, &pile);
                self.deck[..pile.len()].copy_from_slice(&pile);
                self.deck_len = pile.len() as u8;
                if self.deck_len == 0 {
                    return;
                }
            }
            self.deck_len -= 1;
            let colour = self.deck[self.deck_len as usize];
            self.seats[seat].hand[colour as usize] += 1;
            self.seats[seat].taken[colour as usize] += 1;
        }
    }

    /// T4.2: a card can be drawn (the draw pile or the discard pile holds one).
    pub fn can_draw(&self) -> bool {
        self.deck_len > 0 || self.discard.iter().any(|&k| k > 0)
    }

    /// T8.9: the top harvest card (the pile reshuffled from its discards when empty).
    pub(crate) fn reveal_harvest(&mut self) -> Option<u8> {
        if self.harvest_len == 0 {
            let pile = shuffled(
                &mut self.rng,
                &self.harvest_discard[..self.harvest_discard_len as usize],
            );
            self.harvest[..pile.len()].copy_from_slice(&pile);
            self.harvest_len = pile.len() as u8;
            self.harvest_discard_len = 0;
        }
        if self.harvest_len == 0 {
            return None;
        }
        self.harvest_len -= 1;
        let card = self.harvest[self.harvest_len as usize];
        self.harvest_discard[self.harvest_discard_len as usize] = card;
        self.harvest_discard_len += 1;
        Some(card)
    }

    /// T6.2, T6.3: the top neutral tile, rebuilding the reserve from the set-aside
    /// neutral tiles when it is empty (the coloured ones leave the game).
    pub(crate) fn draw_neutral(&mut self) -> Option<Tile> {
        if self.reserve_len == 0 && self.aside_len > 0 {
            let aside = &self.aside[..self.aside_len as usize];
            let neutral: Vec<Tile> = aside.iter().copied().filter(|t| t.is_neutral()).collect();
            self.boxed += (aside.len() - neutral.len()) as u16;
            let pile = shuffled(&mut self.rng, &neutral);
            self.reserve[..pile.len()].copy_from_slice(&pile);
            self.reserve_len = pile.len() as u8;
            self.aside_len = 0;
        }
        if self.reserve_len == 0 {
            return None;
        }
        self.reserve_len -= 1;
        Some(self.reserve[self.reserve_len as usize])
    }

    pub(crate) fn set_aside(&mut self, tile: Tile) {
        self.aside[self.aside_len as usize] = tile;
        self.aside_len += 1;
    }

    /// T5.3, T5.5, T10.5: the seat fills display gap `slot` from its leftmost stack, or
    /// from the neutral reserve once its 21 tiles are out; then T6.1.
    pub(crate) fn refill_from_stack(&mut self, seat: usize, slot: usize) {
        let s = &mut self.seats[seat];
        self.display[slot] = if (s.drawn as usize) < PLAYER_TILES {
            s.drawn += 1;
            Some(s.stack[s.drawn as usize - 1])
        } else {
            self.draw_neutral()
        };
        self.check_trigger();
        self.check_five();
    }

    /// T10.5: some player has put at least 7 x phase tiles into the display.
    pub(crate) fn check_trigger(&mut self) {
        let need = STACK * self.phase;
        if self.seats[..self.n].iter().any(|s| s.drawn >= need) {
            self.triggered = true;
        }
    }

    /// T6.1: while 5 or more display tiles share a colour, they are set aside and
    /// replaced from the neutral reserve.
    pub(crate) fn check_five(&mut self) {
        // Each pass sets 5 or more tiles aside and the pool is finite; the bound only
        // guards a hand-made set whose every neutral tile has one colour.
        for _ in 0..64 {
            let mut count = [0u8; N_COLOURS];
            for t in self.display.iter().flatten() {
                count[t.colour().index()] += 1;
            }
            let Some(colour) = count.iter().position(|&k| k >= 5) else {
                return;
            };
            for slot in 0..DISPLAY {
                if let Some(t) = self.display[slot] {
                    if t.colour().index() == colour {
                        self.set_aside(t);
                        self.display[slot] = None;
                    }
                }
            }
            for slot in 0..DISPLAY {
                if self.display[slot].is_none() {
                    self.display[slot] = self.draw_neutral();
                }
            }
        }
    }

    /// Every tile's whereabouts: (in stacks, in storage, on boards, in the display, in
    /// the reserve, set aside, out of the game). Their sum never changes.
    pub fn tile_census(&self) -> [usize; 7] {
        let seats = &self.seats[..self.n];
        [
            seats.iter().map(|s| PLAYER_TILES - s.drawn as usize).sum(),
            seats
                .iter()
                .map(|s| {
                    s.storage
                        .iter()
                        .filter(|x| matches!(x, Stored::Tile(_)))
                        .count()
                })
                .sum(),
            seats.iter().map(|s| s.placed_tiles as usize).sum(),
            self.display.iter().flatten().count(),
            self.reserve_len as usize,
            self.aside_len as usize,
            self.boxed as usize,
        ]
    }

    /// Cards in the deck, in hands and in the discard pile.
    pub fn card_census(&self) -> usize {
        let hands: u32 = self.seats[..self.n].iter().map(|s| s.hand_size()).sum();
        self.deck_len as usize
            + hands as usize
            + self.discard.iter().map(|&k| k as usize).sum::<usize>()
    }
}
