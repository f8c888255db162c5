//! A player's settings, declared once: each one's name, the kind of value it takes and
//! what it does. The core's parsers (`MctsParams::with_overrides`,
//! `LearnedParams::with_overrides`) check a value by its declaration here, the binding
//! hands the tables to Python (`_core.PLAYER_SETTINGS`), whose registry validates a
//! spelling and words `--help` from them (cdsim/games/carpe_diem/players/registry.py).

/// The kind of value a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number >= 1 (a count, a budget).
    Count,
    /// A whole number >= 0.
    Whole,
    /// A finite number >= 0.
    Number,
    /// A number from 0 to 1.
    Share,
    /// 0 or 1.
    Switch,
    /// A file, loaded and named by number (`learned@weights=PATH`).
    Path,
}

impl Kind {
    /// The kind's word in Python's registry.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Count => "count",
            Kind::Whole => "whole",
            Kind::Number => "number",
            Kind::Share => "share",
            Kind::Switch => "switch",
            Kind::Path => "path",
        }
    }
}

/// One setting of a player.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    pub name: &'static str,
    pub kind: Kind,
    /// What it does, for `--help`.
    pub help: &'static str,
}

/// The names of a table of settings, as an error line lists them.
pub fn names(table: &[Setting]) -> String {
    table.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
}

/// `value` for `player`'s setting `name`, checked by its declaration in `table`; an
/// unknown name or a value its kind does not take is the error line naming
/// `player.name`.
pub fn checked(player: &str, table: &[Setting], name: &str, value: f64) -> Result<f64, String> {
    let Some(setting) = table.iter().find(|s| s.name == name) else {
        return Err(format!("{player} has no parameter {name:?} (known: {})", names(table)));
    };
    let whole = |low: f64| super::whole_setting(player, name, value, low).map(|v| v as f64);
    match setting.kind {
        Kind::Count => whole(1.0),
        Kind::Whole | Kind::Path => whole(0.0),
        Kind::Number if value.is_finite() && value >= 0.0 => Ok(value),
        Kind::Number => Err(format!("{player}.{name} must be a number >= 0, got {value}")),
        Kind::Share if (0.0..=1.0).contains(&value) => Ok(value),
        Kind::Share => Err(format!("{player}.{name} must be 0-1, got {value}")),
        Kind::Switch if value == 0.0 || value == 1.0 => Ok(value),
        Kind::Switch => Err(format!("{player}.{name} must be 0 or 1, got {value}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: [Setting; 2] = [
        Setting { name: "n", kind: Kind::Count, help: "" },
        Setting { name: "s", kind: Kind::Switch, help: "" },
    ];

    #[test]
    fn a_value_is_checked_by_its_kind() {
        assert_eq!(checked("p", &TABLE, "n", 3.0), Ok(3.0));
        assert!(checked("p", &TABLE, "n", 0.0).unwrap_err().contains("p.n must be a whole number >= 1"));
        assert!(checked("p", &TABLE, "s", 2.0).unwrap_err().contains("p.s must be 0 or 1"));
        assert!(checked("p", &TABLE, "x", 1.0).unwrap_err().contains("known: n, s"));
    }
}
