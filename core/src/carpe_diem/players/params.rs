//! A scripted player's profile: the weights of the shared value model (value.rs), as
//! `strategies/profiles.toml` states them.

use std::sync::OnceLock;

/// A strategy's profile: the weights of the shared value model (VP per unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    pub good: f64,
    pub coin: f64,
    pub bread: f64,
    pub step: f64,
    pub chimney: f64,
    /// x the villa's end-scoring VP.
    pub villa_complete: f64,
    pub open_edge: f64,
    /// Bonus beyond the goods.
    pub landscape_complete: f64,
    pub dwelling_complete: f64,
    /// x the expected end VP of the fountain card a fountain keeps (R6.5).
    pub fountain: f64,
    pub artisan: f64,
    /// x the goal's VP.
    pub frame_goal: f64,
    /// x the fountain cards' VP.
    pub fountain_card: f64,
    /// x the VP-equivalent of a grid card counting the feature.
    pub card_match: f64,
    pub store: f64,
    /// Share of a completion's value credited to a step towards it.
    pub progress_credit: f64,
    /// A bread move must gain at least this much.
    pub bread_move_cost: f64,
    /// Extra value per multiple bought with bread.
    pub bread_for_cards: f64,
    /// x the card plan's values (value::card_plan); 0 = no plan.
    pub plan: f64,
}

/// strategies/profiles.toml, compiled in: the one statement of the value model's
/// default weights and of the four profiles (cdsim reads the same file).
pub const PROFILES_TOML: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../strategies/profiles.toml"));

/// The parsed profiles file (tables `defaults` and one per profile).
pub fn profiles() -> &'static toml::Table {
    static TABLE: OnceLock<toml::Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        PROFILES_TOML
            .parse()
            .expect("strategies/profiles.toml is valid TOML (tests/profiles)")
    })
}

/// The profile table `name` of strategies/profiles.toml, if there is one.
pub fn profile_table(name: &str) -> Option<&'static toml::Table> {
    profiles().get(name).and_then(|v| v.as_table())
}

const ZERO: Params = Params {
    good: 0.0, coin: 0.0, bread: 0.0, step: 0.0, chimney: 0.0, villa_complete: 0.0,
    open_edge: 0.0, landscape_complete: 0.0, dwelling_complete: 0.0, fountain: 0.0,
    artisan: 0.0, frame_goal: 0.0, fountain_card: 0.0, card_match: 0.0, store: 0.0,
    progress_credit: 0.0, bread_move_cost: 0.0, bread_for_cards: 0.0, plan: 0.0,
};

impl Default for Params {
    /// The value model's weights of `[defaults]` in strategies/profiles.toml.
    fn default() -> Params {
        static DEFAULTS: OnceLock<Params> = OnceLock::new();
        *DEFAULTS.get_or_init(|| {
            let table = profile_table("defaults").expect("profiles.toml has [defaults]");
            Params::stated(table).unwrap_or_else(|e| panic!("profiles.toml [defaults]: {e}"))
        })
    }
}

pub const FIELDS: [&str; 19] = [
    "good",
    "coin",
    "bread",
    "step",
    "chimney",
    "villa_complete",
    "open_edge",
    "landscape_complete",
    "dwelling_complete",
    "fountain",
    "artisan",
    "frame_goal",
    "fountain_card",
    "card_match",
    "store",
    "progress_credit",
    "bread_move_cost",
    "bread_for_cards",
    "plan",
];

impl Params {
    fn field(&mut self, name: &str) -> Option<&mut f64> {
        Some(match name {
            "good" => &mut self.good,
            "coin" => &mut self.coin,
            "bread" => &mut self.bread,
            "step" => &mut self.step,
            "chimney" => &mut self.chimney,
            "villa_complete" => &mut self.villa_complete,
            "open_edge" => &mut self.open_edge,
            "landscape_complete" => &mut self.landscape_complete,
            "dwelling_complete" => &mut self.dwelling_complete,
            "fountain" => &mut self.fountain,
            "artisan" => &mut self.artisan,
            "frame_goal" => &mut self.frame_goal,
            "fountain_card" => &mut self.fountain_card,
            "card_match" => &mut self.card_match,
            "store" => &mut self.store,
            "progress_credit" => &mut self.progress_credit,
            "bread_move_cost" => &mut self.bread_move_cost,
            "bread_for_cards" => &mut self.bread_for_cards,
            "plan" => &mut self.plan,
            _ => return None,
        })
    }

    /// The value of a field by name.
    pub fn get(&self, name: &str) -> Option<f64> {
        let mut copy = *self;
        copy.field(name).map(|v| *v)
    }

    /// The weights a `[defaults]` table states: every one of `FIELDS`, nothing else.
    pub fn stated(table: &toml::Table) -> Result<Params, String> {
        let missing: Vec<&str> = FIELDS.iter().copied()
            .filter(|f| !table.contains_key(*f)).collect();
        if !missing.is_empty() {
            return Err(format!("lacks {}", missing.join(", ")));
        }
        if let Some(key) = table.keys().find(|k| *k == "description" || *k == "favoured") {
            return Err(format!("{key}: [defaults] holds weights only"));
        }
        ZERO.with_table(table)
    }

    /// These weights with those a profile table of strategies/profiles.toml sets (its
    /// `description` and `favoured` are not weights).
    pub fn with_table(&self, table: &toml::Table) -> Result<Params, String> {
        let mut pairs = Vec::new();
        for (key, value) in table {
            if key == "description" || key == "favoured" {
                continue;
            }
            let number = value.as_float().or_else(|| value.as_integer().map(|i| i as f64))
                .ok_or_else(|| format!("{key} = {value:?} is not a number"))?;
            pairs.push((key.as_str(), number));
        }
        self.with_overrides(&pairs)
    }

    /// These weights with some replaced by name; an unknown name, or a value that is not
    /// a finite number (nan, inf: a profiles file's or a flag's), is an error.
    pub fn with_overrides<S: AsRef<str>>(&self, overrides: &[(S, f64)]) -> Result<Params, String> {
        let mut out = *self;
        for (name, value) in overrides {
            let name = name.as_ref();
            match out.field(name) {
                Some(_) if !value.is_finite() => {
                    return Err(format!("{name} = {value} is not a finite number"))
                }
                Some(slot) => *slot = *value,
                None => {
                    return Err(format!(
                        "no parameter {name:?} (known: {})",
                        FIELDS.join(", ")
                    ))
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_named_weights_only() {
        let p = Params::default()
            .with_overrides(&[("chimney", 1.5), ("store", 0.0)])
            .unwrap();
        assert_eq!((p.chimney, p.store, p.coin), (1.5, 0.0, 1.2));
        let err = Params::default()
            .with_overrides(&[("chimneys", 1.0)])
            .unwrap_err();
        assert!(err.contains("no parameter \"chimneys\""), "{err}");
        assert!(FIELDS.iter().all(|f| Params::default().get(f).is_some()));
    }

    #[test]
    fn a_weight_that_is_not_a_finite_number_is_refused() {
        for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = Params::default().with_overrides(&[("coin", value)]).unwrap_err();
            assert!(err.contains("coin = ") && err.contains("not a finite number"), "{err}");
        }
        let table: toml::Table = "coin = -inf".parse().unwrap();
        assert!(Params::default().with_table(&table).is_err());
    }

    #[test]
    fn the_defaults_come_from_the_profiles_file() {
        let table = profile_table("defaults").unwrap();
        for f in FIELDS {
            let stated = table[f].as_float().unwrap();
            assert_eq!(Params::default().get(f), Some(stated), "{f}");
        }
        assert!(profiles().keys().all(|k| k == "defaults" || profile_table(k).is_some()));
    }
}
