//! The Kubernetes DRA CEL compiler's own tests, as data: every case of
//! kubernetes/dynamic-resource-allocation's `cel/compile_test.go` on
//! release-1.34, release-1.35, release-1.36 and master at 3d036712930c (the
//! 1.37 line, the commit the generated conformance cases ran; newer than the
//! v0.37.0-alpha.2 tag, whose list attributes still needed the gate),
//! extracted into `testdata/cel-upstream/` by `scripts/extract-cel-*.py`
//! (expressions, devices and expected answers only). Each runs with the compiler features and the
//! environment (stored or new expressions) the case names:
//! - `costs-*.yaml`: the estimated cost the apiserver checks against
//!   `CELSelectorExpressionMaxCost` (`CompilationResult.MaxCost`, the
//!   test's `expectCost`);
//! - `matches-*.yaml`: the compile error, or the match or evaluation error
//!   on the device (`expectCompileError`, `expectMatch`,
//!   `expectMatchError`). Cases whose device the test builds in code (the
//!   `expensive` one) are not extracted.

mod support;

use std::sync::Arc;

use dra_core::cel::{Device, Env, Program};
use dra_core::gates::{FeatureGates, Version};
use serde_json::Value;

const RELEASES: [(&str, Version); 4] = [
    ("release-1.34", Version::V1_34),
    ("release-1.35", Version::V1_35),
    ("release-1.36", Version::V1_36),
    ("release-1.37", Version::V1_37),
];

/// The compiler of that release with these features, and its gates;
/// `None` when the release has no such feature (DRAListTypeAttributes
/// arrived in 1.36: the older tests run once).
fn compiler(version: Version, case: &Value, list_types: bool) -> Option<(Env, FeatureGates)> {
    let mut gates = FeatureGates::defaults(version);
    if gates.set("DRAListTypeAttributes", list_types).is_err() && list_types {
        return None;
    }
    let consumable = case["consumableCapacity"].as_bool().unwrap_or(false);
    gates.set("DRAConsumableCapacity", consumable).unwrap();
    let env = if case["env"] == "stored" {
        Env::stored(&gates)
    } else {
        Env::new(&gates)
    };
    Some((env, gates))
}

/// The list-types settings a case runs with.
fn list_types(case: &Value) -> &'static [bool] {
    match case["listTypes"].as_bool() {
        Some(true) => &[true],
        Some(false) => &[false],
        None => &[false, true],
    }
}

fn cases(file: &str) -> Vec<Value> {
    let path = support::root().join(format!("testdata/cel-upstream/{file}.yaml"));
    support::load_yaml(&path)["cases"]
        .as_array()
        .expect("cases")
        .clone()
}

#[test]
fn estimated_costs_are_the_upstream_compilers() {
    let mut wrong = Vec::new();
    for (release, version) in RELEASES {
        let cases = cases(&format!("costs-{release}"));
        assert!(cases.len() >= 30, "{release} lost its cases");
        for case in &cases {
            let expression = case["expression"].as_str().unwrap();
            let want = case["cost"].as_f64().unwrap();
            for &lt in list_types(case) {
                let Some((env, _)) = compiler(version, case, lt) else {
                    continue;
                };
                let got = Program::compile(expression, &env).map(|p| p.estimated_cost);
                if got.as_ref().ok() != Some(&want) {
                    wrong.push(format!(
                        "{release} {} (list types {lt}): {expression}\n  estimated {got:?}, upstream {want}",
                        case["name"]
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} upstream costs differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The device of a case as a ResourceSlice device entry.
fn device(case: &Value, gates: &FeatureGates) -> Arc<Device> {
    let mut text = String::from("name: d\n");
    if let Some(b) = case["allowMultipleAllocations"].as_bool() {
        text.push_str(&format!("allowMultipleAllocations: {b}\n"));
    }
    for key in ["attributes", "capacity"] {
        if let Some(map) = case[key].as_object() {
            text.push_str(&format!("{key}:\n"));
            for (name, value) in map {
                text.push_str(&format!(
                    "  {}: {value}\n",
                    serde_json::to_string(name).unwrap()
                ));
            }
        }
    }
    let loaded = dra_core::yaml::load(&text, dra_core::yaml::Limits::default());
    let driver = case["driver"].as_str().unwrap_or("");
    Arc::new(Device::from_node(
        driver,
        &loaded.documents[0].root,
        dra_core::cel::list_values_converted(gates),
    ))
}

#[test]
fn matches_are_the_upstream_compilers() {
    let mut wrong = Vec::new();
    for (release, version) in RELEASES {
        let cases = cases(&format!("matches-{release}"));
        assert!(cases.len() >= 30, "{release} lost its cases");
        for case in &cases {
            let expression = case["expression"].as_str().unwrap();
            for &lt in list_types(case) {
                let Some((env, gates)) = compiler(version, case, lt) else {
                    continue;
                };
                let what = format!("{release} {} (list types {lt}): {expression}", case["name"]);
                let program = Program::compile(expression, &env);
                if let Some(want) = case["compileError"].as_str() {
                    match program {
                        Err(e) if e.message.contains(want) => {}
                        other => wrong.push(format!(
                            "{what}\n  compile error {want:?} expected, got {other:?}"
                        )),
                    }
                    continue;
                }
                let program = match program {
                    Ok(p) => p,
                    Err(e) => {
                        wrong.push(format!("{what}\n  does not compile: {}", e.message));
                        continue;
                    }
                };
                let got = program.matches(&device(case, &gates));
                match (case["matchError"].as_str(), got) {
                    (Some(want), Err(e)) if e.0.contains(want) => {}
                    (None, Ok(m)) if m == case["match"].as_bool().unwrap_or(false) => {}
                    (want, got) => wrong.push(format!(
                        "{what}\n  expected {}, got {got:?}",
                        want.map_or_else(
                            || format!("match {}", case["match"]),
                            |w| format!("error {w:?}")
                        )
                    )),
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} upstream answers differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
