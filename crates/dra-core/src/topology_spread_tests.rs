//! Tests of `topology_spread`, after podtopologyspread's
//! `filtering_test.go` (TestSingleConstraint, TestMultipleConstraints,
//! TestPreFilterState's minDomains and node inclusion policy cases).

use super::*;
use crate::model::ObjectKind;

fn load(text: &str) -> Vec<Object> {
    crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects
}

/// Three nodes in zones a, a, b; a fourth without a zone label.
const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a, kubernetes.io/hostname: n1}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {zone: a, kubernetes.io/hostname: n2}}
---
apiVersion: v1
kind: Node
metadata: {name: n3, labels: {zone: b, kubernetes.io/hostname: n3}}
---
apiVersion: v1
kind: Node
metadata: {name: bare, labels: {kubernetes.io/hostname: bare}}
";

fn bound(name: &str, node: &str, app: &str) -> String {
    format!(
        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: ml, labels: {{app: {app}}}}}\nspec: {{nodeName: {node}, containers: [{{name: c}}]}}\n"
    )
}

fn pending(constraint: &str) -> String {
    format!(
        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: new, namespace: ml, labels: {{app: web, rev: r2}}}}\nspec:\n  containers: [{{name: c}}]\n  topologySpreadConstraints:\n  - {constraint}\n"
    )
}

/// The reason on each node (n1, n2, n3, bare), or `None` for Skip.
fn verdicts(objects_text: &str) -> Option<Vec<Option<Reason>>> {
    let objects = load(&format!("{NODES}{objects_text}"));
    let existing = Existing::of(&objects);
    let pod = objects
        .iter()
        .find(|o| o.kind == ObjectKind::Workload && o.name() == Some("new"))
        .unwrap();
    let state = TopologySpread::prefilter(pod, &objects, &existing)?;
    Some(
        objects
            .iter()
            .filter(|o| o.kind == ObjectKind::Node)
            .map(|n| state.filter(n))
            .collect(),
    )
}

const ZONE: &str =
    "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}";

/// Zone a holds two matching pods, zone b none: a third in zone a would
/// make the skew 3 - 0 > 1; zone b is fine; a node without the zone label
/// is UnschedulableAndUnresolvable.
#[test]
fn skew_against_the_emptiest_domain() {
    use Reason::*;
    let text = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w2", "n2", "web"),
        pending(ZONE)
    );
    assert_eq!(
        verdicts(&text).unwrap(),
        [
            Some(ConstraintsNotMatch),
            Some(ConstraintsNotMatch),
            None,
            Some(MissingLabel)
        ]
    );
    assert_eq!(
        MissingLabel.message(),
        "node(s) didn't match pod topology spread constraints (missing required label)"
    );
    // One in each zone: either takes the next (skew 2 - 1 = 1).
    let even = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w3", "n3", "web"),
        pending(ZONE)
    );
    assert_eq!(verdicts(&even).unwrap()[..3], [None, None, None]);
    // Pods of other apps, namespaces, or being deleted do not count.
    let others = format!(
        "{}{}{}",
        bound("w1", "n1", "db"),
        bound("w2", "n2", "web").replace("namespace: ml", "namespace: other"),
        pending(ZONE)
    );
    assert_eq!(verdicts(&others).unwrap()[..3], [None, None, None]);
    let deleting = format!(
        "{}{}{}",
        bound("w1", "n1", "web").replace(
            "namespace: ml",
            "namespace: ml, deletionTimestamp: '2026-01-01T00:00:00Z'"
        ),
        bound("w2", "n2", "web").replace(
            "namespace: ml",
            "namespace: ml, deletionTimestamp: '2026-01-01T00:00:00Z'"
        ),
        pending(ZONE)
    );
    assert_eq!(verdicts(&deleting).unwrap()[..3], [None, None, None]);
}

/// `minDomains`: with fewer eligible domains than it asks for, the
/// minimum is 0, so a domain already holding `maxSkew` pods is full.
#[test]
fn min_domains_makes_the_minimum_zero() {
    let c = "{maxSkew: 1, topologyKey: zone, minDomains: 3, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}";
    let text = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w3", "n3", "web"),
        pending(c)
    );
    assert_eq!(
        verdicts(&text).unwrap()[..3],
        [
            Some(Reason::ConstraintsNotMatch),
            Some(Reason::ConstraintsNotMatch),
            Some(Reason::ConstraintsNotMatch)
        ]
    );
}

/// ScheduleAnyway only scores: Skip. An empty selector counts no pod
/// (`countPodsMatchSelector`) but matches the pod itself.
#[test]
fn schedule_anyway_skips_and_an_empty_selector_counts_nothing() {
    let soft = ZONE.replace("DoNotSchedule", "ScheduleAnyway");
    assert!(verdicts(&format!("{}{}", bound("w1", "n1", "web"), pending(&soft))).is_none());
    let empty =
        "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}";
    let text = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w2", "n2", "web"),
        pending(empty)
    );
    assert_eq!(verdicts(&text).unwrap()[..3], [None, None, None]);
}

/// `matchLabelKeys` adds the pod's own label values to the selector: only
/// pods of the same revision count.
#[test]
fn match_label_keys_narrow_the_selector() {
    let c = "{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [rev]}";
    let text = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w2", "n2", "web"),
        pending(c)
    );
    assert_eq!(verdicts(&text).unwrap()[..3], [None, None, None]);
    let same = text.replace("labels: {app: web}}", "labels: {app: web, rev: r2}}");
    assert_eq!(
        verdicts(&same).unwrap()[..3],
        [
            Some(Reason::ConstraintsNotMatch),
            Some(Reason::ConstraintsNotMatch),
            None
        ]
    );
}

/// `nodeAffinityPolicy: Honor` (the default) leaves the nodes the pod may
/// not run on out of the domains: with zone b excluded by the pod's node
/// selector, zone a is the only domain and its minimum is its own count.
#[test]
fn node_affinity_policy_chooses_the_domains() {
    let text = format!(
        "{}{}{}",
        bound("w1", "n1", "web"),
        bound("w2", "n2", "web"),
        pending(ZONE).replace(
            "  containers: [{name: c}]\n",
            "  containers: [{name: c}]\n  nodeSelector: {zone: a}\n"
        )
    );
    assert_eq!(verdicts(&text).unwrap()[..2], [None, None]);
    let ignore = text.replace(
        "whenUnsatisfiable: DoNotSchedule,",
        "whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: Ignore,",
    );
    assert_eq!(
        verdicts(&ignore).unwrap()[..2],
        [
            Some(Reason::ConstraintsNotMatch),
            Some(Reason::ConstraintsNotMatch)
        ]
    );
}

/// `capacity pod`'s copies, one after another (AddPod per copy): a domain
/// with no room left keeps the minimum where it is, so the others take at
/// most `maxSkew` more; a node without the key takes none.
#[test]
fn copies_move_the_spread() {
    let placed = copies(ZONE, [3, 3, 1, 2]);
    assert_eq!(
        (placed[0] + placed[1], placed[2], placed[3]),
        (2, 1, 0),
        "{placed:?}"
    );
    let host = ZONE.replace("topologyKey: zone", "topologyKey: kubernetes.io/hostname");
    assert_eq!(copies(&host, [3, 3, 0, 0]), [1, 1, 0, 0]);
}

/// The copies of the pending pod `new` with `constraint` placed on the four
/// nodes, each with room for so many.
fn copies(constraint: &str, room: [usize; 4]) -> Vec<usize> {
    let objects = load(&format!("{NODES}{}", pending(constraint)));
    let existing = Existing::of(&objects);
    let pod = objects
        .iter()
        .find(|o| o.kind == ObjectKind::Workload && o.name() == Some("new"))
        .unwrap();
    let room: Vec<(&Object, usize)> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .zip(room)
        .collect();
    let state = TopologySpread::prefilter(pod, &objects, &existing).unwrap();
    state.place_copies(&room).unwrap()
}
