//! The tables the engine reads, computed once from a valid component set: the tiles,
//! cards and harvest cards as flat lists, each piece's colours and areas (T7.6), and the
//! adjacency of all 432 layouts of three pieces (T2.6, TC8).

use super::entries::{
    BonusKind, Colour, Crop, HarvestReward, PieceEntry, PieceKind, TileEntry, BOARD_SPACES,
    N_BONUS, N_COLOURS, PIECE_SPACES,
};

/// A hex tile: its colour (bits 0–2), its crops (bits 3–6, `Crop as u8`) and whether its
/// back is neutral (bit 7; the rest are some player's, T1.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Tile(pub u8);

impl Tile {
    pub const NEUTRAL: u8 = 0x80;

    pub fn new(colour: Colour, crops: u8, neutral: bool) -> Tile {
        Tile(colour as u8 | (crops & 0x0f) << 3 | if neutral { Tile::NEUTRAL } else { 0 })
    }
    pub fn colour(self) -> Colour {
        Colour::from_index((self.0 & 7) as usize)
    }
    /// The crops as a 4-bit set (bit `Crop as u8`).
    pub fn crops(self) -> u8 {
        (self.0 >> 3) & 0x0f
    }
    pub fn is_neutral(self) -> bool {
        self.0 & Tile::NEUTRAL != 0
    }
}

pub fn crop_bits(crops: &[Crop]) -> u8 {
    crops.iter().fold(0, |acc, &c| acc | 1 << (c as u8))
}

/// T2.6: 6 orders x 8 orientations x 9 shift pairs.
pub const LAYOUTS: usize = 432;
const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// A layout decoded: which kind lies at each position (left to right), whether each
/// kind is turned 180°, and each position's row offset.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub order: [usize; 3],
    pub turned: [bool; 3],
    pub offset: [i32; 3],
}

impl Layout {
    pub fn decode(id: u16) -> Layout {
        let id = id as usize;
        assert!(id < LAYOUTS, "layout {id} out of range");
        let (order, turn, shift) = (id / 72, (id / 9) % 8, id % 9);
        let middle = (shift / 3) as i32 - 1;
        let right = (shift % 3) as i32 - 1;
        Layout {
            order: ORDERS[order],
            turned: [turn & 1 != 0, turn & 2 != 0, turn & 4 != 0],
            offset: [0, middle, middle + right],
        }
    }

    /// Where space `s` (kind * 10 + local) lies on the hex grid: (column, row).
    pub fn cell(&self, s: usize) -> (i32, i32) {
        let (kind, local) = (s / PIECE_SPACES, s % PIECE_SPACES);
        let pos = self
            .order
            .iter()
            .position(|&k| k == kind)
            .expect("a layout places every kind");
        let (mut c, mut r) = ((local / 5) as i32, (local % 5) as i32);
        if self.turned[kind] {
            (c, r) = (1 - c, 4 - r); // TC8: a half turn of a 2x5 piece
        }
        (2 * pos as i32 + c, r + self.offset[pos])
    }
}

/// Hex neighbours on a grid of columns whose odd columns sit half a hex lower (TC8).
fn touching(a: (i32, i32), b: (i32, i32)) -> bool {
    let (dq, dr) = (b.0 - a.0, b.1 - a.1);
    match dq {
        0 => dr.abs() == 1,
        1 | -1 => {
            if a.0.rem_euclid(2) == 0 {
                dr == -1 || dr == 0
            } else {
                dr == 0 || dr == 1
            }
        }
        _ => false,
    }
}

/// The neighbours of each local space within one piece (as a u16 mask).
fn piece_adjacency() -> [u16; PIECE_SPACES] {
    let cell = |i: usize| ((i / 5) as i32, (i % 5) as i32);
    std::array::from_fn(|i| {
        (0..PIECE_SPACES)
            .filter(|&j| touching(cell(i), cell(j)))
            .fold(0u16, |m, j| m | 1 << j)
    })
}

pub(super) fn piece_colours(p: &PieceEntry) -> Result<[u8; PIECE_SPACES], String> {
    let text: Vec<char> = p.left.chars().chain(p.right.chars()).collect();
    if p.left.chars().count() != 5 || p.right.chars().count() != 5 {
        return Err(format!(
            "castles pieces {}: each column needs 5 colour codes (TC8)",
            p.name
        ));
    }
    let mut out = [0u8; PIECE_SPACES];
    for (i, ch) in text.iter().enumerate() {
        out[i] = Colour::from_code(*ch).ok_or_else(|| {
            format!(
                "castles pieces {}: unknown colour code {ch:?}; use K R T F Q V M W (TC1)",
                p.name
            )
        })? as u8;
    }
    Ok(out)
}

/// T7.6: each local space's area (its contiguous same-coloured spaces on the piece).
pub(super) fn piece_areas(colours: &[u8; PIECE_SPACES]) -> [u16; PIECE_SPACES] {
    let adj = piece_adjacency();
    std::array::from_fn(|start| {
        let mut area = 1u16 << start;
        loop {
            let mut grown = area;
            for (j, &near) in adj.iter().enumerate() {
                if area & 1 << j != 0 {
                    grown |= near & same_colour(colours, colours[start]);
                }
            }
            if grown == area {
                return area;
            }
            area = grown;
        }
    })
}

fn same_colour(colours: &[u8; PIECE_SPACES], c: u8) -> u16 {
    (0..PIECE_SPACES)
        .filter(|&i| colours[i] == c)
        .fold(0, |m, i| m | 1 << i)
}

/// One line per bad piece (TC8): columns, codes, a single castle space, areas of 1–3.
pub fn check_pieces(pieces: &[PieceEntry], errors: &mut Vec<String>) {
    for kind in [PieceKind::A, PieceKind::B, PieceKind::C] {
        if !pieces.iter().any(|p| p.kind == kind) {
            errors.push(format!("castles pieces: no piece of kind {kind:?}; a board needs one A, one B and one C (T2.6)"));
        }
    }
    for (i, p) in pieces.iter().enumerate() {
        if pieces[..i].iter().any(|q| q.name == p.name) {
            errors.push(format!("castles pieces {}: name used twice", p.name));
        }
        let colours = match piece_colours(p) {
            Ok(c) => c,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        let castles = colours
            .iter()
            .filter(|&&c| c == Colour::Castle as u8)
            .count();
        if castles != 1 {
            errors.push(format!(
                "castles pieces {}: {castles} castle spaces; each piece has one, three per board (T2.7)",
                p.name
            ));
        }
        if let Some(big) = piece_areas(&colours).iter().find(|a| a.count_ones() > 3) {
            errors.push(format!(
                "castles pieces {}: an area of {} spaces; areas hold 1 to 3 (TC9)",
                p.name,
                big.count_ones()
            ));
        }
    }
}

/// The prepared set.
#[derive(Clone, Debug)]
pub struct Tables {
    pub player_tiles: Vec<Tile>,
    pub neutral_tiles: Vec<Tile>,
    /// One colour index per game card.
    pub cards: Vec<u8>,
    pub harvest: Vec<(HarvestReward, u8)>,
    pub bonus_supply: [u8; N_BONUS],
    /// TC7: [first, second] per colour.
    pub colour_bonus: [[u8; 2]; N_COLOURS],
    pub area_vp: [u8; 3],
    pub pieces_by_kind: [Vec<u8>; 3],
    /// Shared with every finished game's `Scores` (its use rows name the dealt pieces).
    pub piece_names: std::sync::Arc<[String]>,
    pub piece_colour: Vec<[u8; PIECE_SPACES]>,
    pub piece_area: Vec<[u16; PIECE_SPACES]>,
    /// Per layout, each space's neighbours on the board (a 30-bit mask).
    pub adjacency: Vec<[u32; BOARD_SPACES]>,
}

pub(super) fn flatten(entries: &[TileEntry], neutral: bool) -> Vec<Tile> {
    entries
        .iter()
        .flat_map(|t| {
            std::iter::repeat_n(
                Tile::new(t.colour, crop_bits(&t.crops), neutral),
                t.count as usize,
            )
        })
        .collect()
}

/// Per layout of three pieces, each space's neighbours on the board (T2.6, TC8).
pub(super) fn adjacency() -> Vec<[u32; BOARD_SPACES]> {
    (0..LAYOUTS as u16)
        .map(|id| {
            let layout = Layout::decode(id);
            let cells: [(i32, i32); BOARD_SPACES] = std::array::from_fn(|s| layout.cell(s));
            std::array::from_fn(|s| {
                (0..BOARD_SPACES)
                    .filter(|&t| touching(cells[s], cells[t]))
                    .fold(0u32, |m, t| m | 1 << t)
            })
        })
        .collect()
}

impl Tables {
    /// The bonus tokens in the box at the start (T2.1).
    pub fn bonus(&self, kind: BonusKind) -> u8 {
        self.bonus_supply[kind.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t2_6_a_piece_keeps_its_shape_under_a_half_turn() {
        let adj = piece_adjacency();
        let turn = |i: usize| (1 - i / 5) * 5 + (4 - i % 5);
        for i in 0..PIECE_SPACES {
            for j in 0..PIECE_SPACES {
                assert_eq!(
                    adj[i] & 1 << j != 0,
                    adj[turn(i)] & 1 << turn(j) != 0,
                    "{i} {j}"
                );
            }
        }
        // an inner space of the left column touches 2 above/below and 2 on the right
        assert_eq!(adj[2].count_ones(), 4);
    }
}
