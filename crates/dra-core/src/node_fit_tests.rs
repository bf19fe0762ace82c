//! Tests of `node_fit`: what each node serves itself, per release, and
//! what the pods bound to it already take.

use super::*;
use crate::extended_fixture::{find, gates, load};
use crate::gates::Version;
use crate::model::ObjectKind;

/// filterExtendedResources and fitsRequest, node by node: a node's
/// device plugin serves what it advertises; zero is DRA's from 1.35
/// (PR #133784) and a device plugin's in 1.34; too few is
/// NodeResourcesFit's `Insufficient`.
#[test]
fn each_node_serves_what_its_allocatable_says() {
    let objects = load();
    let pod = find(&objects, ObjectKind::Workload, "trainer");
    let gpu = || vec!["example.com/gpu".to_owned()];
    let serves = |v, node| {
        PodResources::of(pod, &objects, &gates(v)).on_node(
            find(&objects, ObjectKind::Node, node),
            None,
            false,
        )
    };
    for v in [Version::V1_35, Version::V1_36, Version::V1_37] {
        assert_eq!(serves(v, "dp-1"), NodeServes::Claim(vec![]), "{v:?}");
        assert_eq!(serves(v, "dp-gone"), NodeServes::Claim(gpu()), "{v:?}");
        assert_eq!(
            serves(v, "dp-small"),
            NodeServes::Insufficient(vec!["Insufficient example.com/gpu".into()]),
            "{v:?}"
        );
        assert_eq!(serves(v, "dra-1"), NodeServes::Claim(gpu()), "{v:?}");
    }
    assert_eq!(serves(Version::V1_34, "dp-1"), NodeServes::Claim(vec![]));
    assert_eq!(
        serves(Version::V1_34, "dp-gone"),
        NodeServes::Insufficient(vec!["Insufficient example.com/gpu".into()])
    );
    assert_eq!(serves(Version::V1_34, "dra-1"), NodeServes::Claim(gpu()));
    // 1.34 asks DRA for every backed resource once the claim is made
    // (its filter kept a device plugin's at 0 and asked for all keys).
    let dp = find(&objects, ObjectKind::Node, "dp-1");
    assert_eq!(
        PodResources::of(pod, &objects, &gates(Version::V1_34)).on_node(dp, None, true),
        NodeServes::Claim(gpu())
    );
    assert_eq!(
        PodResources::of(pod, &objects, &gates(Version::V1_37)).on_node(dp, None, true),
        NodeServes::Claim(vec![])
    );
    // Off: nothing is DRA's; the node's allocatable decides (zero
    // GPUs on dp-gone); dra-1 has no allocatable at all (a stub): not
    // checked.
    let off = FeatureGates::defaults(Version::V1_35);
    let on = |n| {
        PodResources::of(pod, &objects, &off).on_node(
            find(&objects, ObjectKind::Node, n),
            None,
            false,
        )
    };
    assert_eq!(
        on("dp-gone"),
        NodeServes::Insufficient(vec!["Insufficient example.com/gpu".into()])
    );
    assert_eq!(on("dra-1"), NodeServes::Claim(vec![]));
}

/// fitsRequest's cpu, memory and ephemeral-storage against the node's
/// allocatable, in its order; the pod's request is PodRequests' (the
/// pod-level one while PodLevelResources is on, plus the overhead); a
/// Node without allocatable (a stub) is not checked.
#[test]
fn native_resources_must_fit_the_allocatable() {
    let text = r#"
apiVersion: v1
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "4", memory: 8Gi}}
---
apiVersion: v1
kind: Node
metadata: {name: big}
status: {allocatable: {cpu: "64", memory: 512Gi, ephemeral-storage: 1Ti}}
---
apiVersion: v1
kind: Node
metadata: {name: stub}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  overhead: {cpu: 250m}
  containers:
  - {name: a, resources: {limits: {memory: 16Gi, cpu: "4"}}}
  - {name: b, resources: {requests: {ephemeral-storage: 10Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: q}
spec:
  resources: {requests: {cpu: "2"}}
  containers:
  - {name: a, resources: {requests: {cpu: "8"}}}
"#;
    let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    let g = gates(Version::V1_37);
    let p = PodResources::of(&objects[3], &objects, &g);
    let on = |n: usize| p.on_node(&objects[n], None, false);
    // 4 CPUs and the 250m overhead do not fit 4.
    assert_eq!(
        on(0),
        NodeServes::Insufficient(vec![
            "Insufficient cpu".into(),
            "Insufficient memory".into(),
            "Insufficient ephemeral-storage".into()
        ])
    );
    assert_eq!(on(1), NodeServes::Claim(vec![]));
    assert_eq!(on(2), NodeServes::Claim(vec![]));
    // The pod-level request (2) stands for the containers' (8).
    let q = PodResources::of(&objects[4], &objects, &g);
    assert_eq!(
        q.on_node(&objects[0], None, false),
        NodeServes::Claim(vec![])
    );
    let mut off = g.clone();
    off.set("PodLevelResources", false).unwrap();
    let q = PodResources::of(&objects[4], &objects, &off);
    assert_eq!(
        q.on_node(&objects[0], None, false),
        NodeServes::Insufficient(vec!["Insufficient cpu".into()])
    );
}

/// NodeInfo.Requested: the pods bound to a node take their requests off its
/// allocatable (terminal pods do not), and a node full of pods is "Too many
/// pods", first.
#[test]
fn pods_bound_to_the_node_take_their_share() {
    let text = r#"
apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {allocatable: {cpu: "8", pods: "2", example.com/gpu: "4"}}
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: a}
spec:
  nodeName: node-a
  containers:
  - {name: c, resources: {requests: {cpu: "6"}, limits: {example.com/gpu: "3"}}}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: a}
spec:
  nodeName: node-a
  containers:
  - {name: c, resources: {requests: {cpu: "8"}}}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: new, namespace: a}
spec:
  containers:
  - {name: c, resources: {requests: {cpu: "2"}, limits: {example.com/gpu: "2"}}}
"#;
    let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    let g = gates(Version::V1_37);
    let usage = NodeUsage::of(&objects, &g);
    let used = usage.on("node-a").unwrap();
    assert_eq!(used.pods, 1);
    let p = PodResources::of(&objects[3], &objects, &g);
    // cpu: 8 - 6 = 2 fits; the device plugin's GPUs: 4 - 3 < 2.
    assert_eq!(
        p.on_node(&objects[0], Some(used), false),
        NodeServes::Insufficient(vec!["Insufficient example.com/gpu".into()])
    );
    let mut full = used.clone();
    full.pods = 2;
    full.requests.insert("cpu".into(), Quantity::from_int(7));
    assert_eq!(
        p.on_node(&objects[0], Some(&full), false),
        NodeServes::Insufficient(vec![
            "Too many pods".into(),
            "Insufficient cpu".into(),
            "Insufficient example.com/gpu".into()
        ])
    );
    assert_eq!(
        p.on_node(&objects[0], None, false),
        NodeServes::Claim(vec![])
    );
}

/// Copies one after another: the scarcest of what NodeResourcesFit checks
/// stops them, the first in fit.go's order on a tie; what bound pods use
/// and DRA's share do not count.
#[test]
fn copies_stop_at_the_scarcest_resource() {
    let objects = load();
    let g = gates(Version::V1_37);
    let text = r#"
apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "5", example.com/gpu: "0"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - {name: c, resources: {requests: {cpu: "2", memory: 4Gi}, limits: {example.com/gpu: "1"}}}
"#;
    let mut all = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    // The DeviceClass of the fleet backs example.com/gpu: DRA's to count.
    all.extend(
        objects
            .into_iter()
            .filter(|o| o.kind == ObjectKind::DeviceClass),
    );
    let p = PodResources::of(&all[1], &all, &g);
    // cpu 8/2 = 4 and memory 16/4 = 4 tie: cpu comes first.
    assert_eq!(
        p.copies_on(&all[0], None),
        Some((4, "Insufficient cpu".into()))
    );
    let used = Used {
        pods: 4,
        requests: [("cpu".to_owned(), Quantity::from_int(2))].into(),
    };
    assert_eq!(
        p.copies_on(&all[0], Some(&used)),
        Some((1, "Too many pods".into()))
    );
}
