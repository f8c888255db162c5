//! Game state and the turn loop: setup, movement, building, rewards, phases (R2-R6,
//! R9); `cdsim/games/carpe_diem/rules/game.py` states the same rules in Python (the oracle).
//!
//! A game is a pure function of (config, players, seed): every shuffle is drawn at
//! setup from the game's own Generator, and each seat's player gets its own stream.
//!
//! Unlike the Python loop, the state is a resumable machine (OpenSpiel's State): it
//! always knows the decision it waits for (`pending`), `options` lists that decision's
//! options (one `Action` each) in the order the Python rules list them, and `apply` makes
//! one choice and runs the game on to the next decision. So a copied state (`Clone`,
//! fixed-size arrays only) can be played on from any decision point with any players
//! (`play::run`). The rules know no player: the driver (`crate::play`) joins the two.

mod events;
mod options;
mod rewards;
mod seam;
mod snapshot;
mod turn;

pub use events::{Event, EventLog};
pub use options::{Action, CircleChoice, FountainChoice, Move, Options, Pending, SealBuild, Take};
pub use crate::carpe_diem::cards::Payment;

use std::sync::Arc;

use crate::carpe_diem::components::{Components, FramePart, FOUNTAIN_CARDS};
use crate::carpe_diem::district::District;
use crate::carpe_diem::kinds::{
    is_landscape, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, FOUNTAIN, MARKET, MERCHANT,
};
use crate::rng::{Generator, SeedSequence};

pub const PHASES: usize = 4; // R3.1
pub const ROUNDS: usize = 7; // R3.1
pub const SPACES: usize = 7; // R4.1: patrician spaces on the cycle, one depot each
pub const TILES_PER_DEPOT: usize = 4; // R2.4
pub const SEAL_SPACES: usize = 11; // R2.4
pub const MAX_PLAYERS: usize = 4;
pub const GRID_SLOTS: usize = 12; // R8.1
/// No card on a grid slot, no tile on a seal space.
pub const NONE: u8 = u8::MAX;
pub const DEFAULT_START_VP: [[i32; 4]; 3] = [[8, 9, 0, 0], [8, 9, 13, 0], [8, 9, 10, 11]]; // R2.7
/// R2.2: cards drawn from decks A, B, C, D, for 2, 3 and 4 players.
pub const CARDS_DRAWN: [[usize; 4]; 3] = [[2, 2, 2, 2], [2, 3, 2, 3], [3, 3, 2, 4]];
/// R8.1 / docs/rules.md C10: card-grid slots (row * 3 + col) left empty.
pub fn empty_slot(players: usize, slot: usize) -> bool {
    empty_const(players, slot)
}

/// R4.6: tiles taken from a depot before the rest is discarded (2p: 2, 3p: 3, 4p: 4).
pub fn takes_per_depot(players: usize) -> u8 {
    players as u8
}

const fn empty_const(players: usize, slot: usize) -> bool {
    match players {
        2 => slot == 0 || slot == 2 || slot == 9 || slot == 11,
        3 => slot == 0 || slot == 11,
        _ => false,
    }
}

const fn circles_for(players: usize) -> ([(u8, u8); 17], usize) {
    let mut out = [(0u8, 0u8); 17];
    let mut n = 0;
    let mut s = 0;
    while s < GRID_SLOTS {
        if !empty_const(players, s) {
            let (r, c) = (s / 3, s % 3);
            if c < 2 && !empty_const(players, s + 1) {
                out[n] = (s as u8, (s + 1) as u8);
                n += 1;
            }
            if r < 3 && !empty_const(players, s + 3) {
                out[n] = (s as u8, (s + 3) as u8);
                n += 1;
            }
        }
        s += 1;
    }
    (out, n)
}

const CIRCLES_2: ([(u8, u8); 17], usize) = circles_for(2);
const CIRCLES_3: ([(u8, u8); 17], usize) = circles_for(3);
const CIRCLES_4: ([(u8, u8); 17], usize) = circles_for(4);

/// R8.1: a circle between every two orthogonally adjacent card spaces both in use.
pub fn circles(players: usize) -> &'static [(u8, u8)] {
    match players {
        2 => &CIRCLES_2.0[..CIRCLES_2.1],
        3 => &CIRCLES_3.0[..CIRCLES_3.1],
        _ => &CIRCLES_4.0[..CIRCLES_4.1],
    }
}

/// R5.5 [decision]: completions of one tile resolve in this order, which is never
/// worse for the player than any other: goods first, the artisan's chain next,
/// the merchant last (so it exchanges every good the tile brought). `_REWARD_ORDER`.
fn reward_order(kind: u8) -> u8 {
    match kind {
        k if is_landscape(k) => 0,
        MARKET | BAKERY | FOUNTAIN => 1,
        BAKER | ADMINISTRATOR => 2,
        ARTISAN => 4,
        MERCHANT => 5,
        _ => 3,
    }
}

/// The static facts of a game: player count, starting VP, checking mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameConfig {
    pub players: usize,
    /// Starting VP by seat; the first `players` are used (R2.7).
    pub start_vp: [i32; 4],
    /// Verify every invariant after every action (tests).
    pub check: bool,
}

impl GameConfig {
    /// A config with the rulebook's starting VP (R2.7).
    pub fn new(players: usize) -> GameConfig {
        assert!(
            (2..=4).contains(&players),
            "players must be 2, 3 or 4, got {players}"
        );
        GameConfig {
            players,
            start_vp: DEFAULT_START_VP[players - 2],
            check: false,
        }
    }
}

/// A fixed-capacity list of small indices (decks, depots, kept cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct List<const N: usize> {
    items: [u8; N],
    len: u8,
}

impl<const N: usize> Default for List<N> {
    fn default() -> Self {
        List {
            items: [0; N],
            len: 0,
        }
    }
}

impl<const N: usize> List<N> {
    /// A uniform shuffle (Fisher-Yates from the last card down, drawing from `rng`): a
    /// search player's own order of a deck it cannot see (mcts, learned).
    pub fn shuffle(&mut self, rng: &mut Generator) {
        let mut items = [0u8; N];
        let n = self.len();
        items[..n].copy_from_slice(self.as_slice());
        for i in (1..n).rev() {
            let j = rng.integers(i as u64 + 1) as usize;
            items.swap(i, j);
        }
        *self = List::from_slice(&items[..n]);
    }
}

impl<const N: usize> List<N> {
    pub fn from_slice(items: &[u8]) -> Self {
        let mut out = Self::default();
        for &i in items {
            out.push(i);
        }
        out
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.items[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, item: u8) {
        self.items[self.len as usize] = item;
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }

    /// Remove the item at `index`, keeping the order of the others (`list.pop(i)`).
    pub fn remove(&mut self, index: usize) -> u8 {
        let item = self.items[index];
        self.items.copy_within(index + 1..self.len as usize, index);
        self.len -= 1;
        item
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn contains(&self, item: u8) -> bool {
        self.as_slice().contains(&item)
    }
}

/// R8.3: one circle, so two cards, per scoring phase: the most cards a seat resolves.
pub const CARDS_PER_SEAT: usize = 2 * PHASES;

/// One objective card a seat resolved in a scoring phase (R8.4-R8.5), kept for the
/// game's card rows (`records::CardRecord`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CardTaken {
    /// Index into `Components::objectives`.
    pub card: u8,
    /// 0-based scoring phase.
    pub phase: u8,
    pub failed: bool,
    pub multiples: i32,
    /// The VP it brought (-4 when failed, R8.5).
    pub vp: i32,
}

/// Everything one player has. VP fields are the engine's (built-ins never read them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState {
    pub seat: u8,
    /// Shared between copies of a state until one of them builds (`Arc::make_mut`): the
    /// search players copy a state thousands of times a game and change one district.
    pub district: Arc<District>,
    pub goods: [i32; 4],
    pub coins: i32,
    pub bread: i32,
    pub stored: i32,
    /// Kept fountain cards, indices into `Components::fountains`, in the order kept.
    pub fountain_cards: List<24>,
    /// Patrician space, -1 before R2.5.
    pub pawn: i8,
    pub scroll: u8,
    /// Higher = higher in the stack on the same scroll space.
    pub stamp: u16,
    pub tiles_built: i32,
    pub bread_moves: i32,
    pub failed_cards: i32,
    pub artisan_lost: i32,
    pub taken: [u8; PHASES],
    pub vp_after_phase: [i32; PHASES],
    pub start_vp: i32,
    pub card_vp: i32,
    pub overflow_vp: i32,
    /// The objective cards resolved, in order: fixed arrays, so a copied state (the
    /// search players copy thousands) allocates nothing for them.
    pub cards_taken: [CardTaken; CARDS_PER_SEAT],
    pub n_cards_taken: u8,
    /// Fountain cards drawn (R6.5), counted by phase and card index.
    pub fountain_draws: [[u8; FOUNTAIN_CARDS]; PHASES],
}

impl PlayerState {
    /// The district to change (this state's own copy: shared ones are copied first).
    pub fn district_mut(&mut self) -> &mut District {
        Arc::make_mut(&mut self.district)
    }

    fn new(seat: usize, district: District, start_vp: i32) -> PlayerState {
        PlayerState {
            seat: seat as u8,
            district: Arc::new(district),
            goods: [0; 4],
            coins: 0,
            bread: 0,
            stored: 0,
            fountain_cards: List::default(),
            pawn: -1,
            scroll: 0,
            stamp: seat as u16, // R2.6: the last seat's disc is on top
            tiles_built: 0,
            bread_moves: 0,
            failed_cards: 0,
            artisan_lost: 0,
            taken: [0; PHASES],
            vp_after_phase: [0; PHASES],
            start_vp,
            card_vp: 0,
            overflow_vp: 0,
            cards_taken: [CardTaken::default(); CARDS_PER_SEAT],
            n_cards_taken: 0,
            fountain_draws: [[0; FOUNTAIN_CARDS]; PHASES],
        }
    }

    /// VP held during play: start + objective cards + scroll overflow (R6.6).
    pub fn current_vp(&self) -> i32 {
        self.start_vp + self.card_vp + self.overflow_vp
    }

    /// R10.2: goods, coins, bread and stored tiles.
    pub fn leftover_items(&self) -> i32 {
        self.goods.iter().sum::<i32>() + self.coins + self.bread + self.stored
    }

    /// The objective cards resolved so far, in order.
    pub fn cards_taken(&self) -> &[CardTaken] {
        &self.cards_taken[..self.n_cards_taken as usize]
    }
}

/// A completion whose reward waits (R5.5): kind and tiles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Reward {
    kind: u8,
    tiles: u8,
    chimneys: u16,
}

/// Pending rewards: a stack, so an artisan's chain resolves before the rest of the
/// tile's rewards, as Python's recursion does. A build queues at most 4 and an artisan
/// (one of them) builds at most 11 seal tiles: at most 4 + 11 * 3 = 37 wait at once.
const REWARD_STACK: usize = 48;

/// What changes during one game (OpenSpiel's State).
#[derive(Clone, Debug)]
pub struct GameState {
    pub n: usize,
    pub check: bool,
    pub phase: usize,
    pub round: usize,
    pub start_player: usize,
    /// Index in the seat order of the player on turn (or placing its pawn).
    pub turn: usize,
    pub stamp_counter: u16,
    pub players: [PlayerState; MAX_PLAYERS],
    /// Frame part indices of each seat (top, right, bottom, left), R2.1.
    pub frames: [[u8; 4]; MAX_PLAYERS],
    /// Board index of each seat (R2.1).
    pub boards: [u8; MAX_PLAYERS],
    /// Objective-card index on each grid slot, or NONE.
    pub grid: [u8; GRID_SLOTS],
    pub circle_owner: [i8; 17],
    pub fountain_deck: List<24>,
    pub light_deck: List<84>,
    pub dark_deck: List<39>,
    /// Tile type on each seal space, or NONE (never replaced).
    pub seal: [u8; SEAL_SPACES],
    pub depots: [List<TILES_PER_DEPOT>; SPACES],
    pub depot_taken: [u8; SPACES],
    pub discarded: u16,
    pub pending: Pending,
    pub(crate) scoring_order: [u8; MAX_PLAYERS],
    pub(crate) scoring_index: u8,
    rewards: [Reward; REWARD_STACK],
    n_rewards: u8,
    /// The game's events, when recorded (`EventLog::on`); copies record none.
    pub log: EventLog,
}

/// `items` in the order of one `rng.permutation(len)`.
fn shuffled(rng: &mut Generator, items: &[u8]) -> Vec<u8> {
    rng.permutation(items.len())
        .iter()
        .map(|&i| items[i])
        .collect()
}

/// R2.2: cards drawn from each deck A-D, shuffled together and laid out on the grid
/// slots in use (each slot takes the last card left, as Python's `drawn.pop()`).
fn deal_grid(rng: &mut Generator, comps: &Components, n: usize) -> [u8; GRID_SLOTS] {
    let mut drawn: Vec<u8> = Vec::with_capacity(GRID_SLOTS);
    for (deck, &k) in comps.decks.iter().zip(&CARDS_DRAWN[n - 2]) {
        let order = rng.permutation(deck.len());
        drawn.extend(order[..k].iter().map(|&i| deck[i]));
    }
    let mut drawn = shuffled(rng, &drawn);
    let mut grid = [NONE; GRID_SLOTS];
    for (slot, card) in grid.iter_mut().enumerate() {
        if !empty_slot(n, slot) {
            *card = drawn.pop().expect("enough cards for the grid");
        }
    }
    grid
}

impl GameState {
    /// Whether two states are alike in everything but `seat`'s holdings (its district,
    /// supply, cards and counters; its pawn and scroll disc are compared like the rest).
    /// The learned player's replies (2 players) ask it: the greedy profile's decisions for
    /// another seat read nothing else of `seat`, so states alike this way get the same
    /// replies. Every field is named, so a new one cannot be left out unnoticed.
    pub fn alike_but_holdings(&self, other: &GameState, seat: usize) -> bool {
        let GameState {
            n, check, phase, round, start_player, turn, stamp_counter, players, frames,
            boards, grid, circle_owner, fountain_deck, light_deck, dark_deck, seal, depots,
            depot_taken, discarded, pending, scoring_order, scoring_index, rewards,
            n_rewards, log: _,
        } = self;
        *n == other.n
            && *pending == other.pending
            && *depots == other.depots
            && *phase == other.phase
            && *round == other.round
            && *turn == other.turn
            && *start_player == other.start_player
            && *stamp_counter == other.stamp_counter
            && *check == other.check
            && *grid == other.grid
            && *circle_owner == other.circle_owner
            && *depot_taken == other.depot_taken
            && *discarded == other.discarded
            && *seal == other.seal
            && *scoring_order == other.scoring_order
            && *scoring_index == other.scoring_index
            && *n_rewards == other.n_rewards
            && rewards[..usize::from(*n_rewards)] == other.rewards[..usize::from(*n_rewards)]
            && *frames == other.frames
            && *boards == other.boards
            && *fountain_deck == other.fountain_deck
            && *light_deck == other.light_deck
            && *dark_deck == other.dark_deck
            && players[..*n].iter().zip(&other.players[..*n]).enumerate().all(|(s, (a, b))| {
                if s == seat {
                    a.pawn == b.pawn && a.scroll == b.scroll && a.stamp == b.stamp
                } else {
                    a == b
                }
            })
    }
}

impl GameState {
    /// R2: setup, drawn in Python's fixed order from the engine's stream; returns the
    /// state (waiting for the first pawn, R2.5) and each seat's own stream.
    pub fn new(
        comps: &Components,
        config: &GameConfig,
        mut seed: SeedSequence,
    ) -> (GameState, Vec<Generator>) {
        let n = config.players;
        assert!((2..=4).contains(&n), "players must be 2, 3 or 4, got {n}");
        let seqs = seed.spawn(1 + n);
        let mut rng = Generator::new(&seqs[0]);
        let boards = rng.permutation(comps.boards.len());
        let parts = rng.permutation(comps.frame_parts.len());
        let mut frames = [[0u8; 4]; MAX_PLAYERS];
        let mut seat_boards = [0u8; MAX_PLAYERS];
        let players: [PlayerState; MAX_PLAYERS] = std::array::from_fn(|seat| {
            if seat >= n {
                return PlayerState::new(seat, District::new(None, &[]), 0);
            }
            let ids = &parts[4 * seat..4 * seat + 4]; // R2.1
            frames[seat] = [ids[0] as u8, ids[1] as u8, ids[2] as u8, ids[3] as u8];
            let frame: Vec<&FramePart> = ids.iter().map(|&i| &comps.frame_parts[i]).collect();
            seat_boards[seat] = boards[seat] as u8;
            let district = District::new(Some(&comps.boards[boards[seat]]), &frame);
            PlayerState::new(seat, district, config.start_vp[seat])
        });
        let grid = deal_grid(&mut rng, comps, n);
        let fountain_ids: Vec<u8> = (0..comps.fountains.len() as u8).collect();
        let fountain_deck = List::from_slice(&shuffled(&mut rng, &fountain_ids)); // R2.3
        let light_deck = List::from_slice(&shuffled(&mut rng, &comps.light)); // R2.4
        let mut dark_deck = List::from_slice(&shuffled(&mut rng, &comps.dark));
        let seal = std::array::from_fn(|_| dark_deck.pop().expect("39 dark tiles"));
        let state = GameState {
            n,
            check: config.check,
            phase: 0,
            round: 0,
            start_player: 0,
            turn: 0,
            stamp_counter: n as u16,
            players,
            frames,
            boards: seat_boards,
            grid,
            circle_owner: [-1; 17],
            fountain_deck,
            light_deck,
            dark_deck,
            seal,
            depots: [List::default(); SPACES],
            depot_taken: [0; SPACES],
            discarded: 0,
            pending: Pending::Start { seat: 0 }, // R2.5: seat order from seat 0
            scoring_order: [0; MAX_PLAYERS],
            scoring_index: 0,
            rewards: [Reward::default(); REWARD_STACK],
            n_rewards: 0,
            log: EventLog::default(),
        };
        let seats = seqs[1..].iter().map(Generator::new).collect();
        (state, seats)
    }

    pub fn circles(&self) -> &'static [(u8, u8)] {
        circles(self.n)
    }

    /// The seat `i` places after the starting player.
    pub fn seat_at(&self, i: usize) -> usize {
        (self.start_player + i) % self.n
    }

    pub fn is_over(&self) -> bool {
        self.pending == Pending::Over
    }

    /// R2.4 / R3.2: 4 tiles on each depot — light for phases 1-3, dark for phase 4.
    fn deal(&mut self) {
        for space in 0..SPACES {
            let mut depot = List::default();
            for _ in 0..TILES_PER_DEPOT {
                let deck = if self.phase < PHASES - 1 {
                    self.light_deck.pop()
                } else {
                    self.dark_deck.pop()
                };
                depot.push(deck.expect("enough tiles for the phase"));
            }
            self.depots[space] = depot;
        }
        self.depot_taken = [0; SPACES];
        if self.log.is_on() {
            let depots = std::array::from_fn(|s| {
                let mut d = [NONE; TILES_PER_DEPOT];
                d[..self.depots[s].len()].copy_from_slice(self.depots[s].as_slice());
                d
            });
            self.log.push(Event::Deal { phase: self.phase as u8, depots });
        }
    }

    /// R5.4, R6.3: move the disc; it lands on top. R6.6: steps past the end score 1 VP.
    pub fn advance_scroll(&mut self, comps: &Components, seat: usize, steps: i32) {
        if steps <= 0 {
            return;
        }
        let last = comps.last_scroll_space() as i32;
        let p = &mut self.players[seat];
        let mut target = i32::from(p.scroll) + steps;
        let mut overflow = 0;
        if target > last {
            overflow = target - last;
            p.overflow_vp += overflow;
            target = last;
        }
        p.scroll = target as u8;
        self.stamp_counter += 1;
        p.stamp = self.stamp_counter;
        let (seat, space) = (seat as u8, target as u8);
        self.log.push(Event::Scroll { seat, steps, space, overflow });
    }

    // -- R3: phases ------------------------------------------------------------------
    /// R3.3: the starting player passes left; R2.5 before the first deal; R3.2 deal.
    pub(crate) fn begin_phase(&mut self, phase: usize) {
        self.phase = phase;
        self.start_player = phase % self.n;
        self.turn = 0;
        self.round = 0;
        if phase == 0 {
            self.pending = Pending::Start {
                seat: self.seat_at(0) as u8,
            };
            return; // R2.5: blind, before any tile is dealt (R2.4)
        }
        self.deal();
        self.pending = Pending::Move {
            seat: self.seat_at(0) as u8,
        };
    }
}
