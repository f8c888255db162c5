//! The learned player's caches: what its inputs cost most to work out (card values,
//! open features, the greedy profile's prices and tile values), kept per seat for the
//! last few positions. A decision values dozens of copies that differ only in what the
//! deciding seat did: the other seats' entries, and most of its own, stay right.

use crate::carpe_diem::cards::Payment;
use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::{Around, District, Layout};
use crate::carpe_diem::game::{GameState, List, Pending, GRID_SLOTS, MAX_PLAYERS, NONE, PHASES, TILES_PER_DEPOT};
use crate::carpe_diem::kinds::CELLS;
use crate::carpe_diem::players::position::{PricesKey, SeatTable};
use crate::carpe_diem::players::scripted::scoring_params;
use crate::carpe_diem::players::value::{
    best_card_payment, card_gap, card_interest, good_interest, Evaluator, Prices,
};
use crate::carpe_diem::players::{Params, PlayerView};

use super::open::{Fillable, Seen};
use super::{open_features, reach_spaces, Open, N_INPUTS};

/// What decides a card's outcome for a seat: its features, goods, coins, bread, and
/// whether the scoring is the last (resources are then only leftovers).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct CardKey {
    have: [i32; 16],
    goods: [i32; 4],
    coins: i32,
    bread: i32,
    last: bool,
    grid: [u8; GRID_SLOTS],
}

/// Each grid card's (value, fails, missing units) for one `CardKey`.
#[derive(Clone, Copy, Default)]
pub(super) struct CardValues {
    pub value: [f64; GRID_SLOTS],
    pub failed: [u8; GRID_SLOTS],
    pub gaps: [i32; GRID_SLOTS],
}

/// Scratch space reused between calls (no allocation once warm), and the card values
/// of the last few resource states (a take changes them only when it completes a
/// feature or pays a reward).
/// Each cache is kept per seat: a decision's copies change the deciding seat's entries,
/// and would push the other seats' out of a shared one.
#[derive(Default, Clone)]
pub struct Scratch {
    payments: Vec<Payment>,
    cards: [Memo<CardKey, CardValues>; MAX_PLAYERS],
    evals: [Memo<EvalKey, TileValues>; MAX_PLAYERS],
    prices: [Memo<PricesKey, Prices>; MAX_PLAYERS],
    open: [Memo<DistrictKey, Open>; MAX_PLAYERS],
    /// Which cell side patterns some tile fits (the placement inputs' dead cells).
    fillable: Fillable,
    /// `open_features`' list of the features met.
    seen: Vec<Seen>,
    /// A seat's whole inputs, and what a model made of them last (its fingerprint and the
    /// value): the copies of a decision seldom change another seat's.
    inputs: [Memo<InputsKey, KeptInputs>; MAX_PLAYERS],
    /// value.rs card_interest and good_interest of the grid's free circles.
    grid: Option<GridValues>,
    /// The position whose prices every seat's tile values take in the copies one decision
    /// values (`pin`), and how many pins there were (a pin's number keys its inputs).
    pinned: Option<Box<Pin>>,
    pins: u64,
    /// While pinned: a seat's tile values per (pin, district): a pin's number names the
    /// seat's prices in the pinned position (`pin_prices`) without comparing them.
    priced: [Memo<(u64, Layout), TileValues>; MAX_PLAYERS],
    /// A seat's prices in the pinned position, with the pin's number: the pinned position
    /// does not change while the pin holds, so its prices are looked up once a decision
    /// and seat, not once a copy (their key costs as much to build as a look-up saves).
    pin_prices: [Option<(u64, Prices)>; MAX_PLAYERS],
}

/// The position whose prices every seat's tile values take while pinned.
#[derive(Clone)]
struct Pin {
    epoch: u64,
    state: GameState,
}

type Inputs = [f64; N_INPUTS];

/// A seat's inputs and a model's value of them (its fingerprint, the value), if any.
pub(super) type KeptInputs = (Inputs, Option<(u64, f64)>);

/// Everything `features` reads for a seat: the time and whose turn it is, the kind of
/// decision pending (as `takes_left` and `ahead_in_scoring` tell them apart), the
/// scoring order, the grid and its free circles, every scroll disc, the depots the
/// seat's pawn reaches (`depots_in_reach`), and the seat's supply, fountain cards and
/// district.
#[derive(Clone, PartialEq)]
pub(super) struct InputsKey {
    // (compared in this order: what tells a decision's copies apart comes first, so a
    // key kept from another copy or decision is told apart early)
    /// The pin in force (`Scratch::pin`), 0 for none: pinned inputs are
    /// another function of the position.
    pin: u64,
    district: Layout,
    reach: [List<TILES_PER_DEPOT>; 2],
    supply: ([i32; 4], i32, i32, i32),
    discs: [(u8, u16); MAX_PLAYERS],
    /// Whether the placement inputs were worked out (weights of version 2).
    placement: bool,
    comps: usize,
    seat: usize,
    players: usize,
    clock: (usize, usize, usize, usize),
    pending: u8,
    scoring: ([u8; MAX_PLAYERS], u8),
    grid: [u8; GRID_SLOTS],
    owners: [i8; 17],
    fountain_cards: List<24>,
}

impl InputsKey {
    pub(super) fn of(state: &GameState, comps: &Components, seat: usize, placement: bool,
                     pin: u64) -> InputsKey {
        let me = &state.players[seat];
        let pending = match state.pending {
            Pending::Move { .. } | Pending::Take { .. } => 0,
            Pending::Seal { .. } | Pending::Fountain { .. } => 1,
            Pending::Circle { .. } | Pending::Payment { .. } => 2,
            Pending::Start { .. } | Pending::Over => 3,
        };
        let mut reach = [List::default(); 2];
        if let Some(spaces) = reach_spaces(state, seat) {
            reach = spaces.map(|s| state.depots[s]);
        }
        InputsKey {
            placement,
            comps: comps as *const Components as usize,
            seat,
            players: state.n,
            clock: (state.phase, state.round, state.turn, state.start_player),
            pending,
            scoring: (state.scoring_order, state.scoring_index),
            grid: state.grid,
            owners: state.circle_owner,
            discs: std::array::from_fn(|s| (state.players[s].scroll, state.players[s].stamp)),
            reach,
            supply: (me.goods, me.coins, me.bread, me.stored),
            fountain_cards: me.fountain_cards,
            district: Layout::of(&me.district),
            pin,
        }
    }
}

/// The last few (key, value) pairs, the oldest replaced first.
#[derive(Clone)]
struct Memo<K, V> {
    entries: Vec<(K, V)>,
    next: usize,
}

impl<K, V> Default for Memo<K, V> {
    fn default() -> Self {
        Memo { entries: Vec::new(), next: 0 }
    }
}

impl<K: PartialEq, V> Memo<K, V> {
    fn position(&self, key: &K) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k == key)
    }

    /// An entry for `key` whose value the caller resets: the oldest entry's value is
    /// reused as it is (no allocation once warm); returns its index.
    fn claim(&mut self, key: K) -> usize
    where
        V: Default,
    {
        if self.entries.len() < CACHED {
            self.entries.push((key, V::default()));
            return self.entries.len() - 1;
        }
        let i = self.next;
        self.next = (i + 1) % CACHED;
        self.entries[i].0 = key;
        i
    }

    /// Store a pair; returns its index.
    fn insert(&mut self, key: K, value: V) -> usize {
        if self.entries.len() < CACHED {
            self.entries.push((key, value));
            return self.entries.len() - 1;
        }
        let i = self.next;
        self.next = (i + 1) % CACHED;
        self.entries[i] = (key, value);
        i
    }
}

type GridValues = ((usize, [u8; GRID_SLOTS], [i8; 17]), ([f64; 16], f64));

/// What `open_features` reads of a district.
#[derive(Clone, PartialEq, Eq)]
struct DistrictKey {
    edges: [[u8; 4]; CELLS],
    chimneys: [u8; CELLS],
    placement: bool,
}


impl Scratch {
    /// value.rs card_interest and good_interest under the default profile (what an
    /// `Evaluator` of the greedy profile reads of the grid), cached while the grid's free
    /// circles stay the same.
    pub fn grid_values(&mut self, view: &PlayerView) -> ([f64; 16], f64) {
        let state = view.state;
        let key = (state.n, state.grid, state.circle_owner);
        match &self.grid {
            Some((k, values)) if *k == key => *values,
            _ => {
                let params = Params::default();
                let values = (card_interest(view, &params), good_interest(view, &params));
                self.grid = Some((key, values));
                values
            }
        }
    }

    /// The greedy profile's prices for a view: kept per `PricesKey`, which most of a
    /// decision's copies share (a take that completes nothing changes none of it).
    /// A seat's inputs worked out before for `key`, if kept.
    /// The entry kept for `key`: the inputs and a model's value of them, if any.
    pub(super) fn inputs(&mut self, key: &InputsKey) -> Option<&mut KeptInputs> {
        let memo = &mut self.inputs[key.seat];
        memo.position(key).map(|i| &mut memo.entries[i].1)
    }

    pub(super) fn keep_inputs(&mut self, key: InputsKey, inputs: &Inputs, value: Option<(u64, f64)>) {
        self.inputs[key.seat].insert(key, (*inputs, value));
    }

    pub fn prices(&mut self, view: &PlayerView, params: &Params) -> Prices {
        let key = PricesKey::of(view, params);
        let memo = &mut self.prices[view.seat];
        if let Some(i) = memo.position(&key) {
            return memo.entries[i].1;
        }
        let prices = Prices::of(view, params, self.grid_values(view));
        self.prices[view.seat].insert(key, prices);
        prices
    }

    /// A district's open features; with `placement`, the version-2 inputs too.
    pub(super) fn open_features(&mut self, seat: usize, d: &District, comps: &Components,
                                placement: bool) -> Open {
        let key = DistrictKey { edges: d.edges, chimneys: d.chimneys_at, placement };
        let memo = &mut self.open[seat];
        if let Some(i) = memo.position(&key) {
            return memo.entries[i].1;
        }
        let v = open_features(d, comps, &mut self.seen, placement.then_some(&mut self.fillable));
        self.open[seat].insert(key, v);
        v
    }
}

/// Entries per seat and cache.
const CACHED: usize = 4;

impl Scratch {
    pub(super) fn card_values(&mut self, state: &GameState, comps: &Components, seat: usize) -> CardValues {
        let me = &state.players[seat];
        let key = CardKey {
            have: me.district.have,
            goods: me.goods,
            coins: me.coins,
            bread: me.bread,
            last: state.phase == PHASES - 1,
            grid: state.grid,
        };
        if let Some(i) = self.cards[seat].position(&key) {
            return self.cards[seat].entries[i].1;
        }
        let p = scoring_params(&Params::default(), state);
        let mut out = CardValues::default();
        for slot in 0..GRID_SLOTS {
            let id = state.grid[slot];
            if id == NONE {
                continue;
            }
            let card = &comps.objectives[id as usize];
            let (v, pay, _) = best_card_payment(
                &p,
                id as usize,
                card,
                &me.district.have,
                &me.goods,
                me.coins,
                me.bread,
                p.good,
                &mut self.payments,
            );
            out.value[slot] = v;
            out.failed[slot] = u8::from(pay.is_none());
            out.gaps[slot] = card_gap(card, &me.goods, me.coins, &me.district.have);
        }
        self.cards[seat].insert(key, out);
        out
    }
}

/// What the greedy profile's value of a tile for a seat reads (value.rs `Evaluator`): the
/// seat and the table (`SeatTable`) and its whole district (frame goals and scroll spaces
/// too: a player plays many games). `PricesKey` with the district, less what follows from
/// it and the fixed profile.
#[derive(Clone, PartialEq, Eq)]
struct EvalKey {
    table: SeatTable,
    district: Layout,
}

impl EvalKey {
    fn of(state: &GameState, comps: &Components, seat: usize) -> EvalKey {
        EvalKey { table: SeatTable::of(state, comps, seat), district: Layout::of(&state.players[seat].district) }
    }
}

/// A seat's best value of each tile type in the depots (storing it, or its best cell), for
/// the tile types `known` holds (a bit each).
#[derive(Clone)]
struct TileValues {
    known: [u64; 4],
    values: Box<[f64; 256]>,
}

impl Default for TileValues {
    fn default() -> Self {
        TileValues { known: [0; 4], values: Box::new([0.0; 256]) }
    }
}

impl TileValues {
    fn has(&self, t: u8) -> bool {
        self.known[usize::from(t >> 6)] >> (t & 63) & 1 != 0
    }
}

impl Scratch {
    /// From now until `unpin`, every seat's tile values (its inputs `reach_best` and
    /// `reach_other`) are the greedy profile's values with the prices of `state` (the
    /// pending decision's position) on the district of whatever position the inputs are
    /// asked of: a decision's copies change the deciding seat's district, but seldom
    /// anything the prices read, and working the prices out again on every copy cost more
    /// than the tile values themselves.
    pub fn pin(&mut self, state: &GameState) {
        self.pins += 1;
        let epoch = self.pins;
        match self.pinned.as_mut() {
            Some(pin) => {
                pin.epoch = epoch;
                pin.state.clone_from(state);
            }
            None => self.pinned = Some(Box::new(Pin { epoch, state: state.clone() })),
        }
    }

    /// Tile values are worked out on each position again.
    pub fn unpin(&mut self) {
        if let Some(pin) = self.pinned.as_mut() {
            pin.epoch = 0;
        }
    }

    /// The pin in force (0: none).
    pub(super) fn pin_of(&self) -> u64 {
        self.pinned.as_ref().map_or(0, |p| p.epoch)
    }

    /// The greedy profile's values of some tile types for a seat now, into `out` (cached
    /// per `EvalKey`: in a decision's copies the other seats' values do not change), or
    /// in the pinned position (`pin`).
    pub(super) fn tile_values(&mut self, state: &GameState, comps: &Components, seat: usize, tiles: &[u8],
                   out: &mut [f64]) {
        if self.pin_of() != 0 {
            let pin = self.pinned.take().expect("a pin");
            let params = Params::default();
            let prices = match self.pin_prices[seat] {
                Some((epoch, prices)) if epoch == pin.epoch => prices,
                _ => {
                    let prices = self.prices(&PlayerView { state: &pin.state, comps, seat }, &params);
                    self.pin_prices[seat] = Some((pin.epoch, prices));
                    prices
                }
            };
            let key = (pin.epoch, Layout::of(&state.players[seat].district));
            let memo = &mut self.priced[seat];
            let index = match memo.position(&key) {
                Some(i) => i,
                None => {
                    let i = memo.claim(key);
                    memo.entries[i].1.known = [0; 4];
                    i
                }
            };
            let values = &mut memo.entries[index].1;
            if tiles.iter().any(|&t| !values.has(t)) {
                value_tiles(&PlayerView { state, comps, seat }, &params, prices, tiles, values);
            }
            for (o, &t) in out.iter_mut().zip(tiles) {
                *o = values.values[t as usize];
            }
            self.pinned = Some(pin);
            return;
        }
        let key = EvalKey::of(state, comps, seat);
        let index = match self.evals[seat].position(&key) {
            Some(i) => i,
            None => {
                let i = self.evals[seat].claim(key);
                self.evals[seat].entries[i].1.known = [0; 4];
                i
            }
        };
        if tiles.iter().any(|&t| !self.evals[seat].entries[index].1.has(t)) {
            let params = Params::default();
            let view = PlayerView { state, comps, seat };
            let prices = self.prices(&view, &params);
            value_tiles(&view, &params, prices, tiles, &mut self.evals[seat].entries[index].1);
        }
        let values = &self.evals[seat].entries[index].1.values;
        for (o, &t) in out.iter_mut().zip(tiles) {
            *o = values[t as usize];
        }
    }
}

/// The greedy profile's best value of each tile type of `tiles` not yet in `entry` for the
/// view's seat (storing it, or its best cell), into `entry`.
fn value_tiles(view: &PlayerView, params: &Params, prices: Prices, tiles: &[u8],
               entry: &mut TileValues) {
    let ev = Evaluator::with_prices(view, params, prices);
    let d = &view.state.players[view.seat].district;
    let mut arounds: [Option<Around>; CELLS] = [None; CELLS];
    for &t in tiles {
        if entry.has(t) {
            continue;
        }
        let ttype = &view.comps.tile_types[t as usize];
        let mut cells = d.placement_cells(ttype);
        let mut v = params.store;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let value = if ttype.building != 0 {
                ev.placement(ttype, cell)
            } else {
                let around = arounds[cell].get_or_insert_with(|| d.around(cell));
                ev.placement_with(ttype, cell, around)
            };
            v = f64::max(v, value);
        }
        entry.values[t as usize] = v;
        entry.known[usize::from(t >> 6)] |= 1 << (t & 63);
    }
}
