//! docs/rules-castles.md and the tests agree: every rule (T5, T5.2), example (TE3) and
//! component section (TC4) the doc defines is defined once, and every rule and example
//! is cited by a Castles test, in a test's name (`t5_2_...`, `te3_...`) or its text ("T5.2").

use std::collections::BTreeSet;
use std::path::Path;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The numbers defined by the doc: a heading (`## T5 ...`, `### TC4 ...`) or a list
/// item (`- **T5.2** ...`), in order.
fn defined(doc: &str) -> Vec<String> {
    let mut out = vec![];
    for line in doc.lines() {
        let rest = if let Some(r) = line.strip_prefix("- **") {
            r
        } else if line.starts_with('#') {
            line.trim_start_matches('#').trim_start()
        } else {
            continue;
        };
        let token: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
            .collect();
        let is_number = token.starts_with('T')
            && token.len() > 1
            && token[1..]
                .trim_start_matches(['E', 'C'])
                .starts_with(|c: char| c.is_ascii_digit());
        if is_number {
            out.push(token.trim_end_matches('.').to_string());
        }
    }
    out
}

/// Every test file's text and its tokens in snake case (`t5_1_t5_3_...` gives t5_1, t5_3).
fn test_texts() -> (String, BTreeSet<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut text = String::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("castles") && name.ends_with(".rs") && name != "castles_doc.rs" {
            text.push_str(&read(&path));
        }
    }
    let mut names = BTreeSet::new();
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // t5_1_t5_3_words: every "t<digits>[_<digits>]" or "te<digits>" run is a citation
            let parts: Vec<&str> = name.split('_').collect();
            for (i, p) in parts.iter().enumerate() {
                let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
                if let Some(n) = p.strip_prefix("te").filter(|n| digits(n)) {
                    names.insert(format!("TE{n}"));
                } else if let Some(n) = p.strip_prefix('t').filter(|n| digits(n)) {
                    names.insert(format!("T{n}"));
                    if let Some(sub) = parts.get(i + 1).filter(|s| digits(s)) {
                        names.insert(format!("T{n}.{sub}"));
                    }
                }
            }
        }
    }
    (text, names)
}

/// Whether `text` names `n` as a whole number ("T5.2" but not "T5.21" or "T5.2.1").
fn cites(text: &str, n: &str) -> bool {
    text.match_indices(n).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after: Vec<char> = text[i + n.len()..].chars().take(2).collect();
        let digit_after = after.first().is_some_and(|c| c.is_ascii_digit())
            || (after.first() == Some(&'.') && after.get(1).is_some_and(|c| c.is_ascii_digit()));
        !before.is_some_and(|c| c.is_ascii_alphanumeric()) && !digit_after
    })
}

#[test]
fn every_rule_and_example_of_the_doc_is_defined_once_and_tested() {
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules-castles.md"));
    let numbers = defined(&doc);
    assert!(
        numbers.len() > 70,
        "the doc defines {} numbers: {numbers:?}",
        numbers.len()
    );
    let mut seen = BTreeSet::new();
    for n in &numbers {
        assert!(seen.insert(n.clone()), "{n} is defined twice");
    }
    let (text, names) = test_texts();
    let cited = |n: &str| names.contains(n) || cites(&text, n);
    // a part (T8) is tested through its rules (T8.1, ...); the TC sections are data
    let untested: Vec<&String> = numbers
        .iter()
        .filter(|n| (n.contains('.') || n.starts_with("TE")) && !cited(n))
        .collect();
    assert!(
        untested.is_empty(),
        "rules with no test naming them: {untested:?}"
    );
}
