//! Nodes alike are counted once (issue 33, "equivalent nodes computed
//! once"): a node whose devices and claims have the shape of one already
//! counted takes its count (`countedAs`). Checked against counting every
//! node alone (`--node`), on a generated fleet whose GPUs carry per-node
//! UUIDs and where one node has a GPU in use.

mod support;

use dra_core::fleet::{generate, FleetSpec, BENCH_CLAIMS};

/// One GPU of worker-2 held by an allocated claim: worker-2 is unlike the
/// other three.
const HELD: &str = "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: busy, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com}\nstatus:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: gpu.example.com, pool: worker-2, device: gpu-0}\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchFields:\n        - {key: metadata.name, operator: In, values: [worker-2]}\n  reservedFor:\n  - {resource: pods, name: busy, uid: 0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b}\n";

fn fleet(dir: &support::ScratchDir) -> String {
    let mut text = generate(FleetSpec {
        nodes: 4,
        gpus_per_node: 2,
        partitions_per_gpu: 7,
    });
    text.push_str("\n---\n");
    text.push_str(BENCH_CLAIMS);
    text.push_str(HELD);
    let path = dir.join("fleet.yaml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_answer(args)
}

#[test]
fn nodes_alike_take_the_count_of_the_first_and_it_is_theirs() {
    let dir = support::ScratchDir::new("capacity-shapes");
    let file = fleet(&dir);
    for claim in ["default/one-gpu", "default/four-partitions"] {
        let all = json(&["capacity", "claim", claim, "-f", &file]);
        let nodes = all["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 4, "{all}");
        for n in nodes {
            let name = n["node"].as_str().unwrap();
            let alone = json(&["capacity", "claim", claim, "-f", &file, "--node", name]);
            let a = &alone["nodes"][0];
            assert_eq!(a["countedAs"], serde_json::Value::Null, "{alone}");
            assert_eq!(
                n["copies"], a["copies"],
                "{claim} on {name}: {all}\n{alone}"
            );
            assert_eq!(n["maximum"], a["maximum"], "{claim} on {name}");
            assert_eq!(n["stop"]["kind"], a["stop"]["kind"], "{claim} on {name}");
            let expected_like = match name {
                "worker-0" | "worker-2" => serde_json::Value::Null,
                _ => serde_json::json!("worker-0"),
            };
            assert_eq!(n["countedAs"], expected_like, "{claim} on {name}: {all}");
        }
    }
    // One GPU fewer on worker-2.
    let one = json(&["capacity", "claim", "default/one-gpu", "-f", &file]);
    assert_eq!(one["total"], 7, "{one}");
    // The text names the node counted, once: its words name its devices.
    let o = support::run(&["capacity", "claim", "default/one-gpu", "-f", &file]);
    let text = String::from_utf8_lossy(&o.stdout);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("worker-3 "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        row.ends_with("2  as on worker-0 (the same devices and claims)"),
        "{text}"
    );
}
