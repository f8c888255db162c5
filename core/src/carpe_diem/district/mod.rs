//! One player's 6x6 district: legal placements, features, completions, counts (R5, R6,
//! R10.5); mirrors `cdsim/games/carpe_diem/rules/district.py`.
//!
//! Cells are bits of a `u64`. Features are tracked incrementally with union-find over
//! tile *parts*: a part is the set of a tile's edges of one kind (docs/rules.md C1); the
//! node of the part of kind k on a cell is `cell * 4 + (first side of kind k)`, so the
//! arrays stay small (144 nodes, where Python names them `cell * 16 + kind`). Each root
//! carries the feature's open-edge count, tile count, chimneys and the rows and columns
//! it touches (all a frame goal asks, R10.5; the cells themselves are found when it
//! completes); a feature is complete when its open-edge count reaches zero.
//!
//! The district is most of a game state's size, and search players copy states by the
//! thousand: the per-node arrays are kept small (12 bits of lines, not 36 of cells).

mod features;

pub use features::{Around, Completions, Feature, Near};

use std::sync::Arc;

use crate::carpe_diem::components::{Board, FramePart, TileType, ANY};
use crate::carpe_diem::kinds::{
    Edges, CELLS, LANDSCAPES, MAX_LANDSCAPE_TILES, MEADOW, NEIGHBOUR, N_EDGE_KINDS, N_KINDS, SIZE,
};

// Indices into District::have, in the order of components::HAVE_KEYS.
pub const H_CHIMNEYS: usize = 0;
pub const H_VILLAS: usize = 1;
pub const H_LANDSCAPES: usize = 2;
pub const H_LANDSCAPES_3PLUS: usize = 3;
pub const H_DWELLINGS: usize = 12;
pub const N_HAVE: usize = 16;

const NODES: usize = CELLS * 4;
/// A district holds at most 18 complete villas (each has 2+ tiles).
const MAX_VILLAS: usize = CELLS / 2;
/// Four sides with 2 goals each (docs/rules.md C9).
const MAX_GOALS: usize = 8;
pub const ALL_CELLS: u64 = (1 << CELLS) - 1;

/// HAVE_KEYS index of one feature kind (pond..artisan, market..fountain).
pub fn have_index(kind: u8) -> usize {
    if kind < 10 {
        kind as usize + 2
    } else {
        kind as usize + 3
    }
}

const fn line_masks() -> [[u64; SIZE]; 4] {
    let mut out = [[0u64; SIZE]; 4];
    let mut i = 0;
    while i < SIZE {
        let mut j = 0;
        while j < SIZE {
            out[0][i] |= 1 << (j * SIZE + i); // top: column i
            out[1][i] |= 1 << (i * SIZE + j); // right: row i
            out[2][i] |= 1 << (j * SIZE + (SIZE - 1 - i)); // bottom: column 5 - i
            out[3][i] |= 1 << ((SIZE - 1 - i) * SIZE + j); // left: row 5 - i
            j += 1;
        }
        i += 1;
    }
    out
}

/// `LINE_MASK[side][line]`: the cells a frame goal's line crosses (R10.5, docs/rules.md C9).
/// Sides are top, right, bottom, left; lines are counted clockwise along the side.
pub const LINE_MASK: [[u64; SIZE]; 4] = line_masks();

/// The rows and columns of the district as bits: row r is bit r, column c bit 6 + c.
pub type Lines = u16;

/// The row and the column of a cell (`Lines`).
pub const fn cell_lines(cell: usize) -> Lines {
    1 << (cell / SIZE) | 1 << (SIZE + cell % SIZE)
}

/// The one row or column a frame goal's line is (`LINE_MASK[side][line]`).
const fn goal_line(side: usize, line: usize) -> Lines {
    match side {
        0 => 1 << (SIZE + line),
        1 => 1 << line,
        2 => 1 << (SIZE + SIZE - 1 - line),
        _ => 1 << (SIZE - 1 - line),
    }
}

/// What each side of an empty cell must match before anything is built: meadow on the
/// frame (R5.3), anything towards another cell.
const fn empty_req() -> [Edges; CELLS] {
    let mut out = [[ANY; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 4 {
            if NEIGHBOUR[cell][d] < 0 {
                out[cell][d] = MEADOW;
            }
            d += 1;
        }
        cell += 1;
    }
    out
}

const EMPTY_REQ: [Edges; CELLS] = empty_req();

/// One goal of the frame: a kind, its VP and the cells of its line (R10.5), and that line
/// as a row or column (`Lines`): a feature touching it crosses the line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Goal {
    pub kind: u8,
    pub vp: i32,
    pub mask: u64,
    pub line: Lines,
}

/// What a district is, to tell two apart (players' caches): its tiles, what is left of
/// its board (scroll spaces, the frontier) and its frame goals; the rest of `District`
/// follows from these. It holds the district itself (shared: a key costs no copy), and
/// two are equal when they are the same district or their layouts are.
#[derive(Clone, Debug)]
pub struct Layout(Arc<District>);

impl Layout {
    pub fn of(district: &Arc<District>) -> Layout {
        Layout(Arc::clone(district))
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        let (a, b) = (&*self.0, &*other.0);
        Arc::ptr_eq(&self.0, &other.0)
            || (a.built_mask == b.built_mask
                && a.scrolls == b.scrolls
                && a.frontier == b.frontier
                && a.edges == b.edges
                && a.chimneys_at == b.chimneys_at
                && a.building_at == b.building_at
                && a.n_goals == b.n_goals
                && a.goals == b.goals)
    }
}

impl Eq for Layout {}

/// A player's district board. Mutated only through `place` (and the frontier, which
/// tests open to every cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct District {
    pub edges: [Edges; CELLS],
    pub chimneys_at: [u8; CELLS],
    pub building_at: [u8; CELLS],
    /// Cells with a tile.
    pub built_mask: u64,
    /// The cells in the order they were built (`history`).
    order: [u8; CELLS],
    built: u8,
    pub scrolls: u64,
    /// The board's scroll spaces before anything was built.
    board_scrolls: u64,
    /// Empty cells a tile may go on (R5.1).
    pub frontier: u64,
    spade: u8,
    /// What each empty cell's sides must match (a kind, or ANY).
    req: [Edges; CELLS],
    /// Cells with a side facing a built landscape edge (R6.2).
    facing_land: u64,
    pub have: [i32; N_HAVE],
    pub complete_count: [i32; N_KINDS],
    pub complete_mask: [u64; N_KINDS],
    villa_chimneys: [u16; MAX_VILLAS],
    goals: [Goal; MAX_GOALS],
    n_goals: u8,
    parent: [u8; NODES],
    open: [i16; NODES],
    size: [u8; NODES],
    chimneys: [u16; NODES],
    lines: [Lines; NODES],
}

/// The first side of a part of `kind` on a tile: the part's node is `cell * 4 + side`.
fn first_side(edges: &Edges, kind: u8) -> usize {
    edges
        .iter()
        .position(|&e| e == kind)
        .expect("the tile has a part of that kind")
}

impl District {
    /// A district on a board (None: no board, every cell open; positions and tests),
    /// framed by these parts on the top, right, bottom and left sides.
    pub fn new(board: Option<&Board>, frame: &[&FramePart]) -> District {
        let mut goals = [Goal::default(); MAX_GOALS];
        let mut n_goals = 0;
        for (side, part) in frame.iter().enumerate() {
            for goal in &part.goals {
                goals[n_goals] = Goal {
                    kind: goal.kind,
                    vp: goal.vp,
                    mask: LINE_MASK[side][goal.line],
                    line: goal_line(side, goal.line),
                };
                n_goals += 1;
            }
        }
        let mut parent = [0u8; NODES];
        for (i, p) in parent.iter_mut().enumerate() {
            *p = i as u8;
        }
        District {
            edges: [[MEADOW; 4]; CELLS],
            chimneys_at: [0; CELLS],
            building_at: [0; CELLS],
            built_mask: 0,
            order: [0; CELLS],
            built: 0,
            scrolls: board.map_or(0, |b| b.scrolls),
            board_scrolls: board.map_or(0, |b| b.scrolls),
            frontier: board.map_or(ALL_CELLS, |b| 1 << b.spade), // R5.1
            spade: board.map_or(u8::MAX, |b| b.spade),
            req: EMPTY_REQ,
            facing_land: 0,
            have: [0; N_HAVE],
            complete_count: [0; N_KINDS],
            complete_mask: [0; N_KINDS],
            villa_chimneys: [0; MAX_VILLAS],
            goals,
            n_goals: n_goals as u8,
            parent,
            open: [0; NODES],
            size: [0; NODES],
            chimneys: [0; NODES],
            lines: [0; NODES],
        }
    }

    /// The same board and frame with nothing built (a replay starts from it).
    pub fn clone_empty(&self) -> District {
        let mut fresh = District::new(None, &[]);
        fresh.goals = self.goals;
        fresh.n_goals = self.n_goals;
        fresh.spade = self.spade;
        fresh.scrolls = self.board_scrolls;
        fresh.board_scrolls = self.board_scrolls;
        if self.spade != u8::MAX {
            fresh.frontier = 1 << self.spade;
        }
        fresh
    }

    // -- queries -------------------------------------------------------------
    pub fn built(&self) -> usize {
        self.built as usize
    }

    /// The built cells in the order they were built.
    pub fn history(&self) -> &[u8] {
        &self.order[..self.built as usize]
    }

    pub fn is_built(&self, cell: usize) -> bool {
        self.built_mask >> cell & 1 != 0
    }

    pub fn spade(&self) -> Option<u8> {
        (self.spade != u8::MAX).then_some(self.spade)
    }

    pub fn frontier_cells(&self) -> Vec<usize> {
        (0..CELLS)
            .filter(|&c| self.frontier >> c & 1 != 0)
            .collect()
    }

    /// Chimneys of each complete villa, in the order they were completed.
    pub fn villa_chimneys(&self) -> &[u16] {
        &self.villa_chimneys[..self.have[H_VILLAS] as usize]
    }

    /// The frame goals: (kind, VP, cells of the line), side by side (R10.5).
    pub fn frame_goals(&self) -> &[Goal] {
        &self.goals[..self.n_goals as usize]
    }

    /// R5.2, R5.3: every side matches its built neighbour; sides on the frame are meadow.
    pub fn matches(&self, cell: usize, edges: &Edges) -> bool {
        for d in 0..4 {
            let n = NEIGHBOUR[cell][d];
            if n < 0 {
                if edges[d] != MEADOW {
                    return false;
                }
            } else if self.is_built(n as usize) && self.edges[n as usize][d ^ 2] != edges[d] {
                return false;
            }
        }
        true
    }

    /// Legal placement: on the frontier (R5.1), matching (R5.2-5.3), landscapes <= 4 (R6.2).
    pub fn can_place(&self, cell: usize, edges: &Edges) -> bool {
        self.frontier >> cell & 1 != 0
            && self.matches(cell, edges)
            && !self.oversized_landscape(cell, edges)
    }

    /// R6.2 [decision]: a landscape is 2-4 tiles, so no tile may grow one past 4.
    /// `edges` must match the neighbours (`matches`): then `around` gives what each
    /// landscape part would join.
    pub fn oversized_landscape(&self, cell: usize, edges: &Edges) -> bool {
        let around = self.around(cell);
        LANDSCAPES.iter().any(|&k| {
            edges.contains(&k) && 1 + i32::from(around.get(k).tiles) > MAX_LANDSCAPE_TILES
        })
    }

    /// The bits of the tile's orientations that fit the cell's constraint (R5.2, R5.3).
    fn fit(&self, tile: &TileType, cell: usize) -> u8 {
        let r = &self.req[cell];
        tile.side_fit[0][r[0] as usize]
            & tile.side_fit[1][r[1] as usize]
            & tile.side_fit[2][r[2] as usize]
            & tile.side_fit[3][r[3] as usize]
    }

    /// The first fitting orientation on a cell breaks R6.2 (only checked where a
    /// landscape edge faces the cell; every orientation that fits joins the same).
    fn too_big(&self, tile: &TileType, cell: usize, fit: u8) -> bool {
        tile.land
            && self.facing_land >> cell & 1 != 0
            && self.oversized_landscape(cell, &tile.orientations()[fit.trailing_zeros() as usize])
    }

    /// Every legal (cell, oriented edges) for a tile, appended to `out`: frontier cells
    /// ascending, orientations in their listed order (as Python's `placements`).
    pub fn placements(&self, tile: &TileType, out: &mut Vec<(u8, Edges)>) {
        self.each_placement(tile, |cell, edges| out.push((cell, edges)));
    }

    /// `placements`, handed one by one to `found` (the option lists take them as they
    /// come, with no list in between).
    ///
    /// Which orientations fit a cell depends only on what its four sides face (the
    /// cell's constraint, kept up to date by `place`): one AND of four precomputed
    /// masks. The landscape size (R6.2) is the only check left.
    pub fn each_placement(&self, tile: &TileType, mut found: impl FnMut(u8, Edges)) {
        let mut mask = self.frontier;
        while mask != 0 {
            let cell = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let fit = self.fit(tile, cell);
            if fit == 0 || self.too_big(tile, cell, fit) {
                continue;
            }
            for (i, o) in tile.orientations().iter().enumerate() {
                if fit >> i & 1 != 0 {
                    found(cell as u8, *o);
                }
            }
        }
    }

    /// The cells where a tile has at least one legal placement, a bit per cell.
    pub fn placement_cells(&self, tile: &TileType) -> u64 {
        let mut mask = self.frontier;
        let mut cells = 0;
        while mask != 0 {
            let cell = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let fit = self.fit(tile, cell);
            if fit != 0 && !self.too_big(tile, cell, fit) {
                cells |= 1 << cell;
            }
        }
        cells
    }

    // -- final scoring helpers ----------------------------------------------
    /// R10.5: each goal whose line crosses a complete feature of its kind scores.
    pub fn frame_points(&self) -> i32 {
        self.frame_goals()
            .iter()
            .filter(|g| self.complete_mask[g.kind as usize] & g.mask != 0)
            .map(|g| g.vp)
            .sum()
    }

    /// The district as text: 3x3 characters a cell (edges around, centre inside), as
    /// Python's `render`.
    pub fn render(&self) -> Vec<String> {
        const CODES: [&str; N_EDGE_KINDS] = [".", "V", "P", "H", "W", "C", "m", "b", "a", "r"];
        let rule = format!("+{}+", ["---"; SIZE].join("+"));
        let mut lines = vec![rule.clone()];
        for r in 0..SIZE {
            let (mut top, mut mid, mut bot) = (Vec::new(), Vec::new(), Vec::new());
            for c in 0..SIZE {
                let cell = r * SIZE + c;
                if !self.is_built(cell) {
                    let mark = if self.scrolls >> cell & 1 != 0 {
                        "s"
                    } else if cell as u8 == self.spade {
                        "x"
                    } else {
                        " "
                    };
                    top.push("   ".to_string());
                    mid.push(format!(" {mark} "));
                    bot.push("   ".to_string());
                    continue;
                }
                let e = self.edges[cell];
                let centre = match self.building_at[cell] {
                    10 => "$".to_string(),
                    11 => "B".to_string(),
                    12 => "F".to_string(),
                    _ if self.chimneys_at[cell] > 0 => self.chimneys_at[cell].to_string(),
                    _ => "+".to_string(),
                };
                let ch = |k: u8| CODES[k as usize];
                top.push(format!(" {} ", ch(e[0])));
                mid.push(format!("{}{}{}", ch(e[3]), centre, ch(e[1])));
                bot.push(format!(" {} ", ch(e[2])));
            }
            for x in [top, mid, bot] {
                lines.push(format!("|{}|", x.join("|")));
            }
            lines.push(rule.clone());
        }
        lines
    }
}
