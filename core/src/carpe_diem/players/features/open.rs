//! A district's incomplete features, in one pass: what the version-1 inputs count of them
//! (`Open::kinds`), and what tells one placement of a tile from another (`Open::placement`,
//! the version-2 inputs): features one tile from closing, landscapes that can no longer
//! close, the empty cells the open edges ask for, and cells asked for by several.

use crate::carpe_diem::components::{Components, ANY};
use crate::carpe_diem::district::District;
use crate::carpe_diem::kinds::{is_landscape, CELLS, MEADOW, NEIGHBOUR, N_EDGE_KINDS, VILLA};

/// How many numbers `Open::placement` holds (`PLACEMENT_NAMES` less `frame_touch`, which
/// reads the frame goals).
pub(super) const N_PLACEMENT: usize = 9;

/// The incomplete features of a district.
#[derive(Clone, Copy)]
pub(super) struct Open {
    /// By kind: [count, open edges, tiles, villa points if it were closed as it is, fewest
    /// open edges].
    pub kinds: [[f64; 5]; N_EDGE_KINDS],
    /// `PLACEMENT_NAMES` from `villa_one` to `squeezed_hard`.
    pub placement: [f64; N_PLACEMENT],
    /// By kind: the cells of its open features (a frame goal's line they touch).
    pub cells: [u64; N_EDGE_KINDS],
}

/// One incomplete-or-complete feature met while walking the built parts: its kind and
/// what `District::feature_of` keeps of it, the empty cells its open edges face and its
/// cells.
#[derive(Clone, Copy, Default)]
pub(super) struct Seen {
    kind: u8,
    open: i16,
    tiles: u8,
    chimneys: u16,
    faces: u64,
    cells: u64,
}

/// Every incomplete feature of the district; with `placement`, the version-2 inputs too
/// (without, they stay 0 and cost nothing). It reads the union-find `District::place`
/// keeps up to date: one walk over the built parts, nothing rebuilt. (Every number is a
/// count or a sum of whole numbers, so the features' order changes no input by a bit.)
/// `seen` is scratch space (reused between calls: no allocation once warm).
pub(super) fn open_features(d: &District, comps: &Components, seen: &mut Vec<Seen>,
                            placement: Option<&mut Fillable>) -> Open {
    let asked = walk(d, seen);
    summarise(seen, &asked, d, comps, placement)
}

/// Every feature of the district (complete ones too) into `seen`, by its root in
/// `District`'s union-find; returns, per empty cell, the open edges facing it.
fn walk(d: &District, seen: &mut Vec<Seen>) -> [u8; CELLS] {
    // per feature (by its root's slot): what it is, and per empty cell the open edges
    // facing it
    let mut slot = [u8::MAX; CELLS * 4];
    seen.clear();
    let mut asked = [0u8; CELLS];
    for &cell in d.history() {
        let cell = cell as usize;
        for (&kind, &next) in d.edges[cell].iter().zip(&NEIGHBOUR[cell]) {
            if kind == MEADOW {
                continue;
            }
            let (root, open, tiles, chimneys) = d.feature_of(cell, kind);
            if slot[root] == u8::MAX {
                slot[root] = seen.len() as u8;
                seen.push(Seen { kind, open, tiles, chimneys, faces: 0, cells: 0 });
            }
            let f = &mut seen[slot[root] as usize];
            f.cells |= 1 << cell;
            if next >= 0 && !d.is_built(next as usize) {
                f.faces |= 1 << next;
                asked[next as usize] += 1;
            }
        }
    }
    asked
}

/// What the inputs count of the features met (`seen`) and of the open edges facing each
/// empty cell (`asked`): the version-1 rows by kind, and with `placement` the version-2
/// inputs and the open features' cells.
fn summarise(seen: &[Seen], asked: &[u8; CELLS], d: &District, comps: &Components,
             placement: Option<&mut Fillable>) -> Open {
    let open = || seen.iter().filter(|f| f.open > 0);
    let mut out = Open { kinds: [[0.0; 5]; N_EDGE_KINDS], placement: [0.0; N_PLACEMENT],
                         cells: [0; N_EDGE_KINDS] };
    for f in open() {
        let row = &mut out.kinds[f.kind as usize];
        let o = f64::from(f.open);
        row[0] += 1.0;
        row[1] += o;
        row[2] += f64::from(f.tiles);
        if f.kind == VILLA {
            row[3] += f64::from(comps.villa_points(i32::from(f.chimneys)));
        }
        if row[4] == 0.0 || o < row[4] {
            row[4] = o;
        }
    }
    let Some(fillable) = placement else {
        return out;
    };
    // `Open::placement` and `Open::cells` (version-1 weights never pay for them)
    let dead = dead_cells(d, comps, asked, fillable);
    placement_inputs(seen, asked, dead, &mut out);
    out
}

/// `Open::placement` and `Open::cells` of the features met (`seen`), the open edges
/// facing each empty cell (`asked`) and the cells no tile fits (`dead`): open villas and
/// landscapes one edge from closing, dead cells, the open features (and their tiles)
/// facing one, the cells faced by open villas, by open landscapes, by open features of
/// two kinds or more, and the cells faced by 3 open edges or more.
fn placement_inputs(seen: &[Seen], asked: &[u8; CELLS], dead: u64, out: &mut Open) {
    let p = &mut out.placement;
    let mut faced = [0u64; N_EDGE_KINDS];
    for f in seen.iter().filter(|f| f.open > 0) {
        faced[f.kind as usize] |= f.faces;
        out.cells[f.kind as usize] |= f.cells;
        if f.kind == VILLA && f.open == 1 {
            p[0] += 1.0;
        }
        if is_landscape(f.kind) && f.open == 1 {
            p[1] += 1.0;
        }
        if f.faces & dead != 0 {
            p[3] += 1.0;
            p[4] += f64::from(f.tiles);
        }
    }
    let (mut once, mut twice, mut lands) = (0u64, 0u64, 0u64);
    for (kind, &f) in faced.iter().enumerate() {
        twice |= once & f;
        once |= f;
        if is_landscape(kind as u8) {
            lands |= f;
        }
    }
    p[2] = f64::from(dead.count_ones());
    p[5] = f64::from(faced[VILLA as usize].count_ones());
    p[6] = f64::from(lands.count_ones());
    p[7] = f64::from(twice.count_ones());
    p[8] = asked.iter().filter(|&&k| k >= 3).count() as f64;
}

/// The empty cells an open edge faces where no tile type of the set fits in any
/// orientation (R5.2-R5.3): what touches them stays open to the end. (R6.2's size limit
/// is left out: a cell a landscape could fill only past 4 tiles counts as fillable.)
fn dead_cells(d: &District, comps: &Components, asked: &[u8; CELLS], fillable: &mut Fillable)
    -> u64 {
    let mut dead = 0u64;
    for (cell, _) in asked.iter().enumerate().filter(|(_, &k)| k > 0) {
        let need: [u8; 4] = std::array::from_fn(|side| match NEIGHBOUR[cell][side] {
            n if n < 0 => MEADOW,
            n if d.is_built(n as usize) => d.edges[n as usize][side ^ 2],
            _ => ANY,
        });
        if !fillable.fits(comps, need) {
            dead |= 1 << cell;
        }
    }
    dead
}

/// Whether some tile type fits a cell's sides (a kind or ANY each), kept per side pattern
/// (4 bits a side): a decision's copies ask the same few patterns again and again.
#[derive(Clone, Default)]
pub(super) struct Fillable {
    comps: usize,
    known: Vec<u64>,
    fits: Vec<u64>,
}

impl Fillable {
    fn fits(&mut self, comps: &Components, need: [u8; 4]) -> bool {
        let at = comps as *const Components as usize;
        if self.comps != at || self.known.is_empty() {
            *self = Fillable { comps: at, known: vec![0; 1 << 10], fits: vec![0; 1 << 10] };
        }
        let key = need.iter().fold(0usize, |k, &side| k << 4 | usize::from(side));
        let (word, bit) = (key / 64, 1u64 << (key % 64));
        if self.known[word] & bit == 0 {
            self.known[word] |= bit;
            let [a, b, c, e] = need.map(usize::from);
            if comps.tile_types.iter().any(|t| {
                t.side_fit[0][a] & t.side_fit[1][b] & t.side_fit[2][c] & t.side_fit[3][e] != 0
            }) {
                self.fits[word] |= bit;
            }
        }
        self.fits[word] & bit != 0
    }
}

/// Two checks that do not share the code they check: the walk over `District`'s own
/// union-find finds the features that rebuilding the parts from the district's history
/// finds (the implementation it replaced, kept here as the reference), for every seat's
/// district at every decision of games of several line-ups; and what the inputs count of
/// a list of features, worked out by hand for made-up lists.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::carpe_diem::game::{GameConfig, GameState, Options};
    use crate::carpe_diem::kinds::{GARDEN, POND};
    use crate::carpe_diem::players::make;
    use crate::rng::SeedSequence;

    /// The parts of a district's built tiles joined into features (a part: a tile's edges of
    /// one kind, C1), as `District` keeps them, without allocating: each part's root, whether
    /// it is used and its open edges. `open_edge(part, cell)` sees each open edge and the empty
    /// cell it faces.
    struct Parts {
        parent: [u8; CELLS * 4],
        used: [bool; CELLS * 4],
        open: [u8; CELLS * 4],
    }

    impl Parts {
        fn of(d: &District, mut open_edge: impl FnMut(usize, usize)) -> Parts {
            let node = |cell: usize, kind: u8| -> usize {
                cell * 4 + d.edges[cell].iter().position(|&e| e == kind).unwrap_or(0)
            };
            let mut p = Parts { parent: [0; CELLS * 4], used: [false; CELLS * 4],
                                open: [0; CELLS * 4] };
            for (i, x) in p.parent.iter_mut().enumerate() {
                *x = i as u8;
            }
            for &cell in d.history() {
                let cell = cell as usize;
                for (&kind, &n) in d.edges[cell].iter().zip(&NEIGHBOUR[cell]) {
                    if kind == MEADOW {
                        continue;
                    }
                    let a = node(cell, kind);
                    p.used[a] = true;
                    if n >= 0 && d.is_built(n as usize) {
                        let b = node(n as usize, kind);
                        let (ra, rb) = (p.find(a), p.find(b));
                        if ra != rb {
                            p.parent[rb] = ra as u8;
                        }
                    } else {
                        p.open[a] += 1;
                        if n >= 0 {
                            open_edge(a, n as usize);
                        }
                    }
                }
            }
            p
        }

        fn find(&mut self, mut x: usize) -> usize {
            while self.parent[x] as usize != x {
                let up = self.parent[self.parent[x] as usize];
                self.parent[x] = up;
                x = up as usize;
            }
            x
        }

        /// The roots of incomplete features.
        fn open_roots(&self) -> impl Iterator<Item = usize> + '_ {
            (0..CELLS * 4).filter(|&i| self.used[i] && self.parent[i] as usize == i)
        }
    }

    /// Open features as (kind, open edges, tiles, chimneys, cells faced, cells), sorted,
    /// and the open edges facing each empty cell.
    type Found = (Vec<(u8, i16, u8, u16, u64, u64)>, [u8; CELLS]);

    /// The open features of the rebuilt parts (kind, open edges, tiles, chimneys, the
    /// empty cells they face, their cells), sorted, and the open edges facing each empty
    /// cell.
    fn reference(d: &District) -> Found {
        let mut facing = [0u64; CELLS * 4];
        let mut asked = [0u8; CELLS];
        let mut parts = Parts::of(d, |part, cell| {
            facing[part] |= 1 << cell;
            asked[cell] += 1;
        });
        // per root: open edges, tiles, chimneys, the empty cells it faces, its cells
        let mut total = [(0u16, 0u16, 0u16, 0u64, 0u64); CELLS * 4];
        let used = parts.used;
        for i in (0..CELLS * 4).filter(|&i| used[i]) {
            let r = parts.find(i);
            total[r].0 += u16::from(parts.open[i]);
            total[r].1 += 1;
            if d.edges[i / 4][i % 4] == VILLA {
                // a tile's chimneys belong to its villa (C1)
                total[r].2 += u16::from(d.chimneys_at[i / 4]);
            }
            total[r].3 |= facing[i];
            total[r].4 |= 1 << (i / 4);
        }
        let mut found: Vec<_> = parts.open_roots().filter(|&i| total[i].0 > 0)
            .map(|i| {
                let (o, tiles, chimneys, faces, cells) = total[i];
                (d.edges[i / 4][i % 4], o as i16, tiles as u8, chimneys, faces, cells)
            })
            .collect();
        found.sort_unstable();
        (found, asked)
    }

    fn walked(d: &District, seen: &mut Vec<Seen>) -> Found {
        let asked = walk(d, seen);
        let mut found: Vec<_> = seen.iter().filter(|f| f.open > 0)
            .map(|f| (f.kind, f.open, f.tiles, f.chimneys, f.faces, f.cells))
            .collect();
        found.sort_unstable();
        (found, asked)
    }

    #[test]
    fn the_districts_union_find_finds_the_rebuilt_parts_features() {
        let comps = crate::carpe_diem::components::fixture();
        let (mut checked, mut open) = (0, 0);
        for (seed, names) in [(1u64, ["greedy", "villa", "landscape", "bread"]),
                              (2, ["random"; 4]), (3, ["landscape", "random", "villa", "greedy"])] {
            let config = GameConfig::new(names.len());
            let (mut state, mut rngs) =
                GameState::new(&comps, &config, SeedSequence::new(u128::from(seed), &[]));
            let mut lineup: Vec<_> = names.iter().map(|n| make(n, &[]).unwrap()).collect();
            let mut buf = Options::new();
            let mut seen = Vec::new();
            while !state.is_over() {
                for p in &state.players[..state.n] {
                    let new = walked(&p.district, &mut seen);
                    let old = reference(&p.district);
                    assert!(new == old, "seat {} after {} tiles", p.seat,
                            p.district.history().len());
                    checked += 1;
                    open += usize::from(!new.0.is_empty());
                }
                crate::play::step(&mut state, &comps, &mut lineup, &mut rngs, &mut buf);
            }
        }
        assert!(checked > 500 && open > checked / 2, "{checked} districts, {open} with open features");
    }

    fn feature(kind: u8, open: i16, tiles: u8, faces: &[usize], cells: &[usize]) -> Seen {
        let bits = |list: &[usize]| list.iter().fold(0u64, |b, &c| b | 1 << c);
        Seen { kind, open, tiles, chimneys: 0, faces: bits(faces), cells: bits(cells) }
    }

    #[test]
    fn the_placement_inputs_count_a_made_up_district_as_worked_out_by_hand() {
        // an open villa one edge from closing (facing cell 5), a closed villa, a pond one
        // edge from closing that faces cell 5 too, a garden of 3 tiles with 2 open edges
        // facing cells 7 and 9; cell 9 is dead (no tile fits it); cell 7 is faced 3 times
        let seen = [
            feature(VILLA, 1, 1, &[5], &[4]),
            feature(VILLA, 0, 2, &[], &[0, 1]),
            feature(POND, 1, 2, &[5], &[6, 10]),
            feature(GARDEN, 2, 3, &[7, 9], &[8, 12, 13]),
        ];
        let mut asked = [0u8; CELLS];
        asked[5] = 2;
        asked[7] = 3;
        asked[9] = 1;
        let dead = 1u64 << 9;
        let mut out = Open { kinds: [[0.0; 5]; N_EDGE_KINDS], placement: [0.0; N_PLACEMENT],
                             cells: [0; N_EDGE_KINDS] };
        placement_inputs(&seen, &asked, dead, &mut out);
        let p = out.placement;
        assert_eq!(p[0], 1.0, "villa_one: the open villa with one edge (not the closed one)");
        assert_eq!(p[1], 1.0, "landscape_one: the pond (the garden has two open edges)");
        assert_eq!(p[2], 1.0, "dead cells: cell 9");
        assert_eq!((p[3], p[4]), (1.0, 3.0), "features facing a dead cell, and their tiles");
        assert_eq!(p[5], 1.0, "cells faced by open villas: cell 5");
        assert_eq!(p[6], 3.0, "cells faced by open landscapes: 5, 7, 9");
        assert_eq!(p[7], 1.0, "cells faced by two kinds: cell 5 (villa and pond)");
        assert_eq!(p[8], 1.0, "cells faced by 3 open edges or more: cell 7");
        assert_eq!(out.cells[VILLA as usize], 1 << 4, "only the open villa's cells");
        assert_eq!(out.cells[GARDEN as usize], (1 << 8) | (1 << 12) | (1 << 13));
    }

    #[test]
    fn the_rows_by_kind_count_the_open_features_as_worked_out_by_hand() {
        let comps = crate::carpe_diem::components::fixture();
        let mut villa = feature(VILLA, 2, 2, &[], &[0, 1]);
        villa.chimneys = 3;
        let seen = [villa, feature(VILLA, 0, 1, &[], &[7]), feature(POND, 3, 2, &[], &[4, 5]),
                    feature(POND, 1, 1, &[], &[9])];
        let d = District::new(None, &[]);
        let out = summarise(&seen, &[0; CELLS], &d, &comps, None);
        let points = f64::from(comps.villa_points(3));
        assert_eq!(out.kinds[VILLA as usize], [1.0, 2.0, 2.0, points, 2.0],
                   "one open villa: 2 edges, 2 tiles, its points as it stands, fewest edges 2");
        assert_eq!(out.kinds[POND as usize], [2.0, 4.0, 3.0, 0.0, 1.0],
                   "two open ponds: 3 + 1 edges, 2 + 1 tiles, fewest edges 1");
        assert_eq!(out.placement, [0.0; N_PLACEMENT], "no placement inputs without `placement`");
    }
}
