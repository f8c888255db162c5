//! TC1–TC9 (docs/rules-castles.md): The Castles of Tuscany's component set as data.
//!
//! `Components` is what a file holds (serde, JSON): every entry says whether the rulebook
//! prints it (`source = "rulebook"`) or cdsim reconstructed it. `Components::builtin()` is
//! the default set; `validate()` names every bad entry in one line; `prepare()` turns a
//! valid set into the tables the engine reads (`Tables`, in `tables.rs`).

use serde::{Deserialize, Serialize};

use super::tables::Tables;

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
pub struct TileEntry {
    pub colour: Colour,
    #[serde(default)]
    pub crops: Vec<Crop>,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardEntry {
    pub colour: Colour,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HarvestEntry {
    pub reward: HarvestReward,
    pub amount: u8,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BonusEntry {
    pub kind: BonusKind,
    pub count: u8,
    pub source: Source,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColourBonusEntry {
    pub colour: Colour,
    pub first: u8,
    pub second: u8,
    pub source: Source,
}

/// A territory piece: 2 columns of 5 spaces, each column written top to bottom in
/// colour codes (TC1), the right column half a hex lower (TC8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceEntry {
    pub name: String,
    pub kind: PieceKind,
    pub left: String,
    pub right: String,
    pub source: Source,
}

/// TC9: green VP for a completed area of 1, 2, 3 spaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AreaVp {
    pub vp: Vec<u8>,
    pub source: Source,
}

/// The whole set. `tables` is derived (`prepare`), never read from a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Components {
    pub player_tiles: Vec<TileEntry>,
    pub neutral_tiles: Vec<TileEntry>,
    pub cards: Vec<CardEntry>,
    pub harvest: Vec<HarvestEntry>,
    pub bonus_tokens: Vec<BonusEntry>,
    pub colour_bonus: Vec<ColourBonusEntry>,
    pub pieces: Vec<PieceEntry>,
    pub area_vp: AreaVp,
    #[serde(skip)]
    pub tables: Option<Box<Tables>>,
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

impl Components {
    /// The printed and reconstructed set of docs/rules-castles.md (TC1–TC9), prepared.
    pub fn builtin() -> Components {
        super::builtin::set()
            .prepare()
            .expect("the builtin Castles set is valid")
    }

    /// A set read from JSON (e.g. `serde_json::to_string(&Components::builtin())` edited),
    /// validated and prepared; every problem is one line.
    pub fn from_json(text: &str) -> Result<Components, Vec<String>> {
        let set: Components = serde_json::from_str(text)
            .map_err(|e| vec![format!("castles components JSON: {e}")])?;
        set.prepare()
    }

    /// Validate, then compute the engine's tables.
    pub fn prepare(mut self) -> Result<Components, Vec<String>> {
        self.validate()?;
        self.tables = Some(Box::new(Tables::new(&self)));
        Ok(self)
    }

    /// The tables the engine reads; a set made by `builtin`/`from_json`/`prepare` has them.
    pub fn tables(&self) -> &Tables {
        self.tables
            .as_deref()
            .expect("castles components not prepared: call Components::prepare")
    }

    /// Every bad entry, one line each (empty = valid).
    pub fn validate(&self) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        self.check_tile_counts(&mut errors);
        self.check_cards(&mut errors);
        self.check_bonuses(&mut errors);
        super::tables::check_pieces(&self.pieces, &mut errors);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// T1.2: the tiles (each entry, then the totals the state's arrays hold).
    fn check_tile_counts(&self, errors: &mut Vec<String>) {
        check_tiles("player_tiles", &self.player_tiles, errors);
        check_tiles("neutral_tiles", &self.neutral_tiles, errors);
        let own: usize = self.player_tiles.iter().map(|t| t.count as usize).sum();
        if own != PLAYER_TILES {
            errors.push(format!(
                "castles player_tiles: {own} tiles; T1.2 needs {PLAYER_TILES} (3 stacks of 7)"
            ));
        }
        let neutral: usize = self.neutral_tiles.iter().map(|t| t.count as usize).sum();
        if !(8..=MAX_NEUTRAL).contains(&neutral) {
            errors.push(format!(
                "castles neutral_tiles: {neutral} tiles; need 8 (the display, T2.4) to {MAX_NEUTRAL}"
            ));
        }
    }

    /// T1.3: the game cards and the harvest cards.
    fn check_cards(&self, errors: &mut Vec<String>) {
        let n_cards: usize = self.cards.iter().map(|c| c.count as usize).sum();
        if !(1..=MAX_CARDS).contains(&n_cards) {
            errors.push(format!(
                "castles cards: {n_cards} game cards; need 1 to {MAX_CARDS}"
            ));
        }
        for (i, c) in self.cards.iter().enumerate() {
            if self.cards[..i].iter().any(|d| d.colour == c.colour) {
                errors.push(format!(
                    "castles cards[{i}]: colour {:?} listed twice",
                    c.colour
                ));
            }
        }
        let n_harvest: usize = self.harvest.iter().map(|h| h.count as usize).sum();
        if !(1..=MAX_HARVEST).contains(&n_harvest) {
            errors.push(format!(
                "castles harvest: {n_harvest} harvest cards; need 1 to {MAX_HARVEST}"
            ));
        }
        for (i, h) in self.harvest.iter().enumerate() {
            if h.amount == 0 || h.amount > 20 {
                errors.push(format!(
                    "castles harvest[{i}]: amount {} must be 1 to 20",
                    h.amount
                ));
            }
        }
    }

    /// T1.4, T1.6, TC9: the bonus tokens, the colour bonus tiles, the area VP.
    fn check_bonuses(&self, errors: &mut Vec<String>) {
        for kind in BonusKind::ALL {
            let n = self.bonus_tokens.iter().filter(|b| b.kind == kind).count();
            if n != 1 {
                errors.push(format!(
                    "castles bonus_tokens: kind {kind:?} listed {n} times; list each kind once"
                ));
            }
        }
        for colour in Colour::ALL {
            let n = self
                .colour_bonus
                .iter()
                .filter(|b| b.colour == colour)
                .count();
            if n != 1 {
                errors.push(format!(
                    "castles colour_bonus: colour {colour:?} listed {n} times; list each colour once"
                ));
            }
        }
        for (i, b) in self.colour_bonus.iter().enumerate() {
            if b.second > b.first {
                errors.push(format!(
                    "castles colour_bonus[{i}]: second ({}) above first ({})",
                    b.second, b.first
                ));
            }
        }
        if self.area_vp.vp.len() != 3 {
            errors.push(format!(
                "castles area_vp: {} values; TC9 prices areas of 1, 2 and 3 spaces",
                self.area_vp.vp.len()
            ));
        }
    }
}

fn check_tiles(key: &str, tiles: &[TileEntry], errors: &mut Vec<String>) {
    for (i, t) in tiles.iter().enumerate() {
        if t.count == 0 {
            errors.push(format!(
                "castles {key}[{i}]: count 0; drop the entry instead"
            ));
        }
        let is_farm = t.colour == Colour::Farm;
        let distinct = t
            .crops
            .iter()
            .enumerate()
            .all(|(j, c)| !t.crops[..j].contains(c));
        if is_farm && (t.crops.is_empty() || t.crops.len() > 2 || !distinct) {
            errors.push(format!(
                "castles {key}[{i}]: a farm shows 1 or 2 different crops (T8.5), got {:?}",
                t.crops
            ));
        }
        if !is_farm && !t.crops.is_empty() {
            errors.push(format!(
                "castles {key}[{i}]: only farms show crops, a {:?} shows {:?}",
                t.colour, t.crops
            ));
        }
    }
}

impl Default for Components {
    fn default() -> Self {
        Components::builtin()
    }
}
