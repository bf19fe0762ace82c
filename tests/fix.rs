//! `lint --fix`: each fix on its fixture (`testdata/fixtures/fix/<rule>-*.yaml`,
//! a first-line `# kubernetes-version: X` picks the release): the file after
//! the fix (snapshot), no finding of the rule left, and no finding that was
//! not there before. Then the CLI: `--fix --diff`, `--fix` in place, and
//! the fixable mark in the outputs.

mod support;

use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::fixes::run;
use dra_core::lint::{lint, Selection, Settings, SourceFile};

fn settings(version: Version) -> Settings {
    Settings {
        gates: FeatureGates::defaults(version),
        selection: Selection::default(),
        per_file: Vec::new(),
        inventory_from_input: false,
        limits: Default::default(),
        inventory: None,
        stored: Vec::new(),
        status: false,
    }
}

fn findings(files: &[SourceFile], settings: &Settings) -> Vec<(String, String, String)> {
    lint(files, Vec::new(), settings)
        .diagnostics
        .iter()
        .map(|d| (d.rule.to_owned(), d.field.clone(), d.message.clone()))
        .collect()
}

#[test]
fn each_fix_on_its_fixture() {
    let dir = support::root().join("testdata/fixtures/fix");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".yaml"))
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        let text = std::fs::read_to_string(dir.join(&name)).unwrap();
        let rule = name
            .split('-')
            .take(2)
            .collect::<Vec<_>>()
            .join("-")
            .to_uppercase();
        let version = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# kubernetes-version: "))
            .and_then(|v| v.split_whitespace().next())
            .map_or(Version::LATEST, |v| v.parse().unwrap());
        let settings = settings(version);
        let files = vec![SourceFile {
            name: name.clone(),
            text: text.clone(),
        }];
        let before = findings(&files, &settings);
        assert!(
            before.iter().any(|f| f.0 == rule),
            "{name}: no {rule} to fix: {before:?}"
        );
        let fixed = run(&files, &settings, true);
        assert!(
            fixed.refused.is_empty(),
            "{name}: refused {:?}",
            fixed.refused
        );
        assert!(
            fixed.applied.iter().any(|a| a.rule == rule),
            "{name}: {:?}",
            fixed.applied
        );
        let after_files = vec![SourceFile {
            name: name.clone(),
            text: fixed.texts[0].clone(),
        }];
        let after = findings(&after_files, &settings);
        assert!(
            !after.iter().any(|f| f.0 == rule),
            "{name}: {rule} left: {after:?}"
        );
        for f in &after {
            assert!(before.contains(f), "{name}: new finding {f:?}");
        }
        insta::assert_snapshot!(
            format!("fix_{}", name.trim_end_matches(".yaml")),
            fixed.texts[0]
        );
    }
}

/// Unsafe fixes wait for `--unsafe-fixes`.
#[test]
fn unsafe_fixes_need_asking() {
    let text = std::fs::read_to_string(
        support::root().join("testdata/fixtures/fix/dra-v032-device-name.yaml"),
    )
    .unwrap();
    let files = vec![SourceFile {
        name: "v032.yaml".into(),
        text: text.clone(),
    }];
    let fixed = run(&files, &settings(Version::LATEST), false);
    assert_eq!(fixed.texts[0], text);
    assert!(fixed.applied.is_empty());
}

#[test]
fn cli_fix_diff_write_and_marks() {
    let fixture = "testdata/fixtures/fix/dra-a001-deprecated-version.yaml";
    let o = support::run(&["lint", "--fix", "--diff", fixture]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    insta::assert_snapshot!("fix_cli_diff", String::from_utf8(o.stdout).unwrap());
    // The outputs say which findings are fixable.
    let o = support::run(&["lint", "-o", "json", fixture]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let a001 = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "DRA-A001")
        .unwrap()
        .clone();
    assert_eq!(a001["fix"]["applicability"], "safe", "{a001}");
    let text = support::run(&["lint", fixture]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("fixable with --fix"));
    // In place: the file is fixed, the remaining findings are printed.
    let dir = std::env::temp_dir().join(format!("kubectl-dra-fix-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("claim.yaml");
    std::fs::copy(support::root().join(fixture), &file).unwrap();
    let o = support::run(&["lint", "--fix", file.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(!stdout.contains("DRA-A001"), "{stdout}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("apiVersion: resource.k8s.io/v1\n"),
        "{written}"
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("fixed"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fix that would bring a new finding (lower-casing `GPU-0` next to a
/// `gpu-0`: a duplicate name) is refused; the others are applied.
#[test]
fn a_bad_fix_is_refused_and_the_good_ones_kept() {
    let mut devices = String::new();
    for i in 0..20 {
        devices.push_str(&format!(
            "  - name: nic-{i}\n    attributes:\n      sriov: {{string: yes}}\n"
        ));
    }
    let text = format!(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\nspec:\n  driver: nic.example.com\n  nodeName: node-1\n  pool:\n    name: node-1\n    resourceSliceCount: 1\n  devices:\n  - name: GPU-0\n  - name: gpu-0\n{devices}"
    );
    let files = vec![SourceFile {
        name: "s.yaml".into(),
        text: text.clone(),
    }];
    let fixed = run(&files, &settings(Version::LATEST), true);
    assert_eq!(fixed.refused.len(), 1, "{:?}", fixed.refused);
    assert_eq!(fixed.refused[0].rule, "DRA-V032");
    assert_eq!(fixed.applied.len(), 20, "{:?}", fixed.applied);
    assert!(fixed.texts[0].contains("name: GPU-0"));
    assert_eq!(fixed.texts[0].matches("{string: \"yes\"}").count(), 20);
}

/// Two claims of a List share their requests through an anchor. Converting
/// either edits the anchored text, which changes the other claim too (it
/// stays v1beta1 with a v1 request): no fix is applied, each is said.
#[test]
fn fixes_through_an_alias_are_refused() {
    let text = std::fs::read_to_string(
        support::root().join("testdata/fixtures/alias/shared-requests.yaml"),
    )
    .unwrap();
    let files = vec![SourceFile {
        name: "shared.yaml".into(),
        text: text.clone(),
    }];
    let fixed = run(&files, &settings(Version::LATEST), true);
    assert_eq!(fixed.texts[0], text);
    assert!(fixed.applied.is_empty(), "{:?}", fixed.applied);
    let lines: Vec<u32> = fixed.through_alias.iter().map(|a| a.line).collect();
    assert_eq!(lines, [4, 13]);
    let o = support::run(&[
        "lint",
        "--fix",
        "--diff",
        "testdata/fixtures/alias/shared-requests.yaml",
    ]);
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(
            "shared-requests.yaml:4: DRA-A001 not fixed (it would edit YAML an alias repeats"
        ),
        "{err}"
    );
}
