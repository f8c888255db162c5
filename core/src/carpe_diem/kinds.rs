//! Int codes for everything that appears on a tile, and the goods (docs/rules.md C1);
//! mirrors `cdsim/games/carpe_diem/rules/kinds.py`.
//!
//! Edge kinds and feature kinds share one numbering: 1..9 are the edge kinds that
//! form features (villa, four landscapes, four dwelling colours); 10..12 are the
//! single-tile buildings, which sit in the centre of an all-meadow tile.

/// N, E, S, W edge kinds of a tile as placed.
pub type Edges = [u8; 4];

pub const MEADOW: u8 = 0;
pub const VILLA: u8 = 1;
pub const POND: u8 = 2;
pub const GARDEN: u8 = 3;
pub const VINEYARD: u8 = 4;
pub const CHICKEN_YARD: u8 = 5;
pub const MERCHANT: u8 = 6;
pub const BAKER: u8 = 7;
pub const ADMINISTRATOR: u8 = 8;
pub const ARTISAN: u8 = 9;
pub const MARKET: u8 = 10;
pub const BAKERY: u8 = 11;
pub const FOUNTAIN: u8 = 12;
pub const N_KINDS: usize = 13;
/// The edge kinds that form features (edges are never 10..12).
pub const N_EDGE_KINDS: usize = 10;

pub const LANDSCAPES: [u8; 4] = [POND, GARDEN, VINEYARD, CHICKEN_YARD];
pub const DWELLINGS: [u8; 4] = [MERCHANT, BAKER, ADMINISTRATOR, ARTISAN];
pub const SINGLES: [u8; 3] = [MARKET, BAKERY, FOUNTAIN];
/// R6.2: a landscape is 2-4 tiles.
pub const MAX_LANDSCAPE_TILES: i32 = 4;

pub const FEATURE_NAMES: [&str; N_KINDS] = [
    "meadow",
    "villa",
    "pond",
    "garden",
    "vineyard",
    "chicken_yard",
    "merchant",
    "baker",
    "administrator",
    "artisan",
    "market",
    "bakery",
    "fountain",
];

pub fn is_landscape(kind: u8) -> bool {
    (POND..=CHICKEN_YARD).contains(&kind)
}

pub fn is_dwelling(kind: u8) -> bool {
    (MERCHANT..=ARTISAN).contains(&kind)
}

// Goods, indexed 0..3 in a player's supply.
pub const GRAPES: usize = 0;
pub const HERBS: usize = 1;
pub const CHICKENS: usize = 2;
pub const FISH: usize = 3;
pub const GOOD_NAMES: [&str; 4] = ["grapes", "herbs", "chickens", "fish"];

/// R6.2: pond -> fish (rulebook); the other pairings are reconstructed from the names.
pub fn landscape_good(kind: u8) -> usize {
    match kind {
        POND => FISH,
        GARDEN => HERBS,
        VINEYARD => GRAPES,
        CHICKEN_YARD => CHICKENS,
        _ => unreachable!("kind {kind} is not a landscape"),
    }
}

// Directions on the 6x6 district, clockwise; opposite(d) == d ^ 2.
pub const NORTH: usize = 0;
pub const EAST: usize = 1;
pub const SOUTH: usize = 2;
pub const WEST: usize = 3;
pub const SIZE: usize = 6;
pub const CELLS: usize = SIZE * SIZE;

const fn neighbours() -> [[i8; 4]; CELLS] {
    let mut table = [[-1i8; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / SIZE, cell % SIZE);
        if r > 0 {
            table[cell][NORTH] = (cell - SIZE) as i8;
        }
        if c < SIZE - 1 {
            table[cell][EAST] = (cell + 1) as i8;
        }
        if r < SIZE - 1 {
            table[cell][SOUTH] = (cell + SIZE) as i8;
        }
        if c > 0 {
            table[cell][WEST] = (cell - 1) as i8;
        }
        cell += 1;
    }
    table
}

/// `NEIGHBOUR[cell][direction]` is the adjacent cell, or -1 for the frame (R5.3).
pub const NEIGHBOUR: [[i8; 4]; CELLS] = neighbours();

/// Edges after turning a tile clockwise: the north edge moves to the east.
pub fn rotate(edges: Edges, quarter_turns: usize) -> Edges {
    let r = quarter_turns % 4;
    [
        edges[(4 - r) % 4],
        edges[(5 - r) % 4],
        edges[(6 - r) % 4],
        edges[(7 - r) % 4],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate_moves_north_to_east() {
        assert_eq!(rotate([1, 0, 0, 0], 1), [0, 1, 0, 0]);
        assert_eq!(rotate([1, 2, 3, 4], 2), [3, 4, 1, 2]);
    }

    #[test]
    fn neighbours_of_corners_face_the_frame() {
        assert_eq!(NEIGHBOUR[0], [-1, 1, 6, -1]);
        assert_eq!(NEIGHBOUR[35], [29, -1, -1, 34]);
    }
}
