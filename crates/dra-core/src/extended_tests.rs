//! Tests of `extended`: the made-up claim's requests, each node's
//! verdict per release, and the class behind a resource.

use super::*;
use crate::extended_fixture::{find, gates, load};

#[test]
fn one_request_per_container_and_resource_sorted_by_name() {
    let text = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {extendedResourceName: example.com/gpu}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ml}
spec:
  initContainers:
  - name: init
    resources: {limits: {deviceclass.resource.kubernetes.io/gpu: 1}}
  containers:
  - name: a
    resources: {requests: {cpu: "1", example.com/gpu: "2", memory: 1Gi}}
  - {name: b}
  - {name: c, resources: {requests: {example.com/gpu: "0"}}}
"#;
    let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    let gates = FeatureGates::defaults(crate::gates::Version::V1_37);
    let claim = extended_resource_claim(&objects[1], &objects, &gates).unwrap();
    assert_eq!(claim["metadata"]["name"], "p-extended-resources");
    let reqs = claim["spec"]["devices"]["requests"].as_array().unwrap();
    let names: Vec<&str> = reqs.iter().map(|r| r["name"].as_str().unwrap()).collect();
    // cpu, example.com/gpu, memory: the GPU is index 1 of container 1.
    assert_eq!(
        names,
        vec!["container-0-request-0", "container-1-request-1"]
    );
    assert_eq!(reqs[1]["exactly"]["count"], 2);
    let off = FeatureGates::defaults(crate::gates::Version::V1_34);
    assert!(extended_resource_claim(&objects[1], &objects, &off).is_none());
}

/// createRequestsAndMappings (1.35+, PR #134882): a plain init
/// container reuses the device of the container after it and asks for
/// the rest; 1.34's createDeviceRequests asks per container.
#[test]
fn a_plain_init_container_reuses_later_requests_from_1_35() {
    let objects = load();
    let pod = find(&objects, ObjectKind::Workload, "staged");
    let counts = |v| {
        extended_requests(pod, &objects, &gates(v))
            .into_iter()
            .map(|r| (r.name, r.container, r.count))
            .collect::<Vec<_>>()
    };
    let r = |n: &str, c: &str, k| (n.to_owned(), c.to_owned(), k);
    assert_eq!(
        counts(Version::V1_37),
        vec![
            r("container-0-request-0", "fetch", 1),
            r("container-1-request-0", "main", 1)
        ]
    );
    assert_eq!(
        counts(Version::V1_34),
        vec![
            r("container-0-request-0", "fetch", 2),
            r("container-1-request-0", "main", 1)
        ]
    );
}

/// Sidecars run beside the containers: their requests add up, and only
/// the largest plain init container's rest is asked for.
#[test]
fn sidecars_add_up_and_init_containers_take_the_largest_rest() {
    let text = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {extendedResourceName: example.com/gpu}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - {name: a, resources: {requests: {example.com/gpu: "3"}}}
  - {name: side, restartPolicy: Always, resources: {requests: {example.com/gpu: "1"}}}
  - {name: b, resources: {requests: {example.com/gpu: "4"}}}
  containers:
  - {name: main, resources: {requests: {example.com/gpu: "1"}}}
"#;
    let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    let pod = &objects[1];
    let requests = extended_requests(pod, &objects, &gates(Version::V1_37));
    let got: Vec<(&str, i64)> = requests
        .iter()
        .map(|r| (r.name.as_str(), r.count))
        .collect();
    // a reuses side and main (2) and asks 1; b reuses main (1) and
    // asks 3: the largest rest, b's, is the one kept.
    assert_eq!(
        got,
        vec![
            ("container-1-request-0", 1),
            ("container-2-request-0", 3),
            ("container-3-request-0", 1)
        ]
    );
    // resource.PodRequests: max(main + side = 2, b + side = 5, a = 3).
    assert_eq!(
        pod_request(&containers(pod), "example.com/gpu"),
        Quantity::from_int(5)
    );
}

/// extendedresourcecache (1.35+): of two classes naming the resource the
/// newer wins, the lower name on a tie; 1.34 never counts the implicit
/// `deviceclass.resource.kubernetes.io/` names.
#[test]
fn the_newest_class_backs_a_resource() {
    let text = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: old, creationTimestamp: "2026-01-01T00:00:00Z"}
spec: {extendedResourceName: example.com/gpu}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: new, creationTimestamp: "2026-06-01T00:00:00Z"}
spec: {extendedResourceName: example.com/gpu}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: b}
spec: {extendedResourceName: example.com/nic}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: a}
spec: {extendedResourceName: example.com/nic}
"#;
    let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
    let g = gates(Version::V1_37);
    assert_eq!(class_for(&objects, &g, "example.com/gpu"), Some("new"));
    assert_eq!(class_for(&objects, &g, "example.com/nic"), Some("a"));
    let implicit = "deviceclass.resource.kubernetes.io/old";
    assert_eq!(class_for(&objects, &g, implicit), Some("old"));
    assert_eq!(class_for(&objects, &gates(Version::V1_34), implicit), None);
}
