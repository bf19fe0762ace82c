//! The lint conformance cases (testdata/conformance/lint), judged through
//! `kubectl-dra lint -o json` as FORMAT.md says: errors as a set, Dropped
//! warnings as a set, Warning findings each present.

mod support;

use std::collections::BTreeSet;

use serde_json::Value;

type Key = (String, String, u64);

fn key(v: &Value, index_field: &str) -> Key {
    (
        v["field"].as_str().unwrap_or_default().to_owned(),
        v["type"].as_str().unwrap_or_default().to_owned(),
        v[index_field].as_u64().unwrap_or(0),
    )
}

fn judge_case(case: &Value, dir: &std::path::Path, name: &str) -> Result<(), String> {
    let objects = case["objects"].as_array().cloned().unwrap_or_default();
    let file = dir.join(format!("{name}.yaml"));
    support::write_objects(&objects, &file);
    let mut args: Vec<String> = vec!["lint".into(), "-o".into(), "json".into()];
    args.extend(support::gate_args(case));
    args.push(file.to_string_lossy().into_owned());
    let (report, exit_code) = support::run_json(&args)?;
    let diags = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let expect = &case["expect"];

    let got_errors: BTreeSet<Key> = diags
        .iter()
        .filter(|d| d["severity"] == "error")
        .map(|d| key(d, "document"))
        .collect();
    let want_errors: BTreeSet<Key> = expect["errors"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| key(e, "objectIndex"))
        .collect();
    let got_dropped: BTreeSet<Key> = diags
        .iter()
        .filter(|d| d["type"] == "Dropped")
        .map(|d| key(d, "document"))
        .collect();
    let want_warnings: Vec<Key> = expect["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| key(e, "objectIndex"))
        .collect();
    let want_dropped: BTreeSet<Key> = want_warnings
        .iter()
        .filter(|k| k.1 == "Dropped")
        .cloned()
        .collect();
    let got_linter: BTreeSet<Key> = diags
        .iter()
        .filter(|d| d["severity"] == "warning" && d["type"] == "Warning")
        .map(|d| key(d, "document"))
        .collect();

    let mut problems = Vec::new();
    if got_errors != want_errors {
        problems.push(format!("errors: want {want_errors:?}, got {got_errors:?}"));
    }
    if got_dropped != want_dropped {
        problems.push(format!(
            "dropped: want {want_dropped:?}, got {got_dropped:?}"
        ));
    }
    for w in want_warnings.iter().filter(|k| k.1 == "Warning") {
        if !got_linter.contains(w) {
            problems.push(format!("missing warning {w:?}; got {got_linter:?}"));
        }
    }
    // Accepted unchanged: no error, no field dropped by a gate, none reset
    // by the registry strategy (a claim's status on create).
    let reset = diags.iter().any(|d| d["type"] == "Reset");
    let valid = got_errors.is_empty() && got_dropped.is_empty() && !reset;
    if expect["valid"].as_bool() != Some(valid) {
        problems.push(format!("valid: want {}, got {valid}", expect["valid"]));
    }
    let want_code = if want_errors.is_empty() { 0 } else { 1 };
    if exit_code != Some(want_code) && problems.is_empty() {
        problems.push(format!("exit code {:?}, want {want_code}", exit_code));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

#[test]
fn lint_conformance() {
    support::run_suite("lint", 90, judge_case);
}

/// The harness must be able to fail: a case with a changed verdict disagrees.
#[test]
fn harness_detects_a_wrong_verdict() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-lint-neg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = support::cases("lint");
    let (name, case) = cases
        .iter()
        .find(|(n, _)| n == "compat-groups-too-many")
        .unwrap();
    assert!(judge_case(case, &dir, name).is_ok());
    let mut wrong = case.clone();
    wrong["expect"]["errors"][0]["type"] = "Invalid".into();
    assert!(judge_case(&wrong, &dir, name).is_err());
    let mut wrong = case.clone();
    wrong["featureGates"]["DRADeviceCompatibilityGroups"] = false.into();
    assert!(
        judge_case(&wrong, &dir, name).is_err(),
        "gate off must drop instead"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kubernetes 1.34 validated by hand: map key errors at the key, duplicates
/// at the name field, an attribute without a value and an empty name part
/// Required, a bad identifier Invalid (validateQualifiedName,
/// validateCIdentifier, validateSet of the 1.34 validation.go); 1.35's
/// declarative validation reports them as the conformance cases do.
#[test]
fn paths_and_types_per_release() {
    let findings_in = |file: &str, version: &str| -> Vec<(String, String)> {
        let args: Vec<String> = ["lint", file, "--kubernetes-version", version, "-o", "json"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (v, _) = support::run_json(&args).unwrap();
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| {
                (
                    d["field"].as_str().unwrap().to_owned(),
                    d["type"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let findings = |version: &str| findings_in("testdata/fixtures/paths/slice-claim.yaml", version);
    let want = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(f, t)| (f.to_string(), t.to_string()))
            .collect()
    };
    let mut got = findings("1.34");
    got.sort();
    let mut expect = want(&[
        ("spec.devices[0].attributes[novalue]", "Required"),
        // C34 validateCIdentifier: field.Invalid, as in every release.
        ("spec.devices[0].attributes[bad-key]", "Invalid"),
        ("spec.devices[0].attributes[/x]", "Required"),
        ("spec.devices[1].name", "Duplicate"),
        ("spec.devices.requests[1].name", "Duplicate"),
        ("spec.devices.constraints[0].matchAttribute", "Required"),
    ]);
    expect.sort();
    assert_eq!(got, expect);
    let mut got = findings("1.37");
    got.sort();
    let mut expect = want(&[
        ("spec.devices[0].attributes[novalue]", "Invalid"),
        ("spec.devices[0].attributes", "Invalid"),
        ("spec.devices[0].attributes", "Invalid"),
        ("spec.devices[1]", "Duplicate"),
        ("spec.devices.requests[1]", "Duplicate"),
        ("spec.devices.constraints[0].matchAttribute", "Invalid"),
    ]);
    expect.sort();
    assert_eq!(got, expect);
    // An over-long list: only TooMany from 1.35; 1.34 checks the items too.
    let file = "testdata/fixtures/paths/too-many-devices.yaml";
    assert_eq!(
        findings_in(file, "1.37"),
        want(&[("spec.devices", "TooMany")])
    );
    let got = findings_in(file, "1.34");
    assert!(
        got.contains(&("spec.devices".into(), "TooMany".into())),
        "{got:?}"
    );
    assert!(
        got.contains(&("spec.devices[128].name".into(), "Invalid".into())),
        "{got:?}"
    );
    // The same for every list validateSlice/validateSet checks: requests,
    // and the selectors of a request inside them.
    let file = "testdata/fixtures/paths/too-many-requests.yaml";
    assert_eq!(
        findings_in(file, "1.35"),
        want(&[("spec.devices.requests", "TooMany")])
    );
    let mut got = findings_in(file, "1.34");
    got.sort();
    assert_eq!(
        got,
        want(&[
            ("spec.devices.requests", "TooMany"),
            ("spec.devices.requests[0].exactly.selectors", "TooMany"),
            (
                "spec.devices.requests[0].exactly.selectors[32].cel",
                "Required"
            ),
            ("spec.devices.requests[32].name", "Invalid"),
        ])
    );
}
