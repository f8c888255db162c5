//! A district's incomplete features, in one pass: what the version-1 inputs count of them
//! (`Open::kinds`), and what tells one placement of a tile from another (`Open::placement`,
//! the version-2 inputs): features one tile from closing, landscapes that can no longer
//! close, the empty cells the open edges ask for, and cells asked for by several.

use crate::components::{Components, ANY};
use crate::district::District;
use crate::kinds::{is_landscape, CELLS, MEADOW, NEIGHBOUR, N_EDGE_KINDS, VILLA};

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

/// Every incomplete feature of the district. One pass over the built cells with a
/// union-find of their parts (a part: a tile's edges of one kind, C1), as `District`
/// keeps it, without allocating.
pub(super) fn open_features(d: &District, comps: &Components) -> Open {
    let node = |cell: usize, kind: u8| -> usize {
        cell * 4 + d.edges[cell].iter().position(|&e| e == kind).unwrap_or(0)
    };
    let mut parent = [0u8; CELLS * 4];
    for (i, p) in parent.iter_mut().enumerate() {
        *p = i as u8;
    }
    fn find(parent: &mut [u8; CELLS * 4], mut x: usize) -> usize {
        while parent[x] as usize != x {
            let up = parent[parent[x] as usize];
            parent[x] = up;
            x = up as usize;
        }
        x
    }
    let mut open = [0u8; CELLS * 4];
    let mut used = [false; CELLS * 4];
    // the empty cells each part's open edges face, and how many open edges face a cell
    let mut facing = [0u64; CELLS * 4];
    let mut asked = [0u8; CELLS];
    for &cell in d.history() {
        let cell = cell as usize;
        for (&kind, &n) in d.edges[cell].iter().zip(&NEIGHBOUR[cell]) {
            if kind == MEADOW {
                continue;
            }
            let a = node(cell, kind);
            used[a] = true;
            if n >= 0 && d.is_built(n as usize) {
                let b = node(n as usize, kind);
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                if ra != rb {
                    parent[rb] = ra as u8;
                }
            } else {
                open[a] += 1;
                if n >= 0 {
                    facing[a] |= 1 << n;
                    asked[n as usize] += 1;
                }
            }
        }
    }
    let dead = dead_cells(d, comps, &asked);
    // per root: open edges, tiles, chimneys, the empty cells it faces, its cells
    let mut total = [(0u16, 0u16, 0u16, 0u64, 0u64); CELLS * 4];
    for (i, _) in used.iter().enumerate().filter(|(_, &u)| u) {
        let r = find(&mut parent, i);
        total[r].0 += u16::from(open[i]);
        total[r].1 += 1;
        total[r].2 += u16::from(d.chimneys_at[i / 4]);
        total[r].3 |= facing[i];
        total[r].4 |= 1 << (i / 4);
    }
    let mut out = Open { kinds: [[0.0; 5]; N_EDGE_KINDS], placement: [0.0; N_PLACEMENT],
                         cells: [0; N_EDGE_KINDS] };
    let mut faced = [0u64; N_EDGE_KINDS];
    for (i, &(o, tiles, chimneys, faces, cells)) in total.iter().enumerate() {
        if !used[i] || parent[i] as usize != i || o == 0 {
            continue;
        }
        let kind = d.edges[i / 4][i % 4];
        let row = &mut out.kinds[kind as usize];
        row[0] += 1.0;
        row[1] += f64::from(o);
        row[2] += f64::from(tiles);
        if kind == VILLA {
            row[3] += f64::from(comps.villa_points(i32::from(chimneys)));
        }
        if row[4] == 0.0 || f64::from(o) < row[4] {
            row[4] = f64::from(o);
        }
        faced[kind as usize] |= faces;
        out.cells[kind as usize] |= cells;
        let p = &mut out.placement;
        if kind == VILLA && o == 1 {
            p[0] += 1.0;
        }
        if is_landscape(kind) && o == 1 {
            p[1] += 1.0;
        }
        if faces & dead != 0 {
            p[3] += 1.0;
            p[4] += f64::from(tiles);
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
    let p = &mut out.placement;
    p[2] = f64::from(dead.count_ones());
    p[5] = f64::from(faced[VILLA as usize].count_ones());
    p[6] = f64::from(lands.count_ones());
    p[7] = f64::from(twice.count_ones());
    p[8] = asked.iter().filter(|&&k| k >= 3).count() as f64;
    out
}

/// The empty cells an open edge faces where no tile type of the set fits in any
/// orientation (R5.2-R5.3): what touches them stays open to the end. (R6.2's size limit
/// is left out: a cell a landscape could fill only past 4 tiles counts as fillable.)
fn dead_cells(d: &District, comps: &Components, asked: &[u8; CELLS]) -> u64 {
    let mut dead = 0u64;
    for (cell, _) in asked.iter().enumerate().filter(|(_, &k)| k > 0) {
        let need: [usize; 4] = std::array::from_fn(|side| match NEIGHBOUR[cell][side] {
            n if n < 0 => MEADOW as usize,
            n if d.is_built(n as usize) => d.edges[n as usize][side ^ 2] as usize,
            _ => ANY as usize,
        });
        let fits = comps.tile_types.iter().any(|t| {
            t.side_fit[0][need[0]] & t.side_fit[1][need[1]] & t.side_fit[2][need[2]]
                & t.side_fit[3][need[3]] != 0
        });
        if !fits {
            dead |= 1 << cell;
        }
    }
    dead
}
