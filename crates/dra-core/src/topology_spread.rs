//! kube-scheduler's PodTopologySpread filter
//! (`framework/plugins/podtopologyspread/filtering.go` and `common.go`,
//! alike in 1.34-1.37): the pod's `topologySpreadConstraints` with
//! `whenUnsatisfiable: DoNotSchedule`. PreFilter counts, per constraint and
//! domain (a value of its `topologyKey` on the eligible nodes), the bound
//! pods of the pod's namespace its selector matches; Filter rules a node
//! out where placing the pod would make its domain's count exceed the
//! smallest by more than `maxSkew`. `ScheduleAnyway` constraints only score,
//! and the cluster's default constraints (`ScheduleAnyway` unless the
//! scheduler is configured otherwise) are not visible here. Pure.

use std::collections::HashMap;

use crate::label_selector;
use crate::model::Object;
use crate::pod_affinity::{labels_of, node_label, Existing};
use crate::scheduling::PodConstraints;
use crate::tree::Node;

/// Why PodTopologySpread rules a node out: the scheduler's reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The node lacks a constraint's topology label
    /// (UnschedulableAndUnresolvable).
    MissingLabel,
    /// The pod there would exceed a constraint's `maxSkew`.
    ConstraintsNotMatch,
}

impl Reason {
    /// The scheduler's words (`ErrReason...` of podtopologyspread).
    pub fn message(self) -> &'static str {
        match self {
            Reason::MissingLabel => {
                "node(s) didn't match pod topology spread constraints (missing required label)"
            }
            Reason::ConstraintsNotMatch => "node(s) didn't match pod topology spread constraints",
        }
    }
}

/// A constraint's selector: its `labelSelector` (`None`: nil, which
/// matches nothing) and the pod's labels its `matchLabelKeys` name, merged
/// in as the scheduler (or, from 1.34, the apiserver) merges them; merging
/// them again is the same selector.
#[derive(Clone)]
struct Selector<'a> {
    selector: Option<&'a Node>,
    keys: Vec<(&'a str, &'a str)>,
}

impl Selector<'_> {
    fn matches(&self, labels: Option<&Node>) -> bool {
        let Some(s) = self.selector else {
            return false;
        };
        self.keys
            .iter()
            .all(|(k, v)| labels.and_then(|l| l.get(k)).and_then(Node::as_str) == Some(*v))
            && label_selector::matches(s, labels) == Some(true)
    }

    /// `labels.Selector.Empty()`: no requirement at all, whose count
    /// `countPodsMatchSelector` makes 0.
    fn is_empty(&self) -> bool {
        let Some(s) = self.selector else {
            return false;
        };
        let none = |k| {
            s.get(k).is_none_or(|v| {
                v.is_null()
                    || v.as_map().is_some_and(<[_]>::is_empty)
                    || v.as_seq().is_some_and(<[_]>::is_empty)
            })
        };
        self.keys.is_empty() && none("matchLabels") && none("matchExpressions")
    }
}

#[derive(Clone)]
struct Constraint<'a> {
    max_skew: i64,
    topology_key: &'a str,
    selector: Selector<'a>,
    min_domains: i64,
    /// `nodeAffinityPolicy: Honor` (the default): only nodes the pod's
    /// node selector and required affinity admit are domains.
    honor_affinity: bool,
    /// `nodeTaintsPolicy: Honor` (default Ignore): only nodes whose
    /// NoSchedule/NoExecute taints the pod tolerates.
    honor_taints: bool,
}

fn constraints(pod: &Object) -> Vec<Constraint<'_>> {
    let labels = labels_of(pod);
    pod.pod_spec()
        .and_then(|s| s.get("topologySpreadConstraints"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|c| c.get("whenUnsatisfiable").and_then(Node::as_str) == Some("DoNotSchedule"))
        .map(|c| {
            let keys = c
                .get("matchLabelKeys")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(Node::as_str)
                .filter_map(|k| {
                    let v = labels?.get(k)?.as_str()?;
                    Some((k, v))
                })
                .collect();
            let policy = |k: &str, default: &str| {
                c.get(k).and_then(Node::as_str).unwrap_or(default) == "Honor"
            };
            Constraint {
                max_skew: c.get("maxSkew").and_then(Node::as_i64).unwrap_or(1),
                topology_key: c.get("topologyKey").and_then(Node::as_str).unwrap_or(""),
                selector: Selector {
                    selector: c.get("labelSelector").filter(|n| !n.is_null()),
                    keys,
                },
                min_domains: c.get("minDomains").and_then(Node::as_i64).unwrap_or(1),
                honor_affinity: policy("nodeAffinityPolicy", "Honor"),
                honor_taints: policy("nodeTaintsPolicy", "Ignore"),
            }
        })
        .collect()
}

/// PreFilter's state for one pod.
#[derive(Clone)]
pub struct TopologySpread<'a> {
    pod: &'a Object,
    constraints: Vec<Constraint<'a>>,
    /// Per constraint: matching pods per domain (every eligible domain,
    /// those with none at 0).
    counts: Vec<HashMap<&'a str, i64>>,
    /// Per constraint: whether the pod's own labels match.
    self_match: Vec<bool>,
}

impl<'a> TopologySpread<'a> {
    /// PreFilter; `None` where it returns Skip (no DoNotSchedule
    /// constraint). `existing` was built from `objects`.
    pub fn prefilter(
        pod: &'a Object,
        objects: &'a [Object],
        existing: &Existing,
    ) -> Option<TopologySpread<'a>> {
        let constraints = constraints(pod);
        if constraints.is_empty() {
            return None;
        }
        let own = PodConstraints::of(pod);
        let ns = pod.namespace_or_default();
        let pods_on = existing.pods_by_node();
        let mut counts: Vec<HashMap<&str, i64>> = vec![HashMap::new(); constraints.len()];
        for (n, node) in objects
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == crate::model::ObjectKind::Node)
        {
            // Every topology key on the node, or it is no domain at all.
            if constraints
                .iter()
                .any(|c| node_label(node, c.topology_key).is_none())
            {
                continue;
            }
            let on_node = pods_on.get(&n);
            for (i, c) in constraints.iter().enumerate() {
                if c.honor_affinity && !own.affinity_admits(node) {
                    continue;
                }
                if c.honor_taints && own.untolerated_node_taint(node).is_some() {
                    continue;
                }
                let value = node_label(node, c.topology_key).unwrap_or_default();
                let matching = if c.selector.is_empty() {
                    0
                } else {
                    on_node
                        .into_iter()
                        .flatten()
                        .filter_map(|p| objects.get(*p))
                        .filter(|p| !std::ptr::eq(*p, pod))
                        .filter(|p| p.namespace_or_default() == ns && !terminating(p))
                        .filter(|p| c.selector.matches(labels_of(p)))
                        .count() as i64
                };
                *counts[i].entry(value).or_default() += matching;
            }
        }
        let self_match = constraints
            .iter()
            .map(|c| c.selector.matches(labels_of(pod)))
            .collect();
        Some(TopologySpread {
            pod,
            constraints,
            counts,
            self_match,
        })
    }

    /// The state with `pods` added on `node` (`AddPod`'s `updateWithPod`:
    /// a pod of the same namespace on a node with every key and, per
    /// constraint, the inclusion policies met, counted where its labels
    /// match; unlike PreFilter's count, an empty selector matches).
    pub fn with_pods(&self, pods: &[&Object], node: &'a Object) -> TopologySpread<'a> {
        let mut out = self.clone();
        if self
            .constraints
            .iter()
            .any(|c| node_label(node, c.topology_key).is_none())
        {
            return out;
        }
        let own = PodConstraints::of(self.pod);
        let ns = self.pod.namespace_or_default();
        for other in pods.iter().filter(|p| p.namespace_or_default() == ns) {
            for (i, c) in self.constraints.iter().enumerate() {
                if !c.selector.matches(labels_of(other)) {
                    continue;
                }
                if (c.honor_affinity && !own.affinity_admits(node))
                    || (c.honor_taints && own.untolerated_node_taint(node).is_some())
                {
                    continue;
                }
                let value = node_label(node, c.topology_key).unwrap_or_default();
                *out.counts[i].entry(value).or_default() += 1;
            }
        }
        out
    }

    /// Copies of the pod placed one after another (`capacity pod`): `room`
    /// gives each Node and how many copies its devices and resources take.
    /// A copy goes where its constraints allow it (each copy that matches a
    /// constraint's selector adds to its domain), the node whose domains
    /// hold the fewest first; returns how many each node takes.
    pub fn place_copies(&self, room: &[(&'a Object, usize)]) -> Vec<usize> {
        let mut counts = self.counts.clone();
        let mut placed = vec![0; room.len()];
        loop {
            let min = |i: usize, counts: &[HashMap<&str, i64>]| {
                let c = &counts[i];
                if (c.len() as i64) < self.constraints[i].min_domains {
                    0
                } else {
                    c.values().copied().min().unwrap_or(i64::from(i32::MAX))
                }
            };
            let mut best: Option<(i64, usize)> = None;
            for (n, (node, most)) in room.iter().enumerate() {
                if placed[n] >= *most {
                    continue;
                }
                let mut load = 0;
                let fits = self.constraints.iter().enumerate().all(|(i, c)| {
                    let Some(v) = node_label(node, c.topology_key) else {
                        return false;
                    };
                    let here = counts[i].get(v).copied().unwrap_or(0);
                    load += here;
                    here + i64::from(self.self_match[i]) - min(i, &counts) <= c.max_skew
                });
                if fits && best.is_none_or(|(l, _)| load < l) {
                    best = Some((load, n));
                }
            }
            let Some((_, n)) = best else {
                return placed;
            };
            placed[n] += 1;
            for (i, c) in self.constraints.iter().enumerate() {
                if self.self_match[i] {
                    if let Some(v) = node_label(room[n].0, c.topology_key) {
                        *counts[i].entry(v).or_default() += 1;
                    }
                }
            }
        }
    }

    /// Filter on `node`: the first constraint it breaks.
    pub fn filter(&self, node: &Object) -> Option<Reason> {
        for (i, c) in self.constraints.iter().enumerate() {
            let Some(value) = node_label(node, c.topology_key) else {
                return Some(Reason::MissingLabel);
            };
            let counts = &self.counts[i];
            // Fewer eligible domains than minDomains: the minimum is 0.
            let min = if (counts.len() as i64) < c.min_domains {
                0
            } else {
                // No eligible domain: math.MaxInt32, so no skew is too large.
                counts
                    .values()
                    .copied()
                    .min()
                    .unwrap_or(i64::from(i32::MAX))
            };
            let matching = counts.get(value).copied().unwrap_or(0);
            let skew = matching + i64::from(self.self_match[i]) - min;
            if skew > c.max_skew {
                return Some(Reason::ConstraintsNotMatch);
            }
        }
        None
    }
}

/// `countPodsMatchSelector` passes over terminating pods (#87621).
fn terminating(pod: &Object) -> bool {
    pod.root
        .get("metadata")
        .and_then(|m| m.get("deletionTimestamp"))
        .is_some_and(|d| !d.is_null())
}

#[cfg(test)]
#[path = "topology_spread_tests.rs"]
mod tests;
