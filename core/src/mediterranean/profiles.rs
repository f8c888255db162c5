//! The scripted players' weights as `strategies/mediterranean-profiles.toml` states them,
//! compiled in: `[defaults]` (every weight of the one-ply model, players.rs) and one table
//! per scripted player, which lists what it changes and a one-line description. A table
//! that does not build is a test failure naming it (`every_table_builds`), never a player
//! that plays on other weights.

use std::sync::OnceLock;

/// What a scripted player values, in coins.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// A coin (gold is also the gold temple's score).
    pub gold: f32,
    /// A temple point.
    pub temple: f32,
    /// How much more a temple point is worth where the seat leads or is close (0 flat).
    pub majority: f32,
    /// A mile a contract adds to the round's route.
    pub miles: f32,
    /// A rowing card's power, when taken with a contract.
    pub power: f32,
    /// A point of power kept in hand rather than played.
    pub keep: f32,
    /// A contract lost, as a share of its reward.
    pub lose: f32,
    /// A mile of a contract's distance from Crete (positive: the long haul).
    pub far: f32,
    /// A mile left to the next contract after sailing.
    pub position: f32,
    /// What an extra turn's card is worth kept (the game has two).
    pub extra_card: f32,
}

/// The weights' names, as the file spells them.
pub const FIELDS: [&str; 10] = ["gold", "temple", "majority", "miles", "power", "keep", "lose",
                                "far", "position", "extra_card"];

/// strategies/mediterranean-profiles.toml, compiled in.
pub const PROFILES_TOML: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"),
                                                     "/../strategies/mediterranean-profiles.toml"));

const FILE: &str = "strategies/mediterranean-profiles.toml";

/// The parsed file (tables `defaults` and one per scripted player).
fn file() -> &'static toml::Table {
    static TABLE: OnceLock<toml::Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        PROFILES_TOML.parse().unwrap_or_else(|e| panic!("{FILE}: not TOML: {e}"))
    })
}

/// The scripted players the file states, in its order (every table but `defaults`).
pub fn names() -> Vec<&'static str> {
    file().keys().map(String::as_str).filter(|k| *k != "defaults").collect()
}

/// The weights of the scripted player `name`, `None` if the file has no such table; a
/// table that does not build is an error naming the file and the table.
pub fn profile(name: &str) -> Option<Result<Weights, String>> {
    if name == "defaults" {
        return None;
    }
    let table = file().get(name)?;
    Some(built(table).map_err(|e| format!("{FILE} [{name}]: {e}")))
}

fn built(table: &toml::Value) -> Result<Weights, String> {
    let table = table.as_table().ok_or("is not a table")?;
    match table.get("description") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => {}
        Some(_) => return Err("description: not a line of words".into()),
        None => return Err("lacks a description".into()),
    }
    let defaults = file().get("defaults").and_then(toml::Value::as_table)
        .ok_or_else(|| format!("{FILE}: lacks its [defaults] table"))?;
    let base = Weights::stated(defaults).map_err(|e| format!("{FILE} [defaults]: {e}"))?;
    base.with_table(table)
}

impl Weights {
    /// The weights `[defaults]` states: every one of `FIELDS`, nothing else.
    pub fn stated(table: &toml::Table) -> Result<Weights, String> {
        let missing: Vec<&str> = FIELDS.iter().copied().filter(|f| !table.contains_key(*f))
            .collect();
        if !missing.is_empty() {
            return Err(format!("lacks {}", missing.join(", ")));
        }
        if table.contains_key("description") {
            return Err("description: [defaults] holds weights only".into());
        }
        ZERO.with_table(table)
    }

    /// These weights with those a table sets (its `description` is not a weight).
    pub fn with_table(&self, table: &toml::Table) -> Result<Weights, String> {
        let mut out = self.clone();
        for (key, value) in table.iter().filter(|(k, _)| *k != "description") {
            let number = value.as_float().or_else(|| value.as_integer().map(|i| i as f64))
                .ok_or_else(|| format!("{key}: a {}, not a number", value.type_str()))?;
            out.set(key, number)?;
        }
        Ok(out)
    }

    /// These weights with some replaced by name (the core's `make`, a player's settings).
    pub fn with_overrides(&self, overrides: &[(String, f64)]) -> Result<Weights, String> {
        let mut out = self.clone();
        for (key, value) in overrides {
            out.set(key, *value)?;
        }
        Ok(out)
    }

    fn set(&mut self, key: &str, value: f64) -> Result<(), String> {
        if !value.is_finite() {
            return Err(format!("{key} = {value} is not a finite number"));
        }
        let slot = match key {
            "gold" => &mut self.gold,
            "temple" => &mut self.temple,
            "majority" => &mut self.majority,
            "miles" => &mut self.miles,
            "power" => &mut self.power,
            "keep" => &mut self.keep,
            "lose" => &mut self.lose,
            "far" => &mut self.far,
            "position" => &mut self.position,
            "extra_card" => &mut self.extra_card,
            _ => return Err(format!("no weight {key:?} (known: {})", FIELDS.join(", "))),
        };
        *slot = value as f32;
        Ok(())
    }
}

const ZERO: Weights = Weights { gold: 0.0, temple: 0.0, majority: 0.0, miles: 0.0, power: 0.0,
                                keep: 0.0, lose: 0.0, far: 0.0, position: 0.0, extra_card: 0.0 };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_builds() {
        // a broken table fails here in one line naming the file and the table
        for name in names() {
            if let Some(Err(e)) = profile(name) {
                panic!("{e}");
            }
        }
        assert!(names().len() >= 4, "greedy and three styles: {:?}", names());
    }

    #[test]
    fn greedy_is_the_defaults() {
        let defaults = file()["defaults"].as_table().unwrap();
        let greedy = profile("greedy").unwrap().unwrap();
        assert_eq!(greedy, Weights::stated(defaults).unwrap());
        assert_eq!(file()["greedy"].as_table().unwrap().len(), 1, "greedy changes no weight");
        assert_eq!((greedy.gold, greedy.temple, greedy.extra_card), (0.8, 1.4, 1.5));
    }

    #[test]
    fn a_broken_table_is_one_line_naming_what() {
        let defaults: toml::Table = PROFILES_TOML.parse::<toml::Table>().unwrap()["defaults"]
            .as_table().unwrap().clone();
        let base = Weights::stated(&defaults).unwrap();
        for (text, says) in [("gold = \"lots\"", "gold: a string, not a number"),
                             ("golds = 1.0", "no weight \"golds\""),
                             ("gold = nan", "gold = NaN is not a finite number"),
                             ("temple = inf", "temple = inf is not a finite number")] {
            let table: toml::Table = text.parse().unwrap();
            let err = base.with_table(&table).unwrap_err();
            assert!(err.contains(says) && !err.contains('\n'), "{text}: {err}");
        }
        let mut short = defaults.clone();
        short.remove("keep");
        assert_eq!(Weights::stated(&short).unwrap_err(), "lacks keep");
        let bare: toml::Value = "gold = 1.0".parse::<toml::Table>().unwrap().into();
        assert_eq!(built(&bare).unwrap_err(), "lacks a description");
        assert!(profile("defaults").is_none() && profile("no-such").is_none());
    }

    #[test]
    fn overrides_replace_named_weights_only() {
        let w = profile("greedy").unwrap().unwrap();
        let o = w.with_overrides(&[("gold".into(), 1.25)]).unwrap();
        assert_eq!(Weights { gold: 1.25, ..w.clone() }, o);
        assert!(w.with_overrides(&[("gold".into(), f64::NAN)]).is_err());
        assert!(w.with_overrides(&[("colour".into(), 1.0)]).unwrap_err().contains("no weight"));
    }
}
