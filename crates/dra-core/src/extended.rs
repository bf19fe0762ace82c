//! The claim kube-scheduler makes up for a pod's extended resources that
//! DRA backs (`DRAExtendedResource`): a DeviceClass names the resource in
//! `spec.extendedResourceName`, and every class also backs
//! `deviceclass.resource.kubernetes.io/<class>`. One ExactCount request per
//! container and resource, named `container-<i>-request-<j>` (i: index in
//! initContainers then containers; j: index of the resource among the
//! container's sorted request names), requests sorted by name
//! (`createDeviceRequests` in the scheduler's dynamicresources plugin).
//!
//! The scheduler only does this on nodes that do not advertise the resource
//! as allocatable (a device plugin would serve it there); kubectl-dra reads
//! node metadata only, so it assumes no node does.

use serde_json::{json, Value};

use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

pub const CLASS_PREFIX: &str = "deviceclass.resource.kubernetes.io/";

/// The DeviceClass that backs an extended resource name, if any.
fn class_for<'a>(objects: &'a [Object], resource: &str) -> Option<&'a str> {
    let classes = || objects.iter().filter(|o| o.kind == ObjectKind::DeviceClass);
    if let Some(c) = classes().find(|c| {
        c.spec()
            .and_then(|s| s.get("extendedResourceName"))
            .and_then(Node::as_str)
            == Some(resource)
    }) {
        return c.name();
    }
    let name = resource.strip_prefix(CLASS_PREFIX)?;
    classes()
        .find(|c| c.name() == Some(name))
        .and_then(Object::name)
}

/// One request of the made-up claim, and what it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct ExtendedRequest {
    /// `container-<i>-request-<j>`.
    pub name: String,
    pub container: String,
    pub resource: String,
    pub class: String,
    pub count: i64,
}

impl ExtendedRequest {
    /// "container trainer: example.com/gpu x2", for explanations.
    pub fn describe(&self) -> String {
        format!(
            "container {}: {} x{}",
            self.container, self.resource, self.count
        )
    }
}

/// The made-up claim as a ResourceClaim object, or `None` when the pod asks
/// for no DRA-backed extended resource (or the gate is off).
pub fn extended_resource_claim(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
) -> Option<Value> {
    let requests = extended_requests(pod, objects, gates);
    if requests.is_empty() {
        return None;
    }
    Some(json!({
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {
            "name": format!("{}-extended-resources", pod.name().unwrap_or("pod")),
            "namespace": pod.namespace_or_default(),
            "annotations": {"resource.kubernetes.io/extended-resource-claim": "true"},
        },
        "spec": {"devices": {"requests": requests.iter().map(|r| json!({
            "name": r.name,
            "exactly": {"deviceClassName": r.class, "allocationMode": "ExactCount", "count": r.count},
        })).collect::<Vec<_>>()}},
    }))
}

/// The requests of the made-up claim, sorted by name.
pub fn extended_requests(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
) -> Vec<ExtendedRequest> {
    if !gates.enabled(Gate::DRAExtendedResource) {
        return Vec::new();
    }
    let Some(spec) = pod.pod_spec() else {
        return Vec::new();
    };
    let containers: Vec<&Node> = ["initContainers", "containers"]
        .iter()
        .flat_map(|k| spec.get(k).and_then(Node::as_seq).unwrap_or_default())
        .collect();
    let mut requests: Vec<ExtendedRequest> = Vec::new();
    for (i, c) in containers.iter().enumerate() {
        let res = c.get("resources");
        // Defaulting copies limits to requests for extended resources.
        let mut amounts: Vec<(String, &Node)> = Vec::new();
        for key in ["requests", "limits"] {
            for e in res
                .and_then(|r| r.get(key))
                .and_then(Node::as_map)
                .unwrap_or_default()
            {
                if !amounts.iter().any(|(k, _)| *k == e.key) {
                    amounts.push((e.key.to_string(), &e.value));
                }
            }
        }
        let mut names: Vec<&str> = amounts.iter().map(|(k, _)| k.as_str()).collect();
        names.sort_unstable();
        for (resource, value) in &amounts {
            let Some(class) = class_for(objects, resource) else {
                continue;
            };
            let text = value
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| value.to_json().to_string());
            let Ok(q) = Quantity::parse_field(&text) else {
                continue;
            };
            if q.is_fractional() || q.is_zero() || q.is_negative() {
                continue;
            }
            let j = names.iter().position(|n| n == resource).unwrap_or(0);
            requests.push(ExtendedRequest {
                name: format!("container-{i}-request-{j}"),
                container: c
                    .get("name")
                    .and_then(Node::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                resource: resource.clone(),
                class: class.to_owned(),
                count: q.value() as i64,
            });
        }
    }
    requests.sort_by(|a, b| a.name.cmp(&b.name));
    requests
}

/// The extended resources the pod's containers ask for that no DeviceClass
/// backs (`v1helper.IsExtendedResourceName`: a domain other than
/// kubernetes.io; every one while DRAExtendedResource is off), with the
/// nodes whose `status.allocatable` has them (a device plugin's); sorted by
/// name.
pub fn unbacked_resources<'a>(
    pod: &Object,
    objects: &'a [Object],
    gates: &FeatureGates,
) -> Vec<(String, Vec<&'a str>)> {
    let dra_backs = gates.enabled(Gate::DRAExtendedResource);
    let Some(spec) = pod.pod_spec() else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    for c in ["initContainers", "containers"]
        .iter()
        .flat_map(|k| spec.get(k).and_then(Node::as_seq).unwrap_or_default())
    {
        for key in ["requests", "limits"] {
            for e in c
                .get("resources")
                .and_then(|r| r.get(key))
                .and_then(Node::as_map)
                .unwrap_or_default()
            {
                let name = e.key.as_str();
                let extended = name.contains('/')
                    && !name.contains("kubernetes.io/")
                    && !name.starts_with("requests.");
                let backed = dra_backs && class_for(objects, name).is_some();
                if extended && !backed && !names.iter().any(|n| n == name) {
                    names.push(name.to_owned());
                }
            }
        }
    }
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let nodes = objects
                .iter()
                .filter(|o| o.kind == ObjectKind::Node)
                .filter(|o| {
                    o.root
                        .get("status")
                        .and_then(|s| s.get("allocatable"))
                        .and_then(|a| a.get(&n))
                        .map(|v| {
                            v.as_str()
                                .map(str::to_owned)
                                .unwrap_or_else(|| v.to_json().to_string())
                        })
                        .and_then(|t| Quantity::parse_field(&t).ok())
                        .is_some_and(|q| !q.is_zero() && !q.is_negative())
                })
                .filter_map(Object::name)
                .collect();
            (n, nodes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
