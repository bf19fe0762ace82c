//! Sharing an answer among nodes alike must give every node exactly what
//! searching it alone gives: a generated fleet with nodes made different
//! in each way that matters, and claims that read names, values and
//! patterns.

use super::*;
use crate::fleet::{generate, FleetSpec, BENCH_CLAIMS};
use crate::lint::{load_objects, SourceFile};

const NODES: usize = 40;

/// The fleet, with some nodes changed (each document that binds a slice
/// to the node is rewritten), Node objects, a pool of network-attached
/// devices for labelled nodes, and the claims.
fn fleet() -> Vec<Object> {
    let text = generate(FleetSpec {
        nodes: NODES,
        gpus_per_node: 2,
        partitions_per_gpu: 3,
    });
    let mut docs: Vec<String> = text.split("---\n").map(str::to_owned).collect();
    let edit = |docs: &mut Vec<String>, node: &str, from: &str, to: &str| {
        let bound = format!("nodeName: {node}\n");
        for d in docs
            .iter_mut()
            .filter(|d| d.contains(&bound) && d.contains(from))
        {
            *d = d.replacen(from, to, 1);
        }
    };
    // A partition with another profile.
    edit(&mut docs, "worker-3", "string: 1g.20gb", "string: 2g.40gb");
    // A partition whose parent is the other GPU (the pattern changes).
    edit(
        &mut docs,
        "worker-5",
        "parentUUID:\n        string: GPU-00000005-0000",
        "parentUUID:\n        string: GPU-00000005-0001",
    );
    // A tainted GPU.
    edit(
        &mut docs,
        "worker-7",
        "  - name: gpu-0\n",
        "  - name: gpu-0\n    taints:\n    - {key: broken, effect: NoSchedule}\n",
    );
    // A device renamed.
    edit(
        &mut docs,
        "worker-11",
        "name: gpu-1-mig-2\n",
        "name: gpu-1-mig-x\n",
    );
    // Slices listed in another order (names sort differently).
    edit(
        &mut docs,
        "worker-15",
        "name: worker-15-gpu.example.com-counters",
        "name: zz-worker-15-counters",
    );
    // Devices selected by labels beside nodeName (invalid, but read): the
    // same slices on two nodes, one of them labelled zone=z1.
    for node in ["worker-21", "worker-22"] {
        edit(
            &mut docs,
            node,
            "  devices:\n  - name: gpu-0\n",
            "  perDeviceNodeSelection: true\n  devices:\n  - name: gpu-0\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - {key: zone, operator: In, values: [z1]}\n",
        );
    }
    let mut text = docs.join("---\n");
    // A second driver's pool on one node.
    text.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: worker-13-nic}\nspec:\n  driver: nic.example.com\n  nodeName: worker-13\n  pool: {name: worker-13, generation: 1, resourceSliceCount: 1}\n  devices:\n  - name: nic-0\n    attributes:\n      parentUUID: {string: GPU-0000000d-0000-4c1a-9f0b-2c1d3e4f5a6b}\n");
    // Network-attached devices for nodes labelled rack=a.
    text.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: fabric}\nspec:\n  driver: gpu.example.com\n  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions:\n      - {key: rack, operator: In, values: [a]}\n  pool: {name: fabric, generation: 1, resourceSliceCount: 1}\n  devices:\n  - name: remote-0\n    attributes:\n      profile: {string: 1g.20gb}\n      parentUUID: {string: GPU-00000021-0000-4c1a-9f0b-2c1d3e4f5a6b}\n");
    for n in 0..NODES {
        let rack = if n >= 30 { "a" } else { "b" };
        let zone = if n == 21 { ", zone: z1" } else { "" };
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-{n}\n  labels: {{rack: {rack}{zone}}}\n"
        ));
    }
    // A claim holding a device of one node.
    text.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: holder, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com}\nstatus:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: gpu.example.com, pool: worker-9, device: gpu-1}\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchFields:\n        - {key: metadata.name, operator: In, values: [worker-9]}\n");
    text.push_str(BENCH_CLAIMS);
    text.push_str(CLAIMS);
    load_objects(
        &[SourceFile {
            name: "fleet.yaml".into(),
            text,
        }],
        crate::yaml::Limits::default(),
    )
    .0
}

const CLAIMS: &str = r#"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: reads-uuid, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].uuid.endsWith("0001-4c1a-9f0b-2c1d3e4f5a6b")'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two-distinct, namespace: default}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        selectors:
        - cel: {expression: 'has(device.attributes["gpu.example.com"].profile)'}
    constraints:
    - distinctAttribute: gpu.example.com/parentUUID
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: too-many, namespace: default}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: gpu.example.com
        count: 4
        selectors:
        - cel: {expression: 'has(device.attributes["gpu.example.com"].profile)'}
    constraints:
    - matchAttribute: gpu.example.com/parentUUID
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: any-attribute, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].exists(k, k == "uuid")'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: profile-1g, namespace: default}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: gpu.example.com
        count: 4
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].profile.startsWith("1g.")'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: nothing, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].model == "H100"'}
"#;

fn nodes() -> Vec<String> {
    (0..NODES).map(|n| format!("worker-{n}")).collect()
}

#[test]
fn nodes_alike_share_an_answer_that_equals_each_nodes_own() {
    let objects = fleet();
    let gates = FeatureGates::defaults(crate::gates::Version::LATEST);
    let cluster = Arc::new(Cluster::new(&objects));
    let nodes = nodes();
    let sets: &[&[&str]] = &[
        &["one-gpu"],
        &["four-partitions"],
        &["reads-uuid"],
        &["two-distinct"],
        &["too-many"],
        &["any-attribute"],
        &["nothing"],
        &["profile-1g"],
        &["one-gpu", "four-partitions"],
    ];
    let mut searches_by_set = Vec::new();
    for names in sets {
        let claims: Vec<&Object> = names
            .iter()
            .map(|n| objects.iter().find(|o| o.name() == Some(n)).unwrap())
            .collect();
        let a = Allocator::over(Arc::clone(&cluster), &gates, &claims);
        let together = a.on_nodes(&nodes);
        let searches = a.searches();
        for (n, o) in nodes.iter().zip(&together) {
            let alone = Allocator::new(&objects, &gates, &claims).on_node(n);
            assert_eq!(o, &alone, "{names:?} on {n}");
        }
        searches_by_set.push(searches);
    }
    // Nodes left as generated share one search; each changed node, the
    // labelled ones and the node with a held device are searched apart.
    assert!(searches_by_set[0] <= 10, "{searches_by_set:?}");
    // A selector reading every node's own UUIDs, one reading any attribute,
    // and an answer quoting the compared values: no node shares.
    for i in [2, 4, 5] {
        assert_eq!(searches_by_set[i], NODES, "{:?}", sets[i]);
    }
}

#[test]
fn a_uniform_fleet_is_searched_once_per_claim() {
    let text = generate(FleetSpec {
        nodes: NODES,
        gpus_per_node: 2,
        partitions_per_gpu: 4,
    }) + "\n---\n"
        + BENCH_CLAIMS;
    let objects = load_objects(
        &[SourceFile {
            name: "f.yaml".into(),
            text,
        }],
        crate::yaml::Limits::default(),
    )
    .0;
    let gates = FeatureGates::defaults(crate::gates::Version::LATEST);
    let nodes = nodes();
    for name in ["one-gpu", "four-partitions"] {
        let claims: Vec<&Object> = objects.iter().filter(|o| o.name() == Some(name)).collect();
        let a = Allocator::new(&objects, &gates, &claims);
        let outcomes = a.on_nodes(&nodes);
        assert_eq!(a.searches(), 1, "{name}");
        // Each node's answer names its own pool and node.
        for (n, o) in nodes.iter().zip(&outcomes) {
            let Outcome::Allocated { claims } = o else {
                panic!("{name} on {n}: {o:?}")
            };
            assert!(claims[0].results.iter().all(|r| r.pool == n), "{o:?}");
            assert_eq!(
                claims[0].node_selector.as_ref().unwrap().to_json()["nodeSelectorTerms"][0]
                    ["matchFields"][0]["values"][0],
                n.as_str()
            );
        }
    }
}

/// A small deterministic generator (xorshift): the same fleets every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Ways a node's slices can differ from the generated ones: (from, to),
/// the first occurrence replaced.
const CHANGES: &[(&str, &str)] = &[
    (
        "profile:\n        string: 1g.",
        "profile:\n        string: 2g.",
    ),
    (
        "-0000-4c1a-9f0b-2c1d3e4f5a6b\n    capacity",
        "-0001-4c1a-9f0b-2c1d3e4f5a6b\n    capacity",
    ),
    (
        "  - name: gpu-0\n",
        "  - name: gpu-0\n    taints:\n    - {key: k, effect: NoSchedule}\n",
    ),
    ("name: gpu-1\n", "name: gpu-1x\n"),
    ("generation: 1\n", "generation: 2\n"),
    ("resourceSliceCount: 2", "resourceSliceCount: 3"),
    ("string: A100-SXM4-80GB", "string: NODE"),
    ("index:\n        int: 1", "index:\n        int: 0"),
    (
        "    consumesCounters:\n",
        "    bindsToNode: true\n    consumesCounters:\n",
    ),
    // Invalid beside nodeName, but read: devices selected by the labels.
    (
        "  devices:\n  - name: gpu-0\n",
        "  perDeviceNodeSelection: true\n  devices:\n  - name: gpu-0\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - {key: rack, operator: In, values: [a]}\n",
    ),
];

#[test]
fn random_fleets_share_only_what_each_node_would_answer() {
    let gates = FeatureGates::defaults(crate::gates::Version::LATEST);
    let nodes: Vec<String> = (0..36).map(|n| format!("worker-{n}")).collect();
    for seed in 1..=4u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let text = generate(FleetSpec {
            nodes: nodes.len(),
            gpus_per_node: 2,
            partitions_per_gpu: 2,
        });
        let mut docs: Vec<String> = text.split("---\n").map(str::to_owned).collect();
        let mut extra = String::new();
        for n in &nodes {
            let bound = format!("nodeName: {n}\n");
            if rng.below(2) == 0 {
                let (from, to) = CHANGES[rng.below(CHANGES.len())];
                let to = to.replace("NODE", n);
                if let Some(d) = docs
                    .iter_mut()
                    .find(|d| d.contains(&bound) && d.contains(from))
                {
                    *d = d.replacen(from, &to, 1);
                }
            }
            let rack = ["a", "b"][rng.below(2)];
            extra.push_str(&format!(
                "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: {n}\n  labels: {{rack: {rack}}}\n"
            ));
        }
        if rng.below(2) == 0 {
            extra.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: fabric}\nspec:\n  driver: gpu.example.com\n  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions:\n      - {key: rack, operator: In, values: [a]}\n  pool: {name: fabric, generation: 1, resourceSliceCount: 1}\n  devices:\n  - name: remote-0\n    attributes:\n      profile: {string: 1g.26gb}\n      parentUUID: {string: GPU-00000001-0000-4c1a-9f0b-2c1d3e4f5a6b}\n");
        }
        let held = &nodes[rng.below(nodes.len())];
        extra.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: holder, namespace: default}}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {{deviceClassName: gpu.example.com}}\nstatus:\n  allocation:\n    devices:\n      results:\n      - {{request: gpu, driver: gpu.example.com, pool: {held}, device: gpu-0-mig-0}}\n"));
        let text = docs.join("---\n") + &extra + "\n---\n" + BENCH_CLAIMS + CLAIMS;
        let objects = load_objects(
            &[SourceFile {
                name: "f.yaml".into(),
                text,
            }],
            crate::yaml::Limits::default(),
        )
        .0;
        let cluster = Arc::new(Cluster::new(&objects));
        let names = [
            "one-gpu",
            "four-partitions",
            "two-distinct",
            "too-many",
            "nothing",
            "reads-uuid",
            "profile-1g",
        ];
        for _ in 0..3 {
            let mut picked: Vec<&str> = names
                .iter()
                .copied()
                .filter(|_| rng.below(3) == 0)
                .collect();
            if picked.is_empty() {
                picked.push(names[rng.below(names.len())]);
            }
            let claims: Vec<&Object> = picked
                .iter()
                .map(|n| objects.iter().find(|o| o.name() == Some(n)).unwrap())
                .collect();
            let together = Allocator::over(Arc::clone(&cluster), &gates, &claims).on_nodes(&nodes);
            let alone = Allocator::new(&objects, &gates, &claims);
            for (n, o) in nodes.iter().zip(&together) {
                assert_eq!(o, &alone.on_node(n), "seed {seed}, {picked:?} on {n}");
            }
        }
    }
}

/// Compared values that the answer's debug text would escape (a quote) are
/// compared by value, not by pattern: the answer quotes them.
#[test]
fn values_with_quotes_are_not_shared_by_pattern() {
    let mut text = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: same, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, count: 2}\n    constraints:\n    - matchAttribute: x.example.com/uid\n");
    let nodes: Vec<String> = (0..NODES).map(|n| format!("n{n}")).collect();
    // The values do not name the node (which would keep it apart anyway).
    for (i, n) in nodes.iter().enumerate() {
        let (a, b) = (2 * i, 2 * i + 1);
        text.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s-{n}}}\nspec:\n  driver: x.example.com\n  nodeName: {n}\n  pool: {{name: {n}, generation: 1, resourceSliceCount: 1}}\n  devices:\n  - name: d0\n    attributes:\n      uid: {{string: 'q\"X{a}'}}\n  - name: d1\n    attributes:\n      uid: {{string: 'q\"X{b}'}}\n"));
    }
    let objects = load_objects(
        &[SourceFile {
            name: "q.yaml".into(),
            text,
        }],
        crate::yaml::Limits::default(),
    )
    .0;
    let gates = FeatureGates::defaults(crate::gates::Version::LATEST);
    let claims: Vec<&Object> = objects
        .iter()
        .filter(|o| o.name() == Some("same"))
        .collect();
    let a = Allocator::new(&objects, &gates, &claims);
    let together = a.on_nodes(&nodes);
    for (n, o) in nodes.iter().zip(&together) {
        assert!(matches!(o, Outcome::Unsatisfiable { .. }), "{o:?}");
        assert_eq!(o, &a.on_node(n), "{n}");
    }
}
