//! Unit tests of the allocator: budgets, variants, the command budget.

use super::{Allocator, Limits, Outcome};
use crate::gates::{FeatureGates, Version};
use crate::lint::{load_objects, SourceFile};

/// structured.NewAllocator (allocator.go): the first implementation
/// whose supported features cover the enabled ones.
#[test]
fn the_variant_is_the_one_new_allocator_picks() {
    use super::Variant;
    let v: Version = "1.37".parse().unwrap();
    let with = |on: &[&str], off: &[&str]| {
        let mut g = FeatureGates::defaults(v);
        for n in on {
            g.set(n, true).unwrap();
        }
        for n in off {
            g.set(n, false).unwrap();
        }
        Variant::for_gates(&g)
    };
    let all_off = [
        "DRAConsumableCapacity",
        "DRADeviceBindingConditions",
        "DRAListTypeAttributes",
    ];
    assert_eq!(with(&[], &all_off), Variant::Stable);
    assert_eq!(
        with(&["DRAConsumableCapacity"], &all_off[1..]),
        Variant::Incubating
    );
    assert_eq!(
        with(
            &["DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"],
            &["DRAConsumableCapacity", "DRAListTypeAttributes"]
        ),
        Variant::Incubating
    );
    assert_eq!(with(&["DRAListTypeAttributes"], &[]), Variant::Experimental);
}

fn hopeless() -> Vec<crate::model::Object> {
    let text = crate::fleet::hopeless_case();
    load_objects(
        &[SourceFile {
            name: "w.yaml".into(),
            text,
        }],
        Default::default(),
    )
    .0
}

fn error_with(limits: Limits) -> String {
    cost_with(limits).0
}

fn cost_with(limits: Limits) -> (String, super::SearchCost) {
    let objects = hopeless();
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    match Allocator::new(&objects, &gates, &claims)
        .with_limits(limits)
        .on_node("node-w")
    {
        Outcome::Error {
            error,
            search: Some(cost),
            ..
        } => (error, cost),
        other => panic!("expected the budget to run out: {other:?}"),
    }
}

/// The same facts as fields, for JSON: which request took the steps,
/// the node's device count, how far the search got.
#[test]
fn budgets_are_reported_as_fields() {
    let (error, cost) = cost_with(Limits {
        steps: 10_000,
        timeout: None,
    });
    assert_eq!(cost.limit, "steps");
    assert_eq!(cost.budget, Some(10_000));
    assert_eq!(cost.steps, 10_001);
    assert_eq!(cost.claim.as_deref(), Some("default/w"));
    assert_eq!(cost.request.as_deref(), Some("r"));
    assert!(cost.request_steps > 9_000 && cost.request_steps <= cost.steps);
    assert_eq!((cost.best_partial, cost.needed), (7, 8));
    assert!(cost.candidates >= 8, "{cost:?}");
    assert_eq!(error, cost.message());
    let (_, time) = cost_with(Limits {
        steps: u64::MAX,
        timeout: Some((std::time::Instant::now, std::time::Duration::ZERO)),
    });
    assert_eq!((time.limit, time.budget), ("time", None));
}

/// Either budget ends the search with the scheduler's words, the request
/// the steps went to, and how far the search got.
#[test]
fn budgets_name_the_costly_request_and_the_progress() {
    let steps = error_with(Limits {
        steps: 10_000,
        timeout: None,
    });
    assert!(
        steps.starts_with(
            "timed out trying to allocate devices: the search budget of 10000 steps ran out"
        ),
        "{steps}"
    );
    assert!(
        steps.contains("request \"r\" of claim default/w took"),
        "{steps}"
    );
    assert!(
        steps.contains("the best partial allocation had 7 of 8 devices"),
        "{steps}"
    );
    // A time budget already spent stops the search at its first check.
    let time = error_with(Limits {
        steps: u64::MAX,
        timeout: Some((std::time::Instant::now, std::time::Duration::ZERO)),
    });
    assert!(
        time.starts_with("timed out trying to allocate devices: the time budget ran out"),
        "{time}"
    );
}
/// The command's budget across nodes: once spent, the nodes left are
/// Undecided, not searched (each node here spends its whole budget).
#[test]
fn the_command_budget_leaves_nodes_undecided() {
    let objects = hopeless();
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    let a = Allocator::new(&objects, &gates, &claims).with_limits(Limits {
        steps: 1_000,
        timeout: None,
    });
    let nodes = vec!["node-w"; 12];
    let outcomes = a.on_nodes_within(&nodes, 2_500);
    let undecided = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Undecided { .. }))
        .count();
    // 1,000 steps a node: at most three, plus one per other thread
    // started before the sum was seen, are tried.
    assert!(
        undecided >= 12 - 3 - rayon::current_num_threads(),
        "{undecided}"
    );
    assert!(undecided < 12);
}
/// DRAListTypeAttributes: matchAttribute needs a value all devices'
/// lists share; distinctAttribute needs the lists pairwise disjoint
/// (experimental/constraint.go, attributeAsSet).
#[test]
fn list_attributes_compare_as_sets() {
    let inventory = |a: &str, b: &str, kind: &str| {
        format!(
            "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec: {{}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: d.example.com\n  nodeName: node-1\n  pool: {{name: node-1, resourceSliceCount: 1}}\n  devices:\n  - {{name: a, attributes: {{numa: {{ints: {a}}}}}}}\n  - {{name: b, attributes: {{numa: {{ints: {b}}}}}}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: w, namespace: default}}\nspec:\n  devices:\n    requests:\n    - {{name: r, exactly: {{deviceClassName: c, count: 2}}}}\n    constraints:\n    - {{{kind}: d.example.com/numa}}\n"
        )
    };
    let fits = |a: &str, b: &str, kind: &str| {
        let objects = load_objects(
            &[SourceFile {
                name: "l.yaml".into(),
                text: inventory(a, b, kind),
            }],
            Default::default(),
        )
        .0;
        let mut gates = FeatureGates::defaults(Version::LATEST);
        gates.set("DRAListTypeAttributes", true).unwrap();
        let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
        // (`n` would be a boolean in YAML 1.1: the node is node-1.)
        let o = Allocator::new(&objects, &gates, &claims).on_node("node-1");
        matches!(o, Outcome::Allocated { .. })
    };
    assert!(fits("[0, 1]", "[1, 2]", "matchAttribute"));
    assert!(!fits("[0]", "[2]", "matchAttribute"));
    assert!(!fits("[0, 1]", "[1, 2]", "distinctAttribute"));
    assert!(fits("[0]", "[2, 3]", "distinctAttribute"));
}
/// nodeaffinity.NewNodeSelector's refusals, as GatherPools meets them:
/// the allocation stops with an error on every node, also one the
/// broken slice does not target.
#[test]
fn unparsable_node_selectors_stop_the_allocation() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/fixtures/explain-bad-selector.yaml"
    ))
    .unwrap();
    let objects = load_objects(
        &[SourceFile {
            name: "s.yaml".into(),
            text,
        }],
        Default::default(),
    )
    .0;
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    match Allocator::new(&objects, &gates, &claims).on_node("node-1") {
        Outcome::Error { error, .. } => assert!(
            error.starts_with(
                "gather pool information: failed to perform node selection for slice bad-selector"
            ),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
    let parse = |yaml: &str| {
        let n: crate::tree::Node = serde_json::from_str(yaml).unwrap();
        super::pools::node_selector_error(&n)
    };
    assert!(parse(
        r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":[]}]}]}"#
    )
    .is_some());
    assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]}]}"#).is_some());
    assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Gt","values":["x"]}]}]}"#).is_some());
    assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Near","values":["1"]}]}]}"#).is_some());
    assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Gt","values":["3"]}]}]}"#).is_none());
    assert!(parse(r#"{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}"#).is_none());
    assert!(
        parse(r#"{"nodeSelectorTerms":[{}]}"#).is_none(),
        "an empty term is skipped"
    );
}

/// Network-attached devices: a slice for all nodes and one for the nodes
/// labelled zone=a, 30 nodes in two zones (and one without a Node object),
/// and a claim allocated before for zone a only.
fn network_fleet(hopeless: bool) -> Vec<crate::model::Object> {
    use std::fmt::Write as _;
    let mut text = String::new();
    for n in 0..30 {
        let zone = if n % 3 == 0 { "a" } else { "b" };
        let _ = write!(
            text,
            "apiVersion: v1\nkind: Node\nmetadata: {{name: node-{n}, labels: {{zone: {zone}}}}}\n---\n"
        );
    }
    let mut devices = String::new();
    for i in 0..64 {
        let _ = write!(
            devices,
            "  - name: d{i}\n    attributes:\n      slot: {{int: {}}}\n",
            i % 7
        );
    }
    let count = if hopeless { 8 } else { 2 };
    let _ = write!(
        text,
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec: {{}}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: everywhere}}\nspec:\n  driver: x.example.com\n  allNodes: true\n  pool: {{name: fabric, resourceSliceCount: 1}}\n  devices:\n{devices}---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: zone-a}}\nspec:\n  driver: x.example.com\n  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: [{{key: zone, operator: In, values: [a]}}]\n  pool: {{name: a-zone, resourceSliceCount: 1}}\n  devices:\n  - name: extra\n    attributes:\n      slot: {{int: 7}}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: w, namespace: default}}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {{deviceClassName: c, count: {count}}}\n    constraints:\n    - distinctAttribute: x.example.com/slot\n"
    );
    load_objects(
        &[SourceFile {
            name: "net.yaml".into(),
            text,
        }],
        Default::default(),
    )
    .0
}

/// Nodes that see the same devices share one search (issue 18 item 3):
/// every node's shared answer is the one it gets alone, with the node's
/// own result (zone a gets the zone's device, zone b and the unknown node
/// do not), and a whole-command budget worth one search decides them all.
#[test]
fn nodes_that_see_the_same_devices_share_one_search() {
    let objects = network_fleet(false);
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    let a = Allocator::new(&objects, &gates, &claims);
    let mut nodes: Vec<String> = (0..30).map(|n| format!("node-{n}")).collect();
    nodes.push("no-such-node".into());
    let together = a.on_nodes(&nodes);
    for (n, o) in nodes.iter().zip(&together) {
        assert_eq!(o, &a.on_node(n), "{n}");
    }
    // (The zone's pool sorts first: zone a's nodes take its device.)
    assert_ne!(together[0], together[1]);
    assert_eq!(together[1], together[30]);
    assert_eq!(
        a.node_class("node-0").unwrap(),
        vec![true, true],
        "both slices target zone a"
    );
    // (Bits in pool order: a-zone, then fabric.)
    assert_eq!(a.node_class("node-1").unwrap(), vec![false, true]);
    assert_eq!(a.node_class("no-such-node").unwrap(), vec![false, true]);

    // The hopeless claim spends the whole per-node budget on each search:
    // a command budget of one and a half searches decides every node.
    let objects = network_fleet(true);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    let a = Allocator::new(&objects, &gates, &claims).with_limits(Limits {
        steps: 1_000,
        timeout: None,
    });
    let outcomes = a.on_nodes_within(&nodes, 1_500);
    assert!(
        outcomes
            .iter()
            .all(|o| !matches!(o, Outcome::Undecided { .. })),
        "{outcomes:?}"
    );
    assert!(
        matches!(outcomes[1], Outcome::Error { .. }),
        "{:?}",
        outcomes[1]
    );
    assert_eq!(outcomes[1], outcomes[30]);
}

/// A slice bound to a node by name makes the node a class of its own.
#[test]
fn a_node_with_its_own_slice_is_its_own_class() {
    let objects = hopeless();
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    let a = Allocator::new(&objects, &gates, &claims);
    assert_eq!(a.node_class("node-w"), None);
    assert_eq!(a.node_class("node-x"), Some(Vec::new()));
}

/// The objects of one of upstream's allocator scenarios (testdata).
fn upstream_scenario(name: &str) -> Vec<crate::model::Object> {
    let path = format!(
        "{}/../../testdata/conformance/upstream/upstream-{name}.yaml",
        env!("CARGO_MANIFEST_DIR")
    );
    let case = std::fs::read_to_string(path).unwrap();
    let loaded = crate::yaml::load(&case, Default::default());
    let items = loaded.documents[0].root.get("objects").unwrap();
    let text = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items.to_json()});
    load_objects(
        &[SourceFile {
            name: "case.json".into(),
            text: text.to_string(),
        }],
        Default::default(),
    )
    .0
}

/// A device shared by an allocated claim (DRAConsumableCapacity) draws on
/// its pool's counters from 1.36 (dynamic-resource-allocation 89c46e8,
/// picked to release-1.36 as 3caec45: internal.IsDeviceAllocated when
/// counters are rebuilt); 1.35 missed the share and let the counter set be
/// used twice. Upstream's scenario
/// `allow-multiple-allocations-with-shared-device-counter-cross-cycle`.
#[test]
fn a_shared_device_draws_on_counters_from_1_36() {
    let objects =
        upstream_scenario("allow-multiple-allocations-with-shared-device-counter-cross-cycle");
    let claims: Vec<_> = objects
        .iter()
        .filter(|o| o.name() == Some("claim-0"))
        .collect();
    let outcome = |version: &str| {
        let mut gates = FeatureGates::defaults(version.parse().unwrap());
        gates.set("DRAPartitionableDevices", true).unwrap();
        gates.set("DRAConsumableCapacity", true).unwrap();
        Allocator::new(&objects, &gates, &claims).on_node("node-1")
    };
    assert!(matches!(outcome("1.35"), Outcome::Allocated { .. }));
    for v in ["1.36", "1.37"] {
        assert!(matches!(outcome(v), Outcome::Unsatisfiable { .. }), "{v}");
    }
}

/// A claim config naming two of three requests: before 1.37 the result
/// lists it once per request it names; from 1.37 (c5a40b2) once. A config
/// that covers every request loses its `requests` from 1.37 (fe39ea7).
#[test]
fn claim_configs_in_the_result_per_release() {
    let configs = |scenario: &str, version: &str| {
        let objects = upstream_scenario(scenario);
        let claims: Vec<_> = objects
            .iter()
            .filter(|o| o.name() == Some("claim-0"))
            .collect();
        let gates = FeatureGates::defaults(version.parse().unwrap());
        match Allocator::new(&objects, &gates, &claims).on_node("node-1") {
            Outcome::Allocated { claims } => claims[0].config.clone(),
            other => panic!("{scenario} at {version}: {other:?}"),
        }
    };
    let two = "with-claim-config-for-two-requests";
    assert_eq!(configs(two, "1.36").len(), 2);
    assert_eq!(configs(two, "1.37").len(), 1);
    let one = "with-class-device-config";
    assert_eq!(
        configs(one, "1.36")[0]["requests"],
        serde_json::json!(["req-0"])
    );
    assert!(configs(one, "1.37")[0].get("requests").is_none());
}
