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

/// Group visits `TopologySpread::place_copies` makes at most (some
/// seconds of work).
const PLACE_BUDGET: usize = 20_000_000;

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
        self.keys.is_empty()
            && self
                .selector
                .is_some_and(label_selector::selects_everything)
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
    /// A copy goes where the constraints allow it (each copy that matches a
    /// constraint's selector adds to its domain). Nodes are grouped by
    /// their domains; each round offers every group one copy, the least
    /// loaded first, so the work grows with the groups times the copies a
    /// group takes, not with the copies times the nodes. Returns how many
    /// each node takes; `None` past a bound on the work (a fleet of tens of
    /// thousands of nodes with constraints that let one copy in per round).
    pub fn place_copies(&self, room: &[(&'a Object, usize)]) -> Option<Vec<usize>> {
        use std::collections::BTreeMap;
        if self.constraints.is_empty() {
            return Some(room.iter().map(|(_, most)| *most).collect());
        }
        let mut placed = vec![0; room.len()];
        // Each node's domain per constraint; a node without a key takes none.
        let mut groups: HashMap<Vec<&'a str>, Vec<usize>> = HashMap::new();
        for (n, (node, most)) in room.iter().enumerate() {
            if *most == 0 {
                continue;
            }
            let domains: Option<Vec<&str>> = self
                .constraints
                .iter()
                .map(|c| node_label(node, c.topology_key))
                .collect();
            if let Some(d) = domains {
                groups.entry(d).or_default().push(n);
            }
        }
        let mut groups: Vec<(Vec<&'a str>, Vec<usize>)> = groups.into_iter().collect();
        groups.sort();
        // Each group's place among the groups of its domain of the coarsest
        // constraint (fewest domains): ordering a round by it after the
        // load interleaves the domains, so a round fills every domain once
        // rather than one copy per domain (zones of a thousand nodes each).
        let coarse = (0..self.constraints.len())
            .min_by_key(|i| {
                groups
                    .iter()
                    .map(|(d, _)| d[*i])
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            })
            .unwrap_or(0);
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let rank: Vec<usize> = groups
            .iter()
            .map(|(d, _)| {
                let r = seen.entry(d[coarse]).or_default();
                *r += 1;
                *r
            })
            .collect();
        // Each group's first node with room left.
        let mut cursor = vec![0usize; groups.len()];
        let mut budget: usize = PLACE_BUDGET;
        let mut counts = self.counts.clone();
        // How many domains hold each count, per constraint: the minimum is
        // the first key (upstream keeps DomainsAtCount the same way).
        let mut at_count: Vec<BTreeMap<i64, usize>> = counts
            .iter()
            .map(|c| {
                let mut h = BTreeMap::new();
                for v in c.values() {
                    *h.entry(*v).or_default() += 1;
                }
                h
            })
            .collect();
        let min = |i: usize, counts: &[HashMap<&str, i64>], at: &[BTreeMap<i64, usize>]| {
            if (counts[i].len() as i64) < self.constraints[i].min_domains {
                0
            } else {
                at[i].keys().next().copied().unwrap_or(i64::from(i32::MAX))
            }
        };
        loop {
            let load = |d: &[&str], counts: &[HashMap<&str, i64>]| -> i64 {
                d.iter()
                    .enumerate()
                    .map(|(i, v)| counts[i].get(v).copied().unwrap_or(0))
                    .sum()
            };
            let mut order: Vec<usize> = (0..groups.len()).collect();
            order.sort_by_key(|g| (load(&groups[*g].0, &counts), rank[*g]));
            let mut progressed = false;
            budget = budget.checked_sub(groups.len().max(1))?;
            for g in order {
                let (domains, nodes) = &groups[g];
                while cursor[g] < nodes.len()
                    && placed[nodes[cursor[g]]] >= room[nodes[cursor[g]]].1
                {
                    cursor[g] += 1;
                }
                let Some(&n) = nodes.get(cursor[g]) else {
                    continue;
                };
                let allowed = self.constraints.iter().enumerate().all(|(i, c)| {
                    let here = counts[i].get(domains[i]).copied().unwrap_or(0);
                    here + i64::from(self.self_match[i]) - min(i, &counts, &at_count) <= c.max_skew
                });
                if !allowed {
                    continue;
                }
                placed[n] += 1;
                progressed = true;
                for (i, d) in domains.iter().enumerate() {
                    if !self.self_match[i] {
                        continue;
                    }
                    let entry = counts[i].entry(d).or_default();
                    let old = *entry;
                    *entry += 1;
                    if counts[i].len() > at_count[i].values().sum::<usize>() {
                        // A domain not counted before (not eligible at
                        // PreFilter) enters at its old count.
                        *at_count[i].entry(old).or_default() += 1;
                    }
                    if let Some(k) = at_count[i].get_mut(&old) {
                        *k -= 1;
                        if *k == 0 {
                            at_count[i].remove(&old);
                        }
                    }
                    *at_count[i].entry(old + 1).or_default() += 1;
                }
            }
            if !progressed {
                return Some(placed);
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
