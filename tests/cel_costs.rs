//! The apiserver's estimated cost of a selector (`CompilationResult.MaxCost`,
//! checked against `CELSelectorExpressionMaxCost`): every expression of
//! kubernetes/dynamic-resource-allocation's `cel/compile_test.go` whose
//! `expectCost` the upstream test asserts, extracted into
//! `testdata/cel-costs/` (data only), with the compiler features and the
//! environment (stored or new expressions) each case names.

mod support;

use dra_core::cel::{Env, Program};
use dra_core::gates::{FeatureGates, Version};

/// The environment of that compiler; `None` when the release has no such
/// feature (DRAListTypeAttributes arrived in 1.36: older tests run once).
fn env(version: Version, stored: bool, list_types: bool, consumable: bool) -> Option<Env> {
    let mut gates = FeatureGates::defaults(version);
    if gates.set("DRAListTypeAttributes", list_types).is_err() && list_types {
        return None;
    }
    gates.set("DRAConsumableCapacity", consumable).unwrap();
    Some(if stored {
        Env::stored(&gates)
    } else {
        Env::new(&gates)
    })
}

#[test]
fn estimated_costs_are_the_upstream_compilers() {
    let mut wrong = Vec::new();
    for (file, version, at_least) in [
        ("release-1.34", Version::V1_34, 30),
        ("release-1.35", Version::V1_35, 30),
        ("release-1.36", Version::V1_36, 60),
        ("release-1.37", Version::V1_37, 60),
    ] {
        let path = support::root().join(format!("testdata/cel-costs/{file}.yaml"));
        let fixture = support::load_yaml(&path);
        let cases = fixture["cases"].as_array().expect("cases");
        assert!(cases.len() >= at_least, "{file} lost its cases");
        wrong.extend(
            differences(cases, version)
                .into_iter()
                .map(|w| format!("{file}: {w}")),
        );
    }
    assert!(
        wrong.is_empty(),
        "{} of the upstream costs differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn differences(cases: &[serde_json::Value], version: Version) -> Vec<String> {
    let mut wrong = Vec::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let expression = case["expression"].as_str().unwrap();
        let want = case["cost"].as_f64().unwrap();
        let stored = case["env"] == "stored";
        let consumable = case["consumableCapacity"].as_bool().unwrap();
        let list_types: &[bool] = match case["listTypes"].as_bool() {
            Some(true) => &[true],
            Some(false) => &[false],
            None => &[false, true],
        };
        for &lt in list_types {
            let Some(env) = env(version, stored, lt, consumable) else {
                continue;
            };
            let got = Program::compile(expression, &env).map(|p| p.estimated_cost);
            if got.as_ref().ok() != Some(&want) {
                wrong.push(format!(
                    "{name} (list types {lt}): {expression}\n  estimated {got:?}, upstream {want}"
                ));
            }
        }
    }
    wrong
}
