//! The default component set, TC1–TC9 of docs/rules-castles.md: what the rulebook prints
//! (`Rulebook`) and what cdsim reconstructed where it prints only pictures
//! (`Reconstructed`; each section of the doc says why).

use super::components::{
    AreaVp, BonusEntry, BonusKind, CardEntry, Colour, ColourBonusEntry, Components, Crop,
    HarvestEntry, HarvestReward, PieceEntry, PieceKind, Source, TileEntry,
};
use Colour::*;
use Crop::*;
use Source::{Reconstructed as Rec, Rulebook as Rb};

fn tile(colour: Colour, count: u8, source: Source) -> TileEntry {
    TileEntry {
        colour,
        crops: vec![],
        count,
        source,
    }
}

fn farms(crops: [&[Crop]; 4]) -> Vec<TileEntry> {
    crops
        .into_iter()
        .map(|c| TileEntry {
            colour: Farm,
            crops: c.to_vec(),
            count: 1,
            source: Rec,
        })
        .collect()
}

/// TC2: each player's 21 tiles (counts rulebook; the farms' crops reconstructed).
fn player_tiles() -> Vec<TileEntry> {
    let own = [
        (Village, 4),
        (Cart, 3),
        (Monastery, 3),
        (Quarry, 3),
        (City, 2),
        (Estate, 1),
        (Castle, 1),
    ];
    let mut tiles: Vec<TileEntry> = own.iter().map(|&(c, k)| tile(c, k, Rb)).collect();
    tiles.extend(farms([
        &[Vineyard],
        &[Boar],
        &[Olive, Vineyard],
        &[Grain, Boar],
    ]));
    tiles
}

/// TC3: 32 neutral tiles, 4 of each colour (reconstructed).
fn neutral_tiles() -> Vec<TileEntry> {
    let mut tiles: Vec<TileEntry> = [Castle, City, Estate, Quarry, Village, Monastery, Cart]
        .iter()
        .map(|&c| tile(c, 4, Rec))
        .collect();
    tiles.extend(farms([
        &[Olive],
        &[Grain],
        &[Vineyard, Grain],
        &[Boar, Olive],
    ]));
    tiles
}

/// TC4: 122 game cards (count rulebook, colour mix reconstructed).
fn cards() -> Vec<CardEntry> {
    let mix = [10u8, 13, 10, 20, 17, 20, 16, 16];
    Colour::ALL
        .iter()
        .zip(mix)
        .map(|(&colour, count)| CardEntry {
            colour,
            count,
            source: Rec,
        })
        .collect()
}

/// TC5: 27 harvest cards (count rulebook, contents reconstructed; TE5's 2 red VP).
fn harvest() -> Vec<HarvestEntry> {
    use HarvestReward as H;
    let mix = [
        (H::RedVp, 2, 6),
        (H::GreenVp, 1, 5),
        (H::Cards, 2, 5),
        (H::Marble, 1, 4),
        (H::Worker, 1, 4),
        (H::WoodenHex, 1, 3),
    ];
    mix.iter()
        .map(|&(reward, amount, count)| HarvestEntry {
            reward,
            amount,
            count,
            source: Rec,
        })
        .collect()
}

/// TC6: 5 tokens of each kind (rulebook).
fn bonus_tokens() -> Vec<BonusEntry> {
    BonusKind::ALL
        .iter()
        .map(|&kind| BonusEntry {
            kind,
            count: 5,
            source: Rb,
        })
        .collect()
}

/// TC7: the colour bonus tiles' two values (reconstructed).
fn colour_bonus() -> Vec<ColourBonusEntry> {
    let values = [
        (4, 2),
        (4, 2),
        (3, 1),
        (6, 3),
        (5, 2),
        (6, 3),
        (5, 2),
        (5, 2),
    ];
    Colour::ALL
        .iter()
        .zip(values)
        .map(|(&colour, (first, second))| ColourBonusEntry {
            colour,
            first,
            second,
            source: Rec,
        })
        .collect()
}

/// TC8: the 12 territory pieces (kinds and count rulebook, layouts reconstructed).
fn pieces() -> Vec<PieceEntry> {
    let layouts: [(&str, PieceKind, &str, &str); 12] = [
        ("A-1", PieceKind::A, "FFKRQ", "FVTMW"),
        ("A-2", PieceKind::A, "KFFVM", "RTFQW"),
        ("A-3", PieceKind::A, "FRKTF", "VFQMW"),
        ("A-4", PieceKind::A, "QFFMR", "WKVFT"),
        ("B-1", PieceKind::B, "MMQKR", "MQFVW"),
        ("B-2", PieceKind::B, "KMVQW", "RMMFQ"),
        ("B-3", PieceKind::B, "QRMFM", "KQVMW"),
        ("B-4", PieceKind::B, "WMMMQ", "FKRQV"),
        ("C-1", PieceKind::C, "VVVKW", "RWTFQ"),
        ("C-2", PieceKind::C, "KVWWR", "VVQTF"),
        ("C-3", PieceKind::C, "WVKVT", "RQVFW"),
        ("C-4", PieceKind::C, "RVVTW", "KFQVW"),
    ];
    layouts
        .iter()
        .map(|&(name, kind, left, right)| PieceEntry {
            name: name.into(),
            kind,
            left: left.into(),
            right: right.into(),
            source: Rec,
        })
        .collect()
}

/// The whole default set, not yet prepared.
pub fn set() -> Components {
    Components {
        player_tiles: player_tiles(),
        neutral_tiles: neutral_tiles(),
        cards: cards(),
        harvest: harvest(),
        bonus_tokens: bonus_tokens(),
        colour_bonus: colour_bonus(),
        pieces: pieces(),
        area_vp: AreaVp {
            vp: vec![1, 3, 6],
            source: Rb,
        }, // TC9
        tables: None,
    }
}
