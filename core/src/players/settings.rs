//! A player's settings, declared once: each one's name, the kind of value it takes, what it
//! does and (a `Field`) where its value goes. One parser (`overridden`) reads every player's
//! `name@key=value` settings by its table of fields (Carpe Diem's `MctsParams`, the generic
//! `UctParams`); the others (`LearnedParams`, `FittedParams`) check a value by its
//! declaration here (`checked`). The binding
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

/// One setting of a player's settings `P`: its declaration and where its value goes (the
/// value as checked, a whole number of a `Count` or `Whole` setting already whole).
#[derive(Clone, Copy)]
pub struct Field<P> {
    pub setting: Setting,
    pub set: fn(&mut P, f64),
}

const NO_SETTING: Setting = Setting { name: "", kind: Kind::Switch, help: "" };

/// The declarations of a table of fields, for the binding and `--help`.
pub const fn declared<P, const N: usize>(fields: &[Field<P>; N]) -> [Setting; N] {
    let mut out = [NO_SETTING; N];
    let mut i = 0;
    while i < N {
        out[i] = fields[i].setting;
        i += 1;
    }
    out
}

/// `base` with the settings `overrides` names replaced: each value checked by its field's
/// declaration and set where the field says; an unknown name or a value its kind does not
/// take is the error line naming `player.name`. The one parser of every player's settings
/// that declares a table of fields.
pub fn overridden<P: Copy, S: AsRef<str>>(player: &str, fields: &[Field<P>], base: P,
                                         overrides: &[(S, f64)]) -> Result<P, String> {
    let table: Vec<Setting> = fields.iter().map(|f| f.setting).collect();
    let mut out = base;
    for (name, value) in overrides {
        let name = name.as_ref();
        let value = checked(player, &table, name, *value)?;
        let field = fields.iter().find(|f| f.setting.name == name)
            .expect("checked found the name in the table");
        (field.set)(&mut out, value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct Two { n: u32, s: f64 }

    const FIELDS: [Field<Two>; 2] = [
        Field { setting: TABLE[0], set: |p, v| p.n = v as u32 },
        Field { setting: TABLE[1], set: |p, v| p.s = v },
    ];

    #[test]
    fn overrides_are_checked_and_set_by_their_field() {
        let base = Two { n: 1, s: 0.0 };
        assert_eq!(overridden("p", &FIELDS, base, &[("n", 4.0), ("s", 1.0)]), Ok(Two { n: 4, s: 1.0 }));
        assert_eq!(overridden::<_, &str>("p", &FIELDS, base, &[]), Ok(base));
        assert!(overridden("p", &FIELDS, base, &[("n", 1.5)]).unwrap_err()
            .contains("p.n must be a whole number >= 1"));
        assert!(overridden("p", &FIELDS, base, &[("x", 1.0)]).unwrap_err().contains("known: n, s"));
        assert_eq!(declared(&FIELDS).map(|s| s.name), ["n", "s"]);
    }

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
