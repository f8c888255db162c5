//! docs/rules-mediterranean.md and the tests agree: every rule the doc numbers (`- **M5.3**`,
//! `- **MC4**`) is defined once and cites a test in backquotes (`m5_3_...`, or
//! `file::test`), or says "Same test" after the rule before it; every test cited is a
//! `#[test]` of core/tests/mediterranean_*.rs (of that file, where the citation names one).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `#[test]` functions of each core/tests/mediterranean_*.rs, by file stem.
fn tests(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_prefix("mediterranean_").and_then(|n| n.strip_suffix(".rs"))
        else { continue };
        let mut found = BTreeSet::new();
        let mut marked = false;
        for line in read(&path).lines().map(str::trim_start) {
            if line == "#[test]" {
                marked = true;
            } else if let Some(rest) = line.strip_prefix("fn ") {
                if marked {
                    found.insert(rest.split('(').next().unwrap().to_string());
                }
                marked = false;
            }
        }
        out.insert(format!("mediterranean_{stem}"), found);
    }
    out
}

#[test]
fn every_rule_is_defined_once_and_cites_a_test_that_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = read(&root.join("../docs/rules-mediterranean.md"));
    let files = tests(root);
    let every: BTreeSet<&String> = files.values().flatten().collect();
    let mut rules = BTreeSet::new();
    let mut cited = 0;
    for (i, item) in doc.split("\n- **").enumerate().skip(1) {
        let number: String = item.chars().take_while(|c| *c != '*').collect();
        if !number.starts_with('M') {
            continue;
        }
        assert!(rules.insert(number.clone()), "{number} defined twice");
        let body = item.split("\n- ").next().unwrap_or(item).split("\n\n").next().unwrap();
        // a citation: `mediterranean_<file>::<test>`, or a bare `m<rule>_...` test name
        // (a trailing `…` or `_` cites every test that begins so)
        let mut names = Vec::new();
        for quoted in body.split('`').skip(1).step_by(2) {
            let (file, name) = match quoted.split_once("::") {
                Some((file, test)) if file.starts_with("mediterranean_") => (Some(file), test),
                None if quoted.starts_with('m')
                    && quoted[1..].starts_with(|c: char| c.is_ascii_digit()) => (None, quoted),
                _ => continue,
            };
            let stem = name.trim_end_matches('…');
            let prefix = stem.len() != name.len() || stem.ends_with('_');
            let stem = stem.trim_end_matches('_');
            let matches = |t: &&String| if prefix { t.starts_with(stem) } else { t.as_str() == stem };
            let found = match file {
                Some(file) => {
                    let tests = files.get(file)
                        .unwrap_or_else(|| panic!("{number} cites {file}, which is no test file"));
                    tests.iter().any(|t| matches(&t))
                }
                None => every.iter().any(matches),
            };
            assert!(found, "{number} cites {quoted}, which is no #[test] there");
            names.push(name);
        }
        assert!(!names.is_empty() || body.contains("Same test"), "{number} (item {i}) cites no test");
        cited += names.len();
    }
    for n in ["M2.1", "M4.3", "M5.1", "M5.10", "M5.14", "M5.17", "M6.3", "M7.4", "M8.2", "MC1",
              "MC9"] {
        assert!(rules.contains(n), "{n} missing");
    }
    assert!(cited > 50, "{cited} citations");
}
