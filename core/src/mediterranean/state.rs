//! The state of a game (M2 setup, M3 the rounds' skeleton): the decks, the row of
//! offered contracts, the play order and rowing track, the wind, each seat's gold, ship,
//! hand, contract register and temple tokens, and the pending decision. Chance comes
//! from the state's own stream (`rng`), so a seed replays the game.

use serde::Serialize;

use super::components::{Components, MAX_PLAYERS};
use super::hidden::Picks;
use super::map::Tables;
use crate::rng::{Generator, SeedSequence};

/// The contract register's columns (M4.6: five contracts a round).
pub const COLUMNS: usize = 5;
/// The most regions a set may have (validated).
pub const MAX_REGIONS: usize = 8;
/// No card, column or city.
pub const NONE: u8 = u8::MAX;

/// A contract in the row (M4.1): a city, a goods and a rowing card, face down or up,
/// with the coins put on it while it waited (M4.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Offer {
    pub city: u8,
    pub goods: u8,
    pub rowing: u8,
    pub face_up: bool,
    pub gold: u8,
}

/// A register column's state (M4.6, M5.8, M5.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    Empty,
    /// Loaded, not delivered yet.
    Open,
    /// Delivered (its cards discarded).
    Done,
    /// Turned over: skipped or not delivered in time (its cards wait for the round's end).
    Lost,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Column {
    pub city: u8,
    pub goods: u8,
    pub status: Status,
}

impl Column {
    pub const EMPTY: Column = Column { city: NONE, goods: NONE, status: Status::Empty };
}

/// One seat's holdings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seat {
    pub gold: i32,
    /// The city the ship lies in.
    pub ship: u8,
    /// Rowing cards in hand (hidden from the table, but each entered it face up: M5.1).
    pub hand: Vec<u8>,
    /// Rowing cards played this round, face down in front of the seat (M5.10).
    pub played: Vec<u8>,
    pub register: [Column; COLUMNS],
    /// Temple track position per region (M5.7).
    pub temple: [u8; MAX_REGIONS],
    /// When the token reached its space (the lower in a stack arrived first: M6.3).
    pub arrived: [u32; MAX_REGIONS],
    /// Points tiles won: (temple, round, points).
    pub tiles: Vec<(u8, u8, u8)>,
    /// Bonus tiles won (their points).
    pub bonus: Vec<u8>,
    /// Extra turns played in the game.
    pub extras: u8,
}

impl Seat {
    pub fn open(&self) -> impl Iterator<Item = usize> + '_ {
        (0..COLUMNS).filter(|&c| self.register[c].status == Status::Open)
    }

    pub fn count(&self, status: Status) -> usize {
        self.register.iter().filter(|c| c.status == status).count()
    }

    /// Points of tiles and bonus tiles (the VP the rules give: M8.1).
    pub fn points(&self) -> i32 {
        self.tiles.iter().map(|t| i32::from(t.2)).sum::<i32>()
            + self.bonus.iter().map(|&b| i32::from(b)).sum::<i32>()
    }
}

/// The pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Pending {
    /// M4.4: take a face-up contract or turn the next face-down one.
    Choose { seat: u8 },
    /// M4.3: take the contract just turned up, or refuse it (not the last one).
    Turned { seat: u8, offer: u8 },
    /// M5.1: the rowing card, chosen face down.
    Pick { seat: u8 },
    /// M5.4-M5.9: sail and maybe deliver.
    Sail { seat: u8 },
    /// M5.11: take an extra turn or not.
    Extra { seat: u8 },
    /// M5.12: the extra turn's rowing card (played openly).
    ExtraPick { seat: u8 },
    Over,
}

/// The phase of the round (a frame's heading).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    Contracts,
    Delivery,
    Extra,
    Over,
}

#[derive(Clone, Debug)]
pub struct MedState {
    pub n: usize,
    pub round: u8,
    pub phase: Phase,
    pub pending: Pending,
    /// Contract turn (M4) or delivery turn (M5; 5 and 6 the extra turns), 0-based.
    pub turn: u8,
    /// Draw piles (the top is the end) and discard piles.
    pub city_deck: Vec<u8>,
    pub goods_deck: Vec<u8>,
    pub rowing_deck: Vec<u8>,
    pub city_discard: Vec<u8>,
    pub goods_discard: Vec<u8>,
    pub rowing_discard: Vec<u8>,
    /// Individual rowing cards back in the box (M7.1).
    pub boxed: Vec<u8>,
    /// The contracts on offer, left to right.
    pub row: Vec<Offer>,
    /// Play order, seats first to last (M2.6, M4.8).
    pub order: Vec<u8>,
    /// Where in `order` the turn is.
    pub step: u8,
    /// The rowing track this contract turn: (power, seat) in placing order (M4.7).
    pub track: Vec<(u8, u8)>,
    /// The current wind (M2.5) and the forecast once the cards are shown (M5.2).
    pub wind: i8,
    pub forecast: Option<i8>,
    /// The rowing cards chosen face down this turn (hidden: `hidden.rs`).
    pub picks: Picks,
    /// The card of the extra turn being played.
    pub extra_card: u8,
    /// Each route's distance tile (M2.3), and the shortest distances it makes.
    pub miles: Vec<u8>,
    pub dist: Vec<u16>,
    /// The coins in the supply (M1: 55 in all).
    pub bank: i32,
    /// The bonus tiles left, face down (their points).
    pub bonus_pile: Vec<u8>,
    pub seats: Vec<Seat>,
    /// Contracts delivered and lost in the game so far, per seat (the rows' columns).
    pub delivered: Vec<u8>,
    pub lost: Vec<u8>,
    /// The temple tokens' clock (M6.3: arrival order).
    pub clock: u32,
    pub start_vp: [i32; MAX_PLAYERS],
    pub check: bool,
    pub rng: Generator,
}

impl MedState {
    /// M2: setup for `n` seats (3-5): distance tiles placed at random, decks shuffled,
    /// play order drawn, five gold, two individual rowing cards and a ship in Crete
    /// each, the wind at its start; then the first contract turn is dealt.
    pub fn new(comps: &Components, n: usize, seed: SeedSequence) -> (MedState, Vec<Generator>) {
        let t = comps.tables();
        let mut seed = seed;
        let seqs = seed.spawn(1 + n);
        let mut rng = Generator::new(&seqs[0]);
        let miles = place_tiles(t, &mut rng);
        let dist = t.distances(&miles);
        let city_deck = shuffled(&mut rng, (0..t.city_cards.len() as u8).collect());
        let goods_deck = shuffled(&mut rng, (0..t.goods_cards.len() as u8).collect());
        let rowing_deck = shuffled(&mut rng, (0..t.deck_rowing as u8).collect());
        let bonus_pile = shuffled(&mut rng, t.bonus.clone());
        let order: Vec<u8> = rng.permutation(n).into_iter().map(|s| s as u8).collect();
        let seats = (0..n).map(|s| Seat {
            gold: t.start_gold,
            ship: t.start,
            hand: (0..t.individual).map(|k| t.individual_card(s, k)).collect(),
            played: Vec::new(),
            register: [Column::EMPTY; COLUMNS],
            temple: [0; MAX_REGIONS],
            arrived: [0; MAX_REGIONS],
            tiles: Vec::new(),
            bonus: Vec::new(),
            extras: 0,
        }).collect();
        let mut state = MedState {
            n, round: 0, phase: Phase::Contracts, pending: Pending::Over, turn: 0,
            city_deck, goods_deck, rowing_deck, city_discard: Vec::new(),
            goods_discard: Vec::new(), rowing_discard: Vec::new(), boxed: Vec::new(),
            row: Vec::new(), order, step: 0, track: Vec::new(), wind: t.start_wind,
            forecast: None, picks: Picks::default(), extra_card: NONE, miles, dist,
            bank: t.coins - t.start_gold * n as i32, bonus_pile, seats, delivered: vec![0; n], lost: vec![0; n], clock: 0,
            start_vp: [0; MAX_PLAYERS], check: false, rng,
        };
        state.start_contract_turn(comps);
        (state, seqs[1..].iter().map(Generator::new).collect())
    }

    /// The seat whose decision is pending.
    pub fn to_move(&self) -> Option<usize> {
        match self.pending {
            Pending::Choose { seat } | Pending::Turned { seat, .. } | Pending::Pick { seat }
            | Pending::Sail { seat } | Pending::Extra { seat } | Pending::ExtraPick { seat } => {
                Some(seat as usize)
            }
            Pending::Over => None,
        }
    }

    /// The shortest sea distance from `a` to `b`.
    pub fn distance(&self, t: &Tables, a: u8, b: u8) -> u16 {
        self.dist[a as usize * t.cities() + b as usize]
    }

    /// Set the distance tiles (a test's or a worked example's placing).
    pub fn set_miles(&mut self, t: &Tables, miles: Vec<u8>) {
        self.dist = t.distances(&miles);
        self.miles = miles;
    }

    /// `seat`'s place in the play order (0 first).
    pub fn place_in_order(&self, seat: usize) -> usize {
        self.order.iter().position(|&s| s as usize == seat).expect("every seat is in order")
    }

    /// Pay `amount` from the supply to `seat`, as far as it lasts (M1: 55 coins).
    pub fn pay_out(&mut self, seat: usize, amount: i32) {
        let paid = amount.min(self.bank).max(0);
        self.bank -= paid;
        self.seats[seat].gold += paid;
    }

    /// `seat` pays `amount` to the supply.
    pub fn pay_in(&mut self, seat: usize, amount: i32) {
        self.seats[seat].gold -= amount;
        self.bank += amount;
    }

    /// M5.7: `seat`'s token in `region`'s temple moves on `points`, onto any stack there.
    pub fn advance_temple(&mut self, seat: usize, region: usize, points: u8) {
        if points == 0 {
            return;
        }
        self.clock += 1;
        let s = &mut self.seats[seat];
        s.temple[region] = s.temple[region].saturating_add(points);
        s.arrived[region] = self.clock;
    }

    /// Draw one card from `deck`, reshuffling `discard` into it when it is empty
    /// (M7.4 decision: only a changed set can empty a deck mid-round).
    pub(super) fn draw(rng: &mut Generator, deck: &mut Vec<u8>, discard: &mut Vec<u8>) -> u8 {
        if deck.is_empty() {
            let d = std::mem::take(discard);
            *deck = shuffled(rng, d);
        }
        deck.pop().expect("validated sets hold enough cards")
    }
}

/// M2.3: the open-sea tiles shuffled onto the open-sea spaces, the coastal ones onto the
/// coastal spaces (each route's miles, `Tables::routes` order).
fn place_tiles(t: &Tables, rng: &mut Generator) -> Vec<u8> {
    use super::components::Sea;
    let open = shuffled(rng, t.open_tiles.clone());
    let coastal = shuffled(rng, t.coastal_tiles.clone());
    let (mut o, mut c) = (open.into_iter(), coastal.into_iter());
    t.routes.iter().map(|r| match r.2 {
        Sea::OpenSea => o.next(),
        Sea::Coastal => c.next(),
    }.expect("validated: a tile per space")).collect()
}

/// `items` in a random order from `rng`.
pub fn shuffled<T: Copy>(rng: &mut Generator, items: Vec<T>) -> Vec<T> {
    rng.permutation(items.len()).into_iter().map(|i| items[i]).collect()
}
