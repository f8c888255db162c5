//! A seat's position as the value model reads it, and the values a scripted player keeps
//! while it holds: from one decision to the next nothing the model reads may change (a
//! move, unless it spends bread, leaves the take after it the same position), and then
//! the prices, the neighbourhoods and every value already worked out stay right.

use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::{Around, Layout, N_HAVE};
use crate::carpe_diem::game::{GameState, List, GRID_SLOTS, MAX_PLAYERS};
use crate::carpe_diem::kinds::{CELLS, N_KINDS};
use crate::carpe_diem::players::value::{Evaluator, Prices};
use crate::carpe_diem::players::{Params, PlayerView};

/// What the greedy value reads of the table and of one seat besides its district: the
/// component set, the player count and the time, the grid and its free circles (the prices'
/// card interest), every scroll disc (the scoring order), and the seat's supply and
/// fountain cards. The one place these reads are listed: `PricesKey` and the learned
/// player's tile-value key build on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatTable {
    comps: usize,
    seat: usize,
    players: usize,
    time: (usize, usize),
    grid: [u8; GRID_SLOTS],
    owners: [i8; 17],
    discs: [(u8, u16); MAX_PLAYERS],
    supply: ([i32; 4], i32, i32),
    fountain_cards: List<24>,
}

impl SeatTable {
    /// `seat` in `state` (the component set is named by its address: the caller checks its
    /// digest where another set may follow at the same address).
    pub fn of(state: &GameState, comps: &Components, seat: usize) -> SeatTable {
        let me = &state.players[seat];
        SeatTable {
            comps: comps as *const Components as usize,
            seat,
            players: state.n,
            time: (state.phase, state.round),
            grid: state.grid,
            owners: state.circle_owner,
            discs: std::array::from_fn(|s| (state.players[s].scroll, state.players[s].stamp)),
            supply: (me.goods, me.coins, me.bread),
            fountain_cards: me.fountain_cards,
        }
    }
}

/// Everything `Prices::of` reads: the seat and the table (`SeatTable`), the weights, and
/// the seat's complete features. A take that completes nothing and pays nothing leaves
/// them as they were.
#[derive(Clone, Debug, PartialEq)]
pub struct PricesKey {
    table: SeatTable,
    params: Params,
    complete: [i32; N_KINDS],
    have: [i32; N_HAVE],
}

impl PricesKey {
    /// The key of `view`.
    pub fn of(view: &PlayerView, params: &Params) -> PricesKey {
        let me = view.me();
        PricesKey {
            table: SeatTable::of(view.state, view.comps, view.seat),
            params: *params,
            complete: me.district.complete_count,
            have: me.district.have,
        }
    }
}

/// Everything `Prices::of` and `Evaluator::placement` read: the prices' inputs and the
/// district.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionKey {
    prices: PricesKey,
    district: Layout,
}

impl PositionKey {
    pub fn of(view: &PlayerView, params: &Params) -> PositionKey {
        PositionKey { prices: PricesKey::of(view, params), district: Layout::of(&view.me().district) }
    }
}

/// No entry for a tile type in `Position::slot`.
const NO_ENTRY: u8 = u8::MAX;

/// The values of one tile type in one position: the cells valued (a bit each) and their
/// values, and its best value (`best_known`).
#[derive(Clone, Debug)]
struct TileValues {
    known: u64,
    values: [f64; CELLS],
    best: f64,
    best_known: bool,
}

/// The values of one position: its prices, the cells' neighbourhoods (`District::around`)
/// and the value of each tile type on each cell, and at its best, as far as asked.
#[derive(Clone, Debug)]
pub struct Position {
    key: Option<PositionKey>,
    pub prices: Option<Prices>,
    arounds: [Around; CELLS],
    around_known: u64,
    /// By tile type, its entry in `tiles` (or NO_ENTRY).
    slot: [u8; 256],
    tiles: Vec<TileValues>,
    /// The tile types with an entry, to clear `slot` for the next position.
    types: Vec<u8>,
}

impl Default for Position {
    fn default() -> Self {
        Position {
            key: None,
            prices: None,
            arounds: [Around::default(); CELLS],
            around_known: 0,
            slot: [NO_ENTRY; 256],
            tiles: Vec::new(),
            types: Vec::new(),
        }
    }
}

impl Position {
    /// Keep the values if `key` is the position they belong to, else forget them (the
    /// prices only if what they read changed).
    pub fn enter(&mut self, key: PositionKey) {
        if self.key.as_ref() == Some(&key) {
            return;
        }
        if self.key.as_ref().is_none_or(|k| k.prices != key.prices) {
            self.prices = None;
        }
        self.key = Some(key);
        self.around_known = 0;
        for &t in &self.types {
            self.slot[t as usize] = NO_ENTRY;
        }
        self.types.clear();
    }

    /// Forget everything (the component set changed under the same address).
    pub fn forget(&mut self) {
        self.key = None;
        self.prices = None;
    }

    /// The entry of tile type `t`, made empty if it has none yet.
    fn entry(&mut self, t: u8) -> usize {
        let i = self.slot[t as usize];
        if i != NO_ENTRY {
            return i as usize;
        }
        let i = self.types.len();
        let fresh = TileValues { known: 0, values: [0.0; CELLS], best: 0.0, best_known: false };
        if i < self.tiles.len() {
            self.tiles[i] = fresh;
        } else {
            self.tiles.push(fresh);
        }
        self.types.push(t);
        self.slot[t as usize] = i as u8;
        i
    }

    /// The value of tile type `t` on `cell` (`Evaluator::placement`).
    pub fn placement(&mut self, ev: &Evaluator, comps: &Components, t: u8, cell: usize) -> f64 {
        let i = self.entry(t);
        self.value_at(ev, comps, i, t, cell)
    }

    fn value_at(&mut self, ev: &Evaluator, comps: &Components, i: usize, t: u8, cell: usize)
        -> f64 {
        if self.tiles[i].known >> cell & 1 != 0 {
            return self.tiles[i].values[cell];
        }
        let ttype = &comps.tile_types[t as usize];
        let value = if ttype.building != 0 {
            ev.placement(ttype, cell)
        } else {
            if self.around_known >> cell & 1 == 0 {
                self.arounds[cell] = ev.d.around(cell);
                self.around_known |= 1 << cell;
            }
            ev.placement_with(ttype, cell, &self.arounds[cell])
        };
        let entry = &mut self.tiles[i];
        entry.known |= 1 << cell;
        entry.values[cell] = value;
        value
    }

    /// The best value of tile type `t`: storing it (`store`), or its best cell.
    pub fn best(&mut self, ev: &Evaluator, comps: &Components, t: u8, store: f64) -> f64 {
        let i = self.entry(t);
        if self.tiles[i].best_known {
            return self.tiles[i].best;
        }
        let mut cells = ev.d.placement_cells(&comps.tile_types[t as usize]);
        let mut value = store;
        while cells != 0 {
            let cell = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let v = self.value_at(ev, comps, i, t, cell);
            if v > value {
                value = v;
            }
        }
        self.tiles[i].best = value;
        self.tiles[i].best_known = true;
        value
    }
}
