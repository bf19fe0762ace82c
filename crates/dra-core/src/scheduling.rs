//! What kube-scheduler applies to a pod before DynamicResources: the node
//! the pod names (`spec.nodeName`), `NodeName`; its `nodeSelector` and
//! required node affinity, `NodeAffinity` (`GetRequiredNodeAffinity`); the
//! node's `NoSchedule`/`NoExecute` taints against the pod's tolerations,
//! `TaintToleration` (`FindMatchingUntoleratedTaint`), which also covers an
//! unschedulable node's `node.kubernetes.io/unschedulable` taint. Pure: the
//! caller gives the pod and the Node objects it has.

use crate::allocate::node_selector_matches;
use crate::model::Object;
use crate::tree::Node;

/// Why a node is out for the pod, or that it could not be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeFit {
    Fits,
    /// The pod cannot run there, whatever its claims.
    Excluded(String),
    /// No Node object: labels and taints were not checked.
    Unchecked,
}

/// The pod's scheduling constraints.
pub struct PodConstraints<'a> {
    node_name: Option<&'a str>,
    node_selector: Vec<(&'a str, &'a str)>,
    affinity: Option<&'a Node>,
    tolerations: &'a [Node],
}

fn str_of<'n>(n: &'n Node, k: &str) -> Option<&'n str> {
    n.get(k).and_then(Node::as_str)
}

impl<'a> PodConstraints<'a> {
    pub fn of(pod: &'a Object) -> PodConstraints<'a> {
        let spec = pod.pod_spec();
        let get = |k: &str| spec.and_then(|s| s.get(k));
        PodConstraints {
            node_name: get("nodeName")
                .and_then(Node::as_str)
                .filter(|n| !n.is_empty()),
            node_selector: get("nodeSelector")
                .and_then(Node::as_map)
                .unwrap_or_default()
                .iter()
                .filter_map(|e| Some((e.key.as_str(), e.value.as_str()?)))
                .collect(),
            affinity: get("affinity")
                .and_then(|a| a.get("nodeAffinity"))
                .and_then(|a| a.get("requiredDuringSchedulingIgnoredDuringExecution")),
            tolerations: get("tolerations")
                .and_then(Node::as_seq)
                .unwrap_or_default(),
        }
    }

    /// Whether anything here needs the Node object.
    fn needs_node(&self) -> bool {
        !self.node_selector.is_empty() || self.affinity.is_some()
    }

    /// The scheduler's verdict for the pod on `node`, before DRA.
    pub fn fit(&self, node: &str, object: Option<&Object>) -> NodeFit {
        if let Some(n) = self.node_name {
            if n != node {
                return NodeFit::Excluded(format!("the pod's spec.nodeName is {n}"));
            }
        }
        let Some(obj) = object else {
            return NodeFit::Unchecked;
        };
        if let Some((k, v)) = self.unmatched_node_selector(obj) {
            return NodeFit::Excluded(format!(
                "the pod's nodeSelector {k}={v} does not match the node's labels"
            ));
        }
        if !self.required_affinity_admits(node, obj) {
            return NodeFit::Excluded(
                "the pod's required node affinity does not match the node".into(),
            );
        }
        if let Some(t) = self.untolerated_taint(obj) {
            return NodeFit::Excluded(format!(
                "the node has the taint {t}, which the pod does not tolerate"
            ));
        }
        NodeFit::Fits
    }

    /// The first `nodeSelector` entry the node's labels lack.
    fn unmatched_node_selector(&self, node: &Object) -> Option<(&'a str, &'a str)> {
        let labels = node.root.get("metadata").and_then(|m| m.get("labels"));
        self.node_selector
            .iter()
            .copied()
            .find(|(k, v)| labels.and_then(|l| l.get(k)).and_then(Node::as_str) != Some(*v))
    }

    fn required_affinity_admits(&self, name: &str, node: &Object) -> bool {
        let labels = node.root.get("metadata").and_then(|m| m.get("labels"));
        self.affinity
            .is_none_or(|sel| node_selector_matches(sel, name, labels))
    }

    /// `GetRequiredNodeAffinity(pod).Match(node)`: the node selector and
    /// the required node affinity (PodTopologySpread's `nodeAffinityPolicy:
    /// Honor`).
    pub fn affinity_admits(&self, node: &Object) -> bool {
        self.unmatched_node_selector(node).is_none()
            && self.required_affinity_admits(node.name().unwrap_or_default(), node)
    }

    /// `FindMatchingUntoleratedTaint` over the node's NoSchedule and
    /// NoExecute taints alone (PodTopologySpread's `nodeTaintsPolicy:
    /// Honor`).
    pub fn untolerated_node_taint(&self, node: &Object) -> Option<String> {
        self.first_untolerated(node, false)
    }

    /// `FindMatchingUntoleratedTaint` over NoSchedule and NoExecute taints,
    /// with `spec.unschedulable` as its taint.
    fn untolerated_taint(&self, node: &Object) -> Option<String> {
        self.first_untolerated(node, true)
    }

    fn first_untolerated(&self, node: &Object, unschedulable: bool) -> Option<String> {
        let spec = node.root.get("spec");
        let mut taints: Vec<(String, String, String)> = spec
            .and_then(|s| s.get("taints"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .map(|t| {
                let f = |k| str_of(t, k).unwrap_or("").to_owned();
                (f("key"), f("value"), f("effect"))
            })
            .collect();
        if unschedulable
            && spec
                .and_then(|s| s.get("unschedulable"))
                .and_then(Node::as_bool)
                == Some(true)
        {
            taints.push((
                "node.kubernetes.io/unschedulable".into(),
                String::new(),
                "NoSchedule".into(),
            ));
        }
        taints
            .into_iter()
            .filter(|(_, _, e)| e == "NoSchedule" || e == "NoExecute")
            .find(|(k, v, e)| !self.tolerations.iter().any(|t| tolerates(t, k, v, e)))
            .map(|(k, v, e)| {
                if v.is_empty() {
                    format!("{k}:{e}")
                } else {
                    format!("{k}={v}:{e}")
                }
            })
    }

    /// A one-line description of what the pod asks of its node.
    pub fn describe(&self) -> Option<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.node_name {
            parts.push(format!("spec.nodeName {n}"));
        }
        if !self.node_selector.is_empty() {
            let s: Vec<String> = self
                .node_selector
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            parts.push(format!("nodeSelector {}", s.join(",")));
        }
        if self.affinity.is_some() {
            parts.push("required node affinity".into());
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Whether a node without a Node object leaves something unchecked.
    pub fn unchecked_matters(&self) -> bool {
        self.needs_node()
    }
}

/// core/v1 `Toleration.ToleratesTaint`.
pub(crate) fn tolerates(t: &Node, key: &str, value: &str, effect: &str) -> bool {
    let te = str_of(t, "effect").unwrap_or("");
    if !te.is_empty() && te != effect {
        return false;
    }
    let tk = str_of(t, "key").unwrap_or("");
    let op = str_of(t, "operator").unwrap_or("Equal");
    if tk.is_empty() {
        return op == "Exists";
    }
    if tk != key {
        return false;
    }
    match op {
        "Exists" => true,
        "Equal" | "" => str_of(t, "value").unwrap_or("") == value,
        _ => false,
    }
}

/// The scheduler's last word on the pod, from its status: the
/// `PodScheduled` condition when it is `False` (reason `Unschedulable` or
/// `SchedulerError`), as (reason, message).
pub fn last_attempt(pod: &Object) -> Option<(&str, &str)> {
    let conditions = pod.root.get("status")?.get("conditions")?.as_seq()?;
    let c = conditions
        .iter()
        .find(|c| str_of(c, "type") == Some("PodScheduled"))?;
    if str_of(c, "status") != Some("False") {
        return None;
    }
    Some((
        str_of(c, "reason").unwrap_or_default(),
        str_of(c, "message").unwrap_or_default(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_file;
    use crate::yaml::Limits;

    const NODES: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: a, labels: {pool: gpu}}\nspec:\n  taints: [{key: dedicated, value: ml, effect: NoSchedule}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b, labels: {pool: cpu}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: c, labels: {pool: gpu}}\nspec: {unschedulable: true}\n";

    fn fit(pod_spec: &str, node: &str) -> NodeFit {
        let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n{pod_spec}---\n{NODES}");
        let objs = parse_file(0, &text, Limits::default()).objects;
        let pod = &objs[0];
        let n = objs.iter().find(|o| o.name() == Some(node));
        PodConstraints::of(pod).fit(node, n)
    }

    /// NodeAffinity (nodeSelector) and TaintToleration filters.
    #[test]
    fn selector_and_taints() {
        let sel = "  nodeSelector: {pool: gpu}\n";
        assert!(matches!(fit(sel, "b"), NodeFit::Excluded(_)));
        assert!(
            matches!(fit(sel, "a"), NodeFit::Excluded(r) if r.contains("dedicated=ml:NoSchedule"))
        );
        let tol =
            "  nodeSelector: {pool: gpu}\n  tolerations: [{key: dedicated, operator: Exists}]\n";
        assert_eq!(fit(tol, "a"), NodeFit::Fits);
        // spec.unschedulable acts as the node.kubernetes.io/unschedulable taint.
        assert!(matches!(fit(tol, "c"), NodeFit::Excluded(r) if r.contains("unschedulable")));
        assert_eq!(fit(sel, "z"), NodeFit::Unchecked);
    }

    /// NodeName and required node affinity (GetRequiredNodeAffinity).
    #[test]
    fn node_name_and_affinity() {
        assert!(matches!(fit("  nodeName: b\n", "a"), NodeFit::Excluded(_)));
        assert_eq!(fit("  nodeName: b\n", "b"), NodeFit::Fits);
        let aff = "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{key: pool, operator: In, values: [cpu]}]\n";
        assert_eq!(fit(aff, "b"), NodeFit::Fits);
        assert!(matches!(fit(aff, "a"), NodeFit::Excluded(_)));
    }

    /// A toleration without key and with Exists tolerates every taint.
    #[test]
    fn wildcard_toleration() {
        let tol = "  tolerations: [{operator: Exists}]\n";
        assert_eq!(fit(tol, "a"), NodeFit::Fits);
        assert_eq!(fit(tol, "c"), NodeFit::Fits);
    }

    /// The scheduler's message is read from a False PodScheduled condition
    /// only.
    #[test]
    fn last_attempt_reads_a_false_pod_scheduled_condition() {
        let pod = |status: &str| {
            let text = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec: {{containers: []}}\nstatus:\n  conditions:\n  - {{type: Ready, status: \"False\"}}\n  - {{type: PodScheduled, status: \"{status}\", reason: Unschedulable, message: \"0/2 nodes are available: 2 Insufficient cpu.\"}}\n");
            let files = [crate::sources::SourceFile {
                name: "p.yaml".into(),
                text,
            }];
            crate::sources::load_objects(&files, Default::default()).0
        };
        let pending = pod("False");
        assert_eq!(
            last_attempt(&pending[0]),
            Some((
                "Unschedulable",
                "0/2 nodes are available: 2 Insufficient cpu."
            ))
        );
        assert_eq!(last_attempt(&pod("True")[0]), None);
    }
}
