//! The per-node maximum beside the greedy count (issue 33, item 1): on
//! partitionable devices the order copies arrive in decides how many fit.

mod support;

const MIG: &str = "testdata/fixtures/capacity/mig-fragmentation.yaml";

fn json(args: &[&str]) -> serde_json::Value {
    support::json_answer(args)
}

#[test]
fn mig_fragmentation_makes_first_fit_count_fewer_than_fit_together() {
    for (template, greedy) in [("ml/any-mig", 1), ("ml/small-mig", 2)] {
        let v = json(&["capacity", "template", template, "-f", MIG]);
        let node = &v["nodes"][0];
        assert_eq!(node["copies"], greedy, "{template}: {v}");
        assert_eq!(
            node["maximum"],
            serde_json::json!({"copies": 7, "exact": true}),
            "{template}: {v}"
        );
    }
    let o = support::run(&["capacity", "template", "ml/any-mig", "-f", MIG]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Packed otherwise than first fit, 7 fit together"),
        "{text}"
    );
}

#[test]
fn plain_devices_are_counted_once_and_exactly() {
    // One request over devices without counters: the first fit is the most,
    // said as exact without a second search.
    let v = json(&[
        "capacity",
        "template",
        "ml/one-gpu",
        "-f",
        "testdata/fixtures/whatif/add-nodes.yaml",
        "--add-nodes",
        "1",
        "--like",
        "gpu-1",
    ]);
    let copy = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == "gpu-1-copy-1")
        .unwrap();
    assert_eq!(copy["copies"], 1, "{v}");
    assert_eq!(
        copy["maximum"],
        serde_json::json!({"copies": 1, "exact": true})
    );
}
