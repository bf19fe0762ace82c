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
    outcome_of(CLASS_AND_CLAIM, slices, node, Version::LATEST)
}

/// The outcome of claim `w` of `claim` (its class too) at `version`'s
/// default gates.
fn outcome_of(claim: &str, slices: &str, node: &str, version: Version) -> Outcome {
    let files = [SourceFile {
        name: "x.yaml".into(),
        text: format!("{claim}---\n{slices}"),
    }];
    let objects = load_objects(&files, Default::default()).0;
    let gates = FeatureGates::defaults(version);
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

/// 1.35 and 1.36's GatherPools take a slice with shared counters for every
/// node before they look at node selection (`relevant = true` when it has
/// shared counters): its selector is never parsed. 1.37's incubating and
/// experimental implementations select it as any slice (98209ff), so the
/// selector that does not parse stops GatherPools.
#[test]
fn a_counter_slice_is_for_every_node_whatever_its_selector() {
    let slices = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s0}\nspec:\n  driver: x.example.com\n  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: [{key: zone, operator: Near, values: [a]}]\n  pool: {name: p, generation: 1, resourceSliceCount: 2}\n  sharedCounters:\n  - name: set\n    counters:\n      memory: {value: 8Gi}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s1}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {name: p, generation: 1, resourceSliceCount: 2}\n  devices:\n  - name: d\n    consumesCounters:\n    - counterSet: set\n      counters:\n        memory: {value: 1Gi}\n";
    assert!(matches!(
        outcome_of(CLASS_AND_CLAIM, slices, "node-1", Version::V1_36),
        Outcome::Allocated { .. }
    ));
    match outcome_of(CLASS_AND_CLAIM, slices, "node-1", Version::V1_37) {
        Outcome::Error { error, .. } => assert!(
            error.contains(
                "failed to perform node selection for slice s0: failed to parse node selector"
            ),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
}

/// A claim for all devices of a class of gpu.example.com, beside a
/// partitionable fpga.example.com pool whose devices are all on node-b and
/// whose third slice is missing.
const ALL_GPUS: &str = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec:\n  selectors:\n  - cel: {expression: device.driver == \"gpu.example.com\"}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: w, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, allocationMode: All}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: gpus}\nspec:\n  driver: gpu.example.com\n  nodeName: node-a\n  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n  devices: [{name: gpu-0}]\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: fpga-devices}\nspec:\n  driver: fpga.example.com\n  nodeName: node-b\n  pool: {name: shared, generation: 1, resourceSliceCount: 3}\n  devices:\n  - name: f0\n    consumesCounters:\n    - counterSet: set\n      counters:\n        mem: {value: 1Gi}\n";

/// The incomplete fpga pool's counter slice, with the given node selection.
fn fpga_counters(selection: &str) -> String {
    format!("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: fpga-counters}}\nspec:\n  driver: fpga.example.com\n  {selection}\n  pool: {{name: shared, generation: 1, resourceSliceCount: 3}}\n  sharedCounters:\n  - name: set\n    counters:\n      mem: {{value: 8Gi}}\n")
}

/// A counter slice that GatherPools takes for node-a puts its pool there,
/// empty of devices; incomplete, it fails a request for all devices of any
/// class (validateDeviceRequest: "asks for all devices, but resource pool
/// ... is currently being updated"), as kube-scheduler does. 1.36 takes a
/// counter slice for every node; 1.37 (98209ff) only one that selects the
/// node, so a counter slice bound to node-b leaves node-a alone there.
#[test]
fn an_incomplete_counter_pool_fails_all_mode_where_gathered() {
    let fails = |o: Outcome| {
        match o {
        Outcome::Error { error, .. } => assert!(
            error.contains("asks for all devices, but resource pool fpga.example.com/shared is currently being updated"),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
    };
    let allocated = |o: Outcome| assert!(matches!(o, Outcome::Allocated { .. }), "{o:?}");
    for (selection, on_1_37_fails) in [("allNodes: true", true), ("nodeName: node-b", false)] {
        let slices = fpga_counters(selection);
        fails(outcome_of(ALL_GPUS, &slices, "node-a", Version::V1_36));
        if on_1_37_fails {
            fails(outcome_of(ALL_GPUS, &slices, "node-a", Version::V1_37));
        } else {
            allocated(outcome_of(ALL_GPUS, &slices, "node-a", Version::V1_37));
        }
    }
    // Complete, the pool is empty on node-a and changes nothing.
    let complete = ALL_GPUS.replace("resourceSliceCount: 3", "resourceSliceCount: 2");
    let slices =
        fpga_counters("allNodes: true").replace("resourceSliceCount: 3", "resourceSliceCount: 2");
    allocated(outcome_of(&complete, &slices, "node-a", Version::V1_36));
    allocated(outcome_of(&complete, &slices, "node-a", Version::V1_37));
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

/// Building the pool index decodes no device: the search decodes a pool's
/// devices when it first gathers the pool, so a fleet of nodes alike
/// decodes one node's. The counter-pool check (counter_pools.rs) read
/// every partitionable pool's devices and kept them: at 20,000 nodes a
/// third more peak memory for `explain claim`.
#[test]
fn the_pool_index_decodes_no_device() {
    let text = crate::fleet::generate(crate::fleet::FleetSpec {
        nodes: 3,
        gpus_per_node: 2,
        partitions_per_gpu: 2,
    });
    let files = [SourceFile {
        name: "fleet.yaml".into(),
        text,
    }];
    let objects = load_objects(&files, Default::default()).0;
    let index = super::PoolIndex::new(&objects);
    let slices: Vec<_> = index.pools.values().flatten().collect();
    assert!(slices.iter().any(|s| !s.shared_counters.is_empty()));
    assert!(slices.iter().any(|s| s.device_count() > 0));
    assert!(slices.iter().all(|s| !s.devices_decoded()));
}
