//! The component set as Python hands it over (`cdsim/games/carpe_diem/handover.py`), with the tables
//! the hot loop needs computed once; mirrors `cdsim/games/carpe_diem/rules/components.py`.
//!
//! Python validates the set (`load_components`); here only what the core needs to stay
//! safe is checked: counts that fit the state's fixed-size arrays, and indices and
//! codes in range. Every list keeps the order Python draws from it, so the same
//! shuffles pick the same things.

use serde::Deserialize;

use crate::carpe_diem::kinds::{rotate, Edges, CELLS, LANDSCAPES, MEADOW, N_EDGE_KINDS, N_KINDS, SIZE};

/// R1.1, R1.4: counts printed in the rulebook (the state's arrays are sized by them).
pub const LIGHT_TILES: usize = 84;
pub const DARK_TILES: usize = 39;
pub const FOUNTAIN_CARDS: usize = 24;
/// R2.2: the most cards drawn from each deck A, B, C, D.
pub const MOST_DRAWN: [usize; 4] = [3, 3, 2, 4];
/// Green-card requirement keys, as indices into `District::have` (HAVE_KEYS).
pub const HAVE_KEYS: [&str; 16] = [
    "chimneys",
    "villas",
    "landscapes",
    "landscapes_3plus",
    "pond",
    "garden",
    "vineyard",
    "chicken_yard",
    "merchant",
    "baker",
    "administrator",
    "artisan",
    "dwellings",
    "market",
    "bakery",
    "fountain",
];
/// A side requirement that any kind fits (the neighbour is empty).
pub const ANY: u8 = N_KINDS as u8;

/// The ranges `cdsim/games/carpe_diem/rules/components.py` checks (its MAX_* constants), checked again here so
/// that no set handed over can overflow the state's integers or make a game's
/// enumerations grow without bound.
pub const MAX_CHIMNEYS: u32 = 9;
pub const MAX_POINTS: i32 = 1000;
pub const MAX_REQUIRE: i32 = 99;
pub const MAX_REWARD: i32 = 9;
pub const MAX_SCROLL_SPACES: usize = 256;
pub const MAX_VILLA_TABLE: usize = 256;

fn within(value: i32, low: i32, high: i32, what: &str) -> Result<(), String> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(format!("{what} must be {low}-{high}, got {value}"))
    }
}

#[derive(Deserialize)]
struct RawTile {
    id: String,
    dark: bool,
    edges: Vec<u8>,
    chimneys: u32,
    building: u8,
    orientations: Vec<Vec<u8>>,
}

#[derive(Deserialize)]
struct RawObjective {
    id: String,
    deck: String,
    pay: bool,
    requires: Vec<(usize, i32)>,
    vp: i32,
    coins: i32,
    bread: i32,
    steps: i32,
}

#[derive(Deserialize)]
struct RawFountain {
    id: String,
    goal: u8,
    vp: i32,
}

#[derive(Deserialize)]
struct RawPart {
    id: i64,
    goals: Vec<(u8, i32, usize)>,
}

#[derive(Deserialize)]
struct RawBoard {
    id: i64,
    spade: usize,
    scrolls: Vec<usize>,
}

#[derive(Deserialize)]
struct RawComponents {
    digest: String,
    tile_types: Vec<RawTile>,
    light: Vec<usize>,
    dark: Vec<usize>,
    objectives: Vec<RawObjective>,
    decks: Vec<Vec<usize>>,
    fountains: Vec<RawFountain>,
    frame_parts: Vec<RawPart>,
    boards: Vec<RawBoard>,
    scroll_points: Vec<i32>,
    villa_points_table: Vec<i32>,
    villa_points_per_extra: i32,
}

/// A tile type with its distinct orientations (R5.2) and the placement tables.
#[derive(Clone, Debug)]
pub struct TileType {
    pub id: String,
    pub dark: bool,
    pub edges: Edges,
    pub chimneys: u8,
    /// 0, or MARKET / BAKERY / FOUNTAIN.
    pub building: u8,
    orientations: [Edges; 4],
    n_orientations: u8,
    /// `side_fit[d][r]`: bits of the orientations whose side d is kind r; r = ANY
    /// (an empty neighbour) has every bit. One AND of four gives what fits a cell.
    pub side_fit: [[u8; N_KINDS + 1]; 4],
    /// The tile has a landscape part (the R6.2 size check applies).
    pub land: bool,
    /// (kind, sides of that kind) of each non-meadow part, by kind (`parts_of`).
    parts: [(u8, u8); 4],
    n_parts: u8,
}

impl TileType {
    pub fn orientations(&self) -> &[Edges] {
        &self.orientations[..self.n_orientations as usize]
    }

    /// (kind, sides of that kind) of each non-meadow part, ascending by kind; the same
    /// in every rotation.
    pub fn parts(&self) -> &[(u8, u8)] {
        &self.parts[..self.n_parts as usize]
    }
}

/// (kind, sides of that kind) of each non-meadow part of an edge tuple, by kind.
pub fn parts_of(edges: &Edges) -> ([(u8, u8); 4], usize) {
    let mut parts = [(0u8, 0u8); 4];
    let mut n = 0;
    for kind in 1..N_EDGE_KINDS as u8 {
        let count = edges.iter().filter(|&&e| e == kind).count() as u8;
        if count > 0 {
            parts[n] = (kind, count);
            n += 1;
        }
    }
    (parts, n)
}

#[derive(Clone, Debug)]
pub struct ObjectiveCard {
    pub id: String,
    pub deck: char,
    /// Red card: goods are paid; green card ("have"): features are counted.
    pub pay: bool,
    /// (good index or HAVE_KEYS index, amount per multiple).
    pub requires: Vec<(usize, i32)>,
    pub vp: i32,
    pub coins: i32,
    pub bread: i32,
    pub steps: i32,
}

#[derive(Clone, Debug)]
pub struct FountainCard {
    pub id: String,
    /// Feature kind code.
    pub goal: u8,
    pub vp: i32,
}

#[derive(Clone, Copy, Debug)]
pub struct FrameGoal {
    pub kind: u8,
    pub vp: i32,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct FramePart {
    pub id: i64,
    pub goals: Vec<FrameGoal>,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub id: i64,
    pub spade: u8,
    /// Scroll spaces, a bit per cell.
    pub scrolls: u64,
}

/// The component set: fountain cards and frame parts sorted by id, boards and
/// objective cards in file order, decks A-D as indices into `objectives`.
#[derive(Clone, Debug)]
pub struct Components {
    pub digest: String,
    pub tile_types: Vec<TileType>,
    /// Tile-type index of each physical light tile.
    pub light: Vec<u8>,
    pub dark: Vec<u8>,
    pub objectives: Vec<ObjectiveCard>,
    pub decks: [Vec<u8>; 4],
    pub fountains: Vec<FountainCard>,
    pub frame_parts: Vec<FramePart>,
    pub boards: Vec<Board>,
    pub scroll_points: Vec<i32>,
    pub villa_points_table: Vec<i32>,
    pub villa_points_per_extra: i32,
}

fn edges_of(raw: &[u8], what: &str) -> Result<Edges, String> {
    if raw.len() != 4 || raw.iter().any(|&k| k as usize >= N_EDGE_KINDS) {
        return Err(format!(
            "{what}: edges must be 4 edge kinds 0-9, got {raw:?}"
        ));
    }
    Ok([raw[0], raw[1], raw[2], raw[3]])
}

fn tile_type(raw: RawTile) -> Result<TileType, String> {
    let what = format!("tile {:?}", raw.id);
    let edges = edges_of(&raw.edges, &what)?;
    if raw.orientations.is_empty() || raw.orientations.len() > 4 {
        return Err(format!(
            "{what}: 1-4 orientations, got {}",
            raw.orientations.len()
        ));
    }
    let mut orientations = [[0u8; 4]; 4];
    for (i, o) in raw.orientations.iter().enumerate() {
        let o = edges_of(o, &what)?;
        if !(0..4).any(|r| rotate(edges, r) == o) {
            return Err(format!(
                "{what}: orientation {o:?} is not a rotation of {edges:?}"
            ));
        }
        orientations[i] = o;
    }
    if raw.chimneys > MAX_CHIMNEYS {
        return Err(format!("{what}: at most {MAX_CHIMNEYS} chimneys"));
    }
    if ![0, 10, 11, 12].contains(&raw.building) {
        return Err(format!("{what}: building must be 0, 10, 11 or 12"));
    }
    if raw.building != 0 && edges != [MEADOW; 4] {
        return Err(format!(
            "{what}: a single building sits on an all-meadow tile"
        ));
    }
    let n = raw.orientations.len();
    let mut side_fit = [[0u8; N_KINDS + 1]; 4];
    for (d, fits) in side_fit.iter_mut().enumerate() {
        for (i, o) in orientations[..n].iter().enumerate() {
            fits[o[d] as usize] |= 1 << i;
        }
        fits[ANY as usize] = (1 << n) - 1;
    }
    let (parts, n_parts) = parts_of(&edges);
    Ok(TileType {
        id: raw.id,
        dark: raw.dark,
        edges,
        chimneys: raw.chimneys as u8,
        building: raw.building,
        orientations,
        n_orientations: n as u8,
        side_fit,
        land: edges.iter().any(|k| LANDSCAPES.contains(k)),
        parts,
        n_parts: n_parts as u8,
    })
}

fn objective(raw: RawObjective) -> Result<ObjectiveCard, String> {
    let what = format!("objective card {:?}", raw.id);
    let keys = if raw.pay { 4 } else { HAVE_KEYS.len() };
    if raw.requires.is_empty() {
        return Err(format!("{what}: a card with no requirement"));
    }
    for &(key, n) in &raw.requires {
        if key >= keys || !(1..=MAX_REQUIRE).contains(&n) {
            return Err(format!("{what}: bad requirement ({key}, {n})"));
        }
    }
    within(raw.vp, 0, MAX_POINTS, &format!("{what}: reward vp"))?;
    for (name, n) in [
        ("coins", raw.coins),
        ("bread", raw.bread),
        ("steps", raw.steps),
    ] {
        within(n, 0, MAX_REWARD, &format!("{what}: reward {name}"))?;
    }
    // a multiple gives back no more coins + bread than it costs (cdsim/games/carpe_diem/rules/components.py)
    let cost: i32 = raw.requires.iter().map(|&(_, n)| n).sum();
    let most = if raw.pay { cost.min(3) } else { 3 };
    if raw.coins + raw.bread > most {
        return Err(format!(
            "{what}: its reward (coins + bread per multiple) is more than a multiple costs"
        ));
    }
    let deck = match raw.deck.as_str() {
        "A" => 'A',
        "B" => 'B',
        "C" => 'C',
        "D" => 'D',
        other => return Err(format!("{what}: deck must be A, B, C or D, got {other:?}")),
    };
    Ok(ObjectiveCard {
        id: raw.id,
        deck,
        pay: raw.pay,
        requires: raw.requires,
        vp: raw.vp,
        coins: raw.coins,
        bread: raw.bread,
        steps: raw.steps,
    })
}

fn tile_list(raw: &[usize], types: usize, want: usize, what: &str) -> Result<Vec<u8>, String> {
    if raw.len() != want {
        return Err(format!(
            "{} {what} tiles, the game has {want} (R1.1)",
            raw.len()
        ));
    }
    if raw.iter().any(|&t| t >= types) {
        return Err(format!("a {what} tile names an unknown tile type"));
    }
    Ok(raw.iter().map(|&t| t as u8).collect())
}

impl Components {
    /// The component set from `cdsim/games/carpe_diem/handover.py`'s JSON.
    pub fn from_json(text: &str) -> Result<Components, String> {
        let raw: RawComponents =
            serde_json::from_str(text).map_err(|e| format!("components JSON: {e}"))?;
        if raw.tile_types.is_empty() || raw.tile_types.len() > 255 {
            return Err("components: 1-255 tile types".into());
        }
        let n_types = raw.tile_types.len();
        let light = tile_list(&raw.light, n_types, LIGHT_TILES, "light")?;
        let dark = tile_list(&raw.dark, n_types, DARK_TILES, "dark")?;
        let tile_types = raw
            .tile_types
            .into_iter()
            .map(tile_type)
            .collect::<Result<Vec<_>, _>>()?;
        if raw.objectives.len() > 255 {
            return Err("components: at most 255 objective cards".into());
        }
        let n_objectives = raw.objectives.len();
        let objectives = raw
            .objectives
            .into_iter()
            .map(objective)
            .collect::<Result<Vec<_>, _>>()?;
        if raw.decks.len() != 4 {
            return Err("components: 4 objective decks A-D".into());
        }
        let mut decks: [Vec<u8>; 4] = Default::default();
        for (i, deck) in raw.decks.iter().enumerate() {
            if deck.len() < MOST_DRAWN[i] || deck.iter().any(|&c| c >= n_objectives) {
                return Err(format!(
                    "components: deck {} is too small or names an unknown card",
                    "ABCD".as_bytes()[i] as char
                ));
            }
            decks[i] = deck.iter().map(|&c| c as u8).collect();
        }
        if raw.fountains.len() > FOUNTAIN_CARDS {
            return Err(format!(
                "components: at most {FOUNTAIN_CARDS} fountain cards"
            ));
        }
        let mut fountains = Vec::new();
        for f in raw.fountains {
            if f.goal == MEADOW || f.goal as usize >= N_KINDS {
                return Err(format!(
                    "fountain card {:?}: goal must be a feature kind",
                    f.id
                ));
            }
            within(
                f.vp,
                -MAX_POINTS,
                MAX_POINTS,
                &format!("fountain card {:?}: vp", f.id),
            )?;
            fountains.push(FountainCard {
                id: f.id,
                goal: f.goal,
                vp: f.vp,
            });
        }
        if raw.frame_parts.len() < 16 || raw.frame_parts.len() > 255 {
            return Err("components: 16-255 frame parts (4 players need 16, R2.1)".into());
        }
        let mut frame_parts = Vec::new();
        for p in raw.frame_parts {
            if p.goals.len() > 2 {
                return Err(format!("frame part {}: at most 2 goals", p.id));
            }
            let mut goals = Vec::new();
            for (kind, vp, line) in p.goals {
                if kind == MEADOW
                    || kind as usize >= N_KINDS
                    || line >= SIZE
                    || !(-MAX_POINTS..=MAX_POINTS).contains(&vp)
                {
                    return Err(format!(
                        "frame part {}: bad goal ({kind}, {vp}, {line})",
                        p.id
                    ));
                }
                goals.push(FrameGoal { kind, vp, line });
            }
            frame_parts.push(FramePart { id: p.id, goals });
        }
        if raw.boards.len() < 4 {
            return Err("components: 4 players need 4 district boards (R2.1)".into());
        }
        let mut boards = Vec::new();
        for b in raw.boards {
            if b.spade >= CELLS || b.scrolls.iter().any(|&s| s >= CELLS) {
                return Err(format!("board {}: cells are 0-35", b.id));
            }
            let scrolls = b.scrolls.iter().fold(0u64, |m, &s| m | 1 << s);
            boards.push(Board {
                id: b.id,
                spade: b.spade as u8,
                scrolls,
            });
        }
        if raw.scroll_points.is_empty() || raw.scroll_points.len() > MAX_SCROLL_SPACES {
            return Err("components: the scroll track needs 1-256 spaces".into());
        }
        if raw.villa_points_table.is_empty() || raw.villa_points_table.len() > MAX_VILLA_TABLE {
            return Err("components: the villa table needs 1-256 entries".into());
        }
        for &p in raw
            .scroll_points
            .iter()
            .chain(&raw.villa_points_table)
            .chain([&raw.villa_points_per_extra])
        {
            within(
                p,
                -MAX_POINTS,
                MAX_POINTS,
                "components: scroll and villa points",
            )?;
        }
        Ok(Components {
            digest: raw.digest,
            tile_types,
            light,
            dark,
            objectives,
            decks,
            fountains,
            frame_parts,
            boards,
            scroll_points: raw.scroll_points,
            villa_points_table: raw.villa_points_table,
            villa_points_per_extra: raw.villa_points_per_extra,
        })
    }

    /// VP of one complete villa (R10.1, docs/rules.md C6).
    pub fn villa_points(&self, chimneys: i32) -> i32 {
        let table = &self.villa_points_table;
        let len = table.len() as i32;
        if chimneys < len {
            return table[chimneys as usize];
        }
        table[table.len() - 1] + (chimneys - len + 1) * self.villa_points_per_extra
    }

    pub fn last_scroll_space(&self) -> usize {
        self.scroll_points.len() - 1
    }

    /// Index of a tile type by its id (tests, examples).
    pub fn tile_type(&self, id: &str) -> Option<usize> {
        self.tile_types.iter().position(|t| t.id == id)
    }

    /// Index of an objective card by its id.
    pub fn objective(&self, id: &str) -> Option<usize> {
        self.objectives.iter().position(|c| c.id == id)
    }

    /// Index of a fountain card by its id.
    pub fn fountain(&self, id: &str) -> Option<usize> {
        self.fountains.iter().position(|c| c.id == id)
    }

    /// Index of a frame part by its id.
    pub fn frame_part(&self, id: i64) -> Option<usize> {
        self.frame_parts.iter().position(|p| p.id == id)
    }
}

/// The default component set as Python hands it over (tests/data/components.json, made by
/// `make core-fixture`): the unit tests' one fixture.
#[cfg(test)]
pub(crate) fn fixture() -> Components {
    Components::from_json(include_str!("../../tests/data/components.json")).expect("the default set")
}

#[cfg(test)]
mod tests {
    use super::*;

    const JSON: &str = include_str!("../../tests/data/components.json");

    #[test]
    fn default_set_loads_with_rulebook_counts() {
        // R1.1, R1.4
        let c = Components::from_json(JSON).unwrap();
        assert_eq!((c.light.len(), c.dark.len()), (84, 39));
        assert_eq!(c.objectives.len(), 60);
        assert_eq!(c.fountains.len(), 24);
        assert!(c.dark.iter().all(|&t| c.tile_types[t as usize].dark));
        assert_eq!([3, 5].map(|n| c.villa_points(n)), [3, 7]); // R10.1
                                                               // docs/rules.md C6: 0 for c <= 1, else 2c - 3, past the end of the table too
        for chimneys in 0..40 {
            let want = if chimneys <= 1 { 0 } else { 2 * chimneys - 3 };
            assert_eq!(c.villa_points(chimneys), want, "{chimneys} chimneys");
        }
    }

    #[test]
    fn side_tables_select_the_orientations_that_fit() {
        let c = Components::from_json(JSON).unwrap();
        let t = &c.tile_types[c.tile_type("L-villa-corner-1").unwrap()];
        // villa north and east: only the first orientation
        let fit = t.side_fit[0][1] & t.side_fit[1][1] & t.side_fit[2][0] & t.side_fit[3][0];
        assert_eq!(fit, 0b0001);
        assert_eq!(t.parts(), &[(1, 2)]);
    }

    #[test]
    fn a_set_out_of_range_is_an_error_not_a_panic() {
        let raw: serde_json::Value = serde_json::from_str(JSON).unwrap();
        let cases: [(&str, serde_json::Value); 5] = [
            ("/objectives/0/coins", 1000.into()),
            ("/objectives/0/requires/0/1", 100.into()),
            ("/tile_types/0/chimneys", 300.into()),
            ("/fountains/0/vp", 2_000_000_000.into()),
            ("/villa_points_per_extra", (-5000).into()),
        ];
        for (pointer, value) in cases {
            let mut bad = raw.clone();
            *bad.pointer_mut(pointer).unwrap() = value;
            assert!(
                Components::from_json(&bad.to_string()).is_err(),
                "{pointer}"
            );
        }
        let mut long = raw.clone();
        long["scroll_points"] = vec![0; 100_000].into();
        assert!(Components::from_json(&long.to_string()).is_err());
        let mut huge = raw;
        huge["objectives"][0]["vp"] = serde_json::json!(2_147_483_648i64);
        let err = Components::from_json(&huge.to_string()).unwrap_err();
        assert!(err.contains("components JSON"), "{err}");
    }

    #[test]
    fn a_bad_set_is_one_clear_error() {
        let mut raw: serde_json::Value = serde_json::from_str(JSON).unwrap();
        raw["light"].as_array_mut().unwrap().push(0.into());
        let err = Components::from_json(&raw.to_string()).unwrap_err();
        assert!(err.contains("85 light tiles"), "{err}");
    }
}
