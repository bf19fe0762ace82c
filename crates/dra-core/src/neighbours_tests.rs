//! Tests of `neighbours`: the nominated pods as
//! `RunFilterPluginsWithNominatedPods` and `addGENominatedPods` add them
//! (framework/runtime/framework.go): of the pod's priority or higher, not
//! the pod itself; the node must pass with them and without them.

use super::*;
use crate::gates::{FeatureGates, Version};
use crate::model::ObjectKind;

const NODES: &str = "
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {zone: a}}
status: {allocatable: {cpu: '4', memory: 16Gi, pods: '110'}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {zone: b}}
status: {allocatable: {cpu: '4', memory: 16Gi, pods: '110'}}
";

/// A preemptor nominated for n1 (priority 100, 3 CPUs, host port 80,
/// labels app: db) and the pending pod `q` (`Q` is its spec).
fn objects(q: &str) -> Vec<Object> {
    let text = format!(
        "{NODES}---
apiVersion: v1
kind: Pod
metadata: {{name: preemptor, namespace: ml, labels: {{app: db}}}}
spec:
  priority: 100
  containers: [{{name: c, ports: [{{containerPort: 80, hostPort: 80}}], resources: {{requests: {{cpu: '3'}}}}}}]
status: {{nominatedNodeName: n1}}
---
apiVersion: v1
kind: Pod
metadata: {{name: q, namespace: ml, labels: {{app: web}}}}
spec:
{q}"
    );
    crate::model::parse_file(0, &text, crate::yaml::Limits::default()).objects
}

/// For each Node: (ports taken, CPU requested there, the reason after
/// NodeResourcesFit).
fn verdicts(q: &str) -> Vec<(bool, Option<i128>, Option<&'static str>)> {
    let objects = objects(q);
    let gates = FeatureGates::defaults(Version::V1_37);
    let usage = NodeUsage::of(&objects, &gates);
    let pod = objects
        .iter()
        .find(|o| o.kind == ObjectKind::Workload && o.name() == Some("q"))
        .unwrap();
    let around = Neighbours::of(pod, &objects, &gates, &usage);
    objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kind == ObjectKind::Node)
        .map(|(i, _)| {
            let cpu = around
                .used(i)
                .and_then(|u| u.requests.get("cpu").map(|q| q.milli_value()));
            (around.ports_taken(i), cpu, around.after_resources(i))
        })
        .collect()
}

/// A nominated pod of higher priority takes its requests and host ports
/// on its node; one of lower priority takes nothing.
#[test]
fn a_nominated_pod_of_higher_priority_holds_its_node() {
    let q =
        "  priority: 10\n  containers: [{name: c, ports: [{containerPort: 80, hostPort: 80}]}]\n";
    assert_eq!(verdicts(q), [(true, Some(3000), None), (false, None, None)]);
    let first = q.replace("priority: 10", "priority: 1000");
    assert_eq!(verdicts(&first), [(false, None, None), (false, None, None)]);
}

/// Affinity to a nominated pod is not enough: the node must pass without
/// it too, and without it no pod anywhere matches (and `q` does not match
/// its own term).
#[test]
fn a_nominated_pod_does_not_satisfy_affinity() {
    let q = "  containers: [{name: c}]\n  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - labelSelector: {matchLabels: {app: db}}\n        topologyKey: zone\n";
    let rules: Vec<Option<&str>> = verdicts(q).into_iter().map(|v| v.2).collect();
    assert_eq!(
        rules,
        [
            Some("node(s) didn't match pod affinity rules"),
            Some("node(s) didn't match pod affinity rules")
        ]
    );
}

/// Anti-affinity to a nominated pod rules its domain out (the run with it
/// added fails first).
#[test]
fn anti_affinity_meets_a_nominated_pod() {
    let q = "  containers: [{name: c}]\n  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - labelSelector: {matchLabels: {app: db}}\n        topologyKey: zone\n";
    let rules: Vec<Option<&str>> = verdicts(q).into_iter().map(|v| v.2).collect();
    assert_eq!(
        rules,
        [Some("node(s) didn't match pod anti-affinity rules"), None]
    );
}
