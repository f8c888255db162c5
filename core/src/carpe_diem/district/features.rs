//! A district's features (R6): the union-find over tile parts that `place` keeps up to
//! date, what a tile on a cell would join (`around`), and the completions a placement
//! makes (R5.5, R6.1).

use crate::carpe_diem::kinds::{is_dwelling, is_landscape, Edges, MEADOW, NEIGHBOUR, N_EDGE_KINDS, VILLA};

use super::{
    cell_lines, first_side, have_index, District, Lines, H_CHIMNEYS, H_DWELLINGS, H_LANDSCAPES,
    H_LANDSCAPES_3PLUS, H_VILLAS,
};

/// A complete villa, landscape, dwelling or single building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Feature {
    pub kind: u8,
    pub tiles: u8,
    pub chimneys: u16,
    /// The feature's cells, a bit per cell.
    pub cells: u64,
}

/// The completions of one placement: at most one per part, so at most 4.
#[derive(Clone, Copy, Debug, Default)]
pub struct Completions {
    items: [Option<Feature>; 4],
    len: usize,
}

impl Completions {
    fn push(&mut self, f: Feature) {
        self.items[self.len] = Some(f);
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = Feature> + '_ {
        self.items[..self.len].iter().map(|f| f.expect("filled"))
    }
}

/// What a tile on a cell would join through its built neighbours, for one kind:
/// summed over the distinct features (`District::around`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Near {
    pub kind: u8,
    /// Sides of the cell facing that kind.
    pub sides: u8,
    pub open: i16,
    pub tiles: u8,
    pub chimneys: u16,
    /// The rows and columns the features touch.
    pub lines: Lines,
}

/// Per kind, what a tile on a cell would join (at most 4 kinds: one per side).
#[derive(Clone, Copy, Debug, Default)]
pub struct Around {
    near: [Near; 4],
    len: usize,
}

impl Around {
    /// The entry of one kind; all zero when no neighbour faces the cell with it.
    pub fn get(&self, kind: u8) -> Near {
        for n in &self.near[..self.len] {
            if n.kind == kind {
                return *n;
            }
        }
        Near::default()
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl District {
    fn root(&self, mut node: usize) -> usize {
        while self.parent[node] as usize != node {
            node = self.parent[node] as usize;
        }
        node
    }

    /// A built part's feature as `place` keeps it: (root node, open edges, tiles,
    /// chimneys). A part is a tile's edges of one kind (not meadow); `cell` must be built
    /// with an edge of `kind`.
    pub fn feature_of(&self, cell: usize, kind: u8) -> (usize, i16, u8, u16) {
        let root = self.root(self.node_of(cell, kind));
        (root, self.open[root], self.size[root], self.chimneys[root])
    }

    fn find(&mut self, mut node: usize) -> usize {
        while self.parent[node] as usize != node {
            let grand = self.parent[self.parent[node] as usize];
            self.parent[node] = grand;
            node = grand as usize;
        }
        node
    }

    /// The node of the part of `kind` on a built cell.
    fn node_of(&self, cell: usize, kind: u8) -> usize {
        cell * 4 + first_side(&self.edges[cell], kind)
    }

    /// Per kind, what a tile on `cell` would join through its built neighbours: (sides
    /// facing that kind, open edges, tiles, chimneys, cells) summed over the distinct
    /// features.
    ///
    /// For a legal placement a part of kind k with `own` sides joins exactly these: the
    /// merged feature has `own - 2 * sides + open` open edges, `1 + tiles` tiles and the
    /// cell's bit | `cells` (see carpe_diem/players/value.rs).
    pub fn around(&self, cell: usize) -> Around {
        let mut agg = Around::default();
        let mut seen = [usize::MAX; 4];
        let mut n_seen = 0;
        for (d, &n) in NEIGHBOUR[cell].iter().enumerate() {
            if n < 0 || !self.is_built(n as usize) {
                continue;
            }
            let n = n as usize;
            let kind = self.edges[n][d ^ 2];
            if kind == MEADOW {
                continue;
            }
            let root = self.root(n * 4 + first_side(&self.edges[n], kind));
            let i = match agg.near[..agg.len].iter().position(|e| e.kind == kind) {
                Some(i) => i,
                None => {
                    agg.near[agg.len] = Near {
                        kind,
                        ..Near::default()
                    };
                    agg.len += 1;
                    agg.len - 1
                }
            };
            let e = &mut agg.near[i];
            e.sides += 1;
            if !seen[..n_seen].contains(&root) {
                seen[n_seen] = root;
                n_seen += 1;
                e.open += self.open[root];
                e.tiles += self.size[root];
                e.chimneys += self.chimneys[root];
                e.lines |= self.lines[root];
            }
        }
        agg
    }

    /// (open edges, tiles, chimneys) of each incomplete feature of one kind.
    pub fn open_features(&self, kind: u8) -> Vec<(i32, i32, i32)> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for &cell in self.history() {
            let cell = cell as usize;
            if self.edges[cell].contains(&kind) {
                let root = self.root(self.node_of(cell, kind));
                if !seen.contains(&root) && self.open[root] > 0 {
                    seen.push(root);
                    out.push((
                        i32::from(self.open[root]),
                        i32::from(self.size[root]),
                        i32::from(self.chimneys[root]),
                    ));
                }
            }
        }
        out
    }

    // -- the one mutation ----------------------------------------------------
    /// Build a tile (legality is the caller's job: see `can_place`). Returns the
    /// completions: the building, or each completed part ascending by kind.
    pub fn place(&mut self, cell: usize, edges: Edges, chimneys: u8, building: u8) -> Completions {
        let bit = 1u64 << cell;
        self.edges[cell] = edges;
        self.chimneys_at[cell] = chimneys;
        self.building_at[cell] = building;
        self.order[self.built as usize] = cell as u8;
        self.built += 1;
        self.built_mask |= bit;
        self.frontier &= !bit;
        for d in 0..4 {
            let n = NEIGHBOUR[cell][d];
            if n >= 0 && !self.is_built(n as usize) {
                let n = n as usize;
                self.frontier |= 1 << n;
                self.req[n][d ^ 2] = edges[d]; // n's side facing this cell must now match it
                if is_landscape(edges[d]) {
                    self.facing_land |= 1 << n;
                }
            }
        }
        self.scrolls &= !bit;
        let mut completed = Completions::default();
        if building != 0 {
            completed.push(self.complete(building, 1, 0, bit));
            return completed;
        }
        for kind in 1..N_EDGE_KINDS as u8 {
            if !edges.contains(&kind) {
                continue;
            }
            let root = self.join(cell, &edges, kind, if kind == VILLA { chimneys } else { 0 });
            if kind == VILLA {
                self.have[H_CHIMNEYS] += i32::from(chimneys);
            }
            if self.open[root] == 0 && (kind != VILLA || self.size[root] >= 2) {
                let cells = self.feature_cells(kind, root);
                let f = self.complete(kind, self.size[root], self.chimneys[root], cells);
                completed.push(f);
            }
        }
        completed
    }

    fn join(&mut self, cell: usize, edges: &Edges, kind: u8, chimneys: u8) -> usize {
        let node = cell * 4 + first_side(edges, kind);
        self.open[node] = edges.iter().filter(|&&e| e == kind).count() as i16;
        self.size[node] = 1;
        self.chimneys[node] = u16::from(chimneys);
        self.lines[node] = cell_lines(cell);
        let mut root = node;
        for d in 0..4 {
            let n = NEIGHBOUR[cell][d];
            if edges[d] != kind || n < 0 || !self.is_built(n as usize) {
                continue;
            }
            let mut other = self.find(self.node_of(n as usize, kind));
            if other == root {
                // closing a loop
                self.open[root] -= 2;
                continue;
            }
            if self.size[other] > self.size[root] {
                std::mem::swap(&mut root, &mut other);
            }
            self.parent[other] = root as u8;
            self.open[root] += self.open[other] - 2;
            self.size[root] += self.size[other];
            self.chimneys[root] += self.chimneys[other];
            self.lines[root] |= self.lines[other];
        }
        root
    }

    /// The cells of the feature of `kind` whose root is `root`.
    fn feature_cells(&self, kind: u8, root: usize) -> u64 {
        let mut cells = 0;
        for &cell in self.history() {
            let cell = cell as usize;
            if self.edges[cell].contains(&kind) && self.root(self.node_of(cell, kind)) == root {
                cells |= 1 << cell;
            }
        }
        cells
    }

    /// Record a completion; `mask` holds the feature's cells.
    fn complete(&mut self, kind: u8, tiles: u8, chimneys: u16, mask: u64) -> Feature {
        self.complete_count[kind as usize] += 1;
        self.complete_mask[kind as usize] |= mask;
        if kind == VILLA {
            self.villa_chimneys[self.have[H_VILLAS] as usize] = chimneys;
            self.have[H_VILLAS] += 1;
        } else {
            self.have[have_index(kind)] += 1;
            if is_landscape(kind) {
                self.have[H_LANDSCAPES] += 1;
                if tiles >= 3 {
                    self.have[H_LANDSCAPES_3PLUS] += 1;
                }
            } else if is_dwelling(kind) {
                self.have[H_DWELLINGS] += 1;
            }
        }
        Feature {
            kind,
            tiles,
            chimneys,
            cells: mask,
        }
    }
}
