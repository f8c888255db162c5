//! TC1–TC9 (docs/rules-castles.md): what a component file's entries are made of: the
//! colours, crops, bonus kinds, harvest rewards and piece kinds, each table's entry (every
//! entry says whether the rulebook prints it, `source = "rulebook"`, or cdsim reconstructed
//! it) and the sizes the state's arrays hold. A key an entry does not have is refused (a
//! misspelled key would otherwise leave the entry as it was, in silence). `Components` (components.rs) is the whole set.

use serde::{Deserialize, Serialize};

/// T1.1: the eight colours, each a hex type, in the order the code indexes them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    Castle,
    City,
    Estate,
    Farm,
    Quarry,
    Village,
    Monastery,
    Cart,
}

pub const N_COLOURS: usize = 8;

impl Colour {
    pub const ALL: [Colour; N_COLOURS] = [
        Colour::Castle,
        Colour::City,
        Colour::Estate,
        Colour::Farm,
        Colour::Quarry,
        Colour::Village,
        Colour::Monastery,
        Colour::Cart,
    ];
    /// The letter the territory pieces are written in (TC1).
    const CODES: [char; N_COLOURS] = ['K', 'R', 'T', 'F', 'Q', 'V', 'M', 'W'];

    pub fn index(self) -> usize {
        self as usize
    }
    pub fn from_index(i: usize) -> Colour {
        Colour::ALL[i]
    }
    pub fn code(self) -> char {
        Colour::CODES[self.index()]
    }
    pub fn from_code(c: char) -> Option<Colour> {
        Colour::CODES
            .iter()
            .position(|&x| x == c)
            .map(Colour::from_index)
    }
}

/// T8.5: the four crop types a farm tile shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crop {
    Vineyard,
    Boar,
    Olive,
    Grain,
}

/// Where an entry's values come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Rulebook,
    Reconstructed,
}

/// T1.4, TC6: the five kinds of bonus token.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusKind {
    Card,
    Storage,
    Marble,
    Worker,
    Harvest,
}

pub const N_BONUS: usize = 5;

impl BonusKind {
    pub const ALL: [BonusKind; N_BONUS] = [
        BonusKind::Card,
        BonusKind::Storage,
        BonusKind::Marble,
        BonusKind::Worker,
        BonusKind::Harvest,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
}

/// TC5: what a harvest card gives.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HarvestReward {
    RedVp,
    GreenVp,
    Cards,
    Marble,
    Worker,
    WoodenHex,
}

/// TC8: the three kinds of territory piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceKind {
    A,
    B,
    C,
}

impl PieceKind {
    pub fn index(self) -> usize {
        self as usize
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileEntry {
    pub colour: Colour,
    #[serde(default)]
    pub crops: Vec<Crop>,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardEntry {
    pub colour: Colour,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HarvestEntry {
    pub reward: HarvestReward,
    pub amount: u8,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusEntry {
    pub kind: BonusKind,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColourBonusEntry {
    pub colour: Colour,
    pub first: u8,
    pub second: u8,
    pub source: Source,
}

/// A territory piece: 2 columns of 5 spaces, each column written top to bottom in
/// colour codes (TC1), the right column half a hex lower (TC8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceEntry {
    pub name: String,
    pub kind: PieceKind,
    pub left: String,
    pub right: String,
    pub source: Source,
}

/// TC9: green VP for a completed area of 1, 2, 3 spaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaVp {
    pub vp: Vec<u8>,
    pub source: Source,
}

/// T1.2: each player's tiles besides the start castle (3 stacks of 7).
pub const PLAYER_TILES: usize = 21;
/// T5.5 / T6: the most neutral tiles the state's arrays hold.
pub const MAX_NEUTRAL: usize = 64;
/// The most game cards and harvest cards the state's arrays hold.
pub const MAX_CARDS: usize = 255;
pub const MAX_HARVEST: usize = 64;
/// T1.5: spaces on one piece and on a board of three.
pub const PIECE_SPACES: usize = 10;
pub const BOARD_SPACES: usize = 30;
