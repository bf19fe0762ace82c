//! Objects read from a cluster, reduced to the fields kube-scheduler's
//! filters and the DRA allocator read. Two reasons, both about what a user
//! could lose: a snapshot must not carry a Pod's secrets (env values, args,
//! annotations such as `kubectl.kubernetes.io/last-applied-configuration`),
//! and a 65,000-node cluster's Node status (images, conditions) is most of
//! its bytes and nothing any filter reads. Nodes are listed whole (a
//! metadata-only list would lose `spec.taints` and `spec.unschedulable`,
//! which TaintToleration and NodeUnschedulable filter on) and reduced here.
//!
//! What is kept, per kind, is the table below; everything else is dropped.

use crate::tree::{Node, Value};

/// Which fields of a map to keep.
enum Keep {
    /// The field, whole.
    All,
    /// A map: only these fields.
    Fields(&'static [(&'static str, Keep)]),
    /// A list of maps: of each item, only these fields.
    Each(&'static [(&'static str, Keep)]),
}
use Keep::{All, Each, Fields};

/// Object metadata every reader may use: identity, labels (node selectors,
/// label selectors), owners (a template's claim is the pod's by its owner
/// reference), lifecycle (`deletionTimestamp`, finalizers).
const META: &[(&str, Keep)] = &[
    ("name", All),
    ("generateName", All),
    ("namespace", All),
    ("uid", All),
    ("resourceVersion", All),
    ("generation", All),
    ("creationTimestamp", All),
    ("deletionTimestamp", All),
    ("deletionGracePeriodSeconds", All),
    ("labels", All),
    ("ownerReferences", All),
    ("finalizers", All),
];

/// A Node as NodeName, NodeAffinity, TaintToleration, NodeUnschedulable and
/// the allocator's node selectors see it (plus what it can allocate).
const NODE: &[(&str, Keep)] = &[
    ("apiVersion", All),
    ("kind", All),
    ("metadata", Fields(META)),
    ("spec", Fields(&[("taints", All), ("unschedulable", All)])),
    ("status", Fields(&[("allocatable", All), ("capacity", All)])),
];

/// A container's name and what it asks for: resource requests and limits
/// (extended resources a DeviceClass may back), the claims it uses, and its
/// ports (NodePorts reads their host ports). Never `env`, `args`,
/// `command`, `image` or probes.
const CONTAINER: &[(&str, Keep)] = &[
    ("name", All),
    ("resources", All),
    ("restartPolicy", All),
    ("ports", All),
];

/// A Pod as `explain pod` reads it: its scheduling constraints, claims,
/// containers' resources and the status the scheduler and the resourceclaim
/// controller write.
const POD: &[(&str, Keep)] = &[
    ("apiVersion", All),
    ("kind", All),
    ("metadata", Fields(META)),
    (
        "spec",
        Fields(&[
            ("nodeName", All),
            ("nodeSelector", All),
            ("affinity", All),
            ("topologySpreadConstraints", All),
            ("tolerations", All),
            ("schedulerName", All),
            ("schedulingGates", All),
            ("priority", All),
            ("priorityClassName", All),
            ("resourceClaims", All),
            ("resources", All),
            ("overhead", All),
            ("containers", Each(CONTAINER)),
            ("initContainers", Each(CONTAINER)),
            // VolumeBinding and VolumeZone: which PVCs (an ephemeral
            // volume's is named after the pod and the volume); not the
            // ephemeral template, nor any other volume's source.
            (
                "volumes",
                Each(&[
                    ("name", All),
                    ("persistentVolumeClaim", All),
                    ("ephemeral", Fields(&[])),
                ]),
            ),
        ]),
    ),
    (
        "status",
        Fields(&[
            ("phase", All),
            ("conditions", All),
            ("nominatedNodeName", All),
            ("resourceClaimStatuses", All),
            ("extendedResourceClaimStatus", All),
            ("qosClass", All),
        ]),
    ),
];

fn keep(node: &mut Node, fields: &[(&str, Keep)]) {
    let Value::Map(entries) = &mut node.value else {
        return;
    };
    crate::tree::edit(entries, |entries| {
        entries.retain_mut(
            |e| match fields.iter().find(|(k, _)| *k == e.key.as_str()) {
                None => false,
                Some((_, All)) => true,
                Some((_, Fields(inner))) => {
                    keep(&mut e.value, inner);
                    true
                }
                Some((_, Each(inner))) => {
                    if let Value::Seq(items) = &mut e.value.value {
                        for item in crate::tree::items_mut(items).iter_mut() {
                            keep(item, inner);
                        }
                    }
                    true
                }
            },
        )
    });
}

/// A pod kept only for what it takes of its node (bound, not finished, no
/// claim and no extended resource): NodeResourcesFit's
/// `NodeInfo.Requested`, InterPodAffinity's labels and required
/// anti-affinity terms, and the PVCs it uses (VolumeRestrictions); a large
/// cluster has many.
const BOUND_POD: &[(&str, Keep)] = &[
    ("apiVersion", All),
    ("kind", All),
    (
        "metadata",
        Fields(&[
            ("name", All),
            ("namespace", All),
            ("uid", All),
            ("labels", All),
            // PodTopologySpread passes over terminating pods.
            ("deletionTimestamp", All),
        ]),
    ),
    (
        "spec",
        Fields(&[
            ("nodeName", All),
            ("priority", All),
            (
                "affinity",
                Fields(&[(
                    "podAntiAffinity",
                    Fields(&[("requiredDuringSchedulingIgnoredDuringExecution", All)]),
                )]),
            ),
            ("resources", All),
            ("overhead", All),
            ("containers", Each(CONTAINER)),
            ("initContainers", Each(CONTAINER)),
            // VolumeRestrictions: a ReadWriteOncePod PVC in use.
            (
                "volumes",
                Each(&[("persistentVolumeClaim", Fields(&[("claimName", All)]))]),
            ),
        ]),
    ),
    (
        "status",
        Fields(&[("phase", All), ("nominatedNodeName", All)]),
    ),
];

/// Reduces a pod read only for what it takes of its node to those fields.
pub fn for_node_usage(root: &mut Node) {
    keep(root, BOUND_POD);
}

/// Reduces an object of `kind` as read from a cluster; kinds other than
/// Node and Pod lose only `metadata.managedFields` and the
/// last-applied-configuration annotation (a copy of the whole object as
/// applied, which for a Pod may hold its secrets).
pub fn for_scheduler(kind: &str, root: &mut Node) {
    match kind {
        "Node" => keep(root, NODE),
        "Pod" => keep(root, POD),
        _ => {
            if let Some(meta) = root.get_mut("metadata") {
                meta.remove("managedFields");
                if let Some(a) = meta.get_mut("annotations") {
                    a.remove("kubectl.kubernetes.io/last-applied-configuration");
                    if a.as_map().is_some_and(<[_]>::is_empty) {
                        meta.remove("annotations");
                    }
                }
            }
        }
    }
}

/// What a snapshot's header says is kept, from the same tables.
pub fn kept_fields(kind: &str) -> Vec<String> {
    fn walk(prefix: &str, fields: &[(&str, Keep)], out: &mut Vec<String>) {
        for (k, keep) in fields {
            let path = if prefix.is_empty() {
                (*k).to_owned()
            } else {
                format!("{prefix}.{k}")
            };
            match keep {
                All => out.push(path),
                Fields(inner) => walk(&path, inner, out),
                Each(inner) => walk(&format!("{path}[]"), inner, out),
            }
        }
    }
    let mut out = Vec::new();
    match kind {
        "Node" => walk("", NODE, &mut out),
        "Pod" => walk("", POD, &mut out),
        _ => {}
    }
    out.retain(|p| p != "apiVersion" && p != "kind");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Node {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_node_keeps_taints_unschedulable_and_labels_and_loses_its_status_images() {
        let mut n = parse(
            r#"{"metadata":{"name":"n1","labels":{"a":"b"},"annotations":{"x":"y"},"managedFields":[{}]},
                "spec":{"taints":[{"key":"nvidia.com/gpu","value":"present","effect":"NoSchedule"}],"unschedulable":true,"podCIDR":"10.0.0.0/24"},
                "status":{"images":[{"names":["a"]}],"allocatable":{"cpu":"4"},"conditions":[]}}"#,
        );
        for_scheduler("Node", &mut n);
        let j = n.to_json();
        assert_eq!(j["spec"]["taints"][0]["key"], "nvidia.com/gpu");
        assert_eq!(j["spec"]["unschedulable"], true);
        assert_eq!(j["metadata"]["labels"]["a"], "b");
        assert_eq!(j["status"]["allocatable"]["cpu"], "4");
        for gone in [
            &j["spec"]["podCIDR"],
            &j["status"]["images"],
            &j["status"]["conditions"],
            &j["metadata"]["annotations"],
            &j["metadata"]["managedFields"],
        ] {
            assert!(gone.is_null(), "{j}");
        }
    }

    #[test]
    fn a_pod_loses_env_args_and_annotations_and_keeps_what_explain_reads() {
        let mut p = parse(
            r#"{"metadata":{"name":"p","namespace":"ns","uid":"u","deletionTimestamp":"2026-01-01T00:00:00Z",
                  "ownerReferences":[{"kind":"Job","name":"j","uid":"1"}],
                  "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\"token\":\"s3cret\"}"}},
                "spec":{"nodeSelector":{"a":"b"},"tolerations":[{"operator":"Exists"}],
                  "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"t"}],
                  "containers":[{"name":"c","image":"registry/x","args":["--password=s3cret"],
                    "env":[{"name":"TOKEN","value":"s3cret"}],"resources":{"claims":[{"name":"gpu"}]}}]},
                "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False"}],
                  "resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"p-gpu"}],"podIP":"10.1.1.1"}}"#,
        );
        for_scheduler("Pod", &mut p);
        let text = p.to_json().to_string();
        assert!(!text.contains("s3cret"), "{text}");
        assert!(!text.contains("registry/x"), "{text}");
        let j = p.to_json();
        assert_eq!(
            j["spec"]["containers"][0]["resources"]["claims"][0]["name"],
            "gpu"
        );
        assert_eq!(
            j["status"]["resourceClaimStatuses"][0]["resourceClaimName"],
            "p-gpu"
        );
        assert_eq!(j["metadata"]["ownerReferences"][0]["kind"], "Job");
        assert!(j["metadata"]["deletionTimestamp"].is_string());
        assert!(j["status"]["podIP"].is_null());
        assert!(j["metadata"]["annotations"].is_null());
    }

    #[test]
    fn other_kinds_keep_their_fields_but_not_last_applied() {
        let mut c = parse(
            r#"{"metadata":{"name":"c","annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","team":"ml"}},"spec":{"devices":{}},"status":{"allocation":{}}}"#,
        );
        for_scheduler("ResourceClaim", &mut c);
        let j = c.to_json();
        assert_eq!(j["metadata"]["annotations"]["team"], "ml");
        assert!(
            j["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"]
                .is_null()
        );
        assert!(j["status"]["allocation"].is_object());
    }

    #[test]
    fn the_header_lists_the_kept_fields() {
        let pod = kept_fields("Pod");
        assert!(pod.contains(&"spec.containers[].resources".to_owned()));
        assert!(!pod.iter().any(|p| p.contains("env")));
        assert!(kept_fields("Node").contains(&"spec.taints".to_owned()));
    }

    /// A pod kept only for what it takes of its node keeps its requests,
    /// node and phase (NodeResourcesFit), its labels and required
    /// anti-affinity terms (InterPodAffinity), nothing else of its
    /// scheduling constraints or status.
    #[test]
    fn a_bound_pod_keeps_only_what_it_takes_of_its_node() {
        let mut p = parse(
            r#"{"apiVersion":"v1","kind":"Pod",
            "metadata":{"name":"web","namespace":"default","labels":{"app":"web"},"annotations":{"x":"y"}},
            "spec":{"nodeName":"node-0","tolerations":[{"operator":"Exists"}],"overhead":{"cpu":"100m"},
                    "affinity":{"nodeAffinity":{"x":1},"podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone"}]},
                                "podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"h"}],
                                                   "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1}]}},
                    "containers":[{"name":"c","image":"secret/image","env":[{"name":"TOKEN","value":"s"}],
                                   "resources":{"requests":{"cpu":"3"}}}]},
            "status":{"phase":"Running","podIP":"10.0.0.1","conditions":[{"type":"Ready"}]}}"#,
        );
        for_node_usage(&mut p);
        let j = p.to_json();
        assert_eq!(
            j,
            serde_json::json!({"apiVersion":"v1","kind":"Pod",
                "metadata":{"name":"web","namespace":"default","labels":{"app":"web"}},
                "spec":{"nodeName":"node-0","overhead":{"cpu":"100m"},
                        "affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"h"}]}},
                        "containers":[{"name":"c","resources":{"requests":{"cpu":"3"}}}]},
                "status":{"phase":"Running"}})
        );
    }
}
