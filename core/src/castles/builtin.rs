//! The default component set, TC1–TC9 of docs/rules-castles.md, read from `builtin.json`
//! (beside this file, built into the crate): every entry says whether the rulebook prints
//! it (`"source": "rulebook"`) or cdsim reconstructed it where the rulebook prints only
//! pictures (`"reconstructed"`), and its `provenance` names the rule, or says why the
//! reconstruction is what it is. The provenance stays in the file: the set the core plays,
//! exports and digests (`Components`' JSON) is the same without it.

use serde::Deserialize;

use super::components::{
    AreaVp, BonusEntry, CardEntry, ColourBonusEntry, Components, HarvestEntry, PieceEntry,
    TileEntry,
};

/// The file, built into the crate.
pub const TEXT: &str = include_str!("builtin.json");

/// One entry of the file: the component set's entry and where it comes from.
#[derive(Deserialize)]
struct Sourced<T> {
    #[serde(flatten)]
    entry: T,
    #[allow(dead_code, reason = "required, so an entry without one fails to load; the tests read it")]
    provenance: String,
}

/// The file's tables, as `Components` holds them, each entry with its provenance.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    player_tiles: Vec<Sourced<TileEntry>>,
    neutral_tiles: Vec<Sourced<TileEntry>>,
    cards: Vec<Sourced<CardEntry>>,
    harvest: Vec<Sourced<HarvestEntry>>,
    bonus_tokens: Vec<Sourced<BonusEntry>>,
    colour_bonus: Vec<Sourced<ColourBonusEntry>>,
    pieces: Vec<Sourced<PieceEntry>>,
    area_vp: Sourced<AreaVp>,
}

fn file() -> File {
    serde_json::from_str(TEXT).expect("core/src/castles/builtin.json is a castles component set")
}

fn entries<T>(table: Vec<Sourced<T>>) -> Vec<T> {
    table.into_iter().map(|s| s.entry).collect()
}

/// The whole default set, not yet prepared.
fn set() -> Components {
    let f = file();
    Components {
        player_tiles: entries(f.player_tiles),
        neutral_tiles: entries(f.neutral_tiles),
        cards: entries(f.cards),
        harvest: entries(f.harvest),
        bonus_tokens: entries(f.bonus_tokens),
        colour_bonus: entries(f.colour_bonus),
        pieces: entries(f.pieces),
        area_vp: f.area_vp.entry,
        tables: None,
    }
}

impl Components {
    /// The printed and reconstructed set of docs/rules-castles.md (TC1–TC9), prepared.
    pub fn builtin() -> Components {
        set()
            .prepare()
            .expect("the builtin Castles set is valid")
    }
}

impl Default for Components {
    fn default() -> Self {
        Components::builtin()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::castles::components::Source;

/// Every entry's table, source and provenance, in the file's order.
fn provenance() -> Vec<(&'static str, Source, String)> {
    fn rows<T>(out: &mut Vec<(&'static str, Source, String)>, table: &'static str,
               entries: Vec<Sourced<T>>, source: fn(&T) -> Source) {
        out.extend(entries.into_iter().map(|s| (table, source(&s.entry), s.provenance)));
    }
    let f = file();
    let mut out = Vec::new();
    rows(&mut out, "player_tiles", f.player_tiles, |e| e.source);
    rows(&mut out, "neutral_tiles", f.neutral_tiles, |e| e.source);
    rows(&mut out, "cards", f.cards, |e| e.source);
    rows(&mut out, "harvest", f.harvest, |e| e.source);
    rows(&mut out, "bonus_tokens", f.bonus_tokens, |e| e.source);
    rows(&mut out, "colour_bonus", f.colour_bonus, |e| e.source);
    rows(&mut out, "pieces", f.pieces, |e| e.source);
    rows(&mut out, "area_vp", vec![f.area_vp], |e| e.source);
    out
}

    #[test]
    fn every_entry_names_its_rule_or_why_it_is_reconstructed() {
        let rows = provenance();
        assert_eq!(rows.len(), 11 + 11 + 8 + 6 + 5 + 8 + 12 + 1);
        for (table, source, text) in rows {
            let (word, rest) = text.split_once(' ').unwrap_or((&text, ""));
            match source {
                // a printed entry names its rule (T1.2, ...)
                Source::Rulebook => assert!(word == "rulebook" && rest.starts_with('T'),
                                            "{table}: {text:?}"),
                // a reconstructed one names its section and says why
                Source::Reconstructed => assert!(word == "reconstructed" && rest.starts_with("(TC")
                                                 && rest.len() > 20, "{table}: {text:?}"),
            }
        }
    }

    #[test]
    fn the_file_is_the_set_without_its_provenance() {
        let mut file: serde_json::Value = serde_json::from_str(TEXT).unwrap();
        for table in file.as_object_mut().unwrap().values_mut() {
            let entries = match table {
                serde_json::Value::Array(list) => list.iter_mut().collect::<Vec<_>>(),
                one => vec![one],
            };
            for entry in entries {
                assert!(entry.as_object_mut().unwrap().remove("provenance").is_some());
            }
        }
        assert_eq!(serde_json::to_value(set()).unwrap(), file);
    }
}
