//! Property: the PV a claim waiting for its first consumer could bind on a
//! node, found through the label index (dra_core::volumes, volume_match),
//! is found exactly when kube-scheduler's `FindMatchingVolume` walk over
//! every PV of the class would find one (component-helpers
//! `storage/volume/pv_helpers.go`): a PV pre-bound to the claim, met
//! first, decides by its node affinity alone; else any Available PV of
//! the claim's size, mode and access modes whose affinity admits the node.

use dra_core::model::{Object, ObjectKind};
use dra_core::volumes::{prefilter, Storage, BIND_CONFLICT};
use proptest::prelude::*;

const HEAD: &str = "
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, zone: b}}
---
apiVersion: v1
kind: Node
metadata: {name: n3, labels: {kubernetes.io/hostname: n3}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ns, uid: pvc-uid}
spec: {storageClassName: local, accessModes: [ReadWriteOnce], resources: {requests: {storage: 5Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers: [{name: c, image: i}]
  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
";

const NODES: [(&str, &str); 3] = [("n1", "a"), ("n2", "b"), ("n3", "")];

/// A generated PV: its affinity, and the facts the walk reads.
#[derive(Clone, Debug)]
struct Pv {
    /// 0: none; 1: hostname In the listed nodes; 2: that and zone NotIn
    /// [a] (two requirements); 3: a hostname term or a zone b term.
    affinity: u8,
    hosts: Vec<usize>,
    big: bool,
    block: bool,
    available: bool,
    many: bool,
    /// claimRef: 0 none, 1 this claim, 2 another.
    claim_ref: u8,
}

fn pv() -> impl Strategy<Value = Pv> {
    (
        0u8..4,
        proptest::collection::vec(0usize..3, 0..3),
        any::<bool>(),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.15),
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(
            |(affinity, hosts, big, block, available, many, claim_ref)| Pv {
                affinity,
                hosts,
                big,
                block,
                available,
                many,
                claim_ref,
            },
        )
}

fn hosts_in(p: &Pv) -> Vec<&'static str> {
    let mut h: Vec<&str> = p.hosts.iter().map(|&i| NODES[i].0).collect();
    h.sort_unstable();
    h.dedup();
    h
}

fn yaml(i: usize, p: &Pv) -> String {
    let hosts = hosts_in(p).join(", ");
    let host = format!("{{key: kubernetes.io/hostname, operator: In, values: [{hosts}]}}");
    let affinity = match p.affinity {
        0 => String::new(),
        1 => format!(", nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{host}]}}]}}}}"),
        2 => format!(", nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{host}, {{key: zone, operator: NotIn, values: [a]}}]}}]}}}}"),
        _ => format!(", nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{host}]}}, {{matchExpressions: [{{key: zone, operator: In, values: [b]}}]}}]}}}}"),
    };
    let claim_ref = match p.claim_ref {
        1 => ", claimRef: {name: data, namespace: ns, uid: pvc-uid}",
        2 => ", claimRef: {name: other, namespace: ns}",
        _ => "",
    };
    format!(
        "---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv{i}}}\nspec: {{storageClassName: local, capacity: {{storage: {}}}, volumeMode: {}, accessModes: [{}]{affinity}{claim_ref}}}\nstatus: {{phase: {}}}\n",
        if p.big { "10Gi" } else { "1Gi" },
        if p.block { "Block" } else { "Filesystem" },
        if p.many { "ReadOnlyMany" } else { "ReadWriteOnce" },
        if p.available { "Available" } else { "Released" },
    )
}

/// `CheckNodeAffinity` of a generated PV on a node, written out.
fn admits(p: &Pv, node: usize) -> bool {
    let (name, zone) = NODES[node];
    let on_host = hosts_in(p).contains(&name);
    match p.affinity {
        0 => true,
        1 => on_host,
        2 => on_host && zone != "a",
        _ => on_host || zone == "b",
    }
}

/// FindMatchingVolume's walk, in the PVs' order: is there a match?
fn walk(pvs: &[Pv], node: usize) -> bool {
    let mut found = false;
    for p in pvs {
        if p.claim_ref == 2 || !p.big || p.block {
            continue;
        }
        if p.claim_ref == 1 {
            return admits(p, node);
        }
        if p.available && !p.many && admits(p, node) {
            found = true;
        }
    }
    found
}

proptest! {
    #[test]
    fn the_label_index_finds_what_the_walk_finds(pvs in proptest::collection::vec(pv(), 0..12)) {
        let mut text = HEAD.to_owned();
        for (i, p) in pvs.iter().enumerate() {
            text.push_str(&yaml(i, p));
        }
        let objects = dra_core::model::parse_file(0, &text, dra_core::yaml::Limits::default()).objects;
        let pod = objects
            .iter()
            .find(|o| o.kind == ObjectKind::Workload && o.name() == Some("p"))
            .unwrap();
        let storage = Storage::of(&objects);
        let filter = prefilter(pod, &storage).unwrap().unwrap();
        let nodes: Vec<&Object> = objects.iter().filter(|o| o.kind == ObjectKind::Node).collect();
        for (i, node) in nodes.iter().enumerate() {
            let expected: Vec<&str> = if walk(&pvs, i) { vec![] } else { vec![BIND_CONFLICT] };
            prop_assert_eq!(filter.reasons(node), expected, "node {}", i);
        }
    }
}
