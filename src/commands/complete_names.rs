//! Object names for `explain claim|pod` and `capacity KIND` from the files
//! given with `-f` (never from the cluster, which completion does not
//! contact): small regular files only, read under a bound.

use std::path::Path;

use dra_core::sources::{load_objects, SourceFile};
use dra_core::yaml::Limits;

/// A file larger than this is not read on TAB (a fleet's snapshot would
/// keep the shell waiting).
const MAX_FILE: u64 = 16 << 20;

/// `NAMESPACE/NAME` of the objects of `kind` (`ResourceClaim`, `Pod`) in
/// `files` that begin with `typed`, sorted.
pub fn names(files: &[String], kind: &str, typed: &str) -> Vec<String> {
    let mut sources = Vec::new();
    for f in files {
        let path = Path::new(f);
        let small = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= MAX_FILE);
        if !small {
            continue;
        }
        let input = crate::files::read_limited(path, MAX_FILE);
        if let Ok(text) = input.text {
            sources.push(SourceFile {
                name: input.name,
                text,
            });
        }
    }
    let (objects, _) = load_objects(&sources, Limits::default());
    let mut out: Vec<String> = objects
        .iter()
        .filter(|o| o.reference.kind == kind)
        .filter_map(|o| Some(format!("{}/{}", o.namespace_or_default(), o.name()?)))
        .filter(|n| n.starts_with(typed))
        .collect();
    out.sort();
    out.dedup();
    out
}
