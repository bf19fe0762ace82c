//! Gathering pools, as GatherPools does (pools_experimental.go).

use crate::allocate::{Allocator, Outcome};
use crate::gates::{FeatureGates, Version};
use crate::lint::{load_objects, SourceFile};

/// A device consuming a counter its pool does not define makes the pool
/// invalid, as the scheduler's pool validation does; a known one does not.
#[test]
fn unknown_consumption_makes_the_pool_invalid() {
    for (counter, fits) in [("memory", true), ("bandwidth", false)] {
        let text = format!(
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec: {{}}\n---\n\
             apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s0}}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {{name: p, generation: 1, resourceSliceCount: 2}}\n  sharedCounters:\n  - name: set\n    counters:\n      memory: {{value: 8Gi}}\n---\n\
             apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s1}}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {{name: p, generation: 1, resourceSliceCount: 2}}\n  devices:\n  - name: d\n    consumesCounters:\n    - counterSet: set\n      counters:\n        {counter}: {{value: 1Gi}}\n---\n\
             apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: w, namespace: default}}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {{deviceClassName: c}}\n"
        );
        let files = [SourceFile {
            name: "x.yaml".into(),
            text,
        }];
        let objects = load_objects(&files, Default::default()).0;
        let gates = FeatureGates::defaults(Version::LATEST);
        let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
        match Allocator::new(&objects, &gates, &claims).on_node("node-1") {
            Outcome::Allocated { .. } => assert!(fits, "{counter}"),
            Outcome::Unsatisfiable { reasons, .. } => {
                assert!(!fits, "{counter}: {reasons:?}");
                assert!(
                    reasons
                        .iter()
                        .any(|r| r.kind == crate::allocate::ReasonKind::InvalidPools),
                    "{reasons:?}"
                );
            }
            Outcome::Error { error, .. } => panic!("{counter}: {error}"),
            Outcome::Undecided { reason } => panic!("{counter}: {reason}"),
        }
    }
}

const CLASS_AND_CLAIM: &str = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: w, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c}\n";

/// The outcome of claim `w` on the node, over the slices given.
fn outcome(slices: &str, node: &str) -> Outcome {
    let files = [SourceFile {
        name: "x.yaml".into(),
        text: format!("{CLASS_AND_CLAIM}---\n{slices}"),
    }];
    let objects = load_objects(&files, Default::default()).0;
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    Allocator::new(&objects, &gates, &claims).on_node(node)
}

fn reasons(o: Outcome) -> Vec<String> {
    match o {
        Outcome::Unsatisfiable { reasons, .. } => reasons.into_iter().map(|r| r.text).collect(),
        other => panic!("not unsatisfiable: {other:?}"),
    }
}

/// GatherPools: `isComplete := int64(len(slicesForPool)) ==
/// slicesForPool[0].Spec.Pool.ResourceSliceCount`; an unset count is 0, so
/// such a pool is never complete (the apiserver requires it; a hand-written
/// snapshot may lack it).
#[test]
fn a_pool_without_resource_slice_count_is_incomplete() {
    let slice = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {name: p, generation: 1}\n  devices: [{name: d}]\n";
    let r = reasons(outcome(slice, "node-1"));
    assert!(
        r.iter().any(|r| r.contains("resource pool x.example.com/p is incomplete (generation 1: 1 slice, resourceSliceCount 0)")),
        "{r:?}"
    );
    let counted = slice.replace("generation: 1}", "generation: 1, resourceSliceCount: 1}");
    assert!(matches!(
        outcome(&counted, "node-1"),
        Outcome::Allocated { .. }
    ));
}

/// GatherPools reads the devices of a per-device slice only until one
/// selects the node (`if match { relevant = true; break }`): a device
/// selector that does not parse is an error only for the nodes that reach
/// it.
#[test]
fn per_device_selection_stops_at_the_first_device_for_the_node() {
    let slice = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: x.example.com\n  perDeviceNodeSelection: true\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n  - {name: d0, nodeName: node-1}\n  - name: d1\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchExpressions: [{key: zone, operator: Near, values: [a]}]\n";
    assert!(matches!(
        outcome(slice, "node-1"),
        Outcome::Allocated { .. }
    ));
    match outcome(slice, "node-2") {
        Outcome::Error { error, .. } => assert!(
            error.contains("failed to perform node selection for device d1 in slice s: failed to parse node selector"),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
}

/// GatherPools takes a slice with shared counters for every node before it
/// looks at node selection (`if len(slice.Spec.SharedCounters) > 0 {
/// relevant = true }`): its selector is never parsed.
#[test]
fn a_counter_slice_is_for_every_node_whatever_its_selector() {
    let slices = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s0}\nspec:\n  driver: x.example.com\n  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: [{key: zone, operator: Near, values: [a]}]\n  pool: {name: p, generation: 1, resourceSliceCount: 2}\n  sharedCounters:\n  - name: set\n    counters:\n      memory: {value: 8Gi}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {name: p, generation: 1, resourceSliceCount: 2}\n  devices:\n  - name: d\n    consumesCounters:\n    - counterSet: set\n      counters:\n        memory: {value: 1Gi}\n";
    assert!(matches!(
        outcome(slices, "node-1"),
        Outcome::Allocated { .. }
    ));
}

/// GatherPools reads `ptr.Deref(slice.Spec.NodeName, "")`: an empty
/// nodeName is no node name, and the slice's other selection applies.
#[test]
fn an_empty_node_name_is_unset() {
    let slice = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: x.example.com\n  nodeName: \"\"\n  allNodes: true\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices: [{name: d}]\n";
    assert!(matches!(
        outcome(slice, "node-7"),
        Outcome::Allocated { .. }
    ));
}
