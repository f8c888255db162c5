//! MC1–MC9 (docs/rules-mediterranean.md): the component set as data. The rulebook gives
//! the counts and ranges (19 distance tiles, 15 coastal of 3-8 miles and 4 open-sea of
//! 11-13, 30 city cards, 30 goods cards, 50 rowing cards, 15 bonus tiles, 36 points
//! tiles, 55 coins, 5 temple tokens a player) but prints neither the map nor the cards'
//! faces: those are reconstructed. Every entry of the file (`components.json`) says which
//! (`source`), `validate` names every bad entry in one line, and `prepare` turns a valid
//! set into the tables the engine reads (`Tables`, in `map.rs`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::map::Tables;

/// Where an entry comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Rulebook,
    Reconstructed,
}

/// MC2: a region (a colour), with its temple.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub name: String,
    pub colour: String,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC2: a city (or the ships' start, with no region).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    pub name: String,
    pub region: Option<String>,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC3: the two kinds of sea space between two cities.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sea {
    Coastal,
    OpenSea,
}

/// MC3: a route, one sea space holding one distance tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Route {
    pub a: String,
    pub b: String,
    pub kind: Sea,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC4: `count` distance tiles of `miles`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistanceTile {
    pub miles: u8,
    pub count: u8,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistanceTiles {
    pub coastal: Vec<DistanceTile>,
    pub open_sea: Vec<DistanceTile>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Good {
    pub name: String,
    pub source: Source,
}

/// MC5: a city card: for each good, gold (left column) or temple points (right).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CityCard {
    pub city: String,
    pub gold: BTreeMap<String, u8>,
    pub temple: BTreeMap<String, u8>,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC6: `count` goods cards of one good.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoodsCard {
    pub good: String,
    pub count: u8,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC7: `count` rowing cards: the wind modifier (top) and the crew's rowing power
/// (bottom).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RowingCard {
    pub power: u8,
    pub wind: i8,
    #[serde(default = "one")]
    pub count: u8,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn one() -> u8 {
    1
}

/// MC8: a temple's points tiles for one round (A, B, C), best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsTiles {
    pub temple: String,
    pub round: String,
    pub points: Vec<u8>,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// MC9: `count` bonus tiles worth `points`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BonusTile {
    pub points: u8,
    pub count: u8,
    pub source: Source,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One number the rules read, with its provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Number {
    pub value: i32,
    pub source: Source,
}

/// A range the rules read (the distance tiles' miles).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Span {
    pub value: [u8; 2],
    pub source: Source,
}

/// MC1: the numbers of the rulebook's setup and rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    pub coins: Number,
    pub start_gold: Number,
    pub start_wind: Number,
    pub wind_limit: Number,
    pub rounds: Number,
    pub contract_turns: Number,
    pub extra_turns: Number,
    pub temple_point_price: Number,
    pub coastal_miles: Span,
    pub open_sea_miles: Span,
}

/// The whole set, as the file holds it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Components {
    pub game: String,
    pub start: String,
    pub regions: Vec<Region>,
    pub cities: Vec<City>,
    pub routes: Vec<Route>,
    pub distance_tiles: DistanceTiles,
    pub goods: Vec<Good>,
    pub city_cards: Vec<CityCard>,
    pub goods_cards: Vec<GoodsCard>,
    pub rowing_cards: Vec<RowingCard>,
    pub individual_rowing_cards: Vec<RowingCard>,
    pub points_tiles: Vec<PointsTiles>,
    pub bonus_tiles: Vec<BonusTile>,
    pub rules: Rules,
    #[serde(skip)]
    tables: Option<Box<Tables>>,
}

/// The built-in set (`components.json` beside this file).
pub const BUILTIN_JSON: &str = include_str!("components.json");

/// The most seats (one contract register, ship and 5 temple tokens each: MC1).
pub const MAX_PLAYERS: usize = 5;

impl Components {
    /// The built-in set, prepared.
    pub fn builtin() -> Components {
        Components::from_json(BUILTIN_JSON).expect("the built-in set is valid")
    }

    /// A set from its JSON, validated and prepared; every bad entry one line.
    pub fn from_json(text: &str) -> Result<Components, Vec<String>> {
        let set: Components = crate::games::json::from_json("mediterranean components JSON", text)
            .map_err(|e| vec![e])?;
        set.prepare()
    }

    /// The built-in set with `text`'s top-level tables put in place of its own (an
    /// override file holds only what it changes), validated and prepared.
    pub fn overridden(text: &str) -> Result<Components, Vec<String>> {
        let over: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| vec![format!("mediterranean override JSON: {e}")])?;
        let serde_json::Value::Object(over) = over else {
            return Err(vec!["mediterranean override: the file must be a JSON object".into()]);
        };
        let mut base: serde_json::Value =
            serde_json::from_str(BUILTIN_JSON).expect("the built-in set parses");
        let map = base.as_object_mut().expect("the built-in set is an object");
        for (key, value) in over {
            if !map.contains_key(&key) {
                return Err(vec![format!("mediterranean override: unknown table {key:?}")]);
            }
            map.insert(key, value);
        }
        Components::from_json(&base.to_string())
    }

    /// Validate, then build the engine's tables.
    pub fn prepare(mut self) -> Result<Components, Vec<String>> {
        super::validate::validate(&self)?;
        self.tables = Some(Box::new(Tables::new(&self)));
        Ok(self)
    }

    /// The engine's tables (a set made by `builtin`/`from_json`/`prepare` has them).
    pub fn tables(&self) -> &Tables {
        self.tables.as_deref().expect("mediterranean components not prepared")
    }

    /// The set without its tables, as JSON (what `builtin_components` hands over).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("the set serialises")
    }
}
