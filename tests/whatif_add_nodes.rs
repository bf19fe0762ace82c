//! `--add-nodes N --like NODE` and `--add-nodes auto` (issue 33, item 3):
//! copies of a node with its node-local slices in fresh pools. Each answer
//! must equal the same command on the inventory with the copies written by
//! hand (testdata/fixtures/whatif/add-nodes-by-hand.yaml).

mod support;

const FLEET: &str = "testdata/fixtures/whatif/add-nodes.yaml";
const BY_HAND: &str = "testdata/fixtures/whatif/add-nodes-by-hand.yaml";

fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let mut a = args.to_vec();
    a.extend(["-o", "json"]);
    let o = support::run(&a);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
    (v, o.status.code().unwrap_or(-1))
}

#[test]
fn two_copies_answer_as_the_copies_written_by_hand() {
    let (what_if, _) = json(&[
        "explain",
        "pods",
        "-n",
        "ml",
        "--in-order",
        "-f",
        FLEET,
        "--add-nodes",
        "2",
        "--like",
        "gpu-1",
    ]);
    let (by_hand, _) = json(&["explain", "pods", "-n", "ml", "--in-order", "-f", BY_HAND]);
    assert_eq!(what_if["groups"], by_hand["groups"]);
    let placed = |v: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
        v["pods"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_owned(),
                    p["placedOn"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(placed(&what_if), placed(&by_hand));
    assert_eq!(
        placed(&what_if)[..2],
        [
            ("infer-0".to_owned(), "gpu-1-copy-1".into()),
            ("infer-1".to_owned(), "gpu-1-copy-2".into())
        ]
    );
    assert_eq!(
        what_if["whatIf"]["gainFit"],
        serde_json::json!(["ml/infer-0", "ml/infer-1"])
    );
    // capacity and devices take the same change.
    let (cap, _) = json(&[
        "capacity",
        "template",
        "ml/one-gpu",
        "-f",
        FLEET,
        "--add-nodes",
        "2",
        "--like",
        "gpu-1",
    ]);
    let (cap_hand, _) = json(&["capacity", "template", "ml/one-gpu", "-f", BY_HAND]);
    assert_eq!(cap["total"], 2, "{cap}");
    assert_eq!(cap["total"], cap_hand["total"]);
    let (dev, _) = json(&[
        "devices",
        "--summary",
        "-g",
        "node",
        "-f",
        FLEET,
        "--add-nodes",
        "2",
        "--like",
        "gpu-1",
    ]);
    let (dev_hand, _) = json(&["devices", "--summary", "-g", "node", "-f", BY_HAND]);
    assert_eq!(dev["groups"], dev_hand["groups"]);
}

#[test]
fn auto_finds_the_fewest_nodes_and_names_what_no_copy_fixes() {
    let args = [
        "explain",
        "pods",
        "-n",
        "ml",
        "-f",
        FLEET,
        "--add-nodes",
        "auto",
        "--like",
        "gpu-1",
    ];
    let (v, code) = json(&args);
    assert_eq!(code, 1, "the TPU pod still pends: {v}");
    let auto = &v["addNodesAuto"];
    assert_eq!(
        (
            &auto["nodes"],
            &auto["pending"],
            &auto["fitBefore"],
            &auto["fitAfter"]
        ),
        (&3.into(), &4.into(), &0.into(), &3.into()),
        "{auto}"
    );
    // The answer below is with three copies, in queue order.
    assert_eq!(v["inOrder"], true);
    let o = support::run(&args);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with(
            "--add-nodes auto: 3 more node(s) like gpu-1 make 3 of the 4 pending pods fit"
        ),
        "{text}"
    );
    // A node that is not there is an error, not an answer.
    let o = support::run(&[
        "explain",
        "pods",
        "-n",
        "ml",
        "-f",
        FLEET,
        "--add-nodes",
        "auto",
        "--like",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no Node named \"nope\""));
    // auto is for pending pods only.
    let o = support::run(&[
        "devices",
        "-f",
        FLEET,
        "--add-nodes",
        "auto",
        "--like",
        "gpu-1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // --like goes with --add-nodes.
    let o = support::run(&["devices", "-f", FLEET, "--add-nodes", "2"]);
    assert_eq!(o.status.code(), Some(2));
}
