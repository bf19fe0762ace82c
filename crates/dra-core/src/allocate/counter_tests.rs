//! Shared counters as upstream's allocator keeps them, where that differs
//! from the plain rule (counters.rs). Read in kubernetes/
//! dynamic-resource-allocation, structured/internal/{stable,incubating,
//! experimental}/allocator_*.go at release-1.34, release-1.35, release-1.36
//! and 3d036712930c (the 1.37 line): `allocateDevice` charges counters
//! (`checkAvailableCounters`) before the taint, constraint and capacity
//! checks and returns without `deallocateCountersForDevice` when one fails;
//! its rollback gives counters back only for a device that does not allow
//! multiple allocations; `checkAvailableCounters` compares every counter of
//! every counter set it keyed, by pool name from release-1.35, by slice name
//! in release-1.34.

use super::test_support::{claim, outcome, run};
use super::Outcome;
use crate::gates::Version;

/// A node-local pool on n1 with these counter sets and devices: one slice
/// in 1.34 (counter sets lived beside their devices), a counter slice and a
/// device slice from 1.35 (sharedCounters is then alone in its slice).
fn pool(v: Version, driver: &str, pool: &str, counters: &str, devices: &str) -> String {
    let slice = |name: &str, count: u8, body: &str| {
        format!(
            "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: {name}}}\nspec:\n  driver: {driver}\n  nodeName: n1\n  pool: {{name: {pool}, generation: 1, resourceSliceCount: {count}}}\n{body}---\n"
        )
    };
    let counters = format!("  sharedCounters:\n{counters}");
    let devices = format!("  devices:\n{devices}");
    let prefix = format!("{driver}-{pool}");
    if v < Version::V1_35 {
        slice(&prefix, 1, &format!("{counters}{devices}"))
    } else {
        slice(&format!("{prefix}-counters"), 2, &counters)
            + &slice(&format!("{prefix}-devices"), 2, &devices)
    }
}

const ONE_OF_A: &str = "    requests: [{name: r, exactly: {deviceClassName: a}}]\n";
const ALL: [Version; 4] = [
    Version::V1_37,
    Version::V1_36,
    Version::V1_35,
    Version::V1_34,
];

fn set(name: &str, counter: &str, value: u32) -> String {
    format!("  - {{name: {name}, counters: {{{counter}: {{value: '{value}'}}}}}}\n")
}

fn device(name: &str, extra: &str, set: &str, counter: &str, value: u32) -> String {
    format!("  - {{name: {name}, {extra}consumesCounters: [{{counterSet: {set}, counters: {{{counter}: {{value: '{value}'}}}}}}]}}\n")
}

#[test]
fn a_device_rejected_by_its_taint_keeps_its_counters() {
    // "whole" passes the selectors, is charged the whole GPU, then fails its
    // taint: the halves find the counter used up. Without the taint
    // "whole" is allocated; by the plain rule half-a would be.
    let gates = ["DRAPartitionableDevices", "DRADeviceTaints"];
    let c = claim("c", ONE_OF_A);
    for v in ALL {
        let objects = |taint: &str| {
            let devices = device("whole", taint, "gpu-0", "memory", 2)
                + &device("half-a", "", "gpu-0", "memory", 1)
                + &device("half-b", "", "gpu-0", "memory", 1);
            pool(
                v,
                "a.example.com",
                "n1",
                &set("gpu-0", "memory", 2),
                &devices,
            ) + &c
        };
        let taint = "taints: [{key: broken, effect: NoSchedule}], ";
        assert_eq!(
            run(&objects(taint), v, &gates),
            Err("unsatisfiable".into()),
            "{v:?}"
        );
        assert_eq!(
            run(&objects(""), v, &gates),
            Ok(vec!["whole".into()]),
            "{v:?}"
        );
    }
}

#[test]
fn a_device_rejected_by_a_constraint_keeps_its_counters() {
    // r1 takes a0 (numa 0); for r2, b1 is charged all of gpu-1 and fails
    // matchAttribute, so b0 (numa 0, half of gpu-1) no longer fits. The
    // plain rule allocates a0 and b0.
    let gates = ["DRAPartitionableDevices"];
    let c = claim(
        "c",
        "    requests:\n    - {name: r1, exactly: {deviceClassName: a}}\n    - {name: r2, exactly: {deviceClassName: a}}\n    constraints: [{matchAttribute: a.example.com/numa}]\n",
    );
    let sets = set("gpu-0", "memory", 2) + &set("gpu-1", "memory", 2);
    let a0 = device("a0", "attributes: {numa: {int: 0}}, ", "gpu-0", "memory", 1);
    let b1 = device("b1", "attributes: {numa: {int: 1}}, ", "gpu-1", "memory", 2);
    let b0 = device("b0", "attributes: {numa: {int: 0}}, ", "gpu-1", "memory", 1);
    for v in ALL {
        let with_b1 = pool(v, "a.example.com", "n1", &sets, &format!("{a0}{b1}{b0}")) + &c;
        assert_eq!(
            run(&with_b1, v, &gates),
            Err("unsatisfiable".into()),
            "{v:?}"
        );
        let without = pool(v, "a.example.com", "n1", &sets, &format!("{a0}{b0}")) + &c;
        assert_eq!(
            run(&without, v, &gates),
            Ok(vec!["a0".into(), "b0".into()]),
            "{v:?}"
        );
    }
}

#[test]
fn an_over_committed_counter_set_blocks_every_device_of_the_pool() {
    // An allocated device draws 2 from gpu-0, which the driver now says
    // has 1 (republished): y0, which draws only from gpu-1, is refused too.
    let gates = ["DRAPartitionableDevices"];
    let held = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: held, namespace: default}\nspec:\n  devices:\n    requests: [{name: r, exactly: {deviceClassName: a}}]\nstatus:\n  allocation:\n    devices:\n      results: [{request: r, driver: a.example.com, pool: n1, device: x0}]\n---\n";
    let devices = device("x0", "", "gpu-0", "memory", 2) + &device("y0", "", "gpu-1", "memory", 1);
    let c = claim("c", ONE_OF_A);
    for v in ALL {
        let objects = |gpu0: u32| {
            let sets = set("gpu-0", "memory", gpu0) + &set("gpu-1", "memory", 4);
            pool(v, "a.example.com", "n1", &sets, &devices) + held + &c
        };
        assert_eq!(
            run(&objects(1), v, &gates),
            Err("unsatisfiable".into()),
            "{v:?}"
        );
        assert_eq!(run(&objects(2), v, &gates), Ok(vec!["y0".into()]), "{v:?}");
    }
}

#[test]
fn pools_of_one_name_share_their_counters_from_1_35() {
    // Two drivers name their node-local pools after the node and their
    // counter sets alike: from 1.35 the second device is checked against
    // the first pool's counter set, already used up. 1.34 keys by slice.
    let gates = ["DRAPartitionableDevices"];
    let c = claim(
        "c",
        "    requests:\n    - {name: ra, exactly: {deviceClassName: a}}\n    - {name: rb, exactly: {deviceClassName: b}}\n",
    );
    for v in ALL {
        let objects = |b_pool: &str| {
            pool(
                v,
                "a.example.com",
                "n1",
                &set("s", "c", 1),
                &device("a0", "", "s", "c", 1),
            ) + &pool(
                v,
                "b.example.com",
                b_pool,
                &set("s", "c", 1),
                &device("b0", "", "s", "c", 1),
            ) + &c
        };
        let shared = if v < Version::V1_35 {
            Ok(vec!["a0".into(), "b0".into()])
        } else {
            Err("unsatisfiable".into())
        };
        assert_eq!(run(&objects("n1"), v, &gates), shared, "{v:?}");
        // Pools named apart do not share.
        assert_eq!(
            run(&objects("n1-b"), v, &gates),
            Ok(vec!["a0".into(), "b0".into()]),
            "{v:?}"
        );
    }
}

#[test]
fn a_shared_device_rolled_back_keeps_its_counters() {
    // r1 first takes a share of m0 (k=1); r2's only device z0 (k=2) fails
    // matchAttribute, so r1 is rolled back, but m's counter stays charged
    // and n0 (k=2), drawing on the same counter, no longer fits. An
    // exclusive m0 is given its counter back: n0 and z0 (names that YAML 1.1
    // would not read as booleans).
    let gates = ["DRAPartitionableDevices", "DRAConsumableCapacity"];
    let c = claim(
        "c",
        "    requests:\n    - {name: r1, exactly: {deviceClassName: a, selectors: [{cel: {expression: 'device.attributes[\"a.example.com\"].kind == \"x\"'}}]}}\n    - {name: r2, exactly: {deviceClassName: a, selectors: [{cel: {expression: 'device.attributes[\"a.example.com\"].kind == \"z\"'}}]}}\n    constraints: [{matchAttribute: a.example.com/k}]\n",
    );
    for v in [Version::V1_36, Version::V1_37] {
        let objects = |multiple: &str| {
            let devices = device("m0", &format!("{multiple}attributes: {{k: {{int: 1}}, kind: {{string: x}}}}, capacity: {{mem: {{value: '2'}}}}, "), "s", "c", 1)
                + &device("n0", "attributes: {k: {int: 2}, kind: {string: x}}, ", "s", "c", 1)
                + "  - {name: z0, attributes: {k: {int: 2}, kind: {string: z}}}\n";
            pool(v, "a.example.com", "n1", &set("s", "c", 1), &devices) + &c
        };
        assert_eq!(
            run(&objects("allowMultipleAllocations: true, "), v, &gates),
            Err("unsatisfiable".into()),
            "{v:?}"
        );
        assert_eq!(
            run(&objects(""), v, &gates),
            Ok(vec!["n0".into(), "z0".into()]),
            "{v:?}"
        );
    }
}

#[test]
fn a_kept_charge_that_decides_is_the_cause() {
    // The taint case above: the explanation names the kept charge and what
    // the search finds without it, as typed data.
    let devices = device(
        "whole",
        "taints: [{key: broken, effect: NoSchedule}], ",
        "gpu-0",
        "memory",
        2,
    ) + &device("half-a", "", "gpu-0", "memory", 1);
    let v = Version::V1_37;
    let objects = pool(
        v,
        "a.example.com",
        "n1",
        &set("gpu-0", "memory", 2),
        &devices,
    ) + &claim("c", ONE_OF_A);
    let Outcome::Unsatisfiable { constraints, .. } = outcome(&objects, v, &["DRADeviceTaints"])
    else {
        panic!("not unsatisfiable");
    };
    assert_eq!(constraints.len(), 1);
    assert_eq!(constraints[0].kind, "retainedCounters");
    let demand = constraints[0].counter.as_ref().unwrap();
    assert_eq!(
        (demand.counter_set.as_str(), demand.at_least.as_str()),
        ("gpu-0", "2")
    );
    assert!(constraints[0]
        .message
        .contains("a.example.com/n1/whole kept 2 of memory"));
    assert!(constraints[0]
        .message
        .contains("would get a.example.com/n1/half-a"));
}
