//! Tests of `pod_affinity`, after the cases of interpodaffinity's
//! `filtering_test.go` (TestRequiredAffinitySingleNode,
//! TestRequiredAffinityMultipleNodes): each rule, its namespaces and the
//! first pod of a group.

use super::*;

fn load(text: &str) -> Vec<Object> {
    crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects
}

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1, zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2, zone: a}}
---
apiVersion: v1
kind: Node
metadata: {name: n3, labels: {kubernetes.io/hostname: n3, zone: b}}
---
apiVersion: v1
kind: Node
metadata: {name: bare}
";

/// The reason InterPodAffinity gives on each node for the Pod `pod`
/// (`None`: PreFilter skips).
fn verdicts(extra: &str, pod: &str) -> Option<Vec<(String, Option<Reason>)>> {
    let objects = load(&format!("{NODES}---\n{extra}"));
    let existing = Existing::of(&objects);
    let p = objects
        .iter()
        .find(|o| is_pod(o) && o.name() == Some(pod))
        .unwrap();
    let state = InterPodAffinity::prefilter(p, &objects, &existing)?;
    Some(
        objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Node)
            .map(|n| (n.name().unwrap().to_owned(), state.filter(n)))
            .collect(),
    )
}

fn reasons(v: &[(String, Option<Reason>)]) -> Vec<Option<Reason>> {
    v.iter().map(|(_, r)| *r).collect()
}

const ANTI_SELF: &str = "
apiVersion: v1
kind: Pod
metadata: {name: worker-0, namespace: ml, labels: {app: trainer}}
spec:
  nodeName: n1
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: worker-1, namespace: ml, labels: {app: trainer}}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: trainer}}
        topologyKey: TOPOLOGY
  containers: [{name: c}]
";

/// One worker per node (hostname) or per zone: the domain of a bound
/// worker is ruled out (satisfyPodAntiAffinity); a node without the
/// topology label is not.
#[test]
fn the_pods_anti_affinity_rules_out_its_domain() {
    use Reason::AntiAffinityRulesNotMatch as Anti;
    let host = verdicts(
        &ANTI_SELF.replace("TOPOLOGY", "kubernetes.io/hostname"),
        "worker-1",
    )
    .unwrap();
    assert_eq!(reasons(&host), [Some(Anti), None, None, None]);
    let zone = verdicts(&ANTI_SELF.replace("TOPOLOGY", "zone"), "worker-1").unwrap();
    assert_eq!(reasons(&zone), [Some(Anti), Some(Anti), None, None]);
    assert_eq!(
        Anti.message(),
        "node(s) didn't match pod anti-affinity rules"
    );
}

/// A term without namespaces or a namespace selector is the pod's own
/// namespace (getNamespacesFromPodAffinityTerm): a pod alike in another
/// namespace is not met; `namespaceSelector: {}` meets every namespace.
#[test]
fn a_term_reads_its_own_namespace_unless_told() {
    let other = ANTI_SELF
        .replace("TOPOLOGY", "kubernetes.io/hostname")
        .replacen("namespace: ml", "namespace: web", 1);
    assert_eq!(
        reasons(&verdicts(&other, "worker-1").unwrap()),
        [None, None, None, None]
    );
    let every = other.replace(
        "topologyKey: kubernetes.io/hostname",
        "topologyKey: kubernetes.io/hostname\n        namespaceSelector: {}",
    );
    assert_eq!(
        reasons(&verdicts(&every, "worker-1").unwrap())[0],
        Some(Reason::AntiAffinityRulesNotMatch)
    );
    // A labelled selector reads the Namespace objects
    // (mergeAffinityTermNamespacesIfNotEmpty).
    let labelled = other.replace(
        "topologyKey: kubernetes.io/hostname",
        "topologyKey: kubernetes.io/hostname\n        namespaceSelector: {matchLabels: {team: web}}",
    );
    assert_eq!(
        reasons(&verdicts(&labelled, "worker-1").unwrap())[0],
        None,
        "no Namespace object: none selected"
    );
    let with_ns = format!(
        "{labelled}---\napiVersion: v1\nkind: Namespace\nmetadata: {{name: web, labels: {{team: web}}}}\n"
    );
    assert_eq!(
        reasons(&verdicts(&with_ns, "worker-1").unwrap())[0],
        Some(Reason::AntiAffinityRulesNotMatch)
    );
}

/// A bound pod's anti-affinity keeps the pod out of its zone
/// (satisfyExistingPodsAntiAffinity), even though the pod has no term.
#[test]
fn a_bound_pods_anti_affinity_keeps_the_pod_out() {
    let text = "
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: ml, labels: {app: db}}
spec:
  nodeName: n3
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchExpressions: [{key: app, operator: In, values: [batch]}]}
        topologyKey: zone
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: job, namespace: ml, labels: {app: batch}}
spec:
  containers: [{name: c}]
";
    assert_eq!(
        reasons(&verdicts(text, "job").unwrap()),
        [
            None,
            None,
            Some(Reason::ExistingAntiAffinityRulesNotMatch),
            None
        ]
    );
    // Finished, it holds nothing.
    let done = text.replace(
        "  containers: [{name: c}]\n---",
        "  containers: [{name: c}]\nstatus: {phase: Succeeded}\n---",
    );
    assert!(verdicts(&done, "job").is_none(), "PreFilter skips");
    // Another pod's labels are not met.
    let other = text.replace("labels: {app: batch}", "labels: {app: web}");
    assert!(verdicts(&other, "job").is_none());
}

/// Required affinity: the node's domain must hold a matching pod, and the
/// node must carry each term's topology label. With no matching pod
/// anywhere, a pod that matches its own terms starts the group on any node
/// with the labels (satisfyPodAffinity).
#[test]
fn affinity_needs_a_pod_in_the_domain_or_starts_a_group() {
    use Reason::AffinityRulesNotMatch as Aff;
    let text = "
apiVersion: v1
kind: Pod
metadata: {name: cache, namespace: ml, labels: {app: cache}}
spec:
  nodeName: n3
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: ml, labels: {app: web}}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: SELECT}}
        topologyKey: zone
  containers: [{name: c}]
";
    let near_cache = verdicts(&text.replace("SELECT", "cache"), "web").unwrap();
    assert_eq!(
        reasons(&near_cache),
        [Some(Aff), Some(Aff), None, Some(Aff)]
    );
    // Nothing matches and the pod is not its own kind: nowhere.
    let nowhere = verdicts(&text.replace("SELECT", "db"), "web").unwrap();
    assert_eq!(reasons(&nowhere), [Some(Aff); 4]);
    // Nothing matches but the pod matches itself: the first of its group
    // goes to any node with the topology label.
    let first = verdicts(&text.replace("SELECT", "web"), "web").unwrap();
    assert_eq!(reasons(&first), [None, None, None, Some(Aff)]);
    assert_eq!(Aff.message(), "node(s) didn't match pod affinity rules");
}

/// A nil label selector matches no pod; no term anywhere is Skip.
#[test]
fn a_nil_selector_meets_nothing_and_no_terms_skip() {
    let text = "
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: ml, labels: {app: x}}
spec:
  nodeName: n1
  containers: [{name: c}]
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: ml, labels: {app: x}}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - topologyKey: kubernetes.io/hostname
  containers: [{name: c}]
";
    assert_eq!(reasons(&verdicts(text, "b").unwrap()), [None; 4]);
    assert!(verdicts(text, "a").is_none());
}
