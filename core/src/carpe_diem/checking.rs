//! Checking mode: verify every invariant after every action (tests); mirrors
//! `cdsim/games/carpe_diem/rules/checking.py`.
//!
//! Lives outside the hot loop (PettingZoo's wrapper idea): `GameConfig::check` turns it
//! on. Each check rebuilds what the engine tracks incrementally from scratch — by
//! replaying the district's history, and by an independent flood fill over the edges —
//! and compares.

use crate::carpe_diem::components::Components;
use crate::carpe_diem::district::{
    have_index, District, Feature, H_CHIMNEYS, H_DWELLINGS, H_LANDSCAPES, H_LANDSCAPES_3PLUS,
    H_VILLAS, N_HAVE,
};
use crate::carpe_diem::game::{GameState, Pending, NONE, ROUNDS};
use crate::carpe_diem::kinds::{
    is_dwelling, is_landscape, CELLS, MAX_LANDSCAPE_TILES, NEIGHBOUR, N_EDGE_KINDS, N_KINDS, VILLA,
};

/// The complete features of a district found by a flood fill over its edges, sorted.
pub fn flood_features(d: &District) -> Vec<Feature> {
    let mut out = Vec::new();
    let mut seen = [[false; N_EDGE_KINDS]; CELLS];
    for &start in d.history() {
        let start = start as usize;
        let b = d.building_at[start];
        if b != 0 {
            out.push(Feature {
                kind: b,
                tiles: 1,
                chimneys: 0,
                cells: 1 << start,
            });
            continue;
        }
        for kind in 1..N_EDGE_KINDS as u8 {
            if !d.edges[start].contains(&kind) || seen[start][kind as usize] {
                continue;
            }
            let (mut open, mut tiles, mut chimneys, mut cells) = (0, 0u8, 0u16, 0u64);
            let mut stack = vec![start];
            seen[start][kind as usize] = true;
            while let Some(cell) = stack.pop() {
                tiles += 1;
                cells |= 1 << cell;
                if kind == VILLA {
                    chimneys += u16::from(d.chimneys_at[cell]);
                }
                for (dir, &n) in NEIGHBOUR[cell].iter().enumerate() {
                    if d.edges[cell][dir] != kind {
                        continue;
                    }
                    if n < 0 || !d.is_built(n as usize) {
                        open += 1;
                        continue;
                    }
                    let n = n as usize;
                    if !seen[n][kind as usize] {
                        seen[n][kind as usize] = true;
                        stack.push(n);
                    }
                }
            }
            if open == 0 && (kind != VILLA || tiles >= 2) {
                out.push(Feature {
                    kind,
                    tiles,
                    chimneys,
                    cells,
                });
            }
        }
    }
    out.sort();
    out
}

/// The have-counts of green cards, from a list of complete features.
fn have_from(d: &District, features: &[Feature]) -> [i32; N_HAVE] {
    let mut have = [0; N_HAVE];
    for &cell in d.history() {
        let cell = cell as usize;
        if d.edges[cell].contains(&VILLA) {
            have[H_CHIMNEYS] += i32::from(d.chimneys_at[cell]);
        }
    }
    for f in features {
        if f.kind == VILLA {
            have[H_VILLAS] += 1;
            continue;
        }
        have[have_index(f.kind)] += 1;
        if is_landscape(f.kind) {
            have[H_LANDSCAPES] += 1;
            if f.tiles >= 3 {
                have[H_LANDSCAPES_3PLUS] += 1;
            }
        } else if is_dwelling(f.kind) {
            have[H_DWELLINGS] += 1;
        }
    }
    have
}

/// R5.1-R5.3 matching; incremental features equal a replay and a flood fill. (A district
/// without a board — positions, tests — may have tiles anywhere.)
pub fn check_district(d: &District) -> Result<(), String> {
    let at = |cell: usize| (cell / 6, cell % 6);
    for (cell, around) in NEIGHBOUR.iter().enumerate() {
        if !d.is_built(cell) {
            continue;
        }
        if !d.matches(cell, &d.edges[cell]) {
            return Err(format!(
                "tile at {:?} does not match its neighbours or the frame",
                at(cell)
            ));
        }
        let touches = around.iter().any(|&n| n >= 0 && d.is_built(n as usize));
        if d.built() > 1 && !touches && d.spade().is_some() {
            return Err(format!(
                "tile at {:?} touches no other tile (R5.1)",
                at(cell)
            ));
        }
    }
    // a replay of the history on a fresh district with the same board and frame
    let mut fresh = d.clone_empty();
    for &cell in d.history() {
        let cell = cell as usize;
        fresh.place(
            cell,
            d.edges[cell],
            d.chimneys_at[cell],
            d.building_at[cell],
        );
    }
    if fresh.have != d.have || fresh.villa_chimneys() != d.villa_chimneys() {
        return Err("incremental feature counts differ from a replay".into());
    }
    if fresh.complete_count != d.complete_count || fresh.complete_mask != d.complete_mask {
        return Err("complete features differ from a replay".into());
    }
    if fresh.frontier != d.frontier || fresh.scrolls != d.scrolls {
        return Err("the frontier or the scroll spaces differ from a replay".into());
    }
    // an independent flood fill
    let features = flood_features(d);
    if have_from(d, &features) != d.have {
        return Err("feature counts differ from a flood fill".into());
    }
    let mut count = [0; N_KINDS];
    let mut mask = [0u64; N_KINDS];
    let mut villas: Vec<u16> = Vec::new();
    for f in &features {
        count[f.kind as usize] += 1;
        mask[f.kind as usize] |= f.cells;
        if f.kind == VILLA {
            villas.push(f.chimneys);
        }
        if is_landscape(f.kind) && !(2..=MAX_LANDSCAPE_TILES).contains(&i32::from(f.tiles)) {
            return Err(format!("landscape of {} tiles (R6.2)", f.tiles));
        }
    }
    let mut mine = d.villa_chimneys().to_vec();
    mine.sort();
    villas.sort();
    if count != d.complete_count || mask != d.complete_mask || villas != mine {
        return Err("complete features differ from a flood fill".into());
    }
    // R5.1: the frontier is every empty cell next to a tile (the spade before the first)
    let expected = if d.built() == 0 {
        d.frontier
    } else {
        let mut m = 0u64;
        for (cell, around) in NEIGHBOUR.iter().enumerate() {
            let near = around.iter().any(|&n| n >= 0 && d.is_built(n as usize));
            if !d.is_built(cell) && near {
                m |= 1 << cell;
            }
        }
        m
    };
    if d.frontier != expected && d.spade().is_some() {
        return Err("the frontier is not the empty cells next to a tile (R5.1)".into());
    }
    Ok(())
}

pub fn check_state(
    state: &GameState,
    comps: &Components,
    end_of_phase: bool,
) -> Result<(), String> {
    let total = comps.light.len() + comps.dark.len();
    let players = &state.players[..state.n];
    let built: usize = players.iter().map(|p| p.district.built()).sum();
    let stored: i32 = players.iter().map(|p| p.stored).sum();
    let seal = state.seal.iter().filter(|&&t| t != NONE).count();
    let depots: usize = state.depots.iter().map(|d| d.len()).sum();
    let here =
        state.light_deck.len() + state.dark_deck.len() + seal + depots + built + stored as usize;
    if here + state.discarded as usize != total {
        return Err(format!(
            "tiles not conserved: {} of {total}",
            here + state.discarded as usize
        ));
    }
    let kept: usize = players.iter().map(|p| p.fountain_cards.len()).sum();
    let drawn = match state.pending {
        Pending::Fountain { n, .. } => n as usize,
        _ => 0,
    };
    if state.fountain_deck.len() + kept + drawn != comps.fountains.len() {
        return Err("fountain cards not conserved (R6.5)".into());
    }
    for p in players {
        if p.goods.iter().any(|&g| g < 0) || p.coins < 0 || p.bread < 0 {
            return Err(format!("seat {} has a negative supply", p.seat));
        }
        if p.scroll as usize > comps.last_scroll_space() {
            return Err(format!("seat {} scroll disc off the track", p.seat));
        }
        let taken = p.taken[state.phase];
        if taken as usize > ROUNDS || (end_of_phase && taken as usize != ROUNDS) {
            return Err(format!(
                "seat {} took {taken} tiles this phase (R4.6)",
                p.seat
            ));
        }
        if p.district.built() as i32 != p.tiles_built {
            return Err("built-tile count differs from the district".into());
        }
        check_district(&p.district)?;
    }
    let stamps: Vec<u16> = players.iter().map(|p| p.stamp).collect();
    if (1..stamps.len()).any(|i| stamps[..i].contains(&stamps[i])) {
        return Err("two scroll discs share a stack height".into());
    }
    if end_of_phase && depots > 0 {
        return Err("tiles left on depots at the end of a phase (R4.6)".into());
    }
    Ok(())
}
