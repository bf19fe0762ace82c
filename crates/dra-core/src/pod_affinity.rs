//! kube-scheduler's InterPodAffinity filter
//! (`framework/plugins/interpodaffinity/filtering.go`, alike in 1.34-1.37):
//! the pod's required pod affinity and anti-affinity terms against the pods
//! already bound to nodes, and those pods' required anti-affinity terms
//! against the pod. PreFilter counts, per topology pair (a node label's key
//! and value), the bound pods each rule meets; Filter then rules a node out
//! by its labels. Pure: the caller gives the objects it has read.
//!
//! What the scheduler's pod informer holds are the pods bound to a node and
//! not finished, on nodes it knows: the same as [`Existing`] finds.

use std::collections::HashMap;

use crate::label_selector;
use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// Why InterPodAffinity rules a node out: the scheduler's reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A required pod affinity term meets no pod in the node's domain, or
    /// the node lacks a term's topology label (UnschedulableAndUnresolvable).
    AffinityRulesNotMatch,
    /// A required anti-affinity term of the pod meets a pod in the node's
    /// domain.
    AntiAffinityRulesNotMatch,
    /// A bound pod's required anti-affinity term meets the pod, in the
    /// node's domain.
    ExistingAntiAffinityRulesNotMatch,
}

impl Reason {
    /// The scheduler's words (`ErrReason...` of filtering.go).
    pub fn message(self) -> &'static str {
        match self {
            Reason::AffinityRulesNotMatch => "node(s) didn't match pod affinity rules",
            Reason::AntiAffinityRulesNotMatch => "node(s) didn't match pod anti-affinity rules",
            Reason::ExistingAntiAffinityRulesNotMatch => {
                "node(s) didn't satisfy existing pods anti-affinity rules"
            }
        }
    }
}

/// The bound pods the scheduler's NodeInfos hold, as indices into the
/// objects they were found in (valid only with that slice): built once per
/// inventory, as [`crate::node_fit::NodeUsage`] is.
#[derive(Default)]
pub struct Existing {
    /// (pod, its Node) of each bound, unfinished pod whose Node is known.
    pods: Vec<(usize, usize)>,
    /// Those of them with required anti-affinity terms.
    with_anti: Vec<(usize, usize)>,
    /// Namespace objects by name (namespace selectors read their labels).
    namespaces: HashMap<String, usize>,
    /// (pod, its Node) of each unbound, unfinished pod the scheduler has
    /// nominated for a known node (`status.nominatedNodeName`: preemption
    /// made room for it there).
    nominated: Vec<(usize, usize)>,
}

impl Existing {
    pub fn of(objects: &[Object]) -> Existing {
        let mut nodes: HashMap<&str, usize> = HashMap::new();
        let mut namespaces = HashMap::new();
        for (i, o) in objects.iter().enumerate() {
            if o.kind == ObjectKind::Node {
                if let Some(n) = o.name() {
                    nodes.entry(n).or_insert(i);
                }
            } else if o.reference.kind == "Namespace" {
                if let Some(n) = o.name() {
                    namespaces.entry(n.to_owned()).or_insert(i);
                }
            }
        }
        let mut out = Existing {
            namespaces,
            ..Existing::default()
        };
        for (i, pod) in objects.iter().enumerate() {
            if !is_pod(pod) || finished(pod) {
                continue;
            }
            let bound_to = pod
                .pod_spec()
                .and_then(|s| s.get("nodeName"))
                .and_then(Node::as_str)
                .filter(|n| !n.is_empty());
            let Some(node) = bound_to.and_then(|n| nodes.get(n)) else {
                let nominated = pod
                    .root
                    .get("status")
                    .and_then(|s| s.get("nominatedNodeName"))
                    .and_then(Node::as_str)
                    .and_then(|n| nodes.get(n));
                if let (None, Some(n)) = (bound_to, nominated) {
                    out.nominated.push((i, *n));
                }
                continue;
            };
            out.pods.push((i, *node));
            if !terms(pod, "podAntiAffinity").is_empty() {
                out.with_anti.push((i, *node));
            }
        }
        out
    }

    /// The bound pods on each node, by the Node's index.
    pub fn pods_by_node(&self) -> HashMap<usize, Vec<usize>> {
        let mut out: HashMap<usize, Vec<usize>> = HashMap::new();
        for (p, n) in &self.pods {
            out.entry(*n).or_default().push(*p);
        }
        out
    }

    /// The pods nominated for each node (by the Node's index) that the
    /// scheduler adds there while filtering `pod` (`addGENominatedPods`):
    /// those of its priority or higher, other than itself.
    pub fn nominated_for(&self, objects: &[Object], pod: &Object) -> HashMap<usize, Vec<usize>> {
        let priority = |p: &Object| {
            p.pod_spec()
                .and_then(|s| s.get("priority"))
                .and_then(Node::as_i64)
                .unwrap_or(0)
        };
        let own = priority(pod);
        let mut out: HashMap<usize, Vec<usize>> = HashMap::new();
        for (p, n) in &self.nominated {
            let Some(other) = objects.get(*p) else {
                continue;
            };
            let same = std::ptr::eq(other, pod)
                || (other.namespace_or_default() == pod.namespace_or_default()
                    && other.name() == pod.name());
            if !same && priority(other) >= own {
                out.entry(*n).or_default().push(*p);
            }
        }
        out
    }

    /// Whether a bound pod has required anti-affinity terms.
    pub fn any_anti_affinity(&self) -> bool {
        !self.with_anti.is_empty()
    }

    fn namespace_labels<'a>(&self, objects: &'a [Object], ns: &str) -> Option<&'a Node> {
        let o = objects.get(*self.namespaces.get(ns)?)?;
        o.root.get("metadata")?.get("labels")
    }
}

fn is_pod(o: &Object) -> bool {
    o.kind == ObjectKind::Workload && o.reference.kind == "Pod"
}

fn finished(pod: &Object) -> bool {
    matches!(
        pod.root
            .get("status")
            .and_then(|s| s.get("phase"))
            .and_then(Node::as_str),
        Some("Succeeded" | "Failed")
    )
}

/// The labels of the pod a workload makes: a Pod's own, a template's
/// `metadata.labels` beside its `spec`.
pub fn labels_of(pod: &Object) -> Option<&Node> {
    let path = pod.pod_spec_path;
    let mut n = &pod.root;
    for k in &path[..path.len().saturating_sub(1)] {
        n = match k.parse::<usize>() {
            Ok(i) => n.as_seq()?.get(i)?,
            Err(_) => n.get(k)?,
        };
    }
    n.get("metadata")?.get("labels")
}

/// The value of the Node's label `key`.
pub fn node_label<'a>(node: &'a Object, key: &str) -> Option<&'a str> {
    node.root.get("metadata")?.get("labels")?.get(key)?.as_str()
}

/// Which namespaces a term's namespace selector admits.
#[derive(Clone, Copy)]
enum NamespaceSelector<'a> {
    /// No selector (nil: `labels.Nothing()`), or one merged into the names.
    Nothing,
    /// `{}`: every namespace.
    Everything,
    Labels(&'a Node),
}

/// A required `PodAffinityTerm`, as `framework.AffinityTerm` holds it.
#[derive(Clone)]
struct Term<'a> {
    namespaces: Vec<&'a str>,
    namespace_selector: NamespaceSelector<'a>,
    /// `None`: a nil label selector, which matches nothing.
    selector: Option<&'a Node>,
    topology_key: &'a str,
}

fn present(n: Option<&Node>) -> Option<&Node> {
    n.filter(|n| !n.is_null())
}

/// The pod's required terms of `kind` (`podAffinity`, `podAntiAffinity`):
/// `getNamespacesFromPodAffinityTerm` gives a term with neither names nor a
/// namespace selector the pod's own namespace.
fn terms<'a>(pod: &'a Object, kind: &str) -> Vec<Term<'a>> {
    let own = pod.namespace_or_default();
    let list = pod
        .pod_spec()
        .and_then(|s| s.get("affinity"))
        .and_then(|a| a.get(kind))
        .and_then(|a| a.get("requiredDuringSchedulingIgnoredDuringExecution"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    list.iter()
        .map(|t| {
            let mut namespaces: Vec<&str> = t
                .get("namespaces")
                .and_then(Node::as_seq)
                .unwrap_or_default()
                .iter()
                .filter_map(Node::as_str)
                .collect();
            let ns_selector = present(t.get("namespaceSelector"));
            if namespaces.is_empty() && ns_selector.is_none() {
                namespaces.push(own);
            }
            let namespace_selector = match ns_selector {
                None => NamespaceSelector::Nothing,
                Some(s) if label_selector::selects_everything(s) => NamespaceSelector::Everything,
                Some(s) => NamespaceSelector::Labels(s),
            };
            Term {
                namespaces,
                namespace_selector,
                selector: present(t.get("labelSelector")),
                topology_key: t.get("topologyKey").and_then(Node::as_str).unwrap_or(""),
            }
        })
        .collect()
}

impl Term<'_> {
    /// `AffinityTerm.Matches`: the pod's namespace is one of the term's (or
    /// its namespace's labels match the selector), and its labels match.
    fn matches(&self, pod: &Object, namespace_labels: Option<&Node>) -> bool {
        let ns = pod.namespace_or_default();
        let in_namespace = self.namespaces.contains(&ns)
            || match self.namespace_selector {
                NamespaceSelector::Nothing => false,
                NamespaceSelector::Everything => true,
                NamespaceSelector::Labels(s) => {
                    label_selector::matches(s, namespace_labels) == Some(true)
                }
            };
        in_namespace
            && self
                .selector
                .is_some_and(|s| label_selector::matches(s, labels_of(pod)) == Some(true))
    }
}

/// `podMatchesAllAffinityTerms`: false for no terms.
fn matches_all(terms: &[Term<'_>], pod: &Object) -> bool {
    !terms.is_empty() && terms.iter().all(|t| t.matches(pod, None))
}

type Counts<'a> = HashMap<(&'a str, &'a str), i64>;

fn count<'a>(counts: &mut Counts<'a>, node: &'a Object, key: &'a str) {
    if let Some(value) = node_label(node, key) {
        *counts.entry((key, value)).or_default() += 1;
    }
}

/// PreFilter's state for one pod.
#[derive(Clone)]
pub struct InterPodAffinity<'a> {
    pod: &'a Object,
    /// The labels of the pod's Namespace (bound pods' namespace selectors).
    own_labels: Option<&'a Node>,
    affinity: Vec<Term<'a>>,
    anti_affinity: Vec<Term<'a>>,
    /// Topology pairs where a bound pod's anti-affinity term meets the pod.
    existing_anti: Counts<'a>,
    /// Topology pairs of the bound pods that meet all the pod's affinity terms.
    affinity_counts: Counts<'a>,
    /// Topology pairs of the bound pods one of the pod's anti-affinity terms meets.
    anti_counts: Counts<'a>,
    /// The pod meets its own affinity terms (the first of a group may go anywhere).
    matches_own: bool,
}

impl<'a> InterPodAffinity<'a> {
    /// PreFilter; `None` where it returns Skip (no term on either side).
    /// `existing` was built from `objects`.
    pub fn prefilter(
        pod: &'a Object,
        objects: &'a [Object],
        existing: &Existing,
    ) -> Option<InterPodAffinity<'a>> {
        let mut affinity = terms(pod, "podAffinity");
        let mut anti_affinity = terms(pod, "podAntiAffinity");
        // mergeAffinityTermNamespacesIfNotEmpty: the pod's own namespace
        // selectors become the names of the namespaces they select.
        for t in affinity.iter_mut().chain(anti_affinity.iter_mut()) {
            if let NamespaceSelector::Labels(s) = t.namespace_selector {
                for (name, i) in &existing.namespaces {
                    let labels = objects
                        .get(*i)
                        .and_then(|o| o.root.get("metadata"))
                        .and_then(|m| m.get("labels"));
                    if label_selector::matches(s, labels) == Some(true) {
                        if let Some(o) = objects.get(*i).and_then(Object::name) {
                            debug_assert_eq!(o, name);
                            t.namespaces.push(o);
                        }
                    }
                }
                t.namespace_selector = NamespaceSelector::Nothing;
            }
        }
        let own_labels = existing.namespace_labels(objects, pod.namespace_or_default());
        let mut existing_anti = Counts::new();
        for (p, n) in &existing.with_anti {
            let (Some(other), Some(node)) = (objects.get(*p), objects.get(*n)) else {
                continue;
            };
            // A bound pod explained (its devices not prepared) is not its
            // own neighbour.
            if std::ptr::eq(other, pod) {
                continue;
            }
            for t in terms(other, "podAntiAffinity") {
                if t.matches(pod, own_labels) {
                    count(&mut existing_anti, node, t.topology_key);
                }
            }
        }
        let mut affinity_counts = Counts::new();
        let mut anti_counts = Counts::new();
        if !affinity.is_empty() || !anti_affinity.is_empty() {
            for (p, n) in &existing.pods {
                let (Some(other), Some(node)) = (objects.get(*p), objects.get(*n)) else {
                    continue;
                };
                if std::ptr::eq(other, pod) {
                    continue;
                }
                if matches_all(&affinity, other) {
                    for t in &affinity {
                        count(&mut affinity_counts, node, t.topology_key);
                    }
                }
                for t in &anti_affinity {
                    if t.matches(other, None) {
                        count(&mut anti_counts, node, t.topology_key);
                    }
                }
            }
        }
        if existing_anti.is_empty() && affinity.is_empty() && anti_affinity.is_empty() {
            return None;
        }
        let matches_own = matches_all(&affinity, pod);
        Some(InterPodAffinity {
            pod,
            own_labels,
            affinity,
            anti_affinity,
            existing_anti,
            affinity_counts,
            anti_counts,
            matches_own,
        })
    }

    /// The topology keys of the pod's affinity terms when it would start a
    /// group (no bound pod matches them, and it matches them itself): the
    /// copies after the first then meet the first, so all of them share
    /// its domain of these keys.
    pub fn own_group_keys(&self) -> Option<Vec<&'a str>> {
        (self.affinity_counts.is_empty() && self.matches_own)
            .then(|| self.affinity.iter().map(|t| t.topology_key).collect())
    }

    /// The topology keys of the pod's anti-affinity terms that meet the pod
    /// itself: two copies of it never share a domain of these keys.
    pub fn self_exclusive_keys(&self, pod: &Object) -> Vec<&'a str> {
        self.anti_affinity
            .iter()
            .filter(|t| t.matches(pod, None))
            .map(|t| t.topology_key)
            .collect()
    }

    /// The state with `pods` added on `node` (`AddPod`'s `updateWithPod`),
    /// as the scheduler filters a node with the pods nominated for it.
    pub fn with_pods(&self, pods: &[&'a Object], node: &'a Object) -> InterPodAffinity<'a> {
        let mut out = self.clone();
        for other in pods {
            for t in terms(other, "podAntiAffinity") {
                if t.matches(self.pod, self.own_labels) {
                    count(&mut out.existing_anti, node, t.topology_key);
                }
            }
            if matches_all(&self.affinity, other) {
                for t in &self.affinity {
                    count(&mut out.affinity_counts, node, t.topology_key);
                }
            }
            for t in &self.anti_affinity {
                if t.matches(other, None) {
                    count(&mut out.anti_counts, node, t.topology_key);
                }
            }
        }
        out
    }

    /// Filter on `node`: the first rule it breaks, in the plugin's order.
    pub fn filter(&self, node: &Object) -> Option<Reason> {
        if !self.satisfies_affinity(node) {
            return Some(Reason::AffinityRulesNotMatch);
        }
        let anti = |counts: &Counts<'_>, key: &str| {
            node_label(node, key).is_some_and(|v| counts.get(&(key, v)).is_some_and(|c| *c > 0))
        };
        if self
            .anti_affinity
            .iter()
            .any(|t| anti(&self.anti_counts, t.topology_key))
        {
            return Some(Reason::AntiAffinityRulesNotMatch);
        }
        let labels = node
            .root
            .get("metadata")
            .and_then(|m| m.get("labels"))
            .and_then(Node::as_map)
            .unwrap_or_default();
        if !self.existing_anti.is_empty()
            && labels
                .iter()
                .any(|e| anti(&self.existing_anti, e.key.as_str()))
        {
            return Some(Reason::ExistingAntiAffinityRulesNotMatch);
        }
        None
    }

    /// `satisfyPodAffinity`: every term's topology label on the node, and a
    /// matching pod in each term's domain; failing the latter, the pod may
    /// start a group when no pod anywhere matches and it matches its own
    /// terms.
    fn satisfies_affinity(&self, node: &Object) -> bool {
        let mut pods_exist = true;
        for t in &self.affinity {
            let Some(value) = node_label(node, t.topology_key) else {
                return false;
            };
            if self
                .affinity_counts
                .get(&(t.topology_key, value))
                .is_none_or(|c| *c <= 0)
            {
                pods_exist = false;
            }
        }
        pods_exist || (self.affinity_counts.is_empty() && self.matches_own)
    }
}

#[cfg(test)]
#[path = "pod_affinity_tests.rs"]
mod tests;
