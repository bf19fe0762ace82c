//! The scheduler's extended-resource claim as each node needs it: a node
//! whose device plugin serves a resource (`status.allocatable`) leaves it
//! out of the claim, and one whose allocatable falls short of the pod's
//! cpu, memory, ephemeral-storage, hugepages or an extended resource it
//! serves itself is ruled out by NodeResourcesFit (`dra_core::extended`).

use std::collections::HashMap;

use dra_core::allocate::{Allocator, Outcome};
use dra_core::gates::FeatureGates;
use dra_core::model::{Object, ObjectKind};
use dra_core::neighbours::Neighbours;
use dra_core::node_fit::{NodeServes, NodeUsage, PodResources};

/// The pod's extended resources as `report` reads them.
pub(super) struct Extended<'r, 'a> {
    /// The made-up claim's requests on a node that serves none itself.
    pub requests: &'r [dra_core::extended::ExtendedRequest],
    pub per_node: &'r PerNode,
    /// The claim sets beyond the usual one (`PerNode::sets`' order).
    pub more_sets: &'r [Vec<&'a Object>],
}

/// Where a node stands with the pod's extended resources.
#[derive(Clone, Debug)]
pub(super) enum Placement {
    /// Tried with claim set `n` (0: the claims as on a node that serves
    /// none itself); the resources its device plugin serves.
    Tried(usize, Vec<String>),
    /// NodeResourcesFit's reasons (`Too many pods`, `Insufficient NAME`).
    Insufficient(Vec<String>),
}

/// The claim sets beyond the usual one, and each node's placement (a node
/// not listed: the usual claims).
#[derive(Default)]
pub(super) struct PerNode {
    /// The DRA resources of each further claim set (set `i + 1`).
    pub sets: Vec<Vec<String>>,
    pub nodes: HashMap<String, Placement>,
    /// PodTopologySpread's or InterPodAffinity's reason for ruling a node
    /// out (the scheduler's words), the first in the scheduler's order.
    pub inter_pod: HashMap<String, &'static str>,
    /// The nodes NodePorts rules out (a host port taken), which the
    /// scheduler checks before NodeResourcesFit.
    pub ports_taken: std::collections::HashSet<String>,
    /// VolumeBinding's or VolumeZone's reasons for ruling a node out
    /// (after NodeResourcesFit, before PodTopologySpread).
    pub volumes: HashMap<String, String>,
}

impl PerNode {
    /// Each Node's placement for the pod; `full`: the resources the usual
    /// made-up claim asks for (none: the pod asks for no DRA-backed one);
    /// `usage`: what the pods bound to each node take.
    pub fn of(
        pod: &Object,
        objects: &[Object],
        gates: &FeatureGates,
        full: &[String],
        user_claims: bool,
        usage: &NodeUsage,
        volumes: Option<&dra_core::volumes::VolumeFilter<'_, '_>>,
    ) -> PerNode {
        let mut out = PerNode::default();
        let resources = PodResources::of(pod, objects, gates);
        // What the pods bound or nominated there do to the node.
        let around = Neighbours::of(pod, objects, gates, usage);
        for (i, node) in objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == ObjectKind::Node)
        {
            let Some(name) = node.name() else { continue };
            if around.ports_taken(i) {
                out.ports_taken.insert(name.to_owned());
            }
            if let Some(r) = around.after_resources(i) {
                out.inter_pod.insert(name.to_owned(), r);
            }
            if let Some((reasons, why)) =
                volumes.map(|v| v.verdict(node)).filter(|r| !r.0.is_empty())
            {
                // The scheduler's words, then the defect they stand for.
                let words = reasons.join(", ");
                out.volumes.insert(
                    name.to_owned(),
                    match why {
                        Some(why) => format!("{words} ({why})"),
                        None => words,
                    },
                );
            }
            let placement = match resources.on_node(node, around.used(i).as_deref(), user_claims) {
                NodeServes::Insufficient(r) => Placement::Insufficient(r),
                NodeServes::Claim(dra) if dra == full => continue,
                // No made-up claim at all: the DRA side has nothing to do.
                NodeServes::Claim(_) if full.is_empty() => continue,
                NodeServes::Claim(dra) => {
                    let own: Vec<String> =
                        full.iter().filter(|r| !dra.contains(r)).cloned().collect();
                    let set = match out.sets.iter().position(|s| *s == dra) {
                        Some(i) => i + 1,
                        None => {
                            out.sets.push(dra);
                            out.sets.len()
                        }
                    };
                    Placement::Tried(set, own)
                }
            };
            out.nodes.insert(name.to_owned(), placement);
        }
        out
    }

    /// The claim set a node is tried with.
    pub fn set_of(&self, node: &str) -> usize {
        match self.nodes.get(node) {
            Some(Placement::Tried(set, _)) => *set,
            _ => 0,
        }
    }

    /// What the node's device plugin serves of the pod's DRA-backed
    /// resources (empty: nothing).
    pub fn served_by_node(&self, node: &str) -> &[String] {
        match self.nodes.get(node) {
            Some(Placement::Tried(_, own)) => own,
            _ => &[],
        }
    }

    /// A line for the node's detail naming what its device plugin serves
    /// (empty: nothing).
    pub fn served_note(&self, node: &str) -> String {
        let own = self.served_by_node(node);
        if own.is_empty() {
            return String::new();
        }
        let it = if own.len() == 1 { "it" } else { "them" };
        format!(
            "  {}: served by the node's device plugin (status.allocatable), so the scheduler leaves {it} out of the extended-resource claim here\n",
            own.join(", "),
        )
    }

    /// NodePorts' or NodeResourcesFit's reasons for ruling the node out, if
    /// they do; else VolumeBinding's or VolumeZone's; else
    /// PodTopologySpread's or InterPodAffinity's (the scheduler's filters
    /// in their order).
    pub fn ruled_out(&self, node: &str) -> Option<String> {
        if self.ports_taken.contains(node) {
            return Some(dra_core::node_ports::REASON.to_owned());
        }
        if let Some(Placement::Insufficient(r)) = self.nodes.get(node) {
            return Some(r.join(", "));
        }
        if let Some(r) = self.volumes.get(node) {
            return Some(r.clone());
        }
        self.inter_pod.get(node).map(|r| (*r).to_owned())
    }
}

/// The outcomes on these nodes, each with the allocator of its claim set
/// (nodes of one set share one run: nodes alike share a search).
pub(super) fn on_nodes<S: AsRef<str> + Sync>(
    allocators: &[Allocator<'_>],
    per_node: &PerNode,
    nodes: &[S],
) -> Vec<Outcome> {
    if allocators.len() == 1 {
        return allocators[0].on_nodes(nodes);
    }
    let mut out: Vec<Option<Outcome>> = (0..nodes.len()).map(|_| None).collect();
    for (set, allocator) in allocators.iter().enumerate() {
        let picked: Vec<usize> = (0..nodes.len())
            .filter(|&i| per_node.set_of(nodes[i].as_ref()) == set)
            .collect();
        if picked.is_empty() {
            continue;
        }
        let names: Vec<&str> = picked.iter().map(|&i| nodes[i].as_ref()).collect();
        for (i, o) in picked.into_iter().zip(allocator.on_nodes(&names)) {
            out[i] = Some(o);
        }
    }
    out.into_iter().flatten().collect()
}
