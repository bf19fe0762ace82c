//! Cases after volume_binding_test.go, binder_test.go and
//! volume_zone_test.go of kubernetes/kubernetes (pkg/scheduler/framework/
//! plugins), written as the objects a cluster holds.

use super::*;
use crate::sources::{load_objects, SourceFile};
use crate::yaml::Limits;

const NODES: &str = r#"
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, topology.kubernetes.io/zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, topology.kubernetes.io/zone: b}}
---
apiVersion: v1
kind: Node
metadata: {name: bare}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: zonal}
provisioner: csi.example.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [a]}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: now}
provisioner: csi.example.com
volumeBindingMode: Immediate
"#;

fn pod(volumes: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: ns, uid: pod-uid}}\nspec:\n  containers: [{{name: c, image: i}}]\n  volumes: {volumes}\n"
    )
}

fn load(docs: &[&str]) -> Vec<Object> {
    let text = docs.join("\n---\n");
    let files = [SourceFile {
        name: "t.yaml".into(),
        text: format!("{NODES}\n---\n{text}"),
    }];
    load_objects(&files, Limits::default()).0
}

fn find<'a>(objects: &'a [Object], kind: ObjectKind, name: &str) -> &'a Object {
    objects
        .iter()
        .find(|o| o.kind == kind && o.name() == Some(name))
        .unwrap()
}

/// The PreFilter stop's message, or each node's reasons.
fn run(docs: &[&str]) -> Result<Vec<(String, Vec<&'static str>)>, String> {
    let objects = load(docs);
    let pod = find(&objects, ObjectKind::Workload, "p");
    let storage = Storage::of(&objects);
    match prefilter(pod, &storage) {
        Err(stop) => Err(format!("{}: {}", stop.plugin, stop.message)),
        Ok(None) => Ok(Vec::new()),
        Ok(Some(f)) => Ok(["n1", "n2", "bare"]
            .iter()
            .map(|n| {
                (
                    n.to_string(),
                    f.reasons(find(&objects, ObjectKind::Node, n)),
                )
            })
            .collect()),
    }
}

fn reasons(docs: &[&str]) -> Vec<Vec<&'static str>> {
    run(docs).unwrap().into_iter().map(|(_, r)| r).collect()
}

const NONE: [Vec<&str>; 3] = [Vec::new(), Vec::new(), Vec::new()];
const CLAIM: &str = "[{name: data, persistentVolumeClaim: {claimName: data}}]";
const BOUND: &str = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ns, annotations: {pv.kubernetes.io/bind-completed: 'yes'}}\nspec: {volumeName: pv1, accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}";

#[test]
fn prefilter_stops_on_a_claim_it_cannot_use() {
    let p = pod(CLAIM);
    assert_eq!(
        run(&[&p]).unwrap_err(),
        r#"VolumeRestrictions: persistentvolumeclaim "data" not found"#
    );
    let eph = pod("[{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {}}}}]");
    assert_eq!(
        run(&[&eph]).unwrap_err(),
        r#"VolumeBinding: waiting for ephemeral volume controller to create the persistentvolumeclaim "p-scratch""#
    );
    let foreign = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: p-scratch, namespace: ns, ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: other, controller: true}]}\nspec: {}";
    assert_eq!(
        run(&[&eph, foreign]).unwrap_err(),
        "VolumeBinding: PVC ns/p-scratch was not created for pod ns/p (pod is not owner)"
    );
    let lost = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ns}\nspec: {volumeName: gone}\nstatus: {phase: Lost}";
    assert_eq!(
        run(&[&p, lost]).unwrap_err(),
        r#"VolumeBinding: persistentvolumeclaim "data" bound to non-existent persistentvolume "gone""#
    );
    let deleting = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ns, deletionTimestamp: '2026-01-01T00:00:00Z'}\nspec: {}";
    assert_eq!(
        run(&[&p, deleting]).unwrap_err(),
        r#"VolumeBinding: persistentvolumeclaim "data" is being deleted"#
    );
    // Unbound with no class, an Immediate class, a class that does not
    // exist, or a volume named but the binding not completed: immediate.
    for spec in [
        "{}",
        "{storageClassName: now}",
        "{storageClassName: missing}",
        "{storageClassName: local, volumeName: pv1}",
    ] {
        let pvc = format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: ns}}\nspec: {spec}");
        assert_eq!(
            run(&[&p, &pvc]).unwrap_err(),
            "VolumeBinding: pod has unbound immediate PersistentVolumeClaims",
            "{spec}"
        );
    }
    // A bound claim whose PV is gone: VolumeZone's PreFilter.
    assert_eq!(
        run(&[&p, BOUND]).unwrap_err(),
        r#"VolumeZone: persistentvolume "pv1" not found"#
    );
    // No PVC volume: both plugins skip.
    assert_eq!(
        run(&[&pod("[{name: s, secret: {secretName: x}}]")]),
        Ok(Vec::new())
    );
}

#[test]
fn a_bound_volume_admits_the_nodes_its_affinity_selects() {
    let p = pod(CLAIM);
    let pv = |affinity: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv1}}\nspec: {{capacity: {{storage: 1Gi}}, nodeAffinity: {affinity}}}")
    };
    let host = pv("{required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}]}}");
    assert_eq!(
        reasons(&[&p, BOUND, &host]),
        [vec![], vec![NODE_CONFLICT], vec![NODE_CONFLICT]]
    );
    // CheckNodeAffinity builds a node of the labels alone: a field
    // selector on its name never matches.
    let by_name = pv("{required: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}");
    assert_eq!(
        reasons(&[&p, BOUND, &by_name]),
        [
            vec![NODE_CONFLICT],
            vec![NODE_CONFLICT],
            vec![NODE_CONFLICT]
        ]
    );
    assert_eq!(reasons(&[&p, BOUND, &pv("null")]), NONE);
}

#[test]
fn a_zoned_volume_keeps_the_pod_to_nodes_of_its_zones() {
    let p = pod(CLAIM);
    let pv = |labels: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv1, labels: {labels}}}\nspec: {{capacity: {{storage: 1Gi}}}}")
    };
    // A node without zone labels passes (a single-zone cluster).
    assert_eq!(
        reasons(&[&p, BOUND, &pv("{topology.kubernetes.io/zone: a}")]),
        [vec![], vec![ZONE_CONFLICT], vec![]]
    );
    // Several zones, `__`-separated; the beta label read against the GA one.
    assert_eq!(
        reasons(&[
            &p,
            BOUND,
            &pv("{failure-domain.beta.kubernetes.io/zone: 'a__b'}")
        ]),
        NONE
    );
    // An empty zone in the list: the label is ignored.
    assert_eq!(
        reasons(&[&p, BOUND, &pv("{topology.kubernetes.io/zone: 'c__'}")]),
        NONE
    );
}

#[test]
fn a_claim_waiting_for_its_consumer_needs_a_volume_or_a_provisioner_here() {
    let p = pod(CLAIM);
    let pvc = |class: &str, annotations: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: ns, uid: pvc-uid, annotations: {annotations}}}\nspec: {{storageClassName: {class}, accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 5Gi}}}}}}")
    };
    let local = |name: &str, node: &str, size: &str, extra: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec: {{storageClassName: local, capacity: {{storage: {size}}}, accessModes: [ReadWriteOnce], nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [{node}]}}]}}]}}}}{extra}}}\nstatus: {{phase: Available}}")
    };
    let claim = pvc("local", "{}");
    // A local volume on n1 large enough; n2's is too small.
    assert_eq!(
        reasons(&[
            &p,
            &claim,
            &local("a", "n1", "10Gi", ""),
            &local("b", "n2", "1Gi", "")
        ]),
        [vec![], vec![BIND_CONFLICT], vec![BIND_CONFLICT]]
    );
    // Claimed by another PVC, or of another access mode: not a match.
    let taken = local(
        "a",
        "n1",
        "10Gi",
        ", claimRef: {name: other, namespace: ns}",
    );
    assert_eq!(reasons(&[&p, &claim, &taken])[0], vec![BIND_CONFLICT]);
    let rox = local("a", "n1", "10Gi", "").replace("ReadWriteOnce", "ReadOnlyMany");
    assert_eq!(reasons(&[&p, &claim, &rox])[0], vec![BIND_CONFLICT]);
    // Pre-bound to this claim (its UID) even if not Available.
    let pre = local(
        "a",
        "n1",
        "10Gi",
        ", claimRef: {name: data, namespace: ns, uid: pvc-uid}",
    )
    .replace("Available", "Released");
    assert_eq!(reasons(&[&p, &claim, &pre])[0], Vec::<&str>::new());
    // Provisioned when nothing matches: a class whose allowed topology is zone a.
    assert_eq!(
        reasons(&[&p, &pvc("zonal", "{}")]),
        [vec![], vec![BIND_CONFLICT], vec![BIND_CONFLICT]]
    );
    // The scheduler chose a node already: only that one.
    assert_eq!(
        reasons(&[
            &p,
            &pvc("zonal", "{volume.kubernetes.io/selected-node: n2}")
        ]),
        [
            vec![BIND_CONFLICT],
            vec![BIND_CONFLICT],
            vec![BIND_CONFLICT]
        ]
    );
}

#[test]
fn a_pre_bound_volume_decides_and_affinities_are_read_whole() {
    let p = pod(CLAIM);
    let claim = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: ns, uid: pvc-uid}\nspec: {storageClassName: local, accessModes: [ReadWriteOnce], resources: {requests: {storage: 5Gi}}}";
    let pv = |name: &str, terms: &str, extra: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec: {{storageClassName: local, capacity: {{storage: 10Gi}}, accessModes: [ReadWriteOnce], nodeAffinity: {{required: {{nodeSelectorTerms: {terms}}}}}{extra}}}\nstatus: {{phase: Available}}")
    };
    let on = |hosts: &str| {
        format!("[{{matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [{hosts}]}}]}}]")
    };
    // Pre-bound to n1: FindMatchingVolume returns it, or nothing, wherever
    // it meets it; a free PV on n2 does not count.
    let pre = pv("pre", &on("n1"), ", claimRef: {name: data, namespace: ns}");
    let free = pv("free", &on("n2"), "");
    assert_eq!(
        reasons(&[&p, claim, &free, &pre]),
        [vec![], vec![BIND_CONFLICT], vec![BIND_CONFLICT]]
    );
    // One requirement with several values; two requirements (read whole);
    // a term on a label the node lacks.
    assert_eq!(
        reasons(&[&p, claim, &pv("a", &on("n1, n2"), "")]),
        [vec![], vec![], vec![BIND_CONFLICT]]
    );
    let both = "[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1, n2]}, {key: topology.kubernetes.io/zone, operator: NotIn, values: [a]}]}]";
    assert_eq!(
        reasons(&[&p, claim, &pv("b", both, "")]),
        [vec![BIND_CONFLICT], vec![], vec![BIND_CONFLICT]]
    );
    // Two terms: either admits.
    let either = "[{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}, {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [b]}]}]";
    assert_eq!(
        reasons(&[&p, claim, &pv("c", either, "")]),
        [vec![], vec![], vec![BIND_CONFLICT]]
    );
}

#[test]
fn a_read_write_once_pod_claim_in_use_rules_out_every_node() {
    let p = pod(CLAIM);
    let pvc = |modes: &str| BOUND.replace("[ReadWriteOnce]", modes);
    let pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec: {capacity: {storage: 1Gi}}";
    let user = |node: &str, phase: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: other, namespace: ns}}\nspec:\n  nodeName: {node}\n  containers: [{{name: c, image: i}}]\n  volumes: [{{name: d, persistentVolumeClaim: {{claimName: data}}}}]\nstatus: {{phase: {phase}}}")
    };
    let rwop = pvc("[ReadWriteOncePod]");
    assert_eq!(
        reasons(&[&p, &rwop, pv, &user("n2", "Running")]),
        [
            vec![RWOP_CONFLICT],
            vec![RWOP_CONFLICT],
            vec![RWOP_CONFLICT]
        ]
    );
    // Not in use: a finished pod, a pod on a node that is not known, or a
    // PVC without the mode.
    for other in [user("n2", "Succeeded"), user("gone", "Running")] {
        assert_eq!(reasons(&[&p, &rwop, pv, &other]), NONE);
    }
    assert_eq!(
        reasons(&[&p, &pvc("[ReadWriteOnce]"), pv, &user("n2", "Running")]),
        NONE
    );
    // VolumeRestrictions meets a missing PVC before VolumeBinding meets the
    // ephemeral volume's.
    let both = pod("[{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {}}}}, {name: data, persistentVolumeClaim: {claimName: data}}]");
    assert_eq!(
        run(&[&both]).unwrap_err(),
        r#"VolumeRestrictions: persistentvolumeclaim "data" not found"#
    );
}

/// The defect behind each reason, named: which PVC or PV, and what of it
/// the node does not meet.
fn why(docs: &[&str], node: &str) -> Option<String> {
    let objects = load(docs);
    let pod = find(&objects, ObjectKind::Workload, "p");
    let storage = Storage::of(&objects);
    let filter = prefilter(pod, &storage).unwrap().unwrap();
    filter.verdict(find(&objects, ObjectKind::Node, node)).1
}

#[test]
fn the_defect_behind_a_reason_is_named() {
    let p = pod(CLAIM);
    let pv = |meta: &str, spec: &str| {
        format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv1{meta}}}\nspec: {{capacity: {{storage: 1Gi}}{spec}}}")
    };
    let pinned = pv("", ", nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1, n3]}, {key: gpu, operator: Exists}]}, {matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]}}");
    assert_eq!(
        why(&[&p, BOUND, &pinned], "n2").as_deref(),
        Some("PersistentVolume pv1 of PVC data is for nodes with kubernetes.io/hostname In [n1, n3] and gpu Exists or metadata.name In [n1]")
    );
    let zoned = pv(", labels: {topology.kubernetes.io/zone: 'a__c'}", "");
    assert_eq!(
        why(&[&p, BOUND, &zoned], "n2").as_deref(),
        Some("PersistentVolume pv1 is in topology.kubernetes.io/zone a or c")
    );
    assert_eq!(why(&[&p, BOUND, &zoned], "n1"), None);
    let delayed = |class: &str, annotations: &str| {
        format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: ns, annotations: {annotations}}}\nspec: {{storageClassName: {class}, accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 5Gi}}}}}}")
    };
    assert_eq!(
        why(&[&p, &delayed("local", "{}")], "n1").as_deref(),
        Some("no PersistentVolume of class local can be bound to PVC data here, and StorageClass local does not provision (kubernetes.io/no-provisioner)")
    );
    assert_eq!(
        why(&[&p, &delayed("zonal", "{}")], "n2").as_deref(),
        Some("no PersistentVolume of class zonal can be bound to PVC data here, and StorageClass zonal provisions only where its allowedTopologies say")
    );
    assert_eq!(
        why(
            &[
                &p,
                &delayed("zonal", "{volume.kubernetes.io/selected-node: n1}")
            ],
            "n2"
        )
        .as_deref(),
        Some("PVC data is being provisioned for node n1 (volume.kubernetes.io/selected-node)")
    );
    let user = "apiVersion: v1\nkind: Pod\nmetadata: {name: other, namespace: ns}\nspec:\n  nodeName: n2\n  containers: [{name: c, image: i}]\n  volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]";
    let rwop = BOUND.replace("[ReadWriteOnce]", "[ReadWriteOncePod]");
    assert_eq!(
        why(&[&p, &rwop, &pv("", ""), user], "n1").as_deref(),
        Some("PVC data is ReadWriteOncePod and pod ns/other on node n2 uses it")
    );
}
