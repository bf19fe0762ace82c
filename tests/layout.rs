//! The engine's layout, kept as issue 17 left it: no file of `dra-core`
//! longer than 800 lines, and no import circle between its modules (a
//! module that uses another which, through any others, uses it back; a
//! parent and its own submodules do not count).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/dra-core/src");
const MAX_LINES: usize = 800;

/// A module as its path from the crate root (`["allocate", "pools"]`).
type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dra-core/src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every module of the crate and its file.
fn modules() -> BTreeMap<Module, PathBuf> {
    let mut files = Vec::new();
    rust_files(Path::new(ROOT), &mut files);
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(ROOT).expect("under src").with_extension("");
            let mut module: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            (module, f)
        })
        .collect()
}

/// The module a path names: its longest prefix that is a module.
fn resolve(path: &[String], modules: &BTreeMap<Module, PathBuf>) -> Module {
    (0..=path.len())
        .rev()
        .map(|k| path[..k].to_vec())
        .find(|m| modules.contains_key(m))
        .unwrap_or_default()
}

fn ident_at(s: &str) -> Option<&str> {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0).then(|| &s[..end])
}

/// The paths a module's code (not its tests or comments) names through
/// `crate::` and `super::`, as module paths.
fn references(src: &str, module: &Module) -> Vec<Vec<String>> {
    let code = src.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(at) = rest
            .find("crate::")
            .into_iter()
            .chain(rest.find("super::"))
            .min()
        {
            let before = rest[..at].chars().next_back();
            let mut tail = &rest[at..];
            rest = &rest[at + 1..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let mut base: Module = Vec::new();
            if let Some(t) = tail.strip_prefix("crate::") {
                tail = t;
            } else {
                base = module.clone();
                while let Some(t) = tail.strip_prefix("super::") {
                    base.pop();
                    tail = t;
                }
            }
            // `super::{a, b::c}`: each item of the group.
            let items: Vec<&str> = match tail.strip_prefix('{') {
                Some(group) => group
                    .split('}')
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(str::trim)
                    .collect(),
                None => vec![tail],
            };
            for item in items {
                let mut path = base.clone();
                let mut seg = item;
                while let Some(id) = ident_at(seg) {
                    path.push(id.to_owned());
                    match seg[id.len()..].strip_prefix("::") {
                        Some(next) => seg = next,
                        None => break,
                    }
                }
                out.push(path);
            }
        }
    }
    out
}

/// Which modules each module uses, parents and submodules left out.
fn uses() -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules();
    let related = |a: &Module, b: &Module| a.starts_with(b) || b.starts_with(a);
    modules
        .iter()
        .filter(|(_, f)| !f.ends_with("tests.rs") && !f.to_string_lossy().ends_with("_tests.rs"))
        .map(|(m, f)| {
            let src = std::fs::read_to_string(f).expect("read source");
            let targets = references(&src, m)
                .iter()
                .map(|p| resolve(p, &modules))
                .filter(|t| !related(m, t))
                .collect();
            (m.clone(), targets)
        })
        .collect()
}

/// One circle of the graph, if any: modules in order, the first repeated.
fn circle(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    // 0: not seen, 1: on the current path, 2: done.
    let mut state: BTreeMap<&Module, u8> = BTreeMap::new();
    fn visit<'g>(
        m: &'g Module,
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        state: &mut BTreeMap<&'g Module, u8>,
        path: &mut Vec<&'g Module>,
    ) -> Option<Vec<Module>> {
        state.insert(m, 1);
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            match state.get(next).copied().unwrap_or(0) {
                1 => {
                    let from = path.iter().position(|p| *p == next).unwrap_or(0);
                    let mut c: Vec<Module> = path[from..].iter().map(|m| (*m).clone()).collect();
                    c.push(next.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m, 2);
        None
    }
    for m in graph.keys() {
        if state.get(m).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn show(c: &[Module]) -> String {
    c.iter()
        .map(|m| format!("crate::{}", m.join("::")))
        .collect::<Vec<_>>()
        .join(" -> ")
}

#[test]
fn no_file_of_the_engine_is_over_800_lines() {
    let modules = modules();
    // The walk found the engine (a check over no files would pass).
    assert!(modules.len() > 100, "{} files", modules.len());
    let long: Vec<String> = modules
        .values()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).expect("read").lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these files: {long:?}");
}

#[test]
fn the_engine_has_no_import_circle() {
    if let Some(c) = circle(&uses()) {
        panic!("import circle: {}", show(&c));
    }
}

/// The check finds a circle where there is one: sibling modules that use
/// each other (as `cel/functions.rs` and `cel/check.rs` once did), through
/// `crate::` paths, `super::` paths and `super::{...}` groups.
#[test]
fn a_circle_is_found() {
    let mut modules: BTreeMap<Module, PathBuf> = BTreeMap::new();
    for m in [
        vec![],
        vec!["cel".into()],
        vec!["cel".into(), "check".into()],
        vec!["cel".into(), "functions".into()],
    ] {
        modules.insert(m, PathBuf::new());
    }
    let check: Module = vec!["cel".into(), "check".into()];
    let functions: Module = vec!["cel".into(), "functions".into()];
    let graph: BTreeMap<Module, BTreeSet<Module>> = [
        (check.clone(), "use super::{functions::Table, Env};"),
        (
            functions.clone(),
            "use crate::cel::check::Type; // super::nothing",
        ),
    ]
    .into_iter()
    .map(|(m, src)| {
        let targets = references(src, &m)
            .iter()
            .map(|p| resolve(p, &modules))
            .filter(|t| !(m.starts_with(t) || t.starts_with(&m)))
            .collect();
        (m, targets)
    })
    .collect();
    let c = circle(&graph).expect("a circle");
    assert_eq!(c.first(), c.last());
    assert!(c.contains(&check) && c.contains(&functions), "{}", show(&c));
    // Without the back edge there is none.
    let mut one_way = graph.clone();
    one_way.insert(functions, BTreeSet::new());
    assert_eq!(circle(&one_way), None);
}
