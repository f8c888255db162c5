//! MC1-MC9 of docs/rules-mediterranean.md: the built-in set holds the rulebook's counts
//! and ranges, every entry says where it comes from, a bad set is refused with a line
//! naming the entry, and an override replaces whole tables.

use cdsim_core::games::Game;
use cdsim_core::mediterranean::components::{Sea, BUILTIN_JSON};
use cdsim_core::mediterranean::{Components, MedState, Source};
use serde_json::Value;

fn edited(edit: impl Fn(&mut Value)) -> Result<Components, Vec<String>> {
    let mut v: Value = serde_json::from_str(BUILTIN_JSON).unwrap();
    edit(&mut v);
    Components::from_json(&v.to_string())
}

fn refused(edit: impl Fn(&mut Value), words: &str) {
    let errors = edited(edit).unwrap_err();
    assert!(errors.iter().any(|e| e.contains(words)), "{words:?} not in {errors:?}");
}

#[test]
fn mc1_to_mc9_the_rulebooks_counts_and_ranges() {
    let c = Components::builtin();
    let t = c.tables();
    assert_eq!(t.coastal_tiles.len(), 15);
    assert_eq!(t.open_tiles.len(), 4);
    assert!(t.coastal_tiles.iter().all(|m| (3..=8).contains(m)));
    assert!(t.open_tiles.iter().all(|m| (11..=13).contains(m)));
    assert_eq!(t.routes.iter().filter(|r| r.2 == Sea::Coastal).count(), 15);
    assert_eq!(t.city_cards.len(), 30);
    assert_eq!(t.goods_cards.len(), 30);
    assert_eq!(t.good_names, ["grapes", "olives", "honey", "wheat", "salt"]);
    assert_eq!(t.deck_rowing, 50);
    assert_eq!(t.individual, 2);
    assert_eq!(t.bonus.len(), 15);
    let tiles: usize = t.points.iter().flatten().map(Vec::len).sum();
    assert_eq!(tiles, 36);
    assert_eq!(t.regions(), 5, "five temples take tokens: 25 tokens, 5 a player");
    assert_eq!((t.coins, t.start_gold, t.start_wind, t.wind_limit), (55, 5, 5, 5));
    assert_eq!((t.rounds, t.contract_turns, t.extra_turns, t.temple_price), (3, 5, 2, 3));
    // the examples' cards: olives to Saguntum 3 temple points, grapes to Alexandria 2
    let face = |city: &str| {
        let i = t.city_names.iter().position(|x| x == city).unwrap() as u8;
        *t.city_cards.iter().find(|f| f.city == i).unwrap()
    };
    assert_eq!(face("Saguntum").temple[1], 3);
    assert_eq!(face("Alexandria").temple[0], 2);
}

#[test]
fn every_entry_has_its_provenance() {
    let v: Value = serde_json::from_str(BUILTIN_JSON).unwrap();
    let mut entries = 0;
    for (table, items) in v.as_object().unwrap() {
        let list: Vec<&Value> = match items {
            Value::Array(a) => a.iter().collect(),
            Value::Object(o) if table != "rules" => o.values().flat_map(|x| x.as_array().unwrap())
                .collect(),
            Value::Object(o) => o.values().collect(),
            _ => continue,
        };
        for e in list {
            let source = e["source"].as_str().unwrap_or_else(|| panic!("{table}: {e}"));
            assert!(["rulebook", "reconstructed"].contains(&source), "{table}: {e}");
            entries += 1;
        }
    }
    assert!(entries > 100);
    let c = Components::builtin();
    assert!(c.city_cards.iter().all(|k| k.source == Source::Reconstructed));
    assert!(c.rules.coins.source == Source::Rulebook);
}

#[test]
fn a_bad_set_is_refused_naming_the_entry() {
    refused(|v| v["routes"][3]["b"] = "Atlantis".into(), "routes[3] Roma - Atlantis");
    refused(|v| v["distance_tiles"]["coastal"][0]["miles"] = 9.into(),
            "distance_tiles.coastal[0]: 9 miles, must be 3 to 8");
    refused(|v| v["distance_tiles"]["open_sea"][0]["count"] = 2.into(),
            "distance_tiles.open_sea: 5 tiles for 4 open_sea routes");
    refused(|v| { v["city_cards"][4]["gold"].as_object_mut().unwrap().clear(); },
            "city_cards[4] Tarraco: ");
    refused(|v| v["city_cards"][0]["city"] = "Crete".into(), "the start takes no contracts");
    refused(|v| { v["points_tiles"].as_array_mut().unwrap().pop(); },
            "points_tiles: no tiles for temple gold round C");
    refused(|v| v["points_tiles"][1]["points"] = serde_json::json!([5]),
            "points_tiles[1] Hispania B: 1 tiles, round B has 2 places");
    refused(|v| v["goods_cards"][0]["count"] = 0.into(), "goods_cards: 24 cards");
    refused(|v| v["rowing_cards"][0]["power"] = 0.into(), "rowing_cards[0]: power >= 1");
    refused(|v| v["rules"]["rounds"]["value"] = 4.into(), "rules.rounds: 4");
    refused(|v| { v["routes"].as_array_mut().unwrap().retain(|r| r["a"] != "Crete"
        && r["b"] != "Crete"); }, "cannot be reached");
    refused(|v| v["cities"][3]["region"] = "Gallia".into(), "unknown region \"Gallia\"");
    refused(|v| v["extra"] = 1.into(), "extra: unknown key \"extra\" (known: game, start,");
    let err = MedState::components("{").unwrap_err();
    assert!(err.starts_with("mediterranean components JSON"), "{err}");
}

/// A value of the wrong kind names its key and what it should hold, not serde's place in
/// the JSON cdsim merged; a reversed range of miles is one line naming the rule, not one a
/// distance tile that the range then refuses.
#[test]
fn a_bad_value_names_its_key_and_a_bad_range_is_one_line() {
    let errors = edited(|v| v["rules"]["start_gold"]["value"] = "five".into()).unwrap_err();
    assert_eq!(errors, [r#"rules.start_gold.value: expected a whole number, got "five""#]);
    let errors = edited(|v| v["rules"]["start_gold"]["nosuch"] = 1.into()).unwrap_err();
    assert_eq!(errors, [r#"rules.start_gold.nosuch: unknown key "nosuch" (known: value, source)"#]);
    let errors = edited(|v| v["goods_cards"][2]["count"] = (-3).into()).unwrap_err();
    assert_eq!(errors, ["goods_cards[2].count: expected a whole number 0 to 255, got -3"]);
    for rule in ["coastal_miles", "open_sea_miles"] {
        let errors = edited(|v| v["rules"][rule]["value"] = serde_json::json!([9, 2])).unwrap_err();
        assert_eq!(errors, [format!("rules.{rule}: [9, 2] is not a range of miles >= 1")]);
    }
}

#[test]
fn an_override_replaces_whole_tables() {
    let over = r#"{"bonus_tiles": [{"points": 3, "count": 15, "source": "reconstructed"}]}"#;
    let c = Components::overridden(over).unwrap();
    assert!(c.tables().bonus.iter().all(|&b| b == 3));
    assert_eq!(c.tables().city_cards.len(), 30, "the rest as built in");
    let err = Components::overridden(r#"{"bonus": []}"#).unwrap_err();
    assert!(err[0].contains("unknown table \"bonus\""), "{err:?}");
    let err = Components::overridden(r#"{"bonus_tiles": [{"points": 3, "count": 0,
        "source": "reconstructed"}]}"#).unwrap_err();
    assert!(err[0].contains("bonus_tiles: an entry of count 0"), "{err:?}");
    // the seam's JSON round-trips
    let json = MedState::builtin_components().unwrap();
    let again = MedState::components(&json).unwrap();
    assert_eq!(again.tables().city_cards, Components::builtin().tables().city_cards);
}
