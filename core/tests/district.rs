//! Building, matching and completion on a district (R5, R6, R10.5), against brute
//! force and from-scratch replays on random districts.

mod common;

use cdsim_core::carpe_diem::checking::{check_district, flood_features};
use cdsim_core::carpe_diem::components::{Components, TileType};
use cdsim_core::carpe_diem::district::{District, Feature};
use cdsim_core::carpe_diem::kinds::{
    Edges, ARTISAN, CELLS, GARDEN, LANDSCAPES, MEADOW, NEIGHBOUR, POND, VILLA,
};
use cdsim_core::rng::{Generator, SeedSequence};
use common::{cell, comps, edges, open_district};

/// Brute force of R5.1-R5.3 and R6.2: an empty cell next to a tile (the spade first),
/// every side matching or meadow on the frame, and after placing it no landscape
/// (complete or not, found by a flood fill) of more than 4 tiles.
fn legal(d: &District, at: usize, e: &Edges) -> bool {
    if d.is_built(at) {
        return false;
    }
    let reachable = if d.spade().is_none() {
        true // no board (positions, tests): every cell is open
    } else if d.built() == 0 {
        d.spade() == Some(at as u8)
    } else {
        NEIGHBOUR[at]
            .iter()
            .any(|&n| n >= 0 && d.is_built(n as usize))
    };
    if !reachable {
        return false;
    }
    for side in 0..4 {
        let n = NEIGHBOUR[at][side];
        if n < 0 && e[side] != MEADOW {
            return false;
        }
        if n >= 0 && d.is_built(n as usize) && d.edges[n as usize][side ^ 2] != e[side] {
            return false;
        }
    }
    for &kind in &LANDSCAPES {
        if e.contains(&kind) && landscape_size(d, at, e, kind) > 4 {
            return false;
        }
    }
    true
}

/// Tiles of the (possibly incomplete) landscape of `kind` a tile on `at` would be part of.
fn landscape_size(d: &District, at: usize, e: &Edges, kind: u8) -> usize {
    let edges_of = |c: usize| if c == at { *e } else { d.edges[c] };
    let built = |c: usize| c == at || d.is_built(c);
    let mut seen = vec![at];
    let mut stack = vec![at];
    while let Some(c) = stack.pop() {
        for (side, &n) in NEIGHBOUR[c].iter().enumerate() {
            if edges_of(c)[side] == kind
                && n >= 0
                && built(n as usize)
                && !seen.contains(&(n as usize))
            {
                seen.push(n as usize);
                stack.push(n as usize);
            }
        }
    }
    seen.len()
}

fn brute_placements(d: &District, t: &TileType) -> Vec<(u8, Edges)> {
    let mut out = Vec::new();
    for at in 0..CELLS {
        for o in t.orientations() {
            if legal(d, at, o) {
                out.push((at as u8, *o));
            }
        }
    }
    out
}

/// Random districts grown by random legal placements; `check` sees each step.
fn random_districts(
    comps: &Components,
    seeds: u64,
    mut check: impl FnMut(&District, &District, usize),
) {
    for seed in 0..seeds {
        let mut rng = Generator::new(&SeedSequence::new(u128::from(seed), &[99]));
        let board =
            (seed % 2 == 0).then(|| &comps.boards[(seed / 2) as usize % comps.boards.len()]);
        let frame: Vec<_> = comps.frame_parts[..4].iter().collect();
        let mut d = District::new(board, &frame);
        // every third district grows ponds only (with meadow buildings), so that R6.2's
        // limit is reached often
        let ponds: Vec<&TileType> = comps
            .tile_types
            .iter()
            .filter(|t| t.building != 0 || (t.edges.contains(&POND) && t.parts().len() == 1))
            .collect();
        let pool: Vec<&TileType> = if seed % 3 == 1 {
            ponds
        } else {
            comps.tile_types.iter().collect()
        };
        for _ in 0..60 {
            let t = pool[rng.integers(pool.len() as u64) as usize];
            let mut places = Vec::new();
            d.placements(t, &mut places);
            if places.is_empty() {
                continue;
            }
            let (at, e) = places[rng.integers(places.len() as u64) as usize];
            let before = d.clone();
            let done = d.place(at as usize, e, t.chimneys, t.building);
            check(&before, &d, done.len());
            // R5.5: what one placement completes is what a flood fill finds new
            let mut new: Vec<Feature> = flood_features(&d);
            for f in flood_features(&before) {
                let i = new
                    .iter()
                    .position(|&g| g == f)
                    .expect("completed features stay complete");
                new.remove(i);
            }
            let mut got: Vec<Feature> = done.iter().collect();
            got.sort();
            assert_eq!(got, new, "seed {seed}: completions of a placement at {at}");
        }
    }
}

#[test]
fn placements_equal_a_brute_force_over_every_cell_and_orientation() {
    // R5.1-R5.3, R6.2: same legal (cell, orientation) pairs, in the same order
    let c = comps();
    let (mut compared, mut oversized) = (0, 0);
    random_districts(&c, 40, |_, d, _| {
        for t in &c.tile_types {
            for at in 0..CELLS {
                for o in t.orientations() {
                    let big = LANDSCAPES
                        .iter()
                        .any(|&k| o.contains(&k) && landscape_size(d, at, o, k) > 4);
                    if big && !d.is_built(at) && d.matches(at, o) && d.frontier >> at & 1 != 0 {
                        oversized += 1; // R6.2 cases the brute force rejects
                    }
                }
            }
            let mut fast = Vec::new();
            d.placements(t, &mut fast);
            assert_eq!(fast, brute_placements(d, t), "tile {}", t.id);
            let cells = fast.iter().fold(0u64, |m, &(at, _)| m | 1 << at);
            assert_eq!(d.placement_cells(t), cells);
            compared += 1;
        }
    });
    assert!(compared > 1000 && oversized > 20, "{compared} {oversized}");
}

#[test]
fn completions_and_have_counts_equal_a_replay_and_a_flood_fill() {
    // R6, R8.4 have-counts: check_district replays the history and flood-fills
    let c = comps();
    let mut completions = 0;
    random_districts(&c, 60, |_, d, done| {
        completions += done;
        check_district(d).unwrap();
    });
    assert!(completions > 100, "{completions}");
}

#[test]
fn oversized_landscape_is_not_offered() {
    // R6.2 [decision]: a landscape is 2-4 tiles, so no tile may grow one past 4
    let c = comps();
    let mut d = open_district();
    let (g, p) = (MEADOW, POND);
    d.place(6, [g, p, g, g], 0, 0);
    d.place(7, [g, p, g, p], 0, 0); // not a legal landscape part, but shows the size limit
    d.place(8, [g, p, g, p], 0, 0);
    d.place(9, [g, p, g, p], 0, 0);
    assert!(d.oversized_landscape(10, &[g, g, g, p])); // a fifth tile
    assert!(!d.can_place(10, &[g, g, g, p]));
    let end = &c.tile_types[c.tile_type("L-P-end").unwrap()];
    let mut places = Vec::new();
    d.placements(end, &mut places);
    assert!(!places.iter().any(|&(at, _)| at == 10));
    assert!(places.iter().any(|&(at, _)| at == 16)); // elsewhere a pond end still fits
                                                     // a fourth tile is fine
    let mut e = open_district();
    e.place(6, [g, p, g, g], 0, 0);
    e.place(7, [g, p, g, p], 0, 0);
    e.place(8, [g, p, g, p], 0, 0);
    assert!(e.can_place(9, &[g, g, g, p]));
    let done: Vec<Feature> = e.place(9, [g, g, g, p], 0, 0).iter().collect();
    assert_eq!(done.len(), 1);
    assert_eq!((done[0].kind, done[0].tiles), (POND, 4));
}

#[test]
fn first_tile_only_on_the_spade_space() {
    // R5.1
    let c = comps();
    let board = &c.boards[0];
    let mut d = District::new(Some(board), &[]);
    let s = board.spade as usize;
    assert_eq!(d.frontier_cells(), vec![s]);
    d.place(s, [0; 4], 0, 10);
    assert_eq!(d.frontier_cells(), vec![s - 6, s - 1, s + 1, s + 6]);
    assert!(!d.can_place(0, &[0; 4]));
}

#[test]
fn edges_must_match_and_the_frame_is_meadow() {
    // R5.2, R5.3
    let mut d = open_district();
    d.place(14, edges("G V G G"), 1, 0);
    assert!(d.can_place(15, &edges("G G G V")));
    assert!(!d.can_place(15, &edges("G G G G"))); // meadow against villa
    assert!(!d.can_place(15, &edges("G G G P"))); // pond against villa
    assert!(d.can_place(0, &edges("G V V G")));
    assert!(!d.can_place(0, &edges("V G G G"))); // villa side against the top frame
    assert!(!d.can_place(5, &edges("G V G G"))); // villa side against the right frame
}

#[test]
fn villas_need_two_tiles_no_opening_and_close_loops() {
    // R6.1
    let mut d = open_district();
    assert!(d.place(14, edges("G V G G"), 1, 0).is_empty());
    assert!(d.place(15, edges("G V G V"), 2, 0).is_empty()); // straight: still open east
    let done: Vec<Feature> = d.place(16, edges("G G G V"), 2, 0).iter().collect();
    assert_eq!(
        (done[0].kind, done[0].tiles, done[0].chimneys),
        (VILLA, 3, 5)
    );
    assert_eq!(d.villa_chimneys(), &[5]);
    assert_eq!(d.have[1], 1);
    let mut o = open_district();
    o.place(14, edges("G V G G"), 1, 0);
    assert!(o.place(15, edges("G V V V"), 3, 0).is_empty()); // T: openings east and south
    assert_eq!(o.have[0], 4); // chimneys count in incomplete villas for green cards
    let mut l = open_district(); // union-find closes a loop of four corners
    l.place(7, edges("G V V G"), 1, 0);
    l.place(8, edges("G G V V"), 1, 0);
    l.place(13, edges("V V G G"), 1, 0);
    let done: Vec<Feature> = l.place(14, edges("V G G V"), 1, 0).iter().collect();
    assert_eq!((done[0].tiles, done[0].chimneys), (4, 4));
}

#[test]
fn dwellings_singles_and_two_features_on_one_tile() {
    // R6.3, R6.4, R5.5
    let mut d = open_district();
    assert!(d.place(0, [0, ARTISAN, 0, 0], 0, 0).is_empty());
    let done: Vec<Feature> = d.place(1, [0, 0, 0, ARTISAN], 0, 0).iter().collect();
    assert_eq!((done[0].kind, done[0].tiles), (ARTISAN, 2));
    assert_eq!((d.have[11], d.have[12]), (1, 1));
    let mut f = open_district();
    f.place(0, [0, ARTISAN, 0, 0], 0, 0);
    assert!(!f.can_place(1, &[0, 0, 0, 8])); // another colour does not match
    let mut m = open_district();
    let done: Vec<Feature> = m.place(0, [0; 4], 0, 10).iter().collect();
    assert_eq!((done[0].kind, m.complete_count[10]), (10, 1));
    let mut two = open_district();
    two.place(cell(0, 1), edges("G G V G"), 1, 0);
    two.place(cell(2, 1), edges("P G G G"), 0, 0);
    let kinds: Vec<u8> = two
        .place(cell(1, 1), edges("V G P G"), 1, 0)
        .iter()
        .map(|f| f.kind)
        .collect();
    assert_eq!(kinds, vec![VILLA, POND]); // ascending by kind, as Python's place
    let mut e = open_district();
    e.place(0, edges("G H G G"), 0, 0);
    let done: Vec<Feature> = e.place(1, edges("G G G H"), 0, 0).iter().collect();
    assert_eq!((done[0].kind, done[0].tiles), (GARDEN, 2));
}

#[test]
fn frame_goals_count_along_their_own_line() {
    // R10.5, docs/rules.md C9: parts 1 (top), 5 (right), 9 (bottom), 13 (left)
    let c = comps();
    let frame: Vec<_> = [1, 5, 9, 13]
        .iter()
        .map(|&id| &c.frame_parts[c.frame_part(id).unwrap()])
        .collect();
    let mut d = District::new(None, &frame);
    d.place(21, edges("G G P G"), 0, 0); // (3,3)
    d.place(27, edges("P G G G"), 0, 0); // (4,3): a complete pond in column 3 only
    assert_eq!(d.frame_points(), 3); // the bottom part's pond goal, counted clockwise
    let mut e = District::new(None, &frame);
    e.place(6, edges("G G V G"), 1, 0);
    e.place(12, edges("V G G G"), 1, 0); // a villa in column 0 only
    assert_eq!(e.frame_points(), 0);
    let mut f = District::new(None, &frame);
    f.place(1, edges("G G V G"), 1, 0);
    assert_eq!(f.frame_points(), 0); // incomplete villas do not count
    f.place(7, edges("V G G G"), 1, 0);
    assert_eq!(f.frame_points(), 3); // top part's villa goal, column 1
}
