//! The claim kube-scheduler makes up for a pod's extended resources that
//! DRA backs (`DRAExtendedResource`), node by node, and NodeResourcesFit's
//! check of what a node serves itself against its `status.allocatable`
//! (cpu, memory, ephemeral-storage, hugepages, and the extended resources a
//! device plugin advertises).
//!
//! Sources: the scheduler's dynamicresources plugin
//! (`preFilterExtendedResources`, `filterExtendedResources`,
//! `createRequestsAndMappings` in `extendeddynamicresources.go` from 1.35;
//! `createDeviceRequests` in `dynamicresources.go` in 1.34),
//! noderesources `fit.go` (`fitsRequest`, `shouldDelegateResourceToDRA`),
//! component-helpers `resource.PodRequests`, and the DeviceClass mapping
//! (`extended.DeviceClassMapping` in 1.34; dynamic-resource-allocation's
//! `extendedresourcecache` from 1.35).
//!
//! On each node a DRA-backed resource the node does not advertise (1.35+:
//! allocatable absent or zero, PR #133784; 1.34: absent) is asked of DRA;
//! any other extended resource must fit the node's allocatable, else the
//! node is ruled out with `Insufficient NAME`. The claim's requests are
//! named `container-<i>-request-<j>` (i: index in initContainers then
//! containers; j: the resource's index among the container's sorted
//! request names) and sorted by name. From 1.35 (PR #134882) a plain init
//! container first reuses the requests of the sidecars and containers after
//! it and asks only for the rest, and of the plain init containers only the
//! largest such request is kept; in 1.34 every container asks for its own.

use serde_json::{json, Value};

use crate::gates::{FeatureGates, Gate, Version};
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

pub const CLASS_PREFIX: &str = "deviceclass.resource.kubernetes.io/";

/// `v1helper.IsExtendedResourceName`: a name with a domain outside
/// kubernetes.io, not a quota's `requests.` form.
fn is_extended_name(name: &str) -> bool {
    name.contains('/') && !name.contains("kubernetes.io/") && !name.starts_with("requests.")
}

/// The names the DRA plugin counts: `schedutil.IsDRAExtendedResourceName`
/// adds the implicit class names from 1.35; 1.34's filter and
/// `hasDeviceClassMappedExtendedResource` read `IsExtendedResourceName`.
fn is_dra_extended_name(name: &str, version: Version) -> bool {
    is_extended_name(name) || (version >= Version::V1_35 && name.starts_with(CLASS_PREFIX))
}

/// A class's creationTimestamp (nanoseconds); none is the oldest.
fn created(class: &Object) -> i128 {
    class
        .root
        .get("metadata")
        .and_then(|m| m.get("creationTimestamp"))
        .and_then(Node::as_str)
        .and_then(|t| crate::cel::time::parse_timestamp(t).ok())
        .map_or(i128::MIN, |(n, _)| n)
}

/// The DeviceClass that backs an extended resource name, if any. Of the
/// classes naming it in `extendedResourceName` the newest wins, the lower
/// name on a tie (extendedresourcecache `updateResourceName2class`, from
/// 1.35; 1.34 took whichever the lister listed last); every class also
/// backs `deviceclass.resource.kubernetes.io/<class>` (from 1.35; in 1.34
/// only a class without an explicit name does, and the DRA plugin never
/// counts those names).
pub(crate) fn class_for<'a>(
    objects: &'a [Object],
    gates: &FeatureGates,
    resource: &str,
) -> Option<&'a str> {
    if !gates.enabled(Gate::DRAExtendedResource) || !is_dra_extended_name(resource, gates.version) {
        return None;
    }
    let classes = || objects.iter().filter(|o| o.kind == ObjectKind::DeviceClass);
    let explicit = |c: &Object| {
        c.spec()
            .and_then(|s| s.get("extendedResourceName"))
            .and_then(Node::as_str)
            .map(str::to_owned)
    };
    if let Some(c) = classes()
        .filter(|c| explicit(c).as_deref() == Some(resource))
        .max_by(|a, b| {
            created(a)
                .cmp(&created(b))
                .then_with(|| b.name().cmp(&a.name()))
        })
    {
        return c.name();
    }
    let name = resource.strip_prefix(CLASS_PREFIX)?;
    classes()
        .find(|c| c.name() == Some(name))
        .and_then(Object::name)
}

/// One container as the scheduler reads it for extended resources.
pub(crate) struct Container<'a> {
    name: &'a str,
    init: bool,
    /// An init container with `restartPolicy: Always`: it runs beside the
    /// containers.
    sidecar: bool,
    /// Its requests after defaulting (limits fill the requests not given),
    /// sorted by name.
    pub(crate) requests: Vec<(&'a str, Quantity)>,
}

pub(crate) fn quantity(value: &Node) -> Option<Quantity> {
    let text = value
        .as_str()
        .map(str::to_owned)
        .unwrap_or_else(|| value.to_json().to_string());
    Quantity::parse_field(&text).ok()
}

/// initContainers, then containers.
pub(crate) fn containers(pod: &Object) -> Vec<Container<'_>> {
    let Some(spec) = pod.pod_spec() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for key in ["initContainers", "containers"] {
        for c in spec.get(key).and_then(Node::as_seq).unwrap_or_default() {
            let sidecar = c.get("restartPolicy").and_then(Node::as_str) == Some("Always");
            let mut requests: Vec<(&str, Quantity)> = Vec::new();
            for part in ["requests", "limits"] {
                for e in c
                    .get("resources")
                    .and_then(|r| r.get(part))
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                {
                    if requests.iter().any(|(k, _)| *k == e.key.as_str()) {
                        continue;
                    }
                    if let Some(q) = quantity(&e.value) {
                        requests.push((e.key.as_str(), q));
                    }
                }
            }
            requests.sort_by(|a, b| a.0.cmp(b.0));
            out.push(Container {
                name: c.get("name").and_then(Node::as_str).unwrap_or_default(),
                init: key == "initContainers",
                sidecar,
                requests,
            });
        }
    }
    out
}

impl Container<'_> {
    /// An init container that is not a sidecar: it runs alone, before the
    /// rest.
    fn plain_init(&self) -> bool {
        self.init && !self.sidecar
    }

    pub(crate) fn request(&self, resource: &str) -> Option<Quantity> {
        self.requests
            .iter()
            .find(|(k, _)| *k == resource)
            .map(|(_, q)| *q)
    }

    /// `AsInt64` of the request, when it is a whole non-zero count.
    fn count(&self, resource: &str) -> Option<i64> {
        let q = self.request(resource)?;
        if q.is_fractional() || q.is_zero() || q.is_negative() {
            return None;
        }
        i64::try_from(q.value()).ok()
    }

    /// The resource's index among the container's sorted request names.
    fn index_of(&self, resource: &str) -> usize {
        self.requests
            .iter()
            .position(|(k, _)| *k == resource)
            .unwrap_or(0)
    }
}

/// The pod's request of a resource as `resource.PodRequests` sums it:
/// containers and sidecars add up; a plain init container runs beside the
/// sidecars started before it; the larger wins.
pub(crate) fn pod_request(containers: &[Container<'_>], resource: &str) -> Quantity {
    let add = |a: Quantity, b: Quantity| a.checked_add(&b).unwrap_or(a);
    let mut total = Quantity::zero();
    let mut sidecars = Quantity::zero();
    let mut init_peak = Quantity::zero();
    for c in containers {
        let q = c.request(resource).unwrap_or_else(Quantity::zero);
        if c.plain_init() {
            init_peak = init_peak.max(add(q, sidecars));
        } else if c.init {
            total = add(total, q);
            sidecars = add(sidecars, q);
            init_peak = init_peak.max(sidecars);
        } else {
            total = add(total, q);
        }
    }
    total.max(init_peak)
}

/// The extended resources the pod's containers name (the DRA plugin's
/// kind), with the pod's request of each, sorted by name; zero requests
/// left out.
pub(crate) fn requested<'a>(
    containers: &[Container<'a>],
    version: Version,
) -> Vec<(&'a str, Quantity)> {
    let mut names: Vec<&str> = containers
        .iter()
        .flat_map(|c| c.requests.iter().map(|(k, _)| *k))
        .filter(|n| is_dra_extended_name(n, version))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|n| (n, pod_request(containers, n)))
        .filter(|(_, q)| !q.is_zero())
        .collect()
}

/// The extended resources of the pod a DeviceClass backs, sorted: what its
/// made-up claim asks for on a node that serves none of them itself.
pub fn backed_resources(pod: &Object, objects: &[Object], gates: &FeatureGates) -> Vec<String> {
    requested(&containers(pod), gates.version)
        .into_iter()
        .filter(|(n, _)| class_for(objects, gates, n).is_some())
        .map(|(n, _)| n.to_owned())
        .collect()
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

/// The requests of the made-up claim on a node that serves none of the
/// pod's DRA-backed resources itself, sorted by name.
pub fn extended_requests(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
) -> Vec<ExtendedRequest> {
    let all = backed_resources(pod, objects, gates);
    extended_requests_for(pod, objects, gates, &all)
}

/// The requests of the made-up claim for these resources (those a node
/// leaves to DRA), sorted by name.
pub fn extended_requests_for(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
    resources: &[String],
) -> Vec<ExtendedRequest> {
    let containers = containers(pod);
    let mut requests: Vec<ExtendedRequest> = Vec::new();
    for resource in resources {
        let Some(class) = class_for(objects, gates, resource) else {
            continue;
        };
        let request = |i: usize, count: i64| ExtendedRequest {
            name: format!("container-{i}-request-{}", containers[i].index_of(resource)),
            container: containers[i].name.to_owned(),
            resource: resource.clone(),
            class: class.to_owned(),
            count,
        };
        let counts: Vec<Option<i64>> = containers.iter().map(|c| c.count(resource)).collect();
        if gates.version < Version::V1_35 {
            // createDeviceRequests: one request per container.
            for (i, n) in counts.iter().enumerate() {
                if let Some(n) = n {
                    requests.push(request(i, *n));
                }
            }
            continue;
        }
        // createRequestsAndMappings: the containers that stay (sidecars
        // and containers) ask for theirs; a plain init container reuses
        // those that start after it and asks for the rest; of the plain
        // init containers' requests only the largest is kept (the first
        // of equals).
        let staying: Vec<Option<i64>> = containers
            .iter()
            .zip(&counts)
            .map(|(c, n)| n.filter(|_| !c.plain_init()))
            .collect();
        let mut largest: Option<(usize, i64)> = None;
        for (i, c) in containers.iter().enumerate() {
            let Some(want) = counts[i].filter(|_| c.plain_init()) else {
                continue;
            };
            let mut reused = 0i64;
            let mut covered = false;
            for n in staying[i..].iter().flatten() {
                reused = reused.saturating_add(*n);
                if reused >= want {
                    covered = true;
                    break;
                }
            }
            if !covered && largest.is_none_or(|(_, n)| n < want - reused) {
                largest = Some((i, want - reused));
            }
        }
        if let Some((i, n)) = largest {
            requests.push(request(i, n));
        }
        for (i, n) in staying.iter().enumerate() {
            if let Some(n) = n {
                requests.push(request(i, *n));
            }
        }
    }
    requests.sort_by(|a, b| a.name.cmp(&b.name));
    requests
}

/// The made-up claim as a ResourceClaim object, or `None` when the pod asks
/// for no DRA-backed extended resource (or the gate is off): as on a node
/// that serves none of them itself.
pub fn extended_resource_claim(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
) -> Option<Value> {
    let all = backed_resources(pod, objects, gates);
    if all.is_empty() {
        return None;
    }
    Some(claim_json(
        pod,
        &extended_requests_for(pod, objects, gates, &all),
    ))
}

/// The made-up claim on a node that leaves these resources to DRA (none:
/// a claim that asks for nothing, as the node serves them all itself).
pub fn extended_resource_claim_for(
    pod: &Object,
    objects: &[Object],
    gates: &FeatureGates,
    resources: &[String],
) -> Value {
    claim_json(pod, &extended_requests_for(pod, objects, gates, resources))
}

fn claim_json(pod: &Object, requests: &[ExtendedRequest]) -> Value {
    json!({
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
    })
}

/// The extended resources the pod's containers ask for that no DeviceClass
/// backs (every one while DRAExtendedResource is off), with the nodes whose
/// `status.allocatable` has them (a device plugin's); sorted by name.
pub fn unbacked_resources<'a>(
    pod: &Object,
    objects: &'a [Object],
    gates: &FeatureGates,
) -> Vec<(String, Vec<&'a str>)> {
    let containers = containers(pod);
    let mut names: Vec<&str> = containers
        .iter()
        .flat_map(|c| c.requests.iter().map(|(k, _)| *k))
        .filter(|n| is_extended_name(n) && class_for(objects, gates, n).is_none())
        .collect();
    names.sort_unstable();
    names.dedup();
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
                        .and_then(|a| a.get(n))
                        .and_then(quantity)
                        .is_some_and(|q| q > Quantity::zero())
                })
                .filter_map(Object::name)
                .collect();
            (n.to_owned(), nodes)
        })
        .collect()
}

#[cfg(test)]
#[path = "extended_tests.rs"]
mod tests;
