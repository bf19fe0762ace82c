//! The filters kube-scheduler runs on a node before DynamicResources that
//! read the other pods there: NodePorts, NodeResourcesFit's
//! `NodeInfo.Requested`, PodTopologySpread and InterPodAffinity, as
//! `RunFilterPluginsWithNominatedPods` runs them: first with the pods
//! nominated for the node (of the pod's priority or higher; preemption made
//! room for them there) added to it, then, if any were and the node
//! passed, without them; the node must pass both. DynamicResources has no
//! AddPod: a nominated pod's claims hold devices only once allocated.
//! Pure: built once per pod from the inventory and its [`NodeUsage`].

use std::borrow::Cow;
use std::collections::HashMap;

use crate::gates::FeatureGates;
use crate::model::Object;
use crate::node_fit::{NodeUsage, Used};
use crate::node_ports::NodePorts;
use crate::pod_affinity::InterPodAffinity;
use crate::topology_spread::TopologySpread;

pub struct Neighbours<'a> {
    objects: &'a [Object],
    usage: &'a NodeUsage,
    gates: &'a FeatureGates,
    /// The bound pods on each node, by the Node's index (NodePorts only).
    bound: HashMap<usize, Vec<usize>>,
    nominated: HashMap<usize, Vec<usize>>,
    ports: Option<NodePorts<'a>>,
    spread: Option<TopologySpread<'a>>,
    inter_pod: Option<InterPodAffinity<'a>>,
}

impl<'a> Neighbours<'a> {
    /// `usage` was built from `objects`.
    pub fn of(
        pod: &'a Object,
        objects: &'a [Object],
        gates: &'a FeatureGates,
        usage: &'a NodeUsage,
    ) -> Neighbours<'a> {
        let existing = usage.bound_pods();
        let ports = NodePorts::prefilter(pod);
        Neighbours {
            objects,
            usage,
            gates,
            bound: if ports.is_some() {
                existing.pods_by_node()
            } else {
                HashMap::new()
            },
            nominated: existing.nominated_for(objects, pod),
            ports,
            spread: TopologySpread::prefilter(pod, objects, existing),
            inter_pod: InterPodAffinity::prefilter(pod, objects, existing),
        }
    }

    fn pods(&self, of: &HashMap<usize, Vec<usize>>, node: usize) -> Vec<&'a Object> {
        of.get(&node)
            .into_iter()
            .flatten()
            .filter_map(|p| self.objects.get(*p))
            .collect()
    }

    /// What the pods bound to the Node at index `node`, and those
    /// nominated for it, request of it (`None`: nothing).
    pub fn used(&self, node: usize) -> Option<Cow<'_, Used>> {
        let name = self.objects.get(node)?.name()?;
        let nominated = self.pods(&self.nominated, node);
        let bound = self.usage.on(name);
        if nominated.is_empty() {
            return bound.map(Cow::Borrowed);
        }
        let base = bound.cloned().unwrap_or_default();
        Some(Cow::Owned(base.with_pods(&nominated, self.gates)))
    }

    /// NodePorts: a host port the pod asks for is held on the node by a pod
    /// bound or nominated there.
    pub fn ports_taken(&self, node: usize) -> bool {
        let Some(ports) = &self.ports else {
            return false;
        };
        let mut pods = self.pods(&self.bound, node);
        pods.extend(self.pods(&self.nominated, node));
        ports.taken(pods)
    }

    /// PodTopologySpread's PreFilter state (`None`: it skips).
    pub fn spread(&self) -> Option<&TopologySpread<'a>> {
        self.spread.as_ref()
    }

    /// InterPodAffinity's PreFilter state (`None`: it skips).
    pub fn inter_pod(&self) -> Option<&InterPodAffinity<'a>> {
        self.inter_pod.as_ref()
    }

    /// PodTopologySpread's, then InterPodAffinity's reason for ruling the
    /// node out, in the scheduler's words: with the nominated pods, then
    /// without them.
    pub fn after_resources(&self, node: usize) -> Option<&'static str> {
        let n = self.objects.get(node)?;
        let nominated = self.pods(&self.nominated, node);
        let run = |spread: Option<&TopologySpread<'a>>, inter: Option<&InterPodAffinity<'a>>| {
            spread
                .and_then(|s| s.filter(n))
                .map(|r| r.message())
                .or_else(|| inter?.filter(n).map(|r| r.message()))
        };
        if !nominated.is_empty() {
            let spread = self.spread.as_ref().map(|s| s.with_pods(&nominated, n));
            let inter = self.inter_pod.as_ref().map(|s| s.with_pods(&nominated, n));
            if let Some(r) = run(spread.as_ref(), inter.as_ref()) {
                return Some(r);
            }
        }
        run(self.spread.as_ref(), self.inter_pod.as_ref())
    }
}

#[cfg(test)]
#[path = "neighbours_tests.rs"]
mod tests;
