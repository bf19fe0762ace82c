//! `kubectl dra convert`: the CLI's three outputs on a fixture (snapshots),
//! in-place edits, and every old-version manifest of the corpus converted to
//! v1: the result lints without the version findings and without an error
//! the original did not have, and only the converted objects' lines change.

mod support;

use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{lint, Selection, Settings, SourceFile};
use dra_core::migrate::convert;
use dra_core::model::parse_file;

const FIXTURE: &str = "testdata/fixtures/convert/beta.yaml";

#[test]
fn prints_the_converted_file_and_reports_each_object() {
    let o = support::run(&["convert", FIXTURE]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    insta::assert_snapshot!("convert_beta", String::from_utf8(o.stdout).unwrap());
    insta::assert_snapshot!("convert_beta_stderr", String::from_utf8(o.stderr).unwrap());
}

#[test]
fn diff_shows_only_the_lines_that_change() {
    let o = support::run(&["convert", "--diff", FIXTURE]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("convert_beta_diff", String::from_utf8(o.stdout).unwrap());
}

#[test]
fn write_edits_in_place_and_a_second_run_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-convert-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("beta.yaml");
    std::fs::copy(support::root().join(FIXTURE), &file).unwrap();
    let path = file.to_str().unwrap();
    let o = support::run(&["convert", "--write", path]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    let written = std::fs::read_to_string(&file).unwrap();
    let printed = support::run(&["convert", FIXTURE]).stdout;
    assert_eq!(written.as_bytes(), &printed[..]);
    let again = support::run(&["convert", "--diff", path]);
    assert_eq!(again.status.code(), Some(0));
    assert!(
        again.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
    // What has no equivalent is left and reported: exit 1.
    let classic = dir.join("classic.yaml");
    std::fs::write(&classic, "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClass\nmetadata: {name: c}\ndriverName: x\n").unwrap();
    let o = support::run(&["convert", classic.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not converted"));
    // KEP-5677's request exists in v1alpha3 only: left, and said so.
    let request = dir.join("request.yaml");
    std::fs::write(&request, "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\nmetadata: {name: r}\nspec: {driver: gpu.example.com}\n").unwrap();
    let o = support::run(&["convert", request.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("served only as resource.k8s.io/v1alpha3") && !err.contains("classic"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn errors(name: &str, text: &str, gates: &FeatureGates) -> Vec<(String, u32)> {
    let settings = Settings {
        gates: gates.clone(),
        selection: Selection::default(),
        per_file: Vec::new(),
        inventory_from_input: false,
        limits: Default::default(),
        inventory: None,
        stored: Vec::new(),
        status: false,
    };
    let files = [SourceFile {
        name: name.into(),
        text: text.into(),
    }];
    let r = lint(&files, Vec::new(), &settings);
    let lines = dra_core::tree::LineIndex::new(text);
    r.diagnostics
        .iter()
        .filter(|d| d.severity == dra_core::diag::Severity::Error || d.rule == "DRA-A001")
        .map(|d| (d.rule.to_owned(), lines.line_col(d.span.start).0))
        .collect()
}

#[test]
fn corpus_manifests_convert_to_v1() {
    let gates = FeatureGates::defaults(Version::LATEST);
    let mut converted_files = 0;
    let mut objects = 0;
    let mut walk = vec![support::root().join("testdata/corpus")];
    while let Some(dir) = walk.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                walk.push(path);
                continue;
            }
            if path.extension().and_then(|x| x.to_str()) != Some("yaml") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let c = convert(&text, "v1", &gates);
            if c.converted.is_empty() && c.problems.is_empty() {
                assert_eq!(c.text, text, "{name}: changed with nothing converted");
                continue;
            }
            converted_files += 1;
            objects += c.converted.len();
            // Only the converted objects' lines change.
            let parsed = parse_file(0, &text, Default::default());
            let index = dra_core::tree::LineIndex::new(&text);
            let ranges: Vec<(u32, u32)> = parsed
                .objects
                .iter()
                .map(|o| {
                    (
                        index.line_col(o.root.span.start).0,
                        index.line_col(o.root.span.end).0,
                    )
                })
                .filter(|(start, _)| c.converted.iter().any(|x| x.line == *start))
                .collect();
            let diff = similar::TextDiff::from_lines(&text, &c.text);
            for op in diff.ops() {
                if let similar::DiffOp::Equal { .. } = op {
                    continue;
                }
                let line = op.old_range().start as u32 + 1;
                assert!(
                    ranges.iter().any(|(a, b)| *a <= line && line <= *b + 1),
                    "{name}: line {line} changed outside the converted objects"
                );
            }
            // The converted file: no version finding left on a converted
            // object, and no error the original did not have.
            let before = errors(&name, &text, &gates);
            let after = errors(&name, &c.text, &gates);
            for (rule, line) in &after {
                let on_converted = ranges.iter().any(|(a, b)| a <= line && line <= b);
                if rule.starts_with("DRA-A00") {
                    assert!(!on_converted, "{name}:{line}: {rule} after conversion");
                    continue;
                }
                let had = before.iter().any(|(r, _)| r == rule);
                let was_unserved = before
                    .iter()
                    .any(|(r, l)| r == "DRA-A002" && ranges.iter().any(|(a, b)| a <= l && l <= b));
                assert!(
                    had || was_unserved,
                    "{name}:{line}: {rule} is new after conversion:\n{}",
                    c.text
                );
            }
        }
    }
    assert!(converted_files >= 10, "{converted_files} files");
    assert!(objects >= 10, "{objects} objects");
}

/// `--write` follows a symbolic link (the link stays a link) and refuses a
/// read-only file.
#[test]
fn write_keeps_links_and_refuses_read_only_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir =
        std::env::temp_dir().join(format!("kubectl-dra-convert-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let real = dir.join("real.yaml");
    std::fs::copy(support::root().join(FIXTURE), &real).unwrap();
    let link = dir.join("link.yaml");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = support::run(&["convert", "--write", link.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&real)
        .unwrap()
        .contains("resource.k8s.io/v1\n"));
    let ro = dir.join("ro.yaml");
    std::fs::copy(support::root().join(FIXTURE), &ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read_to_string(&ro).unwrap();
    let o = support::run(&["convert", "--write", ro.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("read-only"));
    assert_eq!(std::fs::read_to_string(&ro).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A byte order mark survives `--write`; a CRLF file prints with its CRLF
/// (not escaped: a CR that ends a line moves nothing on a terminal).
#[test]
fn byte_order_marks_and_crlf_survive() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-convert-bom-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bom.yaml");
    std::fs::write(
        &file,
        "\u{feff}apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: c}\n",
    )
    .unwrap();
    let o = support::run(&["convert", "--write", file.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "\u{feff}apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\n"
    );
    let crlf = dir.join("crlf.yaml");
    std::fs::write(
        &crlf,
        "apiVersion: resource.k8s.io/v1beta1\r\nkind: DeviceClass\r\nmetadata: {name: c}\r\n",
    )
    .unwrap();
    let o = support::run(&["convert", crlf.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        "apiVersion: resource.k8s.io/v1\r\nkind: DeviceClass\r\nmetadata: {name: c}\r\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Objects whose conversion edits text an alias repeats are left as they
/// are and said; an anchor the conversion does not touch (shared labels)
/// does not stop it.
#[test]
fn conversions_through_an_alias_are_refused() {
    let text = std::fs::read_to_string(
        support::root().join("testdata/fixtures/alias/shared-requests.yaml"),
    )
    .unwrap();
    let gates = FeatureGates::defaults(Version::LATEST);
    let c = convert(&text, "v1", &gates);
    assert_eq!(c.text, text);
    assert!(c.converted.is_empty());
    assert_eq!(c.problems.len(), 2, "{:?}", c.problems);
    assert!(c
        .problems
        .iter()
        .all(|p| p.message.contains("an alias repeats")));
    let labels = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: resource.k8s.io/v1beta1\n  kind: ResourceClaim\n  metadata:\n    name: a\n    labels: &l {team: ml}\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        deviceClassName: gpu.example.com\n- apiVersion: resource.k8s.io/v1beta1\n  kind: ResourceClaim\n  metadata:\n    name: b\n    labels: *l\n  spec:\n    devices:\n      requests:\n      - name: gpu\n        deviceClassName: gpu.example.com\n";
    let c = convert(labels, "v1", &gates);
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(c.converted.len(), 2);
    assert_eq!(c.text.matches("exactly:").count(), 2, "{}", c.text);
    assert!(c.text.contains("labels: &l {team: ml}") && c.text.contains("labels: *l"));
}
