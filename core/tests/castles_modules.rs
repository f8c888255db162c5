//! The Castles folder's modules depend one way (issue 60: "Castles' two circles cut"): no
//! file of core/src/castles/ reaches, through the files it names, back to itself. A file
//! names a sibling by `super::NAME` or `crate::castles::NAME` (a name mod.rs re-exports
//! counts as the module it comes from); its `#[cfg(test)]` tests are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

fn words_after<'a>(text: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    text.match_indices(prefix).map(move |(i, _)| {
        let rest = &text[i + prefix.len()..];
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '{'
            || c == ',' || c == ' ' || c == '\n')).unwrap_or(rest.len());
        &rest[..end]
    })
}

/// Each file's siblings, read from the folder's sources.
fn graph(dir: &Path) -> Graph {
    let read = |name: &str| std::fs::read_to_string(dir.join(format!("{name}.rs")))
        .unwrap_or_else(|e| panic!("{}/{name}.rs: {e}", dir.display()));
    let root = read("mod");
    let mut modules = BTreeSet::new();
    let mut exported = BTreeMap::new(); // a name mod.rs re-exports: its module
    for line in root.lines() {
        let line = line.trim_start_matches("pub ");
        if let Some(name) = line.strip_prefix("mod ") {
            modules.insert(name.trim_end_matches(';').to_string());
        } else if let Some(rest) = line.strip_prefix("use ") {
            let (module, names) = rest.split_once("::").expect("pub use MODULE::...");
            for name in names.trim_matches(|c| "{};".contains(c)).split(',') {
                exported.insert(name.trim().to_string(), module.to_string());
            }
        }
    }
    let mut out = Graph::new();
    for module in &modules {
        let text = read(module);
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        let mut uses = BTreeSet::new();
        for prefix in ["super::", "crate::castles::"] {
            for group in words_after(text, prefix) {
                for word in group.split(|c: char| "{, \n".contains(c)).filter(|w| !w.is_empty()) {
                    if let Some(m) = modules.get(word).or_else(|| exported.get(word)) {
                        if m != module {
                            uses.insert(m.clone());
                        }
                    }
                }
            }
        }
        out.insert(module.clone(), uses);
    }
    out
}

/// A circle of files, if there is one: each names the next, the last the first.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(node: &str, graph: &Graph, path: &mut Vec<String>, done: &mut BTreeSet<String>)
             -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            return Some(path[i..].to_vec());
        }
        if !done.insert(node.to_string()) {
            return None;
        }
        path.push(node.to_string());
        for next in &graph[node] {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|m| visit(m, graph, &mut vec![], &mut done))
}

#[test]
fn the_castles_files_depend_one_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/castles");
    let files = graph(&dir);
    assert!(files.len() > 10 && files["state"].contains("pending"), "{files:?}");
    // the players by name stand above both kinds of player: learned plays on the scripted
    // prior, and neither names the other's maker
    assert!(files["roster"].contains("learned") && files["learned"].contains("players"),
            "{files:?}");
    assert_eq!(circle(&files), None, "a circle of files in core/src/castles/");
}

#[test]
fn a_circle_is_found() {
    let edge = |a: &str, b: &[&str]| (a.to_string(), b.iter().map(|s| s.to_string()).collect());
    let files: Graph = [edge("a", &["b"]), edge("b", &["c"]), edge("c", &["a"]), edge("d", &[])]
        .into_iter().collect();
    assert_eq!(circle(&files), Some(vec!["a".into(), "b".into(), "c".into()]));
}
