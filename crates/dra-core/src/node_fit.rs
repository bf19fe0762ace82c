//! NodeResourcesFit as kube-scheduler runs it before DynamicResources: a
//! node whose allocatable, less what the pods bound to it request, is below
//! the pod's request is ruled out (`fit.go` `fitsRequest`: "Too many pods",
//! "Insufficient cpu", memory, ephemeral-storage, then the scalars:
//! hugepages and extended resources), except the extended resources it
//! leaves to DRA (`shouldDelegateResourceToDRA`); then the DRA plugin's
//! `filterExtendedResources` picks what the node's made-up claim asks for.

use std::collections::HashMap;

use crate::extended::{class_for, containers, pod_request, quantity, requested};
use crate::gates::{FeatureGates, Gate, Version};
use crate::model::Object;
use crate::quantity::Quantity;

/// How one node serves the pod's resources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeServes {
    /// The DRA-backed resources the node leaves to the made-up claim
    /// (sorted); the others it serves itself.
    Claim(Vec<String>),
    /// NodeResourcesFit rules the node out, with its reasons in fit.go's
    /// order (`Too many pods`, then `Insufficient NAME`: cpu, memory,
    /// ephemeral-storage, then by name).
    Insufficient(Vec<String>),
}

/// The resources NodeResourcesFit checks besides extended ones.
fn is_native_checked(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage") || name.starts_with("hugepages-")
}

/// fit.go's order: cpu, memory, ephemeral-storage, then the scalars by name.
fn fit_order(name: &str) -> (usize, &str) {
    let first = ["cpu", "memory", "ephemeral-storage"]
        .iter()
        .position(|k| *k == name)
        .unwrap_or(3);
    (first, name)
}

/// A pod's requests as `resource.PodRequests` sums them, for the names
/// `wanted` keeps: pod-level `spec.resources` requests for cpu and memory
/// while PodLevelResources is on, else the containers'; plus
/// `spec.overhead`. Zero requests are left out; in fit.go's order.
fn pod_requests(
    pod: &Object,
    gates: &FeatureGates,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(String, Quantity)> {
    let containers = containers(pod);
    let spec = pod.pod_spec();
    let pod_level = |name: &str| {
        if !gates.enabled(Gate::PodLevelResources) || !matches!(name, "cpu" | "memory") {
            return None;
        }
        spec?
            .get("resources")?
            .get("requests")?
            .get(name)
            .and_then(quantity)
    };
    let overhead = |name: &str| spec.and_then(|s| s.get("overhead")?.get(name).and_then(quantity));
    let mut names: Vec<&str> = containers
        .iter()
        .flat_map(|c| c.requests.iter().map(|(k, _)| *k))
        .chain(
            ["cpu", "memory"]
                .into_iter()
                .filter(|n| pod_level(n).is_some()),
        )
        .filter(|n| wanted(n))
        .collect();
    names.sort_by_key(|n| fit_order(n));
    names.dedup();
    names
        .into_iter()
        .map(|n| {
            let mut q = pod_level(n).unwrap_or_else(|| pod_request(&containers, n));
            if let Some(o) = overhead(n) {
                q = q.checked_add(&o).unwrap_or(q);
            }
            (n.to_owned(), q)
        })
        .filter(|(_, q)| !q.is_zero())
        .collect()
}

/// What the pods bound to a node already take of it.
#[derive(Clone, Debug, Default)]
pub struct Used {
    pub pods: usize,
    pub requests: HashMap<String, Quantity>,
}

impl Used {
    /// This and what `pods` request (`NodeInfo.AddPod`).
    pub fn with_pods(&self, pods: &[&Object], gates: &FeatureGates) -> Used {
        let mut out = self.clone();
        for pod in pods {
            out.pods += 1;
            for (name, q) in pod_requests(pod, gates, |_| true) {
                let sum = out.requests.entry(name).or_insert_with(Quantity::zero);
                *sum = sum.checked_add(&q).unwrap_or(*sum);
            }
        }
        out
    }
}

/// What the pods of the inventory bound to each node request
/// (`NodeInfo.Requested`): those with `spec.nodeName` that are neither
/// Succeeded nor Failed (the scheduler's pod informer leaves terminal pods
/// out). An inventory with only some of the cluster's pods (one namespace)
/// counts only those.
#[derive(Default)]
pub struct NodeUsage {
    by_node: HashMap<String, Used>,
    /// The same pods as InterPodAffinity meets them (their labels and
    /// anti-affinity terms).
    bound: crate::pod_affinity::Existing,
}

impl NodeUsage {
    pub fn of(objects: &[Object], gates: &FeatureGates) -> NodeUsage {
        let mut by_node: HashMap<String, Used> = HashMap::new();
        for pod in objects {
            let Some(node) = pod.running_on() else {
                continue;
            };
            let used = by_node.entry(node.to_owned()).or_default();
            used.pods += 1;
            for (name, q) in pod_requests(pod, gates, |_| true) {
                let sum = used.requests.entry(name).or_insert_with(Quantity::zero);
                *sum = sum.checked_add(&q).unwrap_or(*sum);
            }
        }
        NodeUsage {
            by_node,
            bound: crate::pod_affinity::Existing::of(objects),
        }
    }

    pub fn on(&self, node: &str) -> Option<&Used> {
        self.by_node.get(node)
    }

    /// The bound pods as InterPodAffinity meets them; valid with the
    /// objects this was built from.
    pub fn bound_pods(&self) -> &crate::pod_affinity::Existing {
        &self.bound
    }
}

/// What NodeResourcesFit and the DRA plugin read of a pod's resources,
/// read once for all the nodes tried.
pub struct PodResources {
    version: Version,
    /// cpu, memory, ephemeral-storage and hugepages: the pod's request.
    native: Vec<(String, Quantity)>,
    /// Extended resources: the pod's request, and whether a DeviceClass
    /// backs it.
    extended: Vec<(String, Quantity, bool)>,
}

impl PodResources {
    pub fn of(pod: &Object, objects: &[Object], gates: &FeatureGates) -> PodResources {
        let extended = requested(&containers(pod), gates.version)
            .into_iter()
            .map(|(n, q)| (n.to_owned(), q, class_for(objects, gates, n).is_some()))
            .collect();
        PodResources {
            version: gates.version,
            native: pod_requests(pod, gates, is_native_checked),
            extended,
        }
    }

    /// Whether the node leaves a backed extended resource to DRA
    /// (`shouldDelegateResourceToDRA`): it does not advertise it (1.35+:
    /// or advertises zero, a device plugin gone, PR #133784; 1.34 asked
    /// whether it is listed).
    fn delegated(&self, backed: bool, advertised: Option<Quantity>) -> bool {
        backed
            && match advertised {
                None => true,
                Some(q) => self.version >= Version::V1_35 && q <= Quantity::zero(),
            }
    }

    /// The most copies of the pod NodeResourcesFit lets onto the node, one
    /// after another, and what stops the next (`Too many pods`,
    /// `Insufficient NAME`, the first in fit.go's order on a tie); `None`:
    /// no bound (a stub Node, or nothing the pod asks for is checked).
    /// Extended resources left to DRA are the allocator's to count.
    pub fn copies_on(&self, node: &Object, used: Option<&Used>) -> Option<(usize, String)> {
        let allocatable = node
            .root
            .get("status")
            .and_then(|s| s.get("allocatable"))
            .filter(|a| a.as_map().is_some())?;
        let has = |name: &str| allocatable.get(name).and_then(quantity);
        let mut best: Option<(usize, String)> = None;
        let mut consider = |n: i128, why: String| {
            let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
            if best.as_ref().is_none_or(|(b, _)| n < *b) {
                best = Some((n, why));
            }
        };
        if let Some(pods) = has("pods") {
            consider(
                pods.value() - used.map_or(0, |u| u.pods) as i128,
                "Too many pods".into(),
            );
        }
        let checked = self.native.iter().map(|(n, q)| (n, q)).chain(
            self.extended
                .iter()
                .filter(|(n, _, backed)| !self.delegated(*backed, has(n)))
                .map(|(n, q, _)| (n, q)),
        );
        for (name, want) in checked {
            let total = has(name).unwrap_or_else(Quantity::zero);
            let free = match used.and_then(|u| u.requests.get(name)) {
                Some(u) => total.checked_sub(u).unwrap_or(total),
                None => total,
            };
            let want = want.milli_value();
            if want > 0 {
                consider(
                    free.milli_value().div_euclid(want),
                    format!("Insufficient {name}"),
                );
            }
        }
        best
    }

    /// What the node does with the pod's resources. `used`: what the pods
    /// bound to it take (`NodeUsage`); a Node without `status.allocatable`
    /// (a stub written by hand) is not checked. `user_claims`: the pod has
    /// claims of its own (1.34 then asks DRA for every backed resource).
    pub fn on_node(&self, node: &Object, used: Option<&Used>, user_claims: bool) -> NodeServes {
        let allocatable = node
            .root
            .get("status")
            .and_then(|s| s.get("allocatable"))
            .filter(|a| a.as_map().is_some());
        let v134 = self.version < Version::V1_35;
        let has = |name: &str| allocatable.and_then(|a| a.get(name)).and_then(quantity);
        // What is left of a resource: allocatable less what is used.
        let free = |name: &str| {
            let total = has(name).unwrap_or_else(Quantity::zero);
            match used.and_then(|u| u.requests.get(name)) {
                Some(u) => total.checked_sub(u).unwrap_or(total),
                None => total,
            }
        };
        let mut short: Vec<String> = Vec::new();
        if allocatable.is_some() {
            if let Some(pods) = has("pods") {
                let bound = used.map_or(0, |u| u.pods) as i128;
                if bound + 1 > pods.value() {
                    short.push("Too many pods".to_owned());
                }
            }
            for (name, want) in &self.native {
                if *want > free(name) {
                    short.push(format!("Insufficient {name}"));
                }
            }
        }
        let mut to_dra = Vec::new();
        let mut backed_all = Vec::new();
        for (name, want, backed) in &self.extended {
            if *backed {
                backed_all.push(name.clone());
            }
            if self.delegated(*backed, has(name)) {
                to_dra.push(name.clone());
            } else if allocatable.is_some() && *want > free(name) {
                short.push(format!("Insufficient {name}"));
            }
        }
        if !short.is_empty() {
            // The scalars are one list in fit.go: extended resources and
            // hugepages by name, after cpu, memory and ephemeral-storage.
            let pods_first = usize::from(short.first().is_some_and(|s| s == "Too many pods"));
            short[pods_first..].sort_by(|a, b| {
                let name = |s: &str| s.trim_start_matches("Insufficient ").to_owned();
                fit_order(&name(a)).cmp(&fit_order(&name(b)))
            });
            return NodeServes::Insufficient(short);
        }
        // 1.34's filter kept the resources a device plugin serves in its
        // map (at 0) and createDeviceRequests asked for every key: once the
        // claim is made, it asks DRA for all of them.
        if v134 && (user_claims || !to_dra.is_empty()) {
            return NodeServes::Claim(backed_all);
        }
        NodeServes::Claim(to_dra)
    }
}

#[cfg(test)]
#[path = "node_fit_tests.rs"]
mod tests;
