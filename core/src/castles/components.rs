//! TC1–TC9 (docs/rules-castles.md): The Castles of Tuscany's component set as data.
//!
//! `Components` is what a file holds (serde, JSON), its entries `entries.rs`'.
//! `Components::builtin()` is the default set (builtin.rs); `validate()` names every bad
//! entry in one line; `prepare()` turns a valid set into the tables the engine reads
//! (`Tables`, in `tables.rs`). The modules depend one way: entries, then tables, then
//! components, then builtin.

use serde::{Deserialize, Serialize};

pub use super::entries::{
    Colour,
    N_COLOURS,
    Crop,
    Source,
    BonusKind,
    N_BONUS,
    HarvestReward,
    PieceKind,
    TileEntry,
    CardEntry,
    HarvestEntry,
    BonusEntry,
    ColourBonusEntry,
    PieceEntry,
    AreaVp,
    PLAYER_TILES,
    MAX_NEUTRAL,
    MAX_CARDS,
    MAX_HARVEST,
    PIECE_SPACES,
    BOARD_SPACES,
};
use super::tables::{adjacency, flatten, piece_areas, piece_colours, Tables};

/// The whole set. `tables` is derived (`prepare`), never read from a file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

impl Components {
    /// A set read from JSON (e.g. `serde_json::to_string(&Components::builtin())` edited),
    /// validated and prepared; every problem is one line (a value of the wrong kind names
    /// its key, `colour_bonus[0].first`: `games::json`).
    pub fn from_json(text: &str) -> Result<Components, Vec<String>> {
        let set: Components = crate::games::json::from_json("castles components JSON", text)
            .map_err(|e| vec![e])?;
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

impl Tables {
    /// From a set that `validate` accepted.
    pub fn new(set: &Components) -> Tables {
        let cards = set
            .cards
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.colour as u8, c.count as usize))
            .collect();
        let harvest = set
            .harvest
            .iter()
            .flat_map(|h| std::iter::repeat_n((h.reward, h.amount), h.count as usize))
            .collect();
        let mut bonus_supply = [0u8; N_BONUS];
        for b in &set.bonus_tokens {
            bonus_supply[b.kind.index()] = b.count;
        }
        let mut colour_bonus = [[0u8; 2]; N_COLOURS];
        for b in &set.colour_bonus {
            colour_bonus[b.colour.index()] = [b.first, b.second];
        }
        let piece_colour: Vec<[u8; PIECE_SPACES]> = set
            .pieces
            .iter()
            .map(|p| piece_colours(p).expect("validated piece"))
            .collect();
        let piece_area = piece_colour.iter().map(piece_areas).collect();
        let mut pieces_by_kind: [Vec<u8>; 3] = Default::default();
        for (i, p) in set.pieces.iter().enumerate() {
            pieces_by_kind[p.kind.index()].push(i as u8);
        }
        let vp = &set.area_vp.vp;
        Tables {
            player_tiles: flatten(&set.player_tiles, false),
            neutral_tiles: flatten(&set.neutral_tiles, true),
            cards,
            harvest,
            bonus_supply,
            colour_bonus,
            area_vp: [vp[0], vp[1], vp[2]],
            pieces_by_kind,
            piece_names: set.pieces.iter().map(|p| p.name.clone()).collect::<Vec<_>>().into(),
            piece_colour,
            piece_area,
            adjacency: adjacency(),
        }
    }
}
