//! The CEL conformance cases (testdata/conformance/cel) through
//! `kubectl-dra match -o json`: each case's device goes into a one-device
//! ResourceSlice whose `spec.driver` is the case's driver.

mod support;

use serde_json::{json, Value};

fn judge_case(case: &Value, dir: &std::path::Path, name: &str) -> Result<(), String> {
    let mut device = case["device"].clone();
    let driver = device["driver"].as_str().unwrap_or_default().to_owned();
    if let Some(m) = device.as_object_mut() {
        m.remove("driver");
    }
    let slice = json!({
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": "case"},
        "spec": {"driver": driver, "nodeName": "node-1",
                 "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
                 "devices": [device]}
    });
    let file = dir.join(format!("{name}.yaml"));
    support::write_objects(&[slice], &file);
    let expr = case["expression"].as_str().unwrap_or_default();
    let mut args: Vec<String> = vec![
        "match".into(),
        expr.into(),
        "-o".into(),
        "json".into(),
        "-f".into(),
    ];
    args.push(file.to_string_lossy().into_owned());
    args.extend(support::gate_args(case));
    let (report, exit_code) = support::run_json(&args)?;
    let expect = &case["expect"];
    let compile = report["compileError"].as_str();
    let want_code = if compile.is_some() { 1 } else { 0 };
    if exit_code != Some(want_code) {
        return Err(format!("exit code {exit_code:?}, want {want_code}"));
    }
    let dev = &report["devices"][0];
    if let Some(want) = expect["compileError"].as_str() {
        return match compile {
            Some(got) if got.contains(want) => Ok(()),
            other => Err(format!(
                "want compile error {want:?}, got {other:?} / {dev}"
            )),
        };
    }
    if let Some(c) = compile {
        return Err(format!("unexpected compile error: {c}"));
    }
    if let Some(want) = expect["runtimeError"].as_str() {
        return match dev["error"].as_str() {
            Some(got) if got.contains(want) && dev["matches"].is_null() => Ok(()),
            _ => Err(format!("want runtime error {want:?}, got {dev}")),
        };
    }
    let want = expect["result"].as_bool();
    if dev["matches"].as_bool() == want && dev["error"].is_null() {
        Ok(())
    } else {
        Err(format!("want result {want:?}, got {dev}"))
    }
}

#[test]
fn cel_conformance() {
    support::run_suite("cel", 74, judge_case);
}

/// The 400 randomized cases whose verdicts the upstream DRA CEL environment
/// itself produced (testdata/conformance/generated/README.md).
#[test]
fn generated_cel_conformance() {
    support::run_suite("generated/cel", 400, judge_case);
}

#[test]
fn harness_detects_a_wrong_verdict() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-cel-neg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = support::cases("cel");
    let (name, case) = cases.iter().find(|(n, _)| n == "driver-match").unwrap();
    assert!(judge_case(case, &dir, name).is_ok());
    let mut wrong = case.clone();
    wrong["expect"]["result"] = false.into();
    assert!(judge_case(&wrong, &dir, name).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
