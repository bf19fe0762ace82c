//! What the scheduler's allocator of each release does differently, read
//! in kubernetes/dynamic-resource-allocation at release-1.34, release-1.35,
//! release-1.36 and 3d036712930c (the 1.37 line): structured/allocator.go
//! (which implementation), structured/internal/*/pools_*.go (GatherPools)
//! and allocator_*.go (allocateOne, allocateDevice, the results).

use super::test_support::{allocate, claim, run};
use super::Variant;
use crate::gates::{FeatureGates, Version};

/// A slice of driver a.example.com on `node` in pool p.
fn slice(name: &str, node: &str, count: u8, devices: &str) -> String {
    format!(
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: {name}}}\nspec:\n  driver: a.example.com\n  nodeName: {node}\n  pool: {{name: p, generation: 1, resourceSliceCount: {count}}}\n  devices:\n{devices}---\n"
    )
}

const ONE: &str = "    requests: [{name: r, exactly: {deviceClassName: a}}]\n";
const ALL: &str = "    requests: [{name: r, exactly: {deviceClassName: a, allocationMode: All}}]\n";

#[test]
fn each_release_picks_its_implementation() {
    let variant = |v: Version, off: &[&str]| {
        let mut g = FeatureGates::defaults(v);
        for name in off {
            g.set(name, false).unwrap();
        }
        Variant::for_gates(&g)
    };
    // 1.34 hands device status to the allocator apart from binding
    // conditions: on by default, only experimental supports it.
    assert_eq!(variant(Version::V1_34, &[]), Variant::Experimental);
    assert_eq!(
        variant(Version::V1_34, &["DRAResourceClaimDeviceStatus"]),
        Variant::Incubating
    );
    let basic = [
        "DRAAdminAccess",
        "DRAPrioritizedList",
        "DRAResourceClaimDeviceStatus",
    ];
    assert_eq!(variant(Version::V1_34, &basic), Variant::Stable);
    // 1.35: both gates together; stable still supports nothing.
    assert_eq!(variant(Version::V1_35, &[]), Variant::Incubating);
    assert_eq!(variant(Version::V1_35, &basic[..2]), Variant::Stable);
    // 1.36: consumable capacity on by default, which incubating supports.
    assert_eq!(variant(Version::V1_36, &[]), Variant::Incubating);
    let newer = ["DRAConsumableCapacity", "DRADeviceBindingConditions"];
    assert_eq!(variant(Version::V1_36, &newer), Variant::Stable);
}

#[test]
fn distinct_attribute_per_release() {
    // Two devices with the same numa, both wanted with distinct numa.
    let devices = "  - {name: d0, attributes: {numa: {int: 0}}}\n  - {name: d1, attributes: {numa: {int: 0}}}\n";
    let objects = slice("s", "n1", 1, devices)
        + &claim(
            "c",
            "    requests: [{name: r, exactly: {deviceClassName: a, count: 2}}]\n    constraints: [{distinctAttribute: a.example.com/numa}]\n",
        );
    // 1.34 by default runs the experimental implementation, whose
    // distinctAttribute compared the values' pointers: never equal.
    assert_eq!(
        run(&objects, Version::V1_34, &[]),
        Ok(vec!["d0".into(), "d1".into()])
    );
    let empty = Err(
        "claim default/c, constraint #0: empty constraint (unsupported constraint type?)"
            .to_owned(),
    );
    assert_eq!(
        run(&objects, Version::V1_34, &["-DRAResourceClaimDeviceStatus"]),
        empty
    );
    // 1.35's incubating implementation does not know it.
    assert_eq!(run(&objects, Version::V1_35, &[]), empty);
    // With consumable capacity the values are compared.
    for v in [Version::V1_35, Version::V1_36, Version::V1_37] {
        let out = run(&objects, v, &["DRAConsumableCapacity"]);
        assert_eq!(out, Err("unsatisfiable".into()), "{v:?}");
    }
}

#[test]
fn an_incomplete_pool_is_searched_in_1_34() {
    // One of two slices published: 1.34 allocates from what is there;
    // later releases skip the pool until it is complete.
    let objects = slice("s", "n1", 2, "  - {name: d0}\n") + &claim("c", ONE);
    assert_eq!(run(&objects, Version::V1_34, &[]), Ok(vec!["d0".into()]));
    for v in [Version::V1_35, Version::V1_36, Version::V1_37] {
        assert_eq!(run(&objects, v, &[]), Err("unsatisfiable".into()), "{v:?}");
    }
}

#[test]
fn a_pool_across_nodes_is_incomplete_to_1_34() {
    // 1.34 counts only the node's slices; from 1.35 the pool's others too,
    // so "all devices" is the node's device there.
    let objects = slice("s1", "n1", 2, "  - {name: d0}\n")
        + &slice("s2", "n2", 2, "  - {name: d1}\n")
        + &claim("c", ALL);
    assert_eq!(
        run(&objects, Version::V1_34, &[]),
        Err("claim default/c, request r: asks for all devices, but resource pool a.example.com/p is currently being updated".into())
    );
    assert_eq!(run(&objects, Version::V1_35, &[]), Ok(vec!["d0".into()]));
    // An exact count takes the device in 1.34.
    let one = objects.replace("allocationMode: All", "count: 1");
    assert_eq!(run(&one, Version::V1_34, &[]), Ok(vec!["d0".into()]));
}

#[test]
fn an_invalid_pool_is_an_error_in_1_34() {
    let objects = slice("s1", "n1", 2, "  - {name: d0}\n")
        + &slice("s2", "n1", 2, "  - {name: d0}\n")
        + &claim("c", ONE);
    assert_eq!(
        run(&objects, Version::V1_34, &[]),
        Err("pool p is invalid: duplicate device name d0".into())
    );
    // Later: skipped, and the node fails with "invalid resource pools
    // were encountered", which the scheduler reports as unschedulable.
    assert_eq!(
        run(&objects, Version::V1_37, &[]),
        Err("unsatisfiable".into())
    );
}

#[test]
fn results_carry_tolerations_from_1_35() {
    let objects = slice("s", "n1", 1, "  - {name: d0, taints: [{key: k, effect: NoSchedule}]}\n")
        + &claim(
            "c",
            "    requests: [{name: r, exactly: {deviceClassName: a, tolerations: [{key: k, operator: Exists}]}}]\n",
        );
    let tolerations = |v| {
        let claims = allocate(&objects, v, &["DRADeviceTaints"]).unwrap();
        claims[0].results[0].tolerations.clone()
    };
    assert_eq!(tolerations(Version::V1_34), None);
    assert_eq!(
        tolerations(Version::V1_35),
        Some(serde_json::json!([{"key": "k", "operator": "Exists"}]))
    );
}

#[test]
fn a_taint_of_effect_none_keeps_a_device_only_in_1_34() {
    let objects = slice(
        "s",
        "n1",
        1,
        "  - {name: d0, taints: [{key: k, effect: None}]}\n",
    ) + &claim("c", ONE);
    let gates = ["DRADeviceTaints"];
    assert_eq!(
        run(&objects, Version::V1_34, &gates),
        Err("unsatisfiable".into())
    );
    assert_eq!(run(&objects, Version::V1_35, &gates), Ok(vec!["d0".into()]));
}

#[test]
fn a_slice_with_counters_is_a_slice_like_any_other_in_1_34() {
    // DRAPartitionableDevices off: 1.34 leaves out only slices with
    // perDeviceNodeSelection, so a device that consumes no counter in a
    // slice that also lists counter sets is allocated; from 1.35 such a
    // slice is a counter slice, skipped with the gate off.
    let objects = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: a.example.com\n  nodeName: n1\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  sharedCounters: [{name: gpu-0, counters: {memory: {value: '2'}}}]\n  devices:\n  - {name: d0}\n---\n".to_owned()
        + &claim("c", ONE);
    let off = ["-DRAPartitionableDevices"];
    assert_eq!(run(&objects, Version::V1_34, &off), Ok(vec!["d0".into()]));
    assert_eq!(
        run(&objects, Version::V1_35, &off),
        Err("unsatisfiable".into())
    );
}
