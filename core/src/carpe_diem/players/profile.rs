//! A scripted player's profile: one table of `strategies/profiles.toml` — its name, its
//! weights of the shared value model (`[defaults]` with what the table changes), its
//! one-line description and the feature kinds whose fountain cards it favours (R6.5).
//!
//! A new scripted player is a new table: the core knows the tables of the file it was
//! compiled with (`builtin`), and cdsim hands it the tables of the file it reads when it
//! starts (`register`, so an edited or added table plays without a rebuild). Nothing
//! here names a profile: the search players take `greedy()`, the table the learned
//! player's weights were fitted with, always as compiled in.

use std::sync::{Arc, OnceLock, RwLock};

use crate::carpe_diem::kinds::{FEATURE_NAMES, MEADOW};
use crate::carpe_diem::players::params::{self, Params};
use crate::carpe_diem::players::SEARCH;

/// One scripted profile (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    name: &'static str,
    description: Arc<str>,
    params: Params,
    /// Bit k set: the profile favours fountain cards of feature kind k.
    favoured: u32,
}

impl Profile {
    /// The profile of table `name` of a profiles file, over that file's `[defaults]`
    /// (every weight of the value model, nothing else).
    pub fn from_table(name: &str, defaults: &toml::Table, table: &toml::Table)
        -> Result<Profile, String> {
        let base = Params::stated(defaults).map_err(|e| format!("[defaults]: {e}"))?;
        let params = base.with_table(table).map_err(|e| format!("[{name}]: {e}"))?;
        let description = match table.get("description") {
            None => "",
            Some(v) => v.as_str()
                .ok_or_else(|| format!("[{name}]: description = {} is not a string", shown(v)))?,
        };
        let mut favoured = 0;
        if let Some(v) = table.get("favoured") {
            let list = v.as_array()
                .ok_or_else(|| format!("[{name}]: favoured = {} is not a list of features", shown(v)))?;
            for item in list {
                let kind = item.as_str().and_then(feature_code).ok_or_else(|| format!(
                    "[{name}]: favoured holds {}, not a feature (one of {})", shown(item),
                    FEATURE_NAMES[1..].join(", ")))?;
                favoured |= 1 << kind;
            }
        }
        Ok(Profile { name: intern(name), description: description.into(), params, favoured })
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The one-line description of its table.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Its weights: `[defaults]` with what its table changes.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Whether it favours fountain cards of feature kind `kind` (R6.5).
    pub fn favours(&self, kind: u8) -> bool {
        self.favoured >> kind & 1 == 1
    }

    /// The profile called `name`: the one cdsim registered under it, else the compiled-in
    /// one.
    pub fn named(name: &str) -> Option<Profile> {
        let registered = registered().read().unwrap_or_else(|e| e.into_inner());
        registered.iter().chain(builtin()).find(|p| p.name == name).cloned()
    }

    /// The compiled-in greedy profile (the search players' shortlists and rules).
    pub fn greedy() -> Profile {
        builtin().iter().find(|p| p.name == "greedy")
            .expect("strategies/profiles.toml has a [greedy] table").clone()
    }
}

/// The profiles of the file the core was compiled with, in the file's order.
pub fn builtin() -> &'static [Profile] {
    static BUILTIN: OnceLock<Vec<Profile>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        parse(params::PROFILES_TOML)
            .unwrap_or_else(|e| panic!("strategies/profiles.toml (compiled in): {e}"))
    })
}

/// The names of every scripted profile `named` finds: the registered ones, then the
/// compiled-in ones not registered again, each once.
pub fn names() -> Vec<&'static str> {
    let registered = registered().read().unwrap_or_else(|e| e.into_inner());
    let mut out: Vec<&'static str> = Vec::new();
    for p in registered.iter().chain(builtin()) {
        if !out.contains(&p.name) {
            out.push(p.name);
        }
    }
    out
}

/// The profiles a profiles file states (`[defaults]` and one table per profile), in its
/// order; its first fault is an error naming the table.
pub fn parse(text: &str) -> Result<Vec<Profile>, String> {
    let file: toml::Table = text.parse().map_err(|e: toml::de::Error| e.message().to_string())?;
    let defaults = file.get("defaults").and_then(|v| v.as_table())
        .ok_or("no [defaults] table")?;
    Params::stated(defaults).map_err(|e| format!("[defaults]: {e}"))?;
    let mut out = Vec::new();
    for (name, value) in &file {
        if name == "defaults" {
            continue;
        }
        let table = value.as_table().ok_or_else(|| format!("{name} is not a [table]"))?;
        if name == "random" || SEARCH.contains(&name.as_str()) {
            return Err(format!("[{name}]: the name of another built-in player"));
        }
        if name.is_empty() || name.contains(['@', ',', ':', '=', '.', ' ']) {
            return Err(format!("[{name}]: not a name a player may take"));
        }
        out.push(Profile::from_table(name, defaults, table)?);
    }
    Ok(out)
}

/// Hand the core the profiles of a profiles file: `named` finds them (before the
/// compiled-in ones) from now on in this process. Returns their names, in order.
pub fn register(text: &str) -> Result<Vec<&'static str>, String> {
    let profiles = parse(text)?;
    let names = profiles.iter().map(|p| p.name).collect();
    *registered().write().unwrap_or_else(|e| e.into_inner()) = profiles;
    Ok(names)
}

fn registered() -> &'static RwLock<Vec<Profile>> {
    static REGISTERED: RwLock<Vec<Profile>> = RwLock::new(Vec::new());
    &REGISTERED
}

/// A profile's name for the life of the process (`Strategy::name` is `'static`); each
/// distinct name is kept once.
fn intern(name: &str) -> &'static str {
    static NAMES: RwLock<Vec<&'static str>> = RwLock::new(Vec::new());
    if let Some(&known) = NAMES.read().unwrap_or_else(|e| e.into_inner()).iter().find(|n| **n == name) {
        return known;
    }
    let mut names = NAMES.write().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = names.iter().find(|n| **n == name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(leaked);
    leaked
}

/// A TOML value as a file would spell it (scalars; a list or table by its kind).
fn shown(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{s:?}"),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(_) => "a list".to_string(),
        toml::Value::Table(_) => "a table".to_string(),
        toml::Value::Datetime(d) => format!("{d:?}"),
    }
}

/// A feature kind by its name in data files (docs/rules.md C1).
fn feature_code(name: &str) -> Option<u8> {
    // a meadow completes nothing a card counts
    FEATURE_NAMES.iter().position(|n| *n == name).map(|k| k as u8).filter(|&k| k != MEADOW)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "[defaults]\ngood = 1.0\ncoin = 1.2\nbread = 1.0\nstep = 1.0\n\
        chimney = 0.6\nvilla_complete = 1.0\nopen_edge = 0.35\nlandscape_complete = 1.0\n\
        dwelling_complete = 1.0\nfountain = 1.0\nartisan = 2.5\nframe_goal = 1.0\n\
        fountain_card = 1.0\ncard_match = 0.5\nstore = 0.5\nprogress_credit = 0.4\n\
        bread_move_cost = 2.5\nbread_for_cards = 0.0\nplan = 0.5\n";

    #[test]
    fn the_compiled_in_file_gives_the_four_profiles_in_its_order() {
        let names: Vec<&str> = builtin().iter().map(Profile::name).collect();
        assert_eq!(names, ["greedy", "villa", "landscape", "bread"]);
        let villa = &builtin()[1];
        assert_eq!((villa.params().chimney, villa.params().villa_complete), (1.2, 1.5));
        assert!(villa.favours(crate::carpe_diem::kinds::VILLA) && !villa.favours(crate::carpe_diem::kinds::POND));
        assert_eq!(Profile::greedy().params(), Params::default());
    }

    #[test]
    fn a_table_is_a_profile_and_its_faults_name_it() {
        let text = format!("{FILE}[cautious]\ndescription = \"stores often\"\nstore = 2.0\n\
                            favoured = [\"market\", \"bakery\"]\n");
        let p = parse(&text).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].name(), p[0].description(), p[0].params().store), ("cautious", "stores often", 2.0));
        assert!(p[0].favours(crate::carpe_diem::kinds::MARKET) && p[0].favours(crate::carpe_diem::kinds::BAKERY));
        assert!(!p[0].favours(crate::carpe_diem::kinds::VILLA));
        let bad = |extra: &str| parse(&format!("{FILE}{extra}")).unwrap_err();
        assert!(bad("[x]\nstores = 1\n").contains("[x]: no parameter \"stores\""));
        assert!(bad("[x]\nfavoured = [\"moat\"]\n").contains("[x]: favoured holds \"moat\""));
        assert!(bad("[x]\nstore = \"a\"\n").contains("[x]: store"));
        assert!(bad("[random]\n").contains("[random]: the name of another built-in player"));
        assert!(bad("[mcts]\n").contains("[mcts]: the name of another built-in player"));
        assert!(bad("[\"a.b\"]\n").contains("[a.b]: not a name"));
        assert!(parse("[x]\n").unwrap_err().contains("no [defaults]"));
        assert!(parse("[defaults]\ngood = 1.0\n").unwrap_err().contains("[defaults]: lacks"));
    }
}
