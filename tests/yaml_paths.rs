//! The block fast path and saphyr load every bundled manifest to the same
//! tree, and the fast path does take most of them (else this proves nothing).

use dra_core::yaml::{is_plain_block, load, load_general, Limits};
use std::path::{Path, PathBuf};

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        {
            out.push(p);
        }
    }
}

#[test]
fn both_paths_load_every_bundled_manifest_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["examples", "testdata"] {
        yaml_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 250, "{} files", files.len());
    // The generated conformance cases quote every key and string (they are
    // written by a generator), and the per-release fixtures hold their
    // manifest as a block scalar, and the CEL conformance suite's cases are
    // JSON, so these are checked for equality but not counted for the fast
    // path's share.
    let mut fast = 0;
    let mut counted = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let name = f.to_string_lossy();
        if !name.contains("conformance/generated")
            && !name.contains("testdata/releases")
            && !name.contains("testdata/cel-spec")
        {
            counted += 1;
            fast += usize::from(is_plain_block(&text));
        }
        assert_eq!(
            load(&text, Limits::default()),
            load_general(&text, Limits::default()),
            "{}",
            f.display()
        );
    }
    assert!(
        fast * 2 > counted,
        "fast path took only {fast} of {counted} files"
    );
}

#[test]
fn the_generated_fleet_takes_the_fast_path() {
    let fleet = dra_core::fleet::generate(dra_core::fleet::FleetSpec {
        nodes: 20,
        ..Default::default()
    });
    assert!(is_plain_block(&fleet));
    assert_eq!(
        load(&fleet, Limits::default()),
        load_general(&fleet, Limits::default())
    );
}
