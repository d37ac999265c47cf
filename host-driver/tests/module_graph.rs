//! The driver's top-level modules import each other without a circle, and `error` is a
//! leaf (it names only the leaves `bar` and `proto`). The graph is read from the sources:
//! every `crate::<module>` outside comments in a module's files (`src/<m>.rs`, or every
//! file under `src/<m>/`) is an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).expect("readable source folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in fs::read_dir(&src).expect("src").flatten() {
        let p = e.path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if name == "lib" {
            continue;
        }
        let mut fs_ = Vec::new();
        if p.is_dir() {
            files(&p, &mut fs_);
        } else if p.extension().is_some_and(|x| x == "rs") {
            fs_.push(p);
        }
        modules.entry(name).or_default().extend(fs_);
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut g = BTreeMap::new();
    for (m, paths) in &modules {
        let mut deps = BTreeSet::new();
        for p in paths {
            let text = fs::read_to_string(p).expect("readable source");
            for line in text.lines() {
                let code = line.split("//").next().unwrap_or("");
                let mut rest = code;
                while let Some(i) = rest.find("crate::") {
                    let tail = &rest[i + 7..];
                    let id: String = tail
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if names.contains(&id) && &id != m {
                        deps.insert(id.clone());
                    }
                    rest = &tail[id.len()..];
                }
                // `use crate::{a, b::c}` lists
                if let Some(i) = code.find("crate::{") {
                    for part in code[i + 8..].split([',', '}']) {
                        let id = part.trim().split("::").next().unwrap_or("").trim();
                        if names.contains(id) && id != m {
                            deps.insert(id.to_string());
                        }
                    }
                }
            }
        }
        g.insert(m.clone(), deps);
    }
    g
}

/// A circle of the graph, if it has one.
fn circle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let at = path.iter().position(|p| p == n).unwrap_or(0);
                let mut c = path[at..].to_vec();
                c.push(n.to_string());
                return Some(c);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for d in g.get(n).into_iter().flatten() {
            if let Some(c) = visit(d, g, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in g.keys() {
        if let Some(c) = visit(n, g, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn modules_import_each_other_without_a_circle() {
    let g = graph();
    assert!(g.len() > 10, "read the modules: {g:?}");
    if let Some(c) = circle(&g) {
        panic!("import circle: {}", c.join(" -> "));
    }
}

#[test]
fn error_is_a_leaf() {
    let g = graph();
    let deps = &g["error"];
    assert!(
        deps.iter().all(|d| d == "bar" || d == "proto"),
        "error imports {deps:?}"
    );
    assert!(g["bar"].is_empty() && g["proto"].is_empty());
}

#[test]
fn the_circle_check_finds_a_circle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    g.insert("c".to_string(), BTreeSet::new());
    assert_eq!(circle(&g).map(|c| c.len()), Some(3));
    g.insert("b".to_string(), BTreeSet::new());
    assert_eq!(circle(&g), None);
}

/// `Card` is implemented in `card.rs` only; the other modules extend its facets
/// (`Mailbox`, `FlowManager`, `Firmware`, `Datapath`).
#[test]
fn card_is_implemented_in_one_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut found = Vec::new();
    for p in &all {
        let text = fs::read_to_string(p).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            let l = line.trim_start();
            if l.starts_with("impl Card {") || l.starts_with("impl Card<") {
                found.push(format!(
                    "{}:{}",
                    p.strip_prefix(&src).unwrap().display(),
                    n + 1
                ));
            }
        }
    }
    assert!(!found.is_empty(), "card.rs implements Card");
    assert!(
        found.iter().all(|f| f.starts_with("card.rs:")),
        "impl Card outside card.rs: {found:?}"
    );
}
