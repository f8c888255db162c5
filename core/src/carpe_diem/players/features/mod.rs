//! The learned player's inputs: what a position is worth to one seat, as numbers.
//!
//! `banked` is the VP the seat has *gained* if the game ended now (final scoring, R10,
//! without the starting VP, R2.7); `features` describes what it may still gain: time
//! left, resources, scroll order, its district's complete and open features, frame
//! goals, fountain cards and the objective cards of the next scoring (each card valued
//! as the scripted players value it, value.rs). Nothing here reads a starting VP or a
//! VP total, nor the order of a deck (hidden, R2.3-R2.4): every input is open
//! information, so a copy whose decks were shuffled gives the same numbers.

mod open;
mod scratch;

use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::{H_CHIMNEYS, H_DWELLINGS, H_LANDSCAPES, H_LANDSCAPES_3PLUS, H_VILLAS};
use crate::carpe_diem::game::{GameState, Pending, ROUNDS, SPACES};
use crate::carpe_diem::kinds::{
    is_dwelling, is_landscape, ADMINISTRATOR, ARTISAN, BAKER, BAKERY, FOUNTAIN, MARKET,
    MERCHANT, N_EDGE_KINDS, VILLA,
};
use crate::carpe_diem::scoring::breakdown;

use open::{open_features, Open, N_PLACEMENT};
pub use scratch::Scratch;
use scratch::InputsKey;

/// The inputs' names, in order (a weights file lists them: one made for another list
/// is refused).
pub const NAMES: [&str; 48] = [
    "bias",
    "takes_left",
    "scored",
    "goods",
    "coins",
    "bread",
    "bread_sets",
    "stored",
    "good_kinds",
    "scroll",
    "ahead",
    "overtake_steps",
    "built",
    "frontier",
    "scrolls_left",
    "villas",
    "chimneys",
    "landscapes",
    "landscapes_3plus",
    "dwellings",
    "merchants",
    "bakers",
    "administrators",
    "artisans",
    "markets",
    "bakeries",
    "fountains",
    "open_villas",
    "villa_open_edges",
    "villa_potential",
    "villa_min_open",
    "open_landscapes",
    "landscape_open_edges",
    "landscape_tiles",
    "open_dwellings",
    "dwelling_open_edges",
    "frame_left",
    "frame_reach",
    "fountain_cards",
    "fountain_open",
    "circle_best",
    "circle_likely",
    "likely_failed",
    "likely_gap",
    "cards_mean",
    "cards_ready",
    "reach_best",
    "reach_other",
];

/// How many inputs `features` fills.
pub const N_FEATURES: usize = NAMES.len();

/// The inputs weights of version 2 read after `NAMES`: what tells placements of one tile
/// apart (docs/strength.md, "Placement inputs"). Open villas and landscapes one tile from
/// closing; empty cells an open edge faces where no tile fits, the open features facing
/// one (they can never close) and their tiles; the empty cells open villa
/// and landscape edges face; empty cells faced by open edges of two kinds or more, and by
/// three open edges or more (hard to fill); the VP of frame goals not yet scored that an
/// open feature of their kind touches (R10.5).
pub const PLACEMENT_NAMES: [&str; N_PLACEMENT + 1] = [
    "villa_one",
    "landscape_one",
    "dead_cells",
    "dead_features",
    "dead_tiles",
    "villa_cells",
    "landscape_cells",
    "squeezed",
    "squeezed_hard",
    "frame_touch",
];

/// How many inputs `all_inputs` fills: `NAMES`, then `PLACEMENT_NAMES`.
pub const N_INPUTS: usize = N_FEATURES + PLACEMENT_NAMES.len();

/// The input names a weights file of `version` lists (1: `NAMES`; 2: then
/// `PLACEMENT_NAMES`); None for a version this core does not read.
pub fn names(version: u64) -> Option<Vec<&'static str>> {
    match version {
        1 => Some(NAMES.to_vec()),
        2 => Some(NAMES.iter().chain(&PLACEMENT_NAMES).copied().collect()),
        _ => None,
    }
}

/// The index of the input `takes_left` (the time weight of the model's second half).
pub const TAKES_LEFT: usize = 1;

/// VP this seat has gained so far if the game ended now: objective cards, villas,
/// leftovers, scroll, fountain cards and frame goals (R10), never the starting VP.
pub fn banked(state: &GameState, comps: &Components, seat: usize) -> f64 {
    let parts = breakdown(comps, &state.players[seat]);
    f64::from(parts[1..].iter().sum::<i32>())
}

/// (seats that take a circle before this one in the next scoring, whether this seat
/// has taken its circle in the scoring under way). R8.2: the scroll order, fixed when
/// the scoring begins.
fn ahead_in_scoring(state: &GameState, seat: usize) -> (usize, bool) {
    let scoring = matches!(state.pending, Pending::Circle { .. } | Pending::Payment { .. });
    if scoring {
        let order = &state.scoring_order[..state.n];
        let index = usize::from(state.scoring_index);
        let mine = order.iter().position(|&s| usize::from(s) == seat).unwrap_or(0);
        if mine >= index {
            return (mine - index, false);
        }
    }
    let me = &state.players[seat];
    let ahead = state.players[..state.n]
        .iter()
        .enumerate()
        .filter(|&(s, q)| {
            s != seat && (q.scroll > me.scroll || (q.scroll == me.scroll && q.stamp > me.stamp))
        })
        .count();
    (ahead, scoring)
}

/// This seat's takes left in the phase under way (R4.6: one a round).
fn takes_left(state: &GameState, seat: usize) -> usize {
    if !matches!(
        state.pending,
        Pending::Move { .. }
            | Pending::Take { .. }
            | Pending::Seal { .. }
            | Pending::Fountain { .. }
    ) {
        return 0; // the scoring (or the end)
    }
    let position = (0..state.n).find(|&i| state.seat_at(i) == seat).unwrap_or(0);
    let rounds_after = ROUNDS - 1 - state.round;
    // this round: the seat still takes if it comes after the one on turn, or is on turn
    // and has not taken yet
    let this_round = match state.pending {
        Pending::Move { .. } | Pending::Take { .. } => position >= state.turn,
        _ => position > state.turn,
    };
    rounds_after + usize::from(this_round)
}

/// Fill `out` with this seat's inputs (NAMES order).
pub fn features(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    out: &mut [f64; N_FEATURES],
) {
    let mut all = [0.0; N_INPUTS];
    inputs(state, comps, seat, scratch, false, &mut all);
    out.copy_from_slice(&all[..N_FEATURES]);
}

/// Fill `out` with this seat's inputs, `NAMES` then `PLACEMENT_NAMES`.
pub fn all_inputs(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    out: &mut [f64; N_INPUTS],
) {
    inputs(state, comps, seat, scratch, true, out);
}

/// This seat's inputs, the placement inputs only when asked (else 0: version-1 weights
/// do not pay for them).
pub(crate) fn inputs(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    placement: bool,
    out: &mut [f64; N_INPUTS],
) {
    let key = InputsKey::of(state, comps, seat, placement, scratch.pin_of());
    if let Some((inputs, _)) = scratch.inputs(&key) {
        *out = *inputs;
        return;
    }
    fill(state, comps, seat, scratch, placement, out);
    scratch.keep_inputs(key, out, None);
}

/// Which model values a seat's inputs: its fingerprint (`Model`), and whether it reads the
/// placement inputs (weights of version 2).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Valuer {
    pub model: u64,
    pub placement: bool,
}

/// `inputs`, and `value` of them by `valuer`'s model (what it adds to the VP banked):
/// worked out once per inputs and kept with them, so the copies of a decision that leave a
/// seat's inputs as they were pay for neither again.
pub(crate) fn valued_inputs(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    valuer: Valuer,
    out: &mut [f64; N_INPUTS],
    value: impl FnOnce(&[f64; N_INPUTS]) -> f64,
) -> f64 {
    let Valuer { model, placement } = valuer;
    let key = InputsKey::of(state, comps, seat, placement, scratch.pin_of());
    if let Some((inputs, kept)) = scratch.inputs(&key) {
        *out = *inputs;
        if let Some((m, v)) = *kept {
            if m == model {
                return v;
            }
        }
        let v = value(out);
        *kept = Some((model, v));
        return v;
    }
    fill(state, comps, seat, scratch, placement, out);
    let v = value(out);
    scratch.keep_inputs(key, out, Some((model, v)));
    v
}

/// `all_inputs`, worked out, in order.
fn fill(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    placement: bool,
    out: &mut [f64; N_INPUTS],
) {
    let me = &state.players[seat];
    let mut f = Filler { out, at: 0 };
    f.push(1.0);
    f.push(takes_left(state, seat) as f64 / ROUNDS as f64);
    let (ahead, scored) = ahead_in_scoring(state, seat);
    f.push(f64::from(u8::from(scored)));
    // resources (R7)
    let goods: i32 = me.goods.iter().sum();
    f.push(f64::from(goods));
    f.push(f64::from(me.coins));
    f.push(f64::from(me.bread));
    f.push(f64::from(me.bread / 3));
    f.push(f64::from(me.stored));
    f.push(me.goods.iter().filter(|&&g| g > 0).count() as f64);
    // the scroll (R8.2): place in the scoring order, steps to gain a place
    f.push(f64::from(me.scroll));
    f.push(ahead as f64);
    let mut gap = 0;
    for (s, q) in state.players[..state.n].iter().enumerate() {
        if s != seat && (q.scroll > me.scroll || (q.scroll == me.scroll && q.stamp > me.stamp)) {
            let steps = (i32::from(q.scroll) - i32::from(me.scroll)).max(1);
            if gap == 0 || steps < gap {
                gap = steps;
            }
        }
    }
    f.push(f64::from(gap));
    let open = district(state, comps, seat, scratch, placement, &mut f);
    let open_kinds = (0..N_EDGE_KINDS).filter(|&k| open.kinds[k][0] > 0.0)
        .fold(0u16, |bits, k| bits | 1 << k);
    goals_and_fountains(state, comps, seat, open_kinds, &mut f);
    cards(state, comps, seat, ahead, scratch, &mut f);
    depots_in_reach(state, comps, seat, scratch, &mut f);
    debug_assert_eq!(f.at, N_FEATURES);
    if !placement {
        return;
    }
    for v in open.placement {
        f.push(v);
    }
    let d = &me.district;
    let touched = d.frame_goals().iter()
        .filter(|g| d.complete_mask[g.kind as usize] & g.mask == 0
                    // single-tile buildings' goals (no edges) have no open feature
                    && open.cells.get(g.kind as usize).is_some_and(|c| c & g.mask != 0))
        .map(|g| f64::from(g.vp))
        .sum();
    f.push(touched);
    debug_assert_eq!(f.at, N_INPUTS);
}

/// The district: its size, complete features and open ones (returned).
fn district(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    placement: bool,
    f: &mut Filler,
) -> Open {
    let d = &state.players[seat].district;
    let h = &d.have;
    f.push(d.built() as f64);
    f.push(f64::from(d.frontier.count_ones()));
    f.push(f64::from(d.scrolls.count_ones()));
    f.push(f64::from(h[H_VILLAS]));
    f.push(f64::from(h[H_CHIMNEYS]));
    f.push(f64::from(h[H_LANDSCAPES]));
    f.push(f64::from(h[H_LANDSCAPES_3PLUS]));
    f.push(f64::from(h[H_DWELLINGS]));
    for kind in [MERCHANT, BAKER, ADMINISTRATOR, ARTISAN, MARKET, BAKERY, FOUNTAIN] {
        f.push(f64::from(d.complete_count[kind as usize]));
    }
    let open = scratch.open_features(seat, d, comps, placement);
    let villas = open.kinds[VILLA as usize];
    f.push(villas[0]);
    f.push(villas[1]);
    f.push(villas[3]);
    f.push(villas[4]);
    let (mut land, mut dwell) = ([0.0; 3], [0.0; 2]);
    for kind in 2..N_EDGE_KINDS as u8 {
        let o = open.kinds[kind as usize];
        if is_landscape(kind) {
            land[0] += o[0];
            land[1] += o[1];
            land[2] += o[2];
        } else if is_dwelling(kind) {
            dwell[0] += o[0];
            dwell[1] += o[1];
        }
    }
    for v in land {
        f.push(v);
    }
    for v in dwell {
        f.push(v);
    }
    open
}

/// Frame goals (R10.5) not yet scored, and of those a kind with an open feature;
/// fountain cards (R10.4) held, and their VP per open feature of their goals.
fn goals_and_fountains(
    state: &GameState,
    comps: &Components,
    seat: usize,
    open_kinds: u16,
    f: &mut Filler,
) {
    let me = &state.players[seat];
    let d = &me.district;
    let (mut left, mut reach) = (0.0, 0.0);
    for g in d.frame_goals() {
        if d.complete_mask[g.kind as usize] & g.mask == 0 {
            left += f64::from(g.vp);
            if open_kinds >> g.kind & 1 != 0 {
                reach += f64::from(g.vp);
            }
        }
    }
    f.push(left);
    f.push(reach);
    f.push(me.fountain_cards.len() as f64);
    let mut open_goal = 0.0;
    for &c in me.fountain_cards.as_slice() {
        let card = &comps.fountains[c as usize];
        if open_kinds >> card.goal & 1 != 0 {
            open_goal += f64::from(card.vp);
        }
    }
    f.push(open_goal);
}

/// The objective cards of the next scoring (R8): each card on a free circle valued as
/// the scripted players would resolve it now (VP and rewards, -4 when it fails), the
/// best free circle, the one likely left when the seats ahead have chosen, its failed
/// cards and missing units; the mean card and the cards fulfilled without bread.
fn cards(
    state: &GameState,
    comps: &Components,
    seat: usize,
    ahead: usize,
    scratch: &mut Scratch,
    f: &mut Filler,
) {
    let cv = scratch.card_values(state, comps, seat);
    let mut done = 0u16;
    let (mut sum, mut count, mut ready) = (0.0, 0.0, 0.0);
    let circles = state.circles();
    let mut ranked = [(0.0f64, 0u8, 0i32); 17];
    let mut n = 0;
    for (i, &(a, b)) in circles.iter().enumerate() {
        if state.circle_owner[i] >= 0 {
            continue;
        }
        let (a, b) = (a as usize, b as usize);
        ranked[n] = (cv.value[a] + cv.value[b], cv.failed[a] + cv.failed[b], cv.gaps[a] + cv.gaps[b]);
        n += 1;
        for slot in [a, b] {
            if done >> slot & 1 == 0 {
                done |= 1 << slot;
                sum += cv.value[slot];
                count += 1.0;
                if cv.gaps[slot] == 0 {
                    ready += 1.0;
                }
            }
        }
    }
    let ranked = &mut ranked[..n];
    ranked.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (best, likely) = match ranked.len() {
        0 => ((0.0, 0, 0), (0.0, 0, 0)),
        len => (ranked[0], ranked[ahead.min(len - 1)]),
    };
    f.push(best.0);
    f.push(likely.0);
    f.push(f64::from(likely.1));
    f.push(f64::from(likely.2));
    f.push(if count > 0.0 { sum / count } else { 0.0 });
    f.push(ready);
}

/// R4.2-R4.3: the depots the seat's pawn reaches with a plain move (one way, then the
/// other), while it still has a take in this phase and a depot holds a tile.
pub(super) fn reach_spaces(state: &GameState, seat: usize) -> Option<[usize; 2]> {
    let me = &state.players[seat];
    if takes_left(state, seat) == 0 || me.pawn < 0 || state.depots.iter().all(|d| d.is_empty()) {
        return None;
    }
    let pawn = me.pawn as usize;
    Some([1, SPACES - 1].map(|step| {
        let mut pos = (pawn + step) % SPACES;
        while state.depots[pos].is_empty() {
            pos = (pos + step) % SPACES;
        }
        pos
    }))
}

/// R4.2-R4.3: the greedy profile's value of the best tile of each depot the seat's pawn
/// reaches with a plain move (the better, then the other), while it still has a take in
/// this phase; the tiles are what the depots hold now.
fn depots_in_reach(
    state: &GameState,
    comps: &Components,
    seat: usize,
    scratch: &mut Scratch,
    f: &mut Filler,
) {
    let Some(spaces) = reach_spaces(state, seat) else {
        f.push(0.0);
        f.push(0.0);
        return;
    };
    let mut tiles = [0u8; 8];
    let mut n = 0;
    for (k, &pos) in spaces.iter().enumerate() {
        if k == 0 || pos != spaces[0] {
            for &t in state.depots[pos].as_slice() {
                tiles[n] = t;
                n += 1;
            }
        }
    }
    let mut found = [0.0f64; 8];
    scratch.tile_values(state, comps, seat, &tiles[..n], &mut found[..n]);
    let mut values = [0.0f64; 2];
    for (k, &pos) in spaces.iter().enumerate() {
        let mut best = 0.0;
        for (i, &t) in state.depots[pos].as_slice().iter().enumerate() {
            let v = found[tiles[..n].iter().position(|&x| x == t).unwrap_or(0)];
            if i == 0 || v > best {
                best = v;
            }
        }
        values[k] = best;
    }
    f.push(values[0].max(values[1]));
    f.push(values[0].min(values[1]));
}

struct Filler<'a> {
    out: &'a mut [f64; N_INPUTS],
    at: usize,
}

impl Filler<'_> {
    fn push(&mut self, v: f64) {
        self.out[self.at] = v;
        self.at += 1;
    }
}
