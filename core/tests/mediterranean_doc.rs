//! docs/rules-mediterranean.md and the tests agree: every rule the doc numbers (`- **M5.3**`)
//! is defined once, and every test it cites in backquotes (`m5_3_...`, or
//! `file::test`) is a test of core/tests/mediterranean_*.rs.

use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_rule_is_defined_once_and_every_test_it_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = read(&root.join("../docs/rules-mediterranean.md"));
    let mut tests = BTreeSet::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("mediterranean_") && name.ends_with(".rs") {
            for line in read(&path).lines() {
                if let Some(rest) = line.trim_start().strip_prefix("fn ") {
                    tests.insert(rest.split('(').next().unwrap().to_string());
                }
            }
        }
    }
    let mut rules = BTreeSet::new();
    let mut cited = 0;
    for (i, item) in doc.split("\n- **").enumerate().skip(1) {
        let number: String = item.chars().take_while(|c| *c != '*').collect();
        if !number.starts_with('M') {
            continue;
        }
        assert!(rules.insert(number.clone()), "{number} defined twice");
        // each rule cites its tests in backquotes, or says it is held by code only
        let body = item.split("\n- ").next().unwrap_or(item);
        // a citation: `mediterranean_<file>::<test>` or a bare `m<rule>_...` test name
        let names: Vec<&str> = body.split('`').skip(1).step_by(2)
            .filter_map(|s| match s.split_once("::") {
                Some((file, test)) if file.starts_with("mediterranean_") => Some(test),
                None if s.starts_with('m') && s[1..].starts_with(|c: char| c.is_ascii_digit()) => {
                    Some(s)
                }
                _ => None,
            })
            .collect();
        let code_only = body.contains("Code only") || body.contains("Same test")
            || number.starts_with("MC") || number == "M5.17";
        assert!(!names.is_empty() || code_only, "{number} (item {i}) cites no test");
        for name in names {
            let name = name.trim_end_matches('…').trim_end_matches('_');
            assert!(tests.iter().any(|t| t == name || t.starts_with(name)),
                    "{number} cites {name}, which is no mediterranean test");
            cited += 1;
        }
    }
    for n in ["M2.1", "M4.3", "M5.1", "M5.10", "M6.3", "M8.2"] {
        assert!(rules.contains(n), "{n} missing");
    }
    assert!(cited > 30, "{cited} citations");
}
