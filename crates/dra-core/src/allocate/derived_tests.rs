//! Derived attributes in constraints (1.37, DRADerivedAttributes alpha).
//! No allocator code of that line is available to read; these follow
//! KEP-6080 ("Scheduler Plugin Implementation"): a request's derived
//! attribute is evaluated on each candidate device after its selectors,
//! a constraint looks the name up among the derived attributes of the
//! device's request before the device's own attributes, and an evaluation
//! error aborts the allocation. With the gate off the scheduler ignores
//! them (the KEP's version-skew section).

use super::{Allocator, Outcome};
use crate::gates::{FeatureGates, Version};
use crate::lint::{load_objects, SourceFile};

const INVENTORY: &str = "apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: x.example.com
  nodeName: n1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: d0, attributes: {numa: {int: 0}, model: {string: a}}}
  - {name: d1, attributes: {numa: {int: 1}, model: {string: b}}}
  - {name: d2, attributes: {numa: {int: 0}, model: {string: c}}}
  - {name: d3}
";

/// The objects of a file, and the 1.37 gates with these switched on.
fn load(text: String, gates: &[&str]) -> (Vec<crate::model::Object>, FeatureGates) {
    let objects = load_objects(
        &[SourceFile {
            name: "d.yaml".into(),
            text,
        }],
        Default::default(),
    )
    .0;
    let mut g = FeatureGates::defaults(Version::V1_37);
    for name in gates {
        g.set(name, true).unwrap();
    }
    (objects, g)
}

/// The devices allocated to claim `c` on n1, or the outcome's error.
fn run(claim_spec: &str, gates: &[&str]) -> Result<Vec<String>, String> {
    let text = format!(
        "{INVENTORY}---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: default}}\nspec:\n{claim_spec}"
    );
    let (objects, g) = load(text, gates);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("c")).collect();
    match Allocator::new(&objects, &g, &claims).on_node("n1") {
        Outcome::Allocated { claims } => Ok(claims[0]
            .results
            .iter()
            .map(|r| r.device.to_string())
            .collect()),
        Outcome::Unsatisfiable { .. } => Err("unsatisfiable".into()),
        Outcome::Error { error, .. } => Err(error),
        other => Err(format!("{other:?}")),
    }
}

fn request(count: u32, expression: &str, constraint: &str) -> String {
    format!(
        "  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        count: {count}\n        selectors:\n        - cel: {{expression: 'has(device.attributes[\"x.example.com\"].numa)'}}\n        derivedAttributes:\n        - name: derived/numa\n          expression: '{expression}'\n    constraints:\n    - {constraint}: derived/numa\n"
    )
}

const ON: &[&str] = &["DRADerivedAttributes"];

#[test]
fn a_constraint_reads_the_request_s_derived_attribute() {
    let numa = "device.attributes[\"x.example.com\"].numa";
    assert_eq!(
        run(&request(2, numa, "matchAttribute"), ON),
        Ok(vec!["d0".into(), "d2".into()])
    );
    assert_eq!(
        run(&request(2, numa, "distinctAttribute"), ON),
        Ok(vec!["d0".into(), "d1".into()])
    );
    // Three devices share no derived value; a constant is shared by all.
    assert_eq!(
        run(&request(3, numa, "matchAttribute"), ON),
        Err("unsatisfiable".into())
    );
    assert_eq!(
        run(&request(3, "\"all\"", "matchAttribute"), ON),
        Ok(vec!["d0".into(), "d1".into(), "d2".into()])
    );
}

/// While the gate is off the scheduler ignores derived attributes: the
/// constraint looks for a device attribute of that name, which none has.
#[test]
fn with_the_gate_off_derived_attributes_are_ignored() {
    let numa = "device.attributes[\"x.example.com\"].numa";
    assert_eq!(
        run(&request(2, numa, "matchAttribute"), &[]),
        Err("unsatisfiable".into())
    );
}

/// A derived attribute named like a device attribute is looked up first.
#[test]
fn a_derived_attribute_shadows_the_device_s_own() {
    let spec = "  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu\n        count: 3\n        selectors:\n        - cel: {expression: 'has(device.attributes[\"x.example.com\"].numa)'}\n        derivedAttributes:\n        - {name: x.example.com/model, expression: '\"same\"'}\n    constraints:\n    - matchAttribute: x.example.com/model\n";
    assert_eq!(
        run(spec, ON),
        Ok(vec!["d0".into(), "d1".into(), "d2".into()])
    );
    assert_eq!(run(spec, &[]), Err("unsatisfiable".into()));
}

/// An evaluation error ends the allocation, naming the request, the
/// attribute and the device; so does a value no attribute can hold.
#[test]
fn an_evaluation_error_aborts() {
    let error = run(
        &request(
            2,
            "device.attributes[\"x.example.com\"].missing",
            "matchAttribute",
        ),
        ON,
    )
    .unwrap_err();
    assert!(
        error.starts_with("claim default/c, request gpu: derived attribute derived/numa: on device x.example.com/p/d0: CEL runtime error: no such key: missing"),
        "{error}"
    );
    let error = run(
        &request(2, "[dyn(1), dyn(\"a\")]", "matchAttribute"),
        &["DRADerivedAttributes", "DRAListTypeAttributes"],
    )
    .unwrap_err();
    assert!(
        error.ends_with("expected list element at index 1 to be int, got string"),
        "{error}"
    );
}

/// Nodes alike are searched once; what a derived expression reads makes
/// nodes differ, as a selector's reads do.
#[test]
fn what_a_derived_expression_reads_tells_nodes_apart() {
    // String values: nodes whose strings differ only where no claim reads
    // them are alike (integers always tell nodes apart).
    let slice = |node: &str, numas: [&str; 3]| {
        let devices: String = numas
            .iter()
            .enumerate()
            .map(|(i, n)| format!("  - {{name: d{i}, attributes: {{numa: {{string: {n}}}}}}}\n"))
            .collect();
        format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: {node}}}\nspec:\n  driver: x.example.com\n  nodeName: {node}\n  pool: {{name: {node}, generation: 1, resourceSliceCount: 1}}\n  devices:\n{devices}")
    };
    // Nodes' own pools are compared from 32 nodes on (COMPARE_LOCAL_FROM).
    let nodes: Vec<String> = (1..=32).map(|i| format!("n{i}")).collect();
    let others: String = nodes[1..]
        .iter()
        .map(|n| slice(n, ["a", "b", "c"]))
        .collect();
    let text = format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: gpu}}\nspec: {{}}\n{}{}---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: default}}\nspec:\n{}",
        slice("n1", ["a", "b", "a"]),
        others,
        // No selector reads numa: only the derived expression does.
        request(2, "device.attributes[\"x.example.com\"].numa", "matchAttribute").replace(
            "        selectors:\n        - cel: {expression: 'has(device.attributes[\"x.example.com\"].numa)'}\n",
            ""
        )
    );
    let (objects, g) = load(text, ON);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("c")).collect();
    let outcomes = Allocator::new(&objects, &g, &claims).on_nodes(&nodes);
    assert!(
        matches!(outcomes[0], Outcome::Allocated { .. }),
        "{:?}",
        outcomes[0]
    );
    for o in &outcomes[1..] {
        assert!(matches!(o, Outcome::Unsatisfiable { .. }), "{o:?}");
    }
}

/// KEP-6080: derived attributes are evaluated on each candidate device
/// once it passes the request's selectors, before any other check (here a
/// taint the request does not tolerate): an error there aborts too.
#[test]
fn a_candidate_is_evaluated_after_its_selectors() {
    let text = format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: gpu}}\nspec: {{}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: x.example.com\n  nodeName: n1\n  pool: {{name: p, generation: 1, resourceSliceCount: 1}}\n  devices:\n  - {{name: d0, taints: [{{key: broken, effect: NoSchedule}}]}}\n  - {{name: d1, attributes: {{numa: {{int: 0}}}}}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: c, namespace: default}}\nspec:\n{}",
        request(1, "device.attributes[\"x.example.com\"].numa", "matchAttribute").replace(
            "        selectors:\n        - cel: {expression: 'has(device.attributes[\"x.example.com\"].numa)'}\n",
            ""
        )
    );
    let (objects, g) = load(text, ON);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("c")).collect();
    match Allocator::new(&objects, &g, &claims).on_node("n1") {
        Outcome::Error { error, .. } => assert!(
            error.contains("derived attribute derived/numa: on device x.example.com/p/d0: CEL runtime error: no such key: numa"),
            "{error}"
        ),
        other => panic!("expected the evaluation error: {other:?}"),
    }
}
