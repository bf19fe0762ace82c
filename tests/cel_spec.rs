//! The CEL conformance suite (google/cel-spec `tests/simple/testdata`) run
//! against this engine in the Kubernetes environment: the cases of
//! cel.dev/expr v0.24.0, which cel-go v0.26.0 (Kubernetes 1.34-1.36) runs its
//! conformance test with, in the stored environments of 1.34, 1.35 and 1.36,
//! and those of v0.25.1 (cel-go v0.27.0, Kubernetes 1.37) in 1.37's. Extracted by
//! `scripts/extract-cel-spec.py` into `testdata/cel-spec/<tag>/`: expressions
//! with an expected value or error, their variables (when of plain types)
//! bound with `cel.bind`; no containers or protocol buffer messages, which a
//! device selector cannot use.
//!
//! Kubernetes' environment is not the suite's: it has no math or encoders
//! extension, refuses mixed-type list and map literals
//! (HomogeneousAggregateLiterals), and its string extension is version 2.
//! Every case whose answer differs here is listed with its reason in
//! `testdata/cel-spec/DIFFERENCES`; the test fails when another case
//! differs, and when a listed one stops differing.

mod support;

use std::collections::BTreeMap;
use std::sync::Arc;

use dra_core::cel::{Device, Env, Program, Value};
use dra_core::gates::{FeatureGates, Version};
use serde_json::Value as Json;

const SUITES: [(&str, Version); 4] = [
    ("v0.24.0", Version::V1_34),
    ("v0.24.0", Version::V1_35),
    ("v0.24.0", Version::V1_36),
    ("v0.25.1", Version::V1_37),
];

/// What a case gave here, in the suite's terms.
#[derive(Debug)]
enum Outcome {
    Value(Value),
    CompileError(String),
    EvalError(String),
}

fn run(expr: &str, env: &Env, device: &Arc<Device>) -> Outcome {
    match Program::compile_any(expr, env) {
        Err(e) => Outcome::CompileError(e.message),
        Ok(p) => match p.evaluate(device) {
            Ok(v) => Outcome::Value(v),
            Err(e) => Outcome::EvalError(e.0),
        },
    }
}

fn double(text: &str) -> f64 {
    match text {
        "inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "nan" => f64::NAN,
        t => t.parse().unwrap_or_else(|_| panic!("double {t}")),
    }
}

/// Whether a value is the suite's tagged expected value.
fn same(got: &Value, want: &Json) -> bool {
    let (tag, w) = want
        .as_object()
        .and_then(|o| o.iter().next())
        .expect("tagged");
    match (tag.as_str(), got) {
        ("null", Value::Null) => true,
        ("bool", Value::Bool(b)) => w.as_bool() == Some(*b),
        ("int", Value::Int(i)) => w.as_str() == Some(&i.to_string()),
        ("uint", Value::Uint(u)) => w.as_str() == Some(&u.to_string()),
        ("double", Value::Double(d)) => {
            let e = double(w.as_str().unwrap());
            (e.is_nan() && d.is_nan()) || e == *d
        }
        ("string", Value::String(s)) => w.as_str() == Some(&**s),
        ("bytes", Value::Bytes(b)) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            w.as_str() == Some(&hex)
        }
        ("type", Value::Type(t)) => w.as_str() == Some(*t),
        ("list", Value::List(items)) => {
            let w = w.as_array().unwrap();
            w.len() == items.len() && items.iter().zip(w).all(|(g, w)| same(g, w))
        }
        ("map", Value::Map(m)) => {
            let w = w.as_array().unwrap();
            w.len() == m.entries.len()
                && w.iter().all(|pair| {
                    m.entries
                        .iter()
                        .any(|(k, v)| same(k, &pair[0]) && same(v, &pair[1]))
                })
        }
        _ => false,
    }
}

/// Why a case's outcome is not the suite's answer, or `None` when it is.
fn differs(outcome: &Outcome, case: &Json) -> Option<String> {
    match (outcome, case.get("value"), case.get("error")) {
        (Outcome::Value(v), Some(want), _) if same(v, want) => None,
        (Outcome::EvalError(_), None, Some(_)) => None,
        (Outcome::Value(v), _, _) => Some(format!("gave {v:?}")),
        (Outcome::CompileError(e), _, _) => Some(format!("compile error: {e}")),
        (Outcome::EvalError(e), _, _) => Some(format!("evaluation error: {e}")),
    }
}

/// The expression with the case's variables bound by `cel.bind` to
/// literals of their values: Kubernetes' environment declares no variable
/// but `device`, and a bound literal has the type the case declares (the
/// extractor keeps only variables of primitive types and lists and maps of
/// them).
fn bound(expr: &str, case: &Json) -> String {
    let vars = case["vars"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    vars.iter().rev().fold(expr.to_owned(), |inner, v| {
        format!(
            "cel.bind({}, {}, {inner})",
            v["name"].as_str().unwrap(),
            v["literal"].as_str().unwrap()
        )
    })
}

/// The listed differences: case id to reason.
fn listed() -> BTreeMap<String, String> {
    let path = support::root().join("testdata/cel-spec/DIFFERENCES");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (id, why) = l.split_once(": ").unwrap_or((l, ""));
            (id.trim().to_string(), why.to_string())
        })
        .collect()
}

#[test]
fn the_cel_conformance_suite_runs_as_in_kubernetes() {
    let listed = listed();
    let mut unlisted = Vec::new();
    let mut passing = Vec::new();
    let mut ran = 0;
    for (tag, version) in SUITES {
        let env = Env::stored(&FeatureGates::defaults(version));
        let loaded = dra_core::yaml::load("name: d\n", dra_core::yaml::Limits::default());
        let device = Arc::new(Device::from_node("", &loaded.documents[0].root, true));
        let dir = support::root().join("testdata/cel-spec").join(tag);
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        files.sort_by_key(|f| f.path());
        for file in files {
            let doc: Json =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            for case in doc["cases"].as_array().unwrap() {
                ran += 1;
                let id = format!("{tag}/{}", case["id"].as_str().unwrap());
                let expr = case["expr"].as_str().unwrap();
                let outcome = run(&bound(expr, case), &env, &device);
                match (differs(&outcome, case), listed.contains_key(&id)) {
                    (Some(why), false) => unlisted.push(format!("{id}: {expr:?} {why}")),
                    (None, true) => passing.push(id),
                    _ => {}
                }
            }
        }
    }
    assert!(ran > 2000, "the suite lost its cases ({ran})");
    assert!(
        unlisted.is_empty() && passing.is_empty(),
        "{} cases differ and are not in testdata/cel-spec/DIFFERENCES:\n{}\n\n\
         {} listed cases no longer differ (remove them):\n{}",
        unlisted.len(),
        unlisted.join("\n"),
        passing.len(),
        passing.join("\n")
    );
}
