//! `kubectl-dra explain`: the text explanation pinned by snapshots, for one
//! node and across nodes, and `explain pod` with a template-generated claim.

mod support;

fn out(args: &[&str]) -> (String, i32) {
    let o = support::run(args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// A generated fixture in a temporary directory (removed when the guard
/// drops): the guard and the file's path.
fn fixture_file(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("fixture.yaml");
    std::fs::write(&f, text).unwrap();
    (dir, f.to_string_lossy().into_owned())
}

/// The same command with `-o json`: the parsed value and the text.
fn json_out(args: &[&str]) -> (serde_json::Value, String) {
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let (json, _) = out(&json_args);
    let v = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    (v, json)
}

#[test]
fn one_node_in_use() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "team-a/train-0",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_one_node_in_use", text);
}

#[test]
fn across_nodes() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "train-0",
        "-n",
        "team-a",
        "-f",
        "testdata/fixtures/explain",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_across_nodes", text);
}

/// A selector's runtime error fails the attempt, in the allocator's words
/// of the release: from 1.37 (dynamic-resource-allocation 1caef2e) they
/// name the device and add EnhanceRuntimeError's hint to a missing key.
#[test]
fn selector_runtime_error_fails_the_attempt() {
    let dir = std::env::temp_dir().join(format!("kubectl-dra-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let claim = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: bad, namespace: team-a}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.example.com\n        selectors:\n        - cel: {expression: 'device.attributes[\"gpu.example.com\"].memory > 1'}\n";
    std::fs::write(dir.join("bad.yaml"), claim).unwrap();
    let d = dir.to_string_lossy().into_owned();
    let error_at = |version: &str| {
        let (json, code) = out(&[
            "explain",
            "claim",
            "team-a/bad",
            "--node",
            "worker-2",
            "--kubernetes-version",
            version,
            "-o",
            "json",
            "-f",
            "testdata/fixtures/explain",
            "-f",
            &d,
        ]);
        assert_eq!(code, 1);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["result"], "error");
        assert_eq!(v["verdict"]["fatalError"]["kind"], "selector", "{v}");
        (v["error"].as_str().unwrap().to_owned(), v["device"].clone())
    };
    let (e, device) = error_at("1.36");
    assert!(
        e.contains("claim team-a/bad: selector #0: CEL runtime error: no such key: memory"),
        "{e}"
    );
    assert!(!e.contains("consider"), "{e}");
    let (e37, device37) = error_at("1.37");
    assert!(
        e37.contains(&format!(
            "claim team-a/bad: selector #0 on device {}: CEL runtime error: no such key: memory. \
             consider using CEL optional chaining (.? followed by orValue()) or guarding the \
             check with has() for optional fields",
            device37.as_str().unwrap()
        )),
        "{e37}"
    );
    assert_eq!(device, device37);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pod_with_template() {
    let (text, code) = out(&[
        "explain",
        "pod",
        "team-a/trainer",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_pod", text);
    let (json, _) = out(&[
        "explain",
        "pod",
        "trainer",
        "-n",
        "team-a",
        "--node",
        "worker-1",
        "-o",
        "json",
        "-f",
        "testdata/fixtures/explain",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["result"], "allocated");
    assert_eq!(v["claims"][0]["name"], "trainer-gpu");
    assert_eq!(
        v["claims"][0]["allocation"]["devices"]["results"][0]["device"],
        "gpu-1"
    );
}

#[test]
fn unknown_claim_is_a_usage_error() {
    assert_eq!(
        out(&[
            "explain",
            "claim",
            "nope",
            "-f",
            "testdata/fixtures/explain"
        ])
        .1,
        2
    );
}

#[test]
fn device_taint_rules_apply_with_their_gate() {
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "explain",
            "claim",
            "team-a/small",
            "--node",
            "worker-1",
            "-o",
            "json",
            "-f",
            "testdata/fixtures/explain",
            "-f",
            "testdata/fixtures/taint-rule.yaml",
        ];
        a.extend_from_slice(extra);
        a
    };
    let device = |extra: &[&'static str]| {
        let (json, _) = out(&args(extra));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["claims"][0]["allocation"]["devices"]["results"][0]["device"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    // gpu-0 is allocated; the rule taints gpu-1 (NoSchedule): gpu-2 is next.
    assert_eq!(device(&[]), "gpu-2");
    // 1.36: DRADeviceTaintRules is off by default, the rule does not count.
    assert_eq!(device(&["--kubernetes-version", "1.36"]), "gpu-1");
}

#[test]
fn counter_set_shortfall() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "whole-gpu",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-counters.yaml",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_counter_shortfall", text);
    // The shortfall as fields, and who holds the counter set.
    let (json, _) = out(&[
        "explain",
        "claim",
        "whole-gpu",
        "--node",
        "worker-1",
        "-o",
        "json",
        "-f",
        "testdata/fixtures/explain-counters.yaml",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let f = &v["claims"][0]["explanation"]["requests"][0];
    let d = &f["counterShortfallDetail"];
    assert!(
        d["counterSet"].is_string() && d["counter"].is_string(),
        "{f}"
    );
    assert!(
        d["needed"].is_string() && d["left"].is_string() && d["device"].is_string(),
        "{f}"
    );
    assert!(!f["counterHolders"].as_array().unwrap().is_empty(), "{f}");
    let h = &f["counterHolderDevices"][0];
    assert_eq!(h["counterSet"], d["counterSet"], "{f}");
    assert!(
        h["claim"].is_string() && h["device"].is_string() && h["counters"].is_object(),
        "{f}"
    );
}

/// A pod asking for `example.com/gpu` in its limits gets the claim the
/// scheduler makes up for extended resources a DeviceClass backs.
#[test]
fn pod_with_extended_resources() {
    let (text, code) = out(&[
        "explain",
        "pod",
        "team-a/legacy-trainer",
        "-f",
        "examples/",
        "--node",
        "worker-1",
        "-o",
        "json",
    ]);
    assert_eq!(code, 0, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["claims"][0]["name"], "legacy-trainer-extended-resources");
    let results = &v["claims"][0]["allocation"]["devices"]["results"];
    assert_eq!(results[0]["request"], "container-0-request-0");
    // In 1.35 DRAExtendedResource is alpha and off: no class backs the
    // resource, so (with no node advertising it) the pod stays Pending, and
    // that is the verdict (issue 31), not a usage error.
    let (text, code) = out(&[
        "explain",
        "pod",
        "team-a/legacy-trainer",
        "-f",
        "examples/",
        "--kubernetes-version",
        "1.35",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("stays Pending: no node has example.com/gpu"),
        "{text}"
    );
}

/// A claim allocated before keeps its devices and admits only its node; a
/// claim of the same pod cannot take the devices it holds.
#[test]
fn already_allocated_claims() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "team-b/held",
        "-f",
        "testdata/fixtures/explain-allocated.yaml",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_already_allocated", text);
    let (text, code) = out(&[
        "explain",
        "claim",
        "team-b/held",
        "team-b/more",
        "-f",
        "testdata/fixtures/explain-allocated.yaml",
        "--node",
        "node-0",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["result"], "unsatisfiable");
    let held_by = v["claims"][1]["explanation"]["requests"][0]["heldBy"][0].clone();
    let (text, _) = out(&[
        "explain",
        "claim",
        "team-b/held",
        "-f",
        "testdata/fixtures/explain-allocated.yaml",
        "--node",
        "node-0",
        "-o",
        "json",
    ]);
    let single: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        single["claims"][0]["allocation"]["reservedFor"][0],
        "team-b/trainer-0"
    );
    assert_eq!(held_by, "team-b/held");
}

/// The later steps of the funnel, each where it is the one that blocks.
#[test]
fn funnel_steps_groups_capacity_and_constraints() {
    let cases: [(&str, &str, &[&str]); 5] = [
        (
            "explain_compat_groups",
            "vgpu",
            &[
                "-f",
                "testdata/fixtures/explain-groups.yaml",
                "--feature-gates",
                "DRADeviceCompatibilityGroups=true",
            ],
        ),
        (
            "explain_capacity",
            "claim-a",
            &["-f", "testdata/fixtures/explain-capacity.yaml"],
        ),
        (
            "explain_match_attribute",
            "numa-aligned",
            &["-f", "testdata/fixtures/explain-constraints.yaml"],
        ),
        (
            "explain_missing_attribute",
            "pcie-aligned",
            &["-f", "testdata/fixtures/explain-constraints.yaml"],
        ),
        (
            "explain_distinct_attribute",
            "two-numa-nodes",
            &["-f", "testdata/fixtures/explain-constraints.yaml"],
        ),
    ];
    for (snapshot, claim, rest) in cases {
        let mut args = vec!["explain", "claim", claim, "--node", "worker-1"];
        args.extend_from_slice(rest);
        let (text, code) = out(&args);
        assert_eq!(code, 1, "{snapshot}: {text}");
        insta::assert_snapshot!(snapshot, text);
    }
}

/// The JSON carries each step's count and the constraint that blocks.
#[test]
fn funnel_steps_in_json() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "numa-aligned",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-constraints.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let explanation = &v["claims"][0]["explanation"];
    let gpu = &explanation["requests"][0];
    for (step, want) in [
        ("devices", 3),
        ("passClassSelectors", 2),
        ("notTainted", 2),
        ("notInUse", 2),
        ("countersLeft", 2),
        ("compatibleGroups", 2),
        ("capacityLeft", 2),
        ("haveConstraintAttributes", 2),
    ] {
        assert_eq!(gpu[step], want, "{step} in {gpu}");
    }
    let blocked = &explanation["constraints"][0];
    assert_eq!(blocked["kind"], "matchAttribute");
    assert_eq!(blocked["attribute"], "topology.example.com/numa");
    assert_eq!(blocked["requests"], serde_json::json!(["gpu", "nic"]));

    let (text, _) = out(&[
        "explain",
        "claim",
        "vgpu",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-groups.yaml",
        "--feature-gates",
        "DRADeviceCompatibilityGroups=true",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    let req = &v["claims"][0]["explanation"]["requests"][0];
    assert_eq!(req["countersLeft"], 1);
    assert_eq!(req["compatibleGroups"], 0);
    assert!(req["groupConflict"]
        .as_str()
        .is_some_and(|s| s.contains("[mig]")));
}

/// Advice is verified by allocating again: the claim fits once the taint is
/// gone, and the advice is about the taint's source (the driver marks the
/// device in its slice), not tolerating it (issue 31, class 5); a claim no
/// single change helps gets none.
#[test]
fn advice_is_verified() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "one-gpu",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-taints.yaml",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        v["advice"],
        serde_json::json!([
            "It fits on worker-1 once driver gpu.example.com clears example.com/maintenance=planned:NoSchedule from gpu.example.com/worker-1/gpu-0 (its ResourceSlice publishes it: the driver's mark of the device's state); tolerate it only if the workload may run on a device in that state."
        ])
    );
    assert_eq!(v["adviceDetail"][0]["kind"], "driverClearsTaint");
    assert_eq!(
        v["adviceDetail"][0]["subject"],
        "gpu.example.com/worker-1/gpu-0"
    );
    assert_eq!(
        v["claims"][0]["explanation"]["requests"][0]["untoleratedTaints"],
        serde_json::json!(["example.com/maintenance=planned:NoSchedule"])
    );
    // Two NUMA nodes cannot be found on one: nothing to delete or tolerate.
    let (text, _) = out(&[
        "explain",
        "claim",
        "two-numa-nodes",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-constraints.yaml",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["advice"], serde_json::json!([]));
    // The counter shortfall names who holds the counter set, and deleting it helps.
    let (text, _) = out(&[
        "explain",
        "claim",
        "whole-gpu",
        "--node",
        "worker-1",
        "-f",
        "testdata/fixtures/explain-counters.yaml",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        v["claims"][0]["explanation"]["requests"][0]["counterHolders"],
        serde_json::json!(["default/claim-x"])
    );
    assert_eq!(
        v["advice"],
        serde_json::json!([
            "It fits on worker-1 if default/claim-x is deleted (DRA devices are never preempted)."
        ])
    );
}

/// A pod on a realistic fleet (testdata/fixtures/explain-fleet): the verdict
/// first (where it fits), then one line per cause with a node count and an
/// example, the scheduler's node filters (nodeSelector, node taints)
/// included, the DeviceTaintRule named; no advice, as it already fits.
#[test]
fn fleet_pod_summary_first() {
    let (text, code) = out(&[
        "explain",
        "pod",
        "team-a/trainer",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("explain_fleet_pod", text);
    let (json, code) = out(&[
        "explain",
        "pod",
        "team-a/trainer",
        "-o",
        "json",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["schedulable"], true);
    assert_eq!(
        v["verdict"]["allocatedOn"],
        serde_json::json!(["node-b", "node-c"])
    );
    let excluded: Vec<&str> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["result"] == "excluded")
        .map(|n| n["node"].as_str().unwrap())
        .collect();
    assert_eq!(excluded, ["node-e", "node-f"]);
    let d = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == "node-d")
        .unwrap();
    let t = &d["claims"][0]["explanation"]["requests"][0]["taintSources"][0];
    assert_eq!(t["deviceTaintRule"], "node-d-maintenance");
    assert_eq!(t["key"], "example.com/maintenance");
    assert_eq!(t["value"], "firmware");
    assert!(v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["advice"].as_array().is_none_or(Vec::is_empty)));
}

/// A CEL runtime error on one node stops the attempt on every node: the
/// verdict says so first, names the device and the guard, and exits 1 even
/// though node-b would fit.
#[test]
fn fleet_runtime_error_is_fatal_everywhere() {
    let args = [
        "explain",
        "claim",
        "team-a/nvlink-pair",
        "-f",
        "testdata/fixtures/explain-fleet",
    ];
    let (text, code) = out(&args);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_fleet_fatal", text);
    let mut json_args = args.to_vec();
    json_args.extend(["-o", "json"]);
    let (json, code) = out(&json_args);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let f = &v["verdict"]["fatalError"];
    assert_eq!(f["node"], "node-c");
    assert_eq!(f["device"], "gpu.example.com/node-c/gpu-0");
    assert!(f["fix"]
        .as_str()
        .unwrap()
        .contains("has(device.attributes[\"gpu.example.com\"].nvlink)"));
    assert_eq!(v["verdict"]["schedulable"], false);
}

/// An unknown --node is a usage error naming the nodes the inventory has.
#[test]
fn unknown_node_names_the_known_ones() {
    let o = support::run(&[
        "explain",
        "claim",
        "team-a/nvlink-pair",
        "--node",
        "node-z",
        "-f",
        "testdata/fixtures/explain-fleet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("node \"node-z\" is unknown"), "{err}");
    assert!(err.contains("node-a, node-b, node-c"), "{err}");
}

/// An invalid pool is the cause, named with why, not "0 devices"; an All
/// request says it needs every matching device and who holds the rest.
#[test]
fn invalid_pool_and_all_mode_causes() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "default/c",
        "-f",
        "testdata/fixtures/explain-invalid-pool.yaml",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_invalid_pool", text);
    let (text, code) = out(&[
        "explain",
        "claim",
        "team-a/all-gpus",
        "-f",
        "testdata/fixtures/explain-fleet",
    ]);
    assert_eq!(code, 0);
    assert!(
        text.contains(
            "request \"gpus\" needs all 2 matching devices, 1 are in use, held by team-b/infer-0"
        ),
        "{text}"
    );
    let (json, _) = out(&[
        "explain",
        "claim",
        "team-a/all-gpus",
        "--node",
        "node-a",
        "-o",
        "json",
        "-f",
        "testdata/fixtures/explain-fleet",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let f = &v["claims"][0]["explanation"]["requests"][0];
    assert_eq!(f["allMatching"], true);
    assert_eq!(f["needed"], 2);
    assert_eq!(f["heldByPods"], serde_json::json!(["team-b/infer-0"]));
}

/// A selector that reads an attribute no device publishes fails with "no
/// such key" on the first device; the answer names the spelling (name,
/// domain, or the domain the name lives under), not a guard that would
/// only make the claim match nothing.
#[test]
fn misspelt_attribute_is_named() {
    for (claim, want) in [
        (
            "default/name-typo",
            "No device publishes the attribute gpu.example.com/modle: did you mean \"model\"?",
        ),
        (
            "default/domain-typo",
            "No device publishes the attribute gpu.exmple.com/model; devices publish gpu.example.com/model: use device.attributes[\"gpu.example.com\"].model",
        ),
        (
            "default/both-typos",
            "No device publishes attributes under \"gpu.exmple.com\": did you mean \"gpu.example.com\"?",
        ),
        (
            "default/wrong-domain",
            "No device publishes the attribute gpu.example.com/node; devices publish numa.example.com/node: use device.attributes[\"numa.example.com\"].node",
        ),
    ] {
        let (text, code) = out(&[
            "explain",
            "claim",
            claim,
            "-f",
            "testdata/fixtures/explain-misspelt-attribute.yaml",
        ]);
        assert_eq!(code, 1, "{text}");
        let head: Vec<&str> = text.lines().take(3).collect();
        assert_eq!(head[2].trim(), want, "{text}");
    }
}

/// When no node has a device for a request, the devices of its class that
/// no node can use (a nodeSelector matching no node) are named, second line.
#[test]
fn devices_no_node_can_use_are_named() {
    let args = [
        "explain",
        "claim",
        "default/want",
        "-f",
        "testdata/fixtures/explain-stranded.yaml",
    ];
    let (text, code) = out(&args);
    assert_eq!(code, 1);
    assert_eq!(
        text.lines().nth(1).unwrap_or_default(),
        "  2 devices of class nic no node can use: slice fabric (pool nic.example.com/fabric): its nodeSelector matches none of the 2 nodes.",
        "{text}"
    );
    let (v, _) = json_out(&args);
    assert_eq!(v["verdict"]["stranded"].as_array().map(Vec::len), Some(1));
}

/// When the claims fit nowhere the pod may run but would fit on a node the
/// pod's own constraints exclude, that constraint is named second line.
#[test]
fn pod_constraint_that_keeps_it_off_the_devices_is_named() {
    let args = [
        "explain",
        "pod",
        "default/pinned",
        "-f",
        "testdata/fixtures/explain-pod-excluded.yaml",
    ];
    let (text, code) = out(&args);
    assert_eq!(code, 1);
    assert_eq!(
        text.lines().nth(1).unwrap_or_default(),
        "  The claims would fit on gpu-node, where the pod cannot run: the pod's nodeSelector pool=cpu does not match the node's labels.",
        "{text}"
    );
    let (v, json) = json_out(&args);
    assert_eq!(
        v["verdict"]["fitsWhereExcluded"][0]["node"], "gpu-node",
        "{json}"
    );
}

/// A firstAvailable request fails only when every alternative does: the
/// cause names each; an alternative that fails is no cause while another
/// one has enough devices.
#[test]
fn first_available_causes_name_every_alternative() {
    let cause = |claim: &str| {
        let (text, code) = out(&[
            "explain",
            "claim",
            claim,
            "-f",
            "testdata/fixtures/explain-first-available.yaml",
        ]);
        assert_eq!(code, 1, "{text}");
        text.lines().nth(1).unwrap_or_default().to_owned()
    };
    assert!(cause("default/fa").contains(
        "request \"gpu\": none of its 2 alternatives fits: request \"gpu/big\": no device passes the request selectors; request \"gpu/two\" needs 2 devices, only 1 is on the node"
    ));
    let nic = cause("default/fa-nic");
    assert!(nic.contains("request \"nic\""), "{nic}");
    assert!(!nic.contains("gpu/big"), "{nic}");
}

/// An incomplete pool is the cause too: the scheduler takes no device from
/// it (allocateOne skips invalid and incomplete pools), so the answer names
/// the pool and the slices it lacks, first.
#[test]
fn incomplete_pool_is_named_first() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "default/c",
        "-f",
        "testdata/fixtures/explain-incomplete-pool.yaml",
    ]);
    assert_eq!(code, 1);
    let first_cause = text.lines().nth(1).unwrap_or_default();
    assert!(
        first_cause.contains("resource pool gpu.example.com/n1 is incomplete (generation 4: 2 slices, resourceSliceCount 3)"),
        "{text}"
    );
    insta::assert_snapshot!("explain_incomplete_pool", text);
}

/// `devices` applies DeviceTaintRules, shows counter-blocked devices with who
/// uses the counter, and lists an invalid pool once with its reason.
#[test]
fn devices_view_matches_explain() {
    let (text, _) = out(&[
        "devices",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
        "-f",
        "testdata/fixtures/explain-counters.yaml",
        "-f",
        "testdata/fixtures/explain-invalid-pool.yaml",
    ]);
    insta::assert_snapshot!("devices_taint_rules_blocked_invalid", text);
}

/// `--color always` colours the verdict; `never` (and NO_COLOR) does not.
#[test]
fn verdict_colour() {
    let args = [
        "explain",
        "pod",
        "team-a/trainer",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ];
    let mut on = args.to_vec();
    on.extend(["--color", "always"]);
    let (text, _) = out(&on);
    assert!(text.starts_with("\x1b[1;32mPod team-a/trainer"), "{text:?}");
    let mut off = args.to_vec();
    off.extend(["--color", "never"]);
    let (text, _) = out(&off);
    assert!(!text.contains('\x1b'));
}

/// Names from the command line or the input reach stderr escaped: an OSC
/// title rewrite is shown, not run.
#[test]
fn errors_escape_control_characters() {
    let o = support::run(&[
        "explain",
        "claim",
        "team-a/\x1b]0;pwned\x07",
        "-f",
        "testdata/fixtures/explain-fleet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(err.contains("\\x1b]0;pwned\\x07"), "{err:?}");
}

/// The scheduler's made-up request names of extended resources are shown
/// with the container and the amount they stand for.
#[test]
fn extended_resource_requests_name_the_container() {
    let (text, _) = out(&[
        "explain",
        "pod",
        "team-a/legacy-trainer",
        "-f",
        "examples/",
        "--node",
        "worker-1",
    ]);
    assert!(
        text.contains("request container-0-request-0 (container trainer: example.com/gpu x1) -> "),
        "{text}"
    );
    let (json, _) = out(&[
        "explain",
        "pod",
        "team-a/legacy-trainer",
        "-f",
        "examples/",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let e = &v["extendedResources"][0];
    assert_eq!(e["request"], "container-0-request-0");
    assert_eq!(e["container"], "trainer");
    assert_eq!(e["resource"], "example.com/gpu");
    assert_eq!(e["count"], 1);
}

/// `match`'s hint for a missing key names the real domain, not a placeholder.
#[test]
fn match_hint_names_the_domain() {
    let (text, _) = out(&[
        "match",
        "device.attributes[\"gpu.example.com\"].nvlink == true",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ]);
    assert!(
        text.contains("has(device.attributes[\"gpu.example.com\"].nvlink)"),
        "{text}"
    );
    assert!(!text.contains("DOMAIN"), "{text}");
}

/// `match` evaluates an expression the apiserver would refuse in a new
/// claim as too complex (its estimated cost has no bound: string() has no
/// size for cel-go's estimator), and says so; a cheap one has no note.
#[test]
fn match_notes_a_selector_too_complex_for_the_apiserver() {
    let fleet = "testdata/fixtures/explain-fleet/fleet.yaml";
    let unbounded = "string(device.attributes[\"gpu.example.com\"].index).contains(\"a\")";
    let (text, code) = out(&["match", unbounded, "-f", fleet]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("note: the apiserver refuses this expression in a new claim or class (too complex, exceeds cost limit"),
        "{text}"
    );
    let (json, _) = json_out(&["match", unbounded, "-f", fleet]);
    assert!(json["tooComplex"]
        .as_str()
        .is_some_and(|m| m.starts_with("too complex, exceeds cost limit")));
    let cheap = "string(device.attributes[\"gpu.example.com\"].index) == \"a\"";
    let (text, _) = out(&["match", cheap, "-f", fleet]);
    assert!(!text.contains("too complex"), "{text}");
    let (json, _) = json_out(&["match", cheap, "-f", fleet]);
    assert!(json.get("tooComplex").is_none(), "{json}");
}

/// A request selector that does not compile is named first: the scheduler
/// raises its compile error only once it meets a device (selectorsMatch),
/// and here the class rules every device out before that.
#[test]
fn selector_compile_error_is_the_cause() {
    let (text, code) = out(&[
        "explain",
        "claim",
        "default/c",
        "-f",
        "testdata/fixtures/explain-compile-error.yaml",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_compile_error", text);
}

/// A pod's claim allocated before restricts the pod to the nodes its
/// allocation admits, said up front; a node it rules out is not "closest".
#[test]
fn allocated_claim_restricts_the_pod() {
    let (text, code) = out(&[
        "explain",
        "pod",
        "default/p",
        "-f",
        "testdata/fixtures/explain-shared-claim.yaml",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_shared_claim", text);
    let (json, _) = out(&[
        "explain",
        "pod",
        "default/p",
        "-o",
        "json",
        "-f",
        "testdata/fixtures/explain-shared-claim.yaml",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["verdict"]["allocatedClaims"],
        serde_json::json!([{"claim": "default/shared", "admits": ["node-a"]}])
    );
    assert_eq!(v["verdict"]["closest"]["node"], "node-a");
}

/// The verdict as JSON for each situation the text snapshots show: the
/// same facts as structured fields (`verdict`, and per node the request
/// funnels and reasons), so a script reads the culprit without parsing text.
#[test]
fn verdicts_as_json() {
    let cases: [(&str, &[&str]); 11] = [
        (
            "across_nodes",
            &[
                "claim",
                "train-0",
                "-n",
                "team-a",
                "-f",
                "testdata/fixtures/explain",
            ],
        ),
        (
            "pod",
            &[
                "pod",
                "team-a/trainer",
                "--node",
                "worker-1",
                "-f",
                "testdata/fixtures/explain",
            ],
        ),
        (
            "counter_shortfall",
            &[
                "claim",
                "whole-gpu",
                "--node",
                "worker-1",
                "-f",
                "testdata/fixtures/explain-counters.yaml",
            ],
        ),
        (
            "already_allocated",
            &[
                "claim",
                "team-b/held",
                "-f",
                "testdata/fixtures/explain-allocated.yaml",
            ],
        ),
        (
            "fleet_pod",
            &[
                "pod",
                "team-a/trainer",
                "-f",
                "testdata/fixtures/explain-fleet/fleet.yaml",
            ],
        ),
        (
            "fleet_fatal",
            &[
                "claim",
                "team-a/nvlink-pair",
                "-f",
                "testdata/fixtures/explain-fleet",
            ],
        ),
        (
            "invalid_pool",
            &[
                "claim",
                "default/c",
                "-f",
                "testdata/fixtures/explain-invalid-pool.yaml",
            ],
        ),
        (
            "all_mode",
            &[
                "claim",
                "team-a/all-gpus",
                "-f",
                "testdata/fixtures/explain-fleet",
            ],
        ),
        (
            "compile_error",
            &[
                "claim",
                "default/c",
                "-f",
                "testdata/fixtures/explain-compile-error.yaml",
            ],
        ),
        (
            "shared_devices",
            &[
                "pod",
                "team-a/legacy",
                "-f",
                "testdata/fixtures/explain-shared-devices.yaml",
            ],
        ),
        (
            "shared_claim",
            &[
                "pod",
                "default/p",
                "-f",
                "testdata/fixtures/explain-shared-claim.yaml",
            ],
        ),
    ];
    for (name, args) in cases {
        let mut argv = vec!["explain"];
        argv.extend_from_slice(args);
        argv.extend(["-o", "json"]);
        let (json, _) = out(&argv);
        let v: serde_json::Value =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: {e}: {json}"));
        let shown = serde_json::json!({
            "verdict": v["verdict"],
            "nodes": v["nodes"].as_array().map(|nodes| nodes.iter().map(|n| serde_json::json!({
                "node": n["node"], "result": n["result"], "error": n["error"],
                "reasons": n["claims"].as_array().map(|cs| cs.iter()
                    .map(|c| c["explanation"]["reasons"].clone()).collect::<Vec<_>>()),
            })).collect::<Vec<_>>()),
        });
        insta::assert_snapshot!(
            format!("json_{name}"),
            serde_json::to_string_pretty(&shown).unwrap()
        );
    }
}

/// A search that runs out of budget says, as JSON fields, which request took
/// the steps, how many devices the node has and how far the search got
/// (issue 16: "for a budget or timeout, which request multiplied the search
/// and the real device counts").
#[test]
fn budget_exhaustion_as_fields() {
    let (stdout, code) = out(&[
        "explain",
        "claim",
        "big",
        "-n",
        "default",
        "-f",
        "testdata/fixtures/explain-budget.yaml",
        "--timeout",
        "1ms",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "{stdout}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let fatal = &v["verdict"]["fatalError"];
    let search = &fatal["search"];
    assert_eq!(search["limit"], "time", "{fatal}");
    assert_eq!(search["budget"], serde_json::Value::Null);
    assert_eq!(search["claim"], "default/big");
    assert_eq!(search["request"], "a");
    assert_eq!(search["candidates"], 64);
    assert_eq!(search["needed"], 6);
    assert!(search["bestPartial"].as_u64().unwrap() <= 5, "{search}");
    assert!(search["steps"].as_u64().unwrap() >= search["requestSteps"].as_u64().unwrap());
    assert_eq!(v["nodes"][0]["search"], *search);
    // The fixture's constraint cannot be met at all: that is said too.
    assert!(fatal["error"].as_str().unwrap().ends_with(
        "of 6 devices (the node has 64 devices); no allocation exists: claim default/big: distinctAttribute gpu.example.com/idx has 5 distinct values among the node's devices, 6 devices are needed"
    ), "{fatal}");
}

/// Requests that each have enough devices but draw on the same ones: the
/// cause says how many each needs, the total and how many match, in text
/// (with the containers of extended resources) and as fields.
#[test]
fn requests_competing_for_the_same_devices() {
    let (text, code) = out(&[
        "explain",
        "pod",
        "team-a/legacy",
        "-f",
        "testdata/fixtures/explain-shared-devices.yaml",
        "--color",
        "never",
    ]);
    assert_eq!(code, 1, "{text}");
    insta::assert_snapshot!("explain_shared_devices", text);
    let (json, _) = out(&[
        "explain",
        "claim",
        "team-a/pair",
        "-f",
        "testdata/fixtures/explain-shared-devices.yaml",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let c = &v["nodes"][0]["claims"][0]["explanation"]["constraints"][0];
    assert_eq!(c["kind"], "sharedDevices", "{c}");
    assert_eq!(c["requests"], serde_json::json!(["train", "eval"]));
    assert_eq!(
        (c["needed"].as_u64(), c["available"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(v["verdict"]["closest"]["node"], "worker-1");
}

/// Partitions that each fit but together draw more of a counter set than it
/// has: the cause names the counter set, what is left and the least the
/// requests draw, in text and as fields.
#[test]
fn counters_that_run_out_together() {
    let file = "testdata/fixtures/explain-counters-together.yaml";
    let (text, code) = out(&[
        "explain",
        "claim",
        "default/two",
        "-f",
        file,
        "--color",
        "never",
    ]);
    assert_eq!(code, 1, "{text}");
    insta::assert_snapshot!("explain_counters_together", text);
    let (json, _) = out(&[
        "explain",
        "claim",
        "default/one-each",
        "-f",
        file,
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let c = &v["nodes"][0]["claims"][0]["explanation"]["constraints"][0];
    assert_eq!(c["kind"], "sharedCounters", "{c}");
    assert_eq!(c["requests"], serde_json::json!(["a", "b"]));
    assert_eq!(
        c["counter"],
        serde_json::json!({"pool": "gpu.example.com/n1", "counterSet": "gpu-0",
            "counter": "memory", "atLeast": "60Gi", "left": "40Gi"})
    );
}

/// The scheduler's DRA PreFilter stops a pod before it tries any node: a
/// class that does not exist (with the one meant), a claim being deleted, a
/// template's claim the pod does not own. That is the verdict, first; a pod
/// whose status records a template claim without a name needs no claim for
/// it (the scheduler skips it).
#[test]
fn pre_filter_stops_are_the_verdict() {
    let run = |pod: &str| {
        out(&[
            "explain",
            "pod",
            pod,
            "-f",
            "testdata/fixtures/explain-prefilter.yaml",
        ])
    };
    for (pod, second, third) in [
        (
            "default/typo",
            "  request gpu: device class gpu.example.con does not exist",
            Some("  Did you mean DeviceClass \"gpu.example.com\"?"),
        ),
        (
            "default/leaving",
            "  resourceclaim \"leaving\" is being deleted",
            None,
        ),
        (
            "default/worker",
            "  ResourceClaim default/worker-gpu-x7k2 was not created for pod default/worker (pod is not owner)",
            None,
        ),
        // The claim cache's NotFoundError (assumecache "could not find"),
        // which PreFilter returns as unschedulable.
        (
            "default/lost",
            "  could not find ResourceClaim \"default/gone\"",
            None,
        ),
        // foreachPodResourceClaim stops at the first claim that fails.
        (
            "default/first-fails",
            "  resourceclaim \"leaving\" is being deleted",
            None,
        ),
        // resourceclaim.Name's ErrClaimNotFound: a template that does not
        // exist never yields the claim.
        (
            "default/no-template",
            "  pod \"default/no-template\": ResourceClaim not created yet",
            Some("  ResourceClaimTemplate missing-template does not exist in the pod's namespace: the resourceclaim controller cannot create the claim until it does"),
        ),
    ] {
        let (text, code) = run(pod);
        assert_eq!(code, 1, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        // A class is PreFilter's check; the claim lookups are PreEnqueue's
        // too (dynamicresources.go PreEnqueue: foreachPodResourceClaim).
        let (first, stage) = if pod == "default/typo" {
            ("stays Pending: the scheduler's PreFilter marks it unschedulable before it tries any node.", "PreFilter")
        } else {
            ("stays Pending: the scheduler holds it out of its scheduling queue (the DRA plugin's PreEnqueue check; PreFilter checks the same), so no node is tried.", "PreEnqueue")
        };
        assert!(lines[0].ends_with(first), "{text}");
        assert_eq!(lines[1], second, "{text}");
        assert_eq!(lines.get(2).copied(), third, "{text}");
        let (json, _) = out(&[
            "explain",
            "pod",
            pod,
            "-f",
            "testdata/fixtures/explain-prefilter.yaml",
            "-o",
            "json",
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["verdict"]["schedulable"], false, "{json}");
        assert_eq!(v["verdict"]["fate"], "Pending", "{json}");
        assert!(v["verdict"]["preFilter"]["kind"]["check"].is_string(), "{json}");
        assert_eq!(v["verdict"]["preFilter"]["stage"], stage, "{json}");
        if pod == "default/lost" {
            assert_eq!(
                v["verdict"]["preFilter"]["kind"],
                serde_json::json!({"check": "claimMissing", "name": "gone"}),
                "{json}"
            );
            assert!(lines[0].starts_with("Pod default/lost stays Pending"), "{text}");
        }
        assert_eq!(
            v["verdict"]["preFilter"]["message"].as_str(),
            Some(second.trim()),
            "{json}"
        );
        assert_eq!(v["nodes"].as_array().map(Vec::len), Some(0), "{json}");
    }
    let (text, code) = run("default/owned");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with("Pod default/owned (default/owned-gpu-a1b2) can be scheduled: its claims fit on 1 of 1 node"),
        "{text}"
    );
}

/// A pod with scheduling gates is held back by the scheduler's queue (the
/// SchedulingGates PreEnqueue plugin) before PreFilter or any node: the
/// gates are the verdict, and what the scheduler decides once they are
/// removed follows, indented. `explain pods` groups such pods by their gates.
#[test]
fn scheduling_gates_hold_the_pod_before_anything_else() {
    let file = "testdata/fixtures/explain-prefilter.yaml";
    let (text, code) = out(&["explain", "pod", "default/gated", "-f", file]);
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Pod default/gated (default/gated-gpu) stays Pending: it has scheduling gates (kueue.x-k8s.io/admission), so the scheduler does not try it until they are removed.",
        "{text}"
    );
    assert_eq!(lines[1], "  Once they are removed:", "{text}");
    assert!(
        lines[2].starts_with("  Pod default/gated (default/gated-gpu) can be scheduled"),
        "{text}"
    );
    let (v, json) = json_out(&["explain", "pod", "default/gated", "-f", file]);
    assert_eq!(v["verdict"]["fate"], "Pending", "{json}");
    assert_eq!(v["verdict"]["schedulable"], false, "{json}");
    assert_eq!(
        v["verdict"]["schedulingGates"],
        serde_json::json!(["kueue.x-k8s.io/admission"]),
        "{json}"
    );
    // Gated and stopped by PreFilter: the gates first.
    let (text, code) = out(&["explain", "pod", "default/gated-typo", "-f", file]);
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].ends_with("it has scheduling gates (example.com/wait, example.com/quota), so the scheduler does not try it until they are removed."),
        "{text}"
    );
    assert_eq!(
        lines[3], "    request gpu: device class gpu.example.con does not exist",
        "{text}"
    );
    // `explain pods`: its own cause, whatever its claims would do.
    let (text, _) = out(&["explain", "pods", "-A", "-f", file]);
    assert!(
        text.contains("schedulingGated: scheduling gates kueue.x-k8s.io/admission: the scheduler"),
        "{text}"
    );
    assert!(
        text.lines()
            .next()
            .unwrap_or_default()
            .ends_with("; 2 are held back by scheduling gates."),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("default/gated ") && l.ends_with("Pending (gated)")),
        "{text}"
    );
    // A pod alike but without gates does not share the gated pod's answer
    // (pods alike are decided once).
    assert!(
        text.lines()
            .any(|l| l.contains("default/twin ") && l.ends_with("Pending (its claims fit)")),
        "{text}"
    );
}

/// A pod that names another scheduler gets kube-scheduler's verdict, with
/// a line saying whose it is; kube-scheduler's own name adds nothing.
#[test]
fn another_scheduler_is_named() {
    let file = "testdata/fixtures/explain-prefilter.yaml";
    let (text, code) = out(&["explain", "pod", "default/volcano-job", "-f", file]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        text.lines().nth(1).unwrap_or_default(),
        "  Its schedulerName is volcano: this is kube-scheduler's verdict, and only a kube-scheduler profile of that name decides alike; another scheduler places it by its own rules.",
        "{text}"
    );
    let (v, json) = json_out(&["explain", "pod", "default/volcano-job", "-f", file]);
    assert_eq!(v["verdict"]["schedulerName"], "volcano", "{json}");
    let (v, json) = json_out(&["explain", "pod", "default/twin", "-f", file]);
    assert!(v["verdict"]["schedulerName"].is_null(), "{json}");
    let (text, _) = out(&["explain", "pod", "default/twin", "-f", file]);
    assert!(!text.contains("schedulerName"), "{text}");
}

/// A claim allocated for a node that is gone fails Filter on every node;
/// kube-scheduler's PostFilter deallocates it when no pod has it reserved
/// (dynamicresources.go PostFilter), and the next attempt allocates it
/// afresh: said after the reason, with the devices it would get. A claim
/// another pod has reserved is left where it is.
#[test]
fn a_stale_allocation_is_deallocated_by_post_filter() {
    let file = "testdata/fixtures/explain-stale-allocation.yaml";
    let (text, code) = out(&["explain", "pod", "default/p", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("claim default/stale is already allocated: its allocation admits none of the nodes tried."),
        "{text}"
    );
    assert!(
        text.contains("resourceclaim not available on the node; its allocation admits no node of the cluster and no pod has it reserved, so kube-scheduler deallocates it after the attempt (PostFilter); the next attempt would allocate it gpu.example.com/n1/g0 on this node"),
        "{text}"
    );
    let (text, code) = out(&["explain", "pod", "default/q", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("resourceclaim not available on the node"),
        "{text}"
    );
    assert!(!text.contains("PostFilter"), "{text}");
}

/// A pod created with spec.nodeName bypasses the scheduler: nothing
/// allocates its claim, so it never starts, whatever the devices; the
/// second line says what the scheduler would do with a nodeSelector.
#[test]
fn a_pod_created_with_a_node_name_is_not_allocated() {
    let args = [
        "explain",
        "pod",
        "default/pinned",
        "-f",
        "testdata/fixtures/explain-prefilter.yaml",
    ];
    let (text, code) = out(&args);
    assert_eq!(code, 1, "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Pod default/pinned (default/pinned-gpu) will not start: it was created with spec.nodeName gpu-node, so the scheduler is bypassed and nothing allocates default/pinned-gpu; the kubelet waits until its claims are allocated and reserved for it.",
        "{text}"
    );
    assert_eq!(
        lines[1],
        "  Create it with nodeSelector kubernetes.io/hostname: gpu-node instead of spec.nodeName to go through the scheduler: the scheduler would allocate the claims there.",
        "{text}"
    );
    let (v, json) = json_out(&args);
    assert_eq!(v["verdict"]["schedulable"], false, "{json}");
    assert_eq!(v["verdict"]["bypassed"]["nodeName"], "gpu-node", "{json}");
}

/// When the claims fit but the pod's status says the scheduler left it
/// pending, the scheduler's message is given second: the claims are not
/// what keeps the pod pending.
#[test]
fn the_schedulers_own_message_is_shown_when_the_claims_fit() {
    let args = [
        "explain",
        "pod",
        "default/cpu-bound",
        "-f",
        "testdata/fixtures/explain-prefilter.yaml",
    ];
    let (text, code) = out(&args);
    assert_eq!(code, 0, "{text}");
    assert_eq!(
        text.lines().nth(1).unwrap_or_default(),
        "  Yet the scheduler's last attempt left the pod pending (Unschedulable): 0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod. Its claims are not what keeps it pending, unless the cluster changed since.",
        "{text}"
    );
    let (v, json) = json_out(&args);
    assert_eq!(
        v["verdict"]["lastAttempt"]["reason"], "Unschedulable",
        "{json}"
    );
}

/// A pod with many claims keeps a one-line verdict: the first eight claims
/// and a count of the rest.
#[test]
fn many_claims_are_counted_in_the_verdict() {
    let dir = support::ScratchDir::new("many-claims");
    let mut text = String::from(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\n\
         apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: d.example.com\n  nodeName: n1\n  pool: {name: p, generation: 1, resourceSliceCount: 1}\n  devices:\n",
    );
    for i in 0..20 {
        text.push_str(&format!("  - {{name: d{i}}}\n"));
    }
    text.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: default}\nspec:\n  spec:\n    devices:\n      requests: [{name: r, exactly: {deviceClassName: c}}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: c, image: i}]\n  resourceClaims:\n");
    for i in 0..20 {
        text.push_str(&format!(
            "  - {{name: g{i}, resourceClaimTemplateName: t}}\n"
        ));
    }
    let f = dir.join("many.yaml");
    std::fs::write(&f, text).unwrap();
    let (out, code) = out(&["explain", "pod", "default/p", "-f", &f.to_string_lossy()]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.lines().next().unwrap_or_default(),
        "Pod default/p (default/p-g0, default/p-g1, default/p-g2, default/p-g3, default/p-g4, default/p-g5, default/p-g6, default/p-g7 and 12 more claims) can be scheduled: its claims fit on 1 of 1 node: n1.",
        "{out}"
    );
}

/// Issue 31, classes 1 and 3: a DeviceTaintRule with an empty deviceSelector
/// is named with its defect (it taints every device of every driver), and
/// on 1.36 defaults, where kube-scheduler ignores DeviceTaintRules, the
/// answer says the rule exists and is not applied, and why.
#[test]
fn an_empty_taint_rule_selector_is_the_defect_and_an_ignored_rule_is_said() {
    let file = "testdata/fixtures/explain-taint-rule-everything.yaml";
    let (text, code) = out(&["explain", "claim", "team-a/train", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("from DeviceTaintRule maintenance, whose deviceSelector is empty: it taints every device of every driver"),
        "{text}"
    );
    let (json, _) = out(&["explain", "claim", "team-a/train", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["causes"][0]["kind"], "tainted");
    let source = &v["nodes"][0]["claims"][0]["explanation"]["requests"][0]["taintSources"][0];
    assert_eq!(source["deviceTaintRule"], "maintenance", "{json}");
    assert_eq!(source["ruleSelectsEveryDevice"], true, "{json}");
    // The advice is about the rule, not about tolerating what it marks.
    let advice = v["nodes"][0]["advice"][0].as_str().unwrap();
    assert!(
        advice.contains("without DeviceTaintRule maintenance: it has an empty deviceSelector"),
        "{advice}"
    );
    assert!(!advice.contains("tolerate"), "{advice}");
    // 1.36 defaults: the rule is not applied, so the claim fits, and the
    // answer says why the rule changes nothing.
    let (text, code) = out(&[
        "explain",
        "claim",
        "team-a/train",
        "-f",
        file,
        "--kubernetes-version",
        "1.36",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("DeviceTaintRule maintenance is not applied: kube-scheduler ignores DeviceTaintRules while DRADeviceTaintRules is off (off by default in Kubernetes 1.36)"),
        "{text}"
    );
    let (json, _) = out(&[
        "explain",
        "claim",
        "team-a/train",
        "-f",
        file,
        "--kubernetes-version",
        "1.36",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["verdict"]["ignored"][0],
        serde_json::json!({"kind": "DeviceTaintRule", "name": "maintenance", "gate": "DRADeviceTaintRules", "byDefault": true})
    );
}

/// Issue 31, class 6: nodes whose detail reads the same but for their name
/// are shown once, with how many more are like it.
#[test]
fn identical_node_details_are_shown_once() {
    let mut text = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec: {}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: big, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 4}\n");
    for n in 0..5 {
        text.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: node-{n}-gpu}}\nspec:\n  driver: gpu.example.com\n  nodeName: node-{n}\n  pool: {{name: node-{n}, generation: 1, resourceSliceCount: 1}}\n  devices: [{{name: gpu-0}}, {{name: gpu-1}}]\n"));
    }
    let (_dir, path) = fixture_file(&text);
    let (text, code) = out(&["explain", "claim", "default/big", "-f", &path]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(
        text.matches("cannot be allocated on node-").count(),
        1,
        "{text}"
    );
    assert!(
        text.contains("(and 2 more nodes like it: node-1, node-2)"),
        "{text}"
    );
    let (all, _) = out(&[
        "explain",
        "claim",
        "default/big",
        "-f",
        &path,
        "--all-nodes",
    ]);
    assert!(
        all.contains("(and 4 more nodes like it: node-1, node-2, node-3, ...)"),
        "{all}"
    );
}

/// Issue 31, class 2: a holder claim being deleted is named with its state
/// (since when, the finalizer keeping it), not as "in use by pod" from its
/// stale reservedFor.
#[test]
fn a_claim_stuck_in_deletion_is_named_with_its_state() {
    let file = "testdata/fixtures/explain-claim-deleting.yaml";
    let (text, code) = out(&["explain", "claim", "team-a/train", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("matching devices are allocated to claims being deleted (team-b/old since 2026-11-30T10:00:00Z, kept by finalizer resource.kubernetes.io/delete-protection)"),
        "{text}"
    );
    assert!(!text.contains("in use by pod team-b/gone"), "{text}");
    let (json, _) = out(&["explain", "claim", "team-a/train", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        v["verdict"]["causes"][0]["kind"], "claimsDeleting",
        "{json}"
    );
    let req = &v["nodes"][0]["claims"][0]["explanation"]["requests"][0];
    assert_eq!(req["heldByDeleting"][0]["claim"], "team-b/old", "{json}");
    assert_eq!(
        req["heldByDeleting"][0]["finalizers"][0], "resource.kubernetes.io/delete-protection",
        "{json}"
    );
    assert_eq!(req["heldByPods"], serde_json::json!([]), "{json}");
}

/// Issue 31, class 3: a filter timeout aborts the attempt from 1.36
/// (omeryahud/kubernetes@a125bd3 Filter: statusError "node N: timed out
/// ..."), and the answer says that this is what keeps the pod pending; in
/// 1.35 it only rules the node out.
#[test]
fn a_filter_timeout_is_fatal_from_1_36() {
    let run = |version: &str| {
        let (json, code) = out(&[
            "explain",
            "claim",
            "big",
            "-n",
            "default",
            "-f",
            "testdata/fixtures/explain-budget.yaml",
            "--timeout",
            "1ms",
            "-o",
            "json",
            "--kubernetes-version",
            version,
            // The fixture's distinctAttribute constraint needs it in 1.35.
            "--feature-gates",
            "DRAConsumableCapacity=true",
        ]);
        assert_eq!(code, 1, "{json}");
        serde_json::from_str::<serde_json::Value>(&json).unwrap()
    };
    let v = run("1.36");
    assert_eq!(v["verdict"]["fatalError"]["kind"], "timeout", "{v}");
    let v = run("1.35");
    assert!(v["verdict"]["fatalError"].is_null(), "{v}");
    assert_eq!(v["verdict"]["causes"][0]["kind"], "filterTimeout", "{v}");
    let (text, _) = out(&[
        "explain",
        "claim",
        "big",
        "-n",
        "default",
        "-f",
        "testdata/fixtures/explain-budget.yaml",
        "--timeout",
        "1ms",
        "--kubernetes-version",
        "1.36",
    ]);
    assert!(
        text.contains("Since Kubernetes 1.36 a filter timeout is an error for the whole attempt"),
        "{text}"
    );
}

/// Issue 31, class 4: an extended resource that no DeviceClass backs and no
/// node advertises is a verdict (kube-scheduler's "Insufficient NAME"), in
/// text and JSON, with exit 1, not a usage error.
#[test]
fn an_unbacked_extended_resource_is_a_verdict() {
    let file = "testdata/fixtures/explain-extended-unbacked.yaml";
    let (text, code) = out(&["explain", "pod", "team-a/legacy-gpu", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.starts_with("Pod team-a/legacy-gpu stays Pending: no node has nvidia.com/gpu, and no DeviceClass backs it (kube-scheduler: Insufficient nvidia.com/gpu)."),
        "{text}"
    );
    assert!(
        text.contains("spec.extendedResourceName: nvidia.com/gpu"),
        "{text}"
    );
    let (json, code) = out(&[
        "explain",
        "pod",
        "team-a/legacy-gpu",
        "-f",
        file,
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["fate"], "Pending");
    assert_eq!(v["verdict"]["causes"][0]["kind"], "insufficientResource");
    assert_eq!(v["verdict"]["causes"][0]["subject"], "nvidia.com/gpu");
    assert_eq!(v["verdict"]["causes"][0]["nodes"], 2);
    // 1.35: no class can back it (DRAExtendedResource off), so the advice
    // is one that works there.
    let (text, _) = out(&[
        "explain",
        "pod",
        "team-a/legacy-gpu",
        "-f",
        file,
        "--kubernetes-version",
        "1.35",
    ]);
    assert!(
        text.contains("only with DRAExtendedResource (off in Kubernetes 1.35)"),
        "{text}"
    );
    assert!(
        !text.contains("spec.extendedResourceName: nvidia.com/gpu"),
        "{text}"
    );
}

/// Issue 31, class 1: a capacity request a requestPolicy refuses is named
/// with its numbers (what was asked, the policy's bound), as DRA-V213 does.
#[test]
fn a_refused_capacity_request_names_the_numbers() {
    let file = "testdata/fixtures/explain-capacity-policy.yaml";
    let (text, code) = out(&["explain", "claim", "team-a/fast", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("device eth1, capacity bandwidth: 40G asked; its requestPolicy refuses it: 40G is above its validRange max 25G (at most 25G per allocation)"),
        "{text}"
    );
}

/// Issue 31, class 1: a search that runs out of budget names the constraint
/// that makes it impossible (a distinctAttribute with fewer values than
/// devices needed), not only where the steps went.
#[test]
fn a_budget_exhaustion_names_the_impossible_constraint() {
    let mut text = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec: {}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: big, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 9}\n    constraints:\n    - requests: [gpu]\n      distinctAttribute: gpu.example.com/numa\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpu}\nspec:\n  driver: gpu.example.com\n  nodeName: n1\n  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n  devices:\n");
    for i in 0..64 {
        text.push_str(&format!(
            "  - name: gpu-{i}\n    attributes:\n      numa: {{int: {}}}\n",
            i % 8
        ));
    }
    let (_dir, path) = fixture_file(&text);
    let (json, code) = out(&[
        "explain",
        "claim",
        "default/big",
        "-f",
        &path,
        "-o",
        "json",
        // The scheduler's filter timeout (a millisecond here) ends the search.
        "--timeout",
        "1ms",
    ]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let fatal = &v["verdict"]["fatalError"];
    assert_eq!(fatal["kind"], "timeout", "{json}");
    assert_eq!(
        fatal["search"]["impossible"],
        "claim default/big: distinctAttribute gpu.example.com/numa has 8 distinct values among the node's devices, 9 devices are needed",
        "{json}"
    );
    assert!(
        fatal["error"]
            .as_str()
            .unwrap()
            .contains("; no allocation exists: claim default/big: distinctAttribute"),
        "{json}"
    );
}

/// Issue 31, class 1: "no devices on the node" names the driver whose
/// slice is missing there, when it publishes the class's devices on other
/// nodes (a node-local driver whose kubelet plugin is not running).
#[test]
fn a_missing_slice_names_its_driver() {
    let mut text = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\nspec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: want, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu.example.com, count: 2}\n");
    for n in 1..=3 {
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: worker-{n}}}\n"
        ));
    }
    for n in 1..=2 {
        text.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: worker-{n}-gpu}}\nspec:\n  driver: gpu.example.com\n  nodeName: worker-{n}\n  pool: {{name: worker-{n}, generation: 1, resourceSliceCount: 1}}\n  devices: [{{name: gpu-0}}]\n"));
    }
    let (_dir, path) = fixture_file(&text);
    let (text, code) = out(&["explain", "claim", "default/want", "-f", &path]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("No ResourceSlice of driver gpu.example.com names worker-3, while it publishes devices of class gpu.example.com on 2 other nodes: is its kubelet plugin running there?"),
        "{text}"
    );
}

/// Issue 31, class 6: on a terminal (or with COLUMNS) the verdict's lines
/// are kept to at most 100 columns, a cause line continuing under its
/// reason and names never broken; piped output keeps one line per fact.
#[test]
fn lines_are_wrapped_at_100_columns_on_a_terminal() {
    let args = [
        "explain",
        "pod",
        "team-a/trainer",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ];
    let piped = support::run(&args);
    let piped = String::from_utf8_lossy(&piped.stdout).into_owned();
    assert!(piped.lines().any(|l| l.chars().count() > 100), "{piped}");
    let wide = std::ffi::OsStr::new("200");
    let o = support::run_env(&args, &[("COLUMNS", std::ffi::OsStr::new("100"))]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let verdict: String = text.split("\n\n").next().unwrap_or_default().to_owned();
    assert!(
        verdict.lines().all(|l| l.chars().count() <= 100),
        "{verdict}"
    );
    insta::assert_snapshot!("explain_fleet_pod_wrapped", verdict);
    // A cause continues under its reason, and a taint is never split.
    assert!(
        verdict.contains("example.com/maintenance=firmware:NoSchedule"),
        "{verdict}"
    );
    // COLUMNS above 100 still wraps at 100.
    let o = support::run_env(&args, &[("COLUMNS", wide)]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(text.split("\n\n").next().unwrap_or_default(), verdict);
}

/// Issue 32 (views never contradict each other): a DeviceTaintRule without
/// a deviceSelector taints every device in `devices` as in `explain` (the
/// scheduler's tracker reads a nil selector as no restriction), and on 1.36
/// defaults, where the scheduler ignores DeviceTaintRules, neither applies it.
#[test]
fn devices_and_explain_apply_taint_rules_alike() {
    let text = std::fs::read_to_string(
        support::root().join("testdata/fixtures/explain-taint-rule-everything.yaml"),
    )
    .unwrap()
    .replace("  deviceSelector: {}\n", "");
    let (_dir, path) = fixture_file(&text);
    let devices = |version: &str| {
        let (json, _) = out(&[
            "devices",
            "-f",
            &path,
            "-o",
            "json",
            "--kubernetes-version",
            version,
        ]);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        v["devices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["state"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(devices("1.37"), ["tainted", "tainted"]);
    assert_eq!(devices("1.36"), ["free", "free"]);
    let (_, code) = out(&["explain", "claim", "team-a/train", "-f", &path]);
    assert_eq!(code, 1);
    let (_, code) = out(&[
        "explain",
        "claim",
        "team-a/train",
        "-f",
        &path,
        "--kubernetes-version",
        "1.36",
    ]);
    assert_eq!(code, 0);
}

/// Issue 31, classes 2 and 4: a NoExecute device taint tolerated for a time
/// that ran out long ago: the pod is scheduled but evicted as soon as it
/// runs, and that is its fate.
#[test]
fn a_toleration_that_ran_out_means_eviction() {
    let file = "testdata/fixtures/explain-evicted.yaml";
    let (text, code) = out(&["explain", "pod", "team-a/train", "-f", file]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("But it will be evicted as soon as it runs: device gpu.example.com/worker-1/gpu-0 has the taint example.com/ecc=uncorrectable:NoExecute since 2026-01-01T00:00:00Z, which its request tolerates for only 60s."),
        "{text}"
    );
    let (json, _) = out(&["explain", "pod", "team-a/train", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["fate"], "WillBeEvicted", "{json}");
    assert_eq!(
        v["verdict"]["evictions"][0]["tolerationSeconds"], 60,
        "{json}"
    );
    assert_eq!(v["verdict"]["evictions"][0]["atOnce"], true, "{json}");
}

/// A node with another driver's devices only: the cause is that none of the
/// class is there (not "too few devices"), and the verdict names the driver
/// whose ResourceSlice the node lacks (issue 31, class 1).
#[test]
fn missing_slice_is_named_on_a_node_with_other_devices() {
    let file = "testdata/fixtures/explain-missing-slice.yaml";
    let (text, code) = out(&["explain", "claim", "two", "-f", file, "--color", "never"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("No ResourceSlice of driver gpu.example.com names worker-2, while it publishes devices of class gpu.example.com on 1 other node: is its kubelet plugin running there?"),
        "{text}"
    );
    assert!(
        text.contains("1 node   request \"gpu\": no device of its class on the node (the node's device fails the class selectors)  (e.g. worker-2)"),
        "{text}"
    );
    let (json, _) = out(&["explain", "claim", "two", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let kinds: Vec<&str> = v["verdict"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["tooFewDevices", "noClassDevices"], "{json}");
}

/// A requestPolicy that caps one allocation: the advice gives the cap, and
/// only because the device has that much left (issue 31, class 5).
#[test]
fn request_policy_cap_gets_advice_with_its_numbers() {
    let file = "testdata/fixtures/explain-capacity-policy.yaml";
    let (json, code) = out(&[
        "explain",
        "claim",
        "team-a/fast",
        "--node",
        "worker-1",
        "-f",
        file,
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let cap = &v["claims"][0]["explanation"]["requests"][0]["capacityCap"];
    assert_eq!(
        cap,
        &serde_json::json!({"device": "eth1", "capacity": "bandwidth", "asked": "40G", "max": "25G", "maxIsFree": true})
    );
    assert_eq!(
        v["adviceDetail"][0]["kind"], "requestWithinPolicy",
        "{json}"
    );
    assert_eq!(
        v["advice"][0],
        "On worker-1, request \"nic\" asks 40G of bandwidth, but device eth1's requestPolicy gives one allocation at most 25G: ask for 25G or less (several requests, each within it, for more)."
    );
    // The advice works: asked for the cap, the claim is allocated.
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let (_dir, path) = fixture_file(&text.replace("bandwidth: 40G", "bandwidth: 25G"));
    let (_, code) = out(&[
        "explain",
        "claim",
        "team-a/fast",
        "--node",
        "worker-1",
        "-f",
        &path,
    ]);
    assert_eq!(code, 0);
}

/// A holder already being deleted: deleting it again is no advice; what
/// keeps it (its finalizer, and the controller that removes it) is.
#[test]
fn deleting_holder_gets_the_finalizer_advice() {
    let file = "testdata/fixtures/explain-claim-deleting.yaml";
    let (json, code) = out(&[
        "explain",
        "claim",
        "team-a/train",
        "--node",
        "worker-1",
        "-f",
        file,
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["adviceDetail"][0]["kind"], "awaitDeallocation", "{json}");
    assert_eq!(v["adviceDetail"][0]["subject"], "team-b/old");
    let text = v["advice"][0].as_str().unwrap();
    assert!(text.contains("deleting it again changes nothing"), "{text}");
    assert!(
        text.contains("resource.kubernetes.io/delete-protection"),
        "{text}"
    );
    assert!(!text.contains("if team-b/old is deleted"), "{text}");
}

/// Issue 31, class 1: a two-request claim on a one-GPU node is blamed on
/// the device serving one request only (no allowMultipleAllocations), not on
/// the claim that holds the GPU now: deleting that holder would not help,
/// so no advice says it would.
#[test]
fn requests_sharing_one_exclusive_device_name_the_device_not_the_holder() {
    let file = "testdata/fixtures/explain-exclusive-device.yaml";
    let (text, code) = out(&["explain", "claim", "shared", "-f", file, "--color", "never"]);
    assert_eq!(code, 1, "{text}");
    let first_cause = text.lines().nth(1).unwrap();
    assert!(
        first_cause.contains("2 together, but only 1 matches them on the node, even with every holder gone; a device serves one request only, as device gpu-0 does not publish allowMultipleAllocations: true (containers that share a device reference one request)"),
        "{text}"
    );
    assert!(!first_cause.contains("held by"), "{text}");
    assert!(
        text.contains("Freeing the devices would not be enough:"),
        "{text}"
    );
    let (json, _) = out(&["explain", "claim", "shared", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["causes"][0]["kind"], "constraint", "{json}");
    assert_eq!(
        v["verdict"]["causes"][0]["subject"],
        "default/shared: sharedDevices"
    );
    let block = &v["nodes"][0]["claims"][0]["explanation"]["constraints"][0];
    assert_eq!(block["evenIfFreed"], true, "{json}");
    assert_eq!(
        block["exclusiveDevices"],
        serde_json::json!(["gpu.example.com/worker-1/gpu-0"])
    );
    assert_eq!(v["nodes"][0]["advice"], serde_json::json!([]), "{json}");
    // Without the holder, the same defect, said without "holder".
    let text_free = std::fs::read_to_string(support::root().join(file)).unwrap();
    let free = text_free
        .split("\n---\n")
        .filter(|d| !d.contains("name: other,"))
        .collect::<Vec<_>>()
        .join("\n---\n");
    let (_dir, path) = fixture_file(&free);
    let (text, code) = out(&[
        "explain", "claim", "shared", "-f", &path, "--color", "never",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("2 together, but only 1 matches them; a device serves one request only"),
        "{text}"
    );
}

/// Issue 31, class 3: what a release's scheduler ignores is said, per gate
/// and release. Slice taints wait for DRADeviceTaints (off by default in
/// 1.34 and 1.35: the allocator's DeviceTaints feature); DeviceTaintRules
/// follow DRADeviceTaints in 1.34 (dynamic-resource-allocation
/// release-1.34 resourceslice/tracker Options.EnableDeviceTaints) and
/// DRADeviceTaintRules from 1.35 (release-1.35 Options.EnableDeviceTaintRules).
#[test]
fn gates_that_make_the_scheduler_ignore_taints_are_said_per_release() {
    let slice_taints = "testdata/fixtures/explain-taints.yaml";
    for v in ["1.34", "1.35"] {
        let (text, code) = out(&[
            "explain",
            "claim",
            "one-gpu",
            "-f",
            slice_taints,
            "--kubernetes-version",
            v,
        ]);
        assert_eq!(code, 0, "{v}: {text}");
        assert!(
            text.contains(&format!("ResourceSlice worker-1-gpu: its spec.devices[].taints are not applied: kube-scheduler ignores device taints while DRADeviceTaints is off (off by default in Kubernetes {v}).")),
            "{v}: {text}"
        );
        let (json, _) = out(&[
            "explain",
            "claim",
            "one-gpu",
            "-f",
            slice_taints,
            "--kubernetes-version",
            v,
            "-o",
            "json",
        ]);
        let j: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(
            j["verdict"]["ignored"][0],
            serde_json::json!({"kind": "ResourceSlice", "name": "worker-1-gpu", "field": "spec.devices[].taints", "gate": "DRADeviceTaints", "byDefault": true}),
            "{json}"
        );
    }
    let (text, code) = out(&[
        "explain",
        "claim",
        "one-gpu",
        "-f",
        slice_taints,
        "--kubernetes-version",
        "1.36",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains("not applied"), "{text}");

    let rule = "testdata/fixtures/explain-taint-rule-everything.yaml";
    let run = |args: &[&str]| {
        let mut all = vec!["explain", "claim", "team-a/train", "-f", rule];
        all.extend_from_slice(args);
        out(&all)
    };
    // 1.34 with DRADeviceTaints on applies the rule; 1.35 needs its own gate.
    let (text, code) = run(&[
        "--kubernetes-version",
        "1.34",
        "--feature-gates",
        "DRADeviceTaints=true",
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("from DeviceTaintRule maintenance"), "{text}");
    let (text, code) = run(&["--kubernetes-version", "1.34"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("DeviceTaintRule maintenance is not applied: kube-scheduler ignores DeviceTaintRules while DRADeviceTaints is off (off by default in Kubernetes 1.34)."),
        "{text}"
    );
    let (text, code) = run(&[
        "--kubernetes-version",
        "1.35",
        "--feature-gates",
        "DRADeviceTaints=true",
    ]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("while DRADeviceTaintRules is off"), "{text}");
}

/// 1.34's DeviceTaintRule selectors by class and CEL, as the release-1.34
/// tracker's applyPatches decides them (dra::TaintCel): the class must exist
/// and every class and rule selector be true. In 1.35 the fields are gone
/// and the rules are decided by driver (here: every GPU is tainted).
#[test]
fn taint_rules_select_by_class_and_cel_in_1_34_only() {
    let file = "testdata/fixtures/explain-taint-rule-cel-1-34.yaml";
    let json = |version: &str, gates: &str| {
        let (text, _) = out(&[
            "explain",
            "claim",
            "team-a/train",
            "-f",
            file,
            "--kubernetes-version",
            version,
            "--feature-gates",
            gates,
            "-o",
            "json",
        ]);
        serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|_| panic!("{text}"))
    };
    let v = json("1.34", "DRADeviceTaints=true");
    let picks: Vec<&str> = v["nodes"][0]["claims"][0]["allocation"]["devices"]["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"))
        .iter()
        .map(|r| r["device"].as_str().unwrap())
        .collect();
    assert_eq!(picks, ["gpu-1", "gpu-2"], "{v}");
    // The devices view agrees: gpu-0 alone carries the rule's taint.
    let (rows, _) = out(&[
        "devices",
        "-f",
        file,
        "--kubernetes-version",
        "1.34",
        "--feature-gates",
        "DRADeviceTaints=true",
        "-o",
        "json",
    ]);
    let rows: serde_json::Value = serde_json::from_str(&rows).unwrap();
    let tainted: Vec<&str> = rows
        .as_array()
        .or_else(|| rows["devices"].as_array())
        .unwrap_or_else(|| panic!("{rows}"))
        .iter()
        .filter(|d| d.to_string().contains("repair-gpu-0"))
        .map(|d| d["device"].as_str().unwrap())
        .collect();
    assert_eq!(tainted, ["gpu-0"], "{rows}");
    assert!(!rows.to_string().contains("no-such-class"), "{rows}");
    // 1.35: both rules taint every GPU of the driver.
    let v = json("1.35", "DRADeviceTaints=true,DRADeviceTaintRules=true");
    assert_eq!(v["verdict"]["schedulable"], false, "{v}");
}

/// Issue 32, item 1: `explain pods` decides every pending pod as `explain
/// pod` does and groups them by root cause (pods alike from one template
/// share a group whatever their names; a pod whose claims fit is its own
/// group with the scheduler's message; a missing class is PreFilter's).
#[test]
fn explain_pods_groups_pending_pods_by_root_cause() {
    let file = "testdata/fixtures/explain-pods/cluster.yaml";
    let json = |args: &[&str]| {
        let mut all = vec!["explain", "pods", "-f", file, "-o", "json"];
        all.extend_from_slice(args);
        let (text, code) = out(&all);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
        (v, code)
    };
    let (v, code) = json(&["-n", "team-a"]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(
        v["pending"], 5,
        "bound and other namespaces' pods are left out: {v}"
    );
    assert_eq!(v["blockedOnDevices"], 4, "{v}");
    // The three pods of one template share one evaluation.
    assert_eq!(v["evaluations"], 3, "{v}");
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups.len(), 3, "{v:#}");
    assert_eq!(groups[0]["pods"], 3);
    assert_eq!(groups[0]["example"], "team-a/train-0");
    let fits = groups.iter().find(|g| g["claimsFit"] == true).unwrap();
    assert_eq!(fits["example"], "team-a/infer");
    assert!(
        fits["reason"]
            .as_str()
            .unwrap()
            .contains("Insufficient memory"),
        "{fits}"
    );
    let class = groups
        .iter()
        .find(|g| g["example"] == "team-a/fpga-job")
        .unwrap();
    assert!(
        class["kind"].as_str().unwrap().starts_with("preFilter"),
        "{class}"
    );
    // Each pod's answer is `explain pod`'s, whole.
    let (one, _) = out(&["explain", "pod", "team-a/train-1", "-f", file, "-o", "json"]);
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    let listed = v["pods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "train-1")
        .unwrap();
    assert_eq!(listed["explain"]["verdict"], one["verdict"]);
    assert_eq!(listed["explain"]["summary"], one["summary"]);
    assert_eq!(listed["group"], 0);
    // -A: team-b's pod, alike but for its names, joins the same group.
    let (v, _) = json(&["-A"]);
    assert_eq!(v["pending"], 8);
    assert_eq!(v["groups"][0]["pods"], 4, "{v:#}");
    // -l selects by label.
    let (v, _) = json(&["-n", "team-a", "-l", "app=train"]);
    assert_eq!(v["pending"], 3);
    let (text, _) = out(&["explain", "pods", "-f", file, "-n", "team-a"]);
    insta::assert_snapshot!("explain_pods_text", text);
    // --in-order: the high-priority pod first, placed on the free GPU; the
    // pod after it finds that GPU held by the first (decided alone, both fit).
    let (v, code) = json(&["-n", "team-c", "--in-order"]);
    assert_eq!(code, 1, "{v}");
    let placed: Vec<(&str, &serde_json::Value)> = v["pods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), &p["placedOn"]))
        .collect();
    assert_eq!(
        placed,
        [
            ("urgent", &serde_json::json!("worker-1")),
            ("later", &serde_json::Value::Null)
        ],
        "{v}"
    );
    assert!(
        v["groups"][1]["reason"]
            .as_str()
            .unwrap()
            .contains("team-c/urgent-gpu"),
        "{v}"
    );
    let (v, code) = json(&["-n", "team-c"]);
    assert_eq!((v["blockedOnDevices"].as_u64(), code), (Some(0), 0), "{v}");
    // A pod whose claims fit but that the scheduler found unschedulable for
    // another reason is not placed: it holds nothing.
    let (v, _) = json(&["-n", "team-a", "--in-order"]);
    assert!(
        v["pods"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["placedOn"].is_null()),
        "{v}"
    );
    let (text, code) = out(&["explain", "pods", "-f", file, "-n", "nobody"]);
    assert_eq!((text.as_str(), code), ("No pod in namespace nobody is pending on DRA (unbound pods that use resource claims).\n", 0));
}

/// Issue 32, item 3: `devices --summary` counts per group, as a tree with
/// repeated -g, the same states `devices` lists (a DeviceTaintRule's taint
/// included), and shared counters once per pool.
#[test]
fn devices_summary_counts_per_group() {
    let file = "testdata/fixtures/explain-pods/cluster.yaml";
    let (text, code) = out(&["devices", "-f", file, "--summary", "-o", "json"]);
    assert_eq!(code, 0, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let node = |i: usize| {
        let g = &v["groups"][i];
        (
            g["keys"][0].as_str().unwrap().to_owned(),
            g["devices"].as_u64().unwrap(),
            g["allocated"].as_u64().unwrap(),
            g["free"].as_u64().unwrap(),
            g["tainted"].as_u64().unwrap(),
        )
    };
    assert_eq!(node(0), ("worker-1".into(), 2, 1, 1, 0), "{v}");
    assert_eq!(node(1), ("worker-2".into(), 2, 0, 0, 2), "{v}");
    assert_eq!(v["total"]["devices"], 4);
    // A tree: node, then the holders' namespaces.
    let (text, _) = out(&[
        "devices",
        "-f",
        file,
        "--summary",
        "-g",
        "node",
        "-g",
        "namespace",
    ]);
    insta::assert_snapshot!("devices_summary_tree", text);
    // --sort: siblings by a count, most first, each under its parent.
    let (text, _) = out(&[
        "devices",
        "-f",
        file,
        "--summary",
        "-g",
        "node,namespace",
        "--sort",
        "allocated",
        "-o",
        "name",
    ]);
    assert_eq!(
        text,
        "worker-1\nworker-1/team-a\nworker-1/(not held)\nworker-2\nworker-2/(not held)\n"
    );
    // By class: the class's CEL selects every GPU.
    let (text, _) = out(&[
        "devices",
        "-f",
        file,
        "--summary",
        "-g",
        "class",
        "-o",
        "csv",
    ]);
    assert_eq!(
        text,
        "class,devices,allocated,free,tainted,blocked,counters,capacity\ngpu.example.com,4,1,1,2,0,,\n"
    );
    // Counters of a partitionable pool, summed once per pool.
    let (text, _) = out(&[
        "devices",
        "-f",
        "examples/gpu-partitionable.yaml",
        "--summary",
        "-g",
        "pool",
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(
        !v["groups"][0]["counters"].as_array().unwrap().is_empty(),
        "{v}"
    );
}

/// Issue 33, item 2: what-if flags change the inventory read, never the
/// cluster, and every view answers for it; `explain pods` says which
/// pending pods gain or lose a fit. Each what-if agrees with the same
/// command on the hand-edited inventory.
#[test]
fn what_if_changes_answer_as_the_edited_inventory_would() {
    let file = "testdata/fixtures/explain-pods/cluster.yaml";
    let json = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["-f", file, "-o", "json"]);
        let (text, code) = out(&all);
        (
            serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|_| panic!("{text}")),
            code,
        )
    };
    // Deleting worker-2's maintenance rule: the template's three pods fit.
    let (v, _) = json(&[
        "explain",
        "pods",
        "-n",
        "team-a",
        "--delete",
        "devicetaintrule/worker-2-maintenance",
    ]);
    assert_eq!(
        v["whatIf"]["gainFit"],
        serde_json::json!(["team-a/train-0", "team-a/train-1", "team-a/train-2"]),
        "{v}"
    );
    assert_eq!(v["whatIf"]["loseFit"], serde_json::json!([]));
    // The same as the inventory without the rule, edited by hand.
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let start = text
        .find("---\napiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule")
        .unwrap();
    let end = start + 4 + text[start + 4..].find("---").unwrap();
    let edited = format!("{}{}", &text[..start], &text[end..]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.yaml");
    std::fs::write(&path, edited).unwrap();
    let (by_hand, _) = out(&[
        "explain",
        "pods",
        "-n",
        "team-a",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    let by_hand: serde_json::Value = serde_json::from_str(&by_hand).unwrap();
    // The same groups (their words differ only in saying a change was made).
    let shape = |v: &serde_json::Value| -> Vec<serde_json::Value> {
        v["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| serde_json::json!([g["kind"], g["pods"], g["example"], g["closestNode"]]))
            .collect()
    };
    assert_eq!(shape(&v), shape(&by_hand));
    // A NoExecute rule over worker-1: infer no longer fits, and devices
    // and doctor see the taint (doctor: the held GPU's pod is evicted).
    let (v, _) = json(&[
        "explain",
        "pods",
        "-n",
        "team-a",
        "--apply",
        "testdata/fixtures/whatif/maintenance-rule.yaml",
    ]);
    assert_eq!(
        v["whatIf"]["loseFit"],
        serde_json::json!(["team-a/infer"]),
        "{v}"
    );
    let (v, _) = json(&[
        "devices",
        "--apply",
        "testdata/fixtures/whatif/maintenance-rule.yaml",
        "--summary",
    ]);
    assert_eq!(v["total"]["tainted"], 3, "{v}");
    let (v, _) = json(&[
        "doctor",
        "--apply",
        "testdata/fixtures/whatif/maintenance-rule.yaml",
    ]);
    assert!(v.to_string().contains("DRA-H004"), "{v}");
    // Draining worker-1: its pod keeps its GPU; no new pod goes there.
    let (v, _) = json(&["explain", "pod", "team-a/infer", "--drain", "worker-1"]);
    assert_eq!(v["verdict"]["schedulable"], false, "{v}");
    let (v, _) = json(&["devices", "--drain", "worker-1"]);
    assert!(
        v["devices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["state"] == "reserved"),
        "{v}"
    );
    // Removing worker-2 removes its slices.
    let (v, _) = json(&["devices", "--remove-node", "worker-2", "--summary"]);
    assert_eq!(v["total"]["devices"], 2, "{v}");
    // A typo is an error, never an answer for the cluster as it is.
    let (_, code) = out(&["devices", "-f", file, "--drain", "worker-9"]);
    assert_eq!(code, 2);
}

/// Issue 33, item 1: `capacity` allocates copies one after another per
/// node, each holding its devices, and says what stops the next.
#[test]
fn capacity_counts_copies_per_node_and_what_stops_the_next() {
    let file = "testdata/fixtures/explain-pods/cluster.yaml";
    let json = |args: &[&str]| {
        let mut all = vec!["capacity"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-f", file, "-o", "json"]);
        let (text, code) = out(&all);
        assert_eq!(code, 0, "{text}");
        serde_json::from_str::<serde_json::Value>(&text).unwrap_or_else(|_| panic!("{text}"))
    };
    let v = json(&["template", "team-a/one-gpu"]);
    assert_eq!(v["total"], 1, "{v}");
    assert_eq!(v["nodes"][0]["node"], "worker-1");
    assert_eq!(v["nodes"][0]["stop"]["kind"], "inUse");
    assert_eq!(v["nodes"][1]["stop"]["kind"], "tainted");
    // Without the maintenance rule, worker-2's two GPUs take two more.
    let v = json(&[
        "template",
        "team-a/one-gpu",
        "--delete",
        "devicetaintrule/worker-2-maintenance",
    ]);
    assert_eq!(v["total"], 3, "{v}");
    assert_eq!(
        (
            v["nodes"][0]["node"].as_str(),
            v["nodes"][0]["copies"].as_u64()
        ),
        (Some("worker-2"), Some(2))
    );
    // The bound is said, not passed off as the answer.
    let v = json(&[
        "template",
        "team-a/one-gpu",
        "--delete",
        "devicetaintrule/worker-2-maintenance",
        "--max-per-node",
        "1",
    ]);
    assert_eq!(v["nodes"][0]["stop"]["type"], "bound", "{v}");
    let (text, _) = out(&["capacity", "template", "team-a/one-gpu", "-f", file]);
    insta::assert_snapshot!("capacity_text", text);
    assert_eq!(out(&["capacity", "claim", "team-a/nope", "-f", file]).1, 2);
}

/// A CEL compile error groups pending pods as any cause does; its cel-go
/// snippet (the expression and the caret under the column) stays as it is
/// under the wrapped first line, not re-wrapped with it.
#[test]
fn pods_grouped_by_a_compile_error_keep_its_snippet() {
    let (text, code) = out(&[
        "explain",
        "pods",
        "-A",
        "-f",
        "testdata/fixtures/explain-pods-compile-error.yaml",
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("explain_pods_compile_error", text);
}

/// A matchAttribute on a derived attribute (1.37, DRADerivedAttributes,
/// KEP-6080), as a user runs it: with the gate the devices sharing the
/// derived value are picked; without it the scheduler ignores derived
/// attributes and no device has one of that name.
#[test]
fn derived_attribute_constraint() {
    let file = "testdata/fixtures/explain-derived-attributes.yaml";
    let args = ["explain", "claim", "default/c", "-f", file];
    let mut on = args.to_vec();
    on.extend(["--feature-gates", "DRADerivedAttributes=true"]);
    let (v, json) = json_out(&on);
    let devices: Vec<&str> = v["nodes"][0]["claims"][0]["allocation"]["devices"]["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .map(|r| r["device"].as_str().unwrap())
        .collect();
    assert_eq!(devices, ["d0", "d2"], "{json}");
    let (text, code) = out(&args);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("device d0 publishes no derived/numa"),
        "{text}"
    );
}

/// Upstream keeps the counters of a device its taint refused
/// (allocateDevice charges them first): explain says so, as the cause.
#[test]
fn retained_counter_charge() {
    let file = "testdata/fixtures/explain-retained-counters.yaml";
    let args = ["explain", "claim", "default/c", "-f", file];
    let (v, json) = json_out(&args);
    let block = &v["nodes"][0]["claims"][0]["explanation"]["constraints"][0];
    assert_eq!(block["kind"], "retainedCounters", "{json}");
    assert_eq!(
        v["verdict"]["causes"][0]["subject"],
        "default/c: retainedCounters"
    );
    assert_eq!(block["counter"]["counterSet"], "gpu-0", "{json}");
    let (text, code) = out(&args);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("a.example.com/n1/whole kept 2 of memory in counter set gpu-0 after an untolerated taint refused it"),
        "{text}"
    );
}

/// kube-scheduler's Filter: an allocated claim whose device binding failed
/// is not available on any node (dynamicresources.go isClaimReadyForBinding).
#[test]
fn binding_failed_claim() {
    let file = "testdata/fixtures/explain-binding-failed.yaml";
    let args = ["explain", "pod", "default/p", "-f", file];
    let (v, json) = json_out(&args);
    let cause = &v["verdict"]["causes"][0];
    assert_eq!(cause["kind"], "bindingNotReady", "{json}");
    assert_eq!(cause["subject"], "default/c", "{json}");
    let (text, code) = out(&args);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("binding failure condition FabricAttachFailed is True (reason \"NoPath\", message \"switch port down\")"),
        "{text}"
    );
    // PostFilter deallocates it; nothing remembers the failed device.
    assert!(
        text.contains("the next attempt would allocate it fabric.example.com/n1/gpu-0 on this node again, the device that failed"),
        "{text}"
    );
    // With binding conditions off the scheduler does not look.
    let mut off = args.to_vec();
    off.extend(["--feature-gates", "DRADeviceBindingConditions=false"]);
    let (text, code) = out(&off);
    assert_eq!(code, 0, "{text}");
}

/// A device with binding conditions: the pod can be scheduled, and explain
/// says that kube-scheduler waits for them before binding it (PreBind).
#[test]
fn binding_pending_device() {
    let file = "testdata/fixtures/explain-binding-pending.yaml";
    let args = ["explain", "pod", "default/p", "-f", file];
    let (v, json) = json_out(&args);
    let wait = &v["verdict"]["bindingWaits"][0];
    assert_eq!(wait["device"], "fabric.example.com/n1/gpu-0", "{json}");
    assert_eq!(
        wait["waitingFor"],
        serde_json::json!(["FabricAttached"]),
        "{json}"
    );
    assert_eq!(wait["timeoutSeconds"], 600, "{json}");
    let (text, code) = out(&args);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("reports FabricAttached True: kube-scheduler waits"),
        "{text}"
    );
}

/// 1.35's scheduler mishandles allocationMode All inside firstAvailable
/// (kubernetes e0e0199, fixed in 1.36): explain allocates as it does and
/// names the fault (verdict.releaseFaults).
#[test]
fn first_available_all_fault_per_release() {
    let file = "testdata/fixtures/explain-first-available-all.yaml";
    let at = |v: &str| {
        let args = [
            "explain",
            "claim",
            "default/c",
            "-f",
            file,
            "--kubernetes-version",
            v,
        ];
        (json_out(&args), out(&args).0)
    };
    let ((v, json), text) = at("1.35");
    let results = &v["nodes"][0]["claims"][0]["allocation"]["devices"]["results"];
    assert_eq!(results[0]["request"], "r/s0", "{json}");
    assert_eq!(results.as_array().map(Vec::len), Some(1), "{json}");
    let fault = &v["verdict"]["releaseFaults"][0];
    assert_eq!(fault["kind"], "firstAvailableAll", "{json}");
    assert_eq!(fault["fixedIn"], "1.36", "{json}");
    assert!(
        text.contains("which kube-scheduler 1.35 mishandles (fixed in 1.36, kubernetes e0e0199)"),
        "{text}"
    );
    let ((v, json), text) = at("1.36");
    let results = &v["nodes"][0]["claims"][0]["allocation"]["devices"]["results"];
    assert_eq!(results[0]["request"], "r/s1", "{json}");
    assert_eq!(results.as_array().map(Vec::len), Some(2), "{json}");
    assert_eq!(
        v["verdict"]["releaseFaults"],
        serde_json::json!([]),
        "{json}"
    );
    assert!(!text.contains("mishandles"), "{text}");
}

/// A fleet moving from a device plugin to DRA: kube-scheduler builds the
/// extended-resource claim per node (filterExtendedResources), so a node
/// whose device plugin advertises the GPUs takes the pod with no device
/// asked of DRA; one advertising too few is NodeResourcesFit's
/// `Insufficient`; one advertising zero (the plugin is gone) is DRA's from
/// 1.35 (PR #133784), the device plugin's in 1.34.
#[test]
fn extended_resources_are_served_node_by_node() {
    let file = "testdata/fixtures/explain-extended-mixed.yaml";
    let (text, code) = out(&["explain", "pod", "ml/trainer", "-f", file, "-o", "json"]);
    assert_eq!(code, 0, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["verdict"]["allocatedOn"],
        serde_json::json!(["dp-1", "dp-gone"])
    );
    let node = |name: &str| {
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["node"] == name)
            .unwrap()
            .clone()
    };
    let dp = node("dp-1");
    assert_eq!(dp["servedByNode"], serde_json::json!(["example.com/gpu"]));
    assert_eq!(
        dp["claims"][0]["allocation"]["devices"]["results"],
        serde_json::json!([])
    );
    let gone = node("dp-gone");
    assert!(gone.get("servedByNode").is_none(), "{gone}");
    assert_eq!(
        gone["claims"][0]["allocation"]["devices"]["results"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let small = node("dp-small");
    assert_eq!(small["result"], "excluded");
    assert_eq!(small["reason"], "Insufficient example.com/gpu");
    assert_eq!(node("dra-1")["result"], "unsatisfiable");

    let (text, code) = out(&["explain", "pod", "ml/trainer", "-f", file, "--node", "dp-1"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("example.com/gpu: served by the node's device plugin (status.allocatable)"),
        "{text}"
    );

    let (text, code) = out(&[
        "explain",
        "pod",
        "ml/trainer",
        "-f",
        file,
        "-o",
        "json",
        "--kubernetes-version",
        "1.34",
        "--feature-gates",
        "DRAExtendedResource=true",
    ]);
    assert_eq!(code, 0, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["verdict"]["allocatedOn"], serde_json::json!(["dp-1"]));
}

/// Pods alike share one answer, but a sidecar is not a plain init
/// container: from 1.35 the scheduler's extended-resource claim differs
/// (a plain init container reuses the container's device), so the two
/// pods are decided apart, each with its own requests.
#[test]
fn explain_pods_tells_a_sidecar_from_a_plain_init_container() {
    let base = std::fs::read_to_string("testdata/fixtures/explain-extended-mixed.yaml").unwrap();
    let sidecar = base
        .split("\n---\n")
        .find(|d| d.contains("name: staged"))
        .unwrap()
        .replace("name: staged", "name: staged-sidecar")
        .replace(
            "  - name: fetch\n",
            "  - name: fetch\n    restartPolicy: Always\n",
        );
    let (_dir, file) = fixture_file(&format!("{base}\n---\n{sidecar}\n"));
    let (text, _) = out(&["explain", "pods", "-f", &file, "-n", "ml", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
    assert_eq!(v["evaluations"], 3, "{v}");
    // A pod alike shares the answer under its own made-up claim's name.
    let (_dir2, twin) = fixture_file(&format!(
        "{base}\n---\n{}\n",
        base.split("\n---\n")
            .find(|d| d.contains("name: trainer"))
            .unwrap()
            .replace("name: trainer\n", "name: trainer-2\n")
    ));
    let (text, _) = out(&["explain", "pods", "-f", &twin, "-n", "ml", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
    assert_eq!(v["evaluations"], 2, "{v}");
    let second = v["pods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "trainer-2")
        .unwrap();
    assert_eq!(
        second["explain"]["placement"]["claims"][0]["name"], "trainer-2-extended-resources",
        "{second}"
    );
    let requests = |pod: &str| {
        let (text, _) = out(&["explain", "pod", pod, "-f", &file, "-o", "json"]);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["extendedResources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["count"].as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    // Plain: fetch reuses main's device and asks for one more; as a
    // sidecar it keeps its two beside main's one.
    assert_eq!(requests("ml/staged"), vec![1, 1]);
    assert_eq!(requests("ml/staged-sidecar"), vec![2, 1]);
}

/// NodeResourcesFit rules a node out when its allocatable, less what the
/// pods bound to it request, is below the pod's cpu, memory or
/// ephemeral-storage request (fit.go fitsRequest, "Insufficient cpu"),
/// before DRA is asked: the claim would fit there, and the verdict says
/// what keeps the pod off the node.
#[test]
fn a_node_too_small_for_the_pod_is_ruled_out() {
    let file = "testdata/fixtures/explain-node-resources-fit.yaml";
    let (text, code) = out(&["explain", "pod", "ml/big", "-f", file]);
    assert_eq!(code, 1, "{text}");
    // Every node is ruled out before DRA: the claims are not the cause.
    assert!(
        text.starts_with("Pod ml/big (ml/big-gpu) stays Pending: none of the 2 nodes can take the pod; each is ruled out before its claims are tried."),
        "{text}"
    );
    assert!(
        text.contains("2 nodes  the pod cannot run there: Insufficient cpu"),
        "{text}"
    );
    let (json, _) = out(&["explain", "pod", "ml/big", "-f", file, "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"]["schedulable"], false, "{json}");
    // n1 is too small; n2 is large enough but its running pod takes 10 of
    // its 16 CPUs (NodeInfo.Requested).
    for n in 0..2 {
        assert_eq!(v["nodes"][n]["result"], "excluded", "{json}");
        assert_eq!(v["nodes"][n]["reason"], "Insufficient cpu", "{json}");
    }
    assert_eq!(
        v["verdict"]["fitsWhereExcluded"].as_array().unwrap().len(),
        2,
        "{json}"
    );
}

/// InterPodAffinity (interpodaffinity/filtering.go, after
/// NodeResourcesFit): worker-2's required anti-affinity to its own kind
/// rules out the nodes where worker-0 and worker-1 run, in the scheduler's
/// words, and the one node left has no free GPU. `explain pods` tells the
/// pod apart from one alike but for its labels, which the bound workers'
/// terms read.
#[test]
fn pod_anti_affinity_rules_out_the_nodes_of_its_kind() {
    let file = "testdata/fixtures/explain-pod-anti-affinity.yaml";
    let (json, code) = out(&["explain", "pod", "ml/worker-2", "-f", file, "-o", "json"]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let reasons: Vec<(&str, &str)> = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["node"].as_str().unwrap(),
                n["reason"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        reasons.contains(&("n1", "node(s) didn't match pod anti-affinity rules"))
            && reasons.contains(&("n2", "node(s) didn't match pod anti-affinity rules")),
        "{json}"
    );
    let (text, _) = out(&["explain", "pod", "ml/worker-2", "-f", file]);
    assert!(
        text.contains(
            "2 nodes  the pod cannot run there: node(s) didn't match pod anti-affinity rules"
        ),
        "{text}"
    );
    // The first line gives each cause where it applies.
    assert!(
        text.starts_with("Pod ml/worker-2 (ml/worker-2-gpu) stays Pending: 2 of the 3 nodes are ruled out before its claims are tried, and its claims cannot be allocated on the other 1."),
        "{text}"
    );
    // The workers' own terms read labels: `lonely` (app: trainer, no term
    // of its own) is kept off their nodes, `web` (app: web) is not; alike
    // but for their labels, they are not one shape.
    let dir = support::ScratchDir::new("explain-anti-affinity");
    let path = dir.join("two.yaml");
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let pod = |name: &str, app: &str| {
        format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: ml, labels: {{app: {app}}}}}\nspec:\n  resourceClaims:\n  - {{name: gpu, resourceClaimTemplateName: one-gpu}}\n  containers:\n  - name: main\n    image: x\n    resources:\n      claims: [{{name: gpu}}]\n")
    };
    std::fs::write(
        &path,
        format!("{text}{}{}", pod("web", "web"), pod("lonely", "trainer")),
    )
    .unwrap();
    let (json, _) = out(&[
        "explain",
        "pods",
        "-n",
        "ml",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let verdict = |name: &str| {
        v["pods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .map(|p| p["explain"]["verdict"]["schedulable"].clone())
            .unwrap_or_else(|| panic!("{json}"))
    };
    assert_eq!(verdict("web"), true, "{json}");
    assert_eq!(verdict("lonely"), false, "{json}");
    assert_eq!(verdict("worker-2"), false, "{json}");
    assert_eq!(v["evaluations"], 3, "{json}");
    let (json, _) = out(&[
        "explain",
        "pod",
        "ml/lonely",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert!(
        json.contains("node(s) didn't satisfy existing pods anti-affinity rules"),
        "{json}"
    );
}

/// PodTopologySpread (podtopologyspread/filtering.go, before
/// InterPodAffinity): infer-2 must not make zone a hold more than one
/// replica over zone b (maxSkew 1, DoNotSchedule); two run in zone a and
/// none in b, so n1 and n2 are ruled out in the scheduler's words, and
/// n3 has no free GPU. With one replica finished zone a is still one too
/// many; with both, n1 and n2 take the pod again.
#[test]
fn topology_spread_rules_out_the_crowded_zone() {
    let file = "testdata/fixtures/explain-topology-spread.yaml";
    let (json, code) = out(&["explain", "pod", "ml/infer-2", "-f", file, "-o", "json"]);
    assert_eq!(code, 1, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for n in v["nodes"].as_array().unwrap() {
        if n["node"] != "n3" {
            assert_eq!(
                n["reason"], "node(s) didn't match pod topology spread constraints",
                "{json}"
            );
        }
    }
    let dir = support::ScratchDir::new("explain-spread");
    let path = dir.join("one-done.yaml");
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    // One replica left in zone a: 1 + 1 - 0 is still a skew of 2 there.
    let (before, after) = text.split_once("name: infer-1").unwrap();
    let one_done = format!(
        "{before}name: infer-1{}",
        after.replacen("status: {phase: Running}", "status: {phase: Succeeded}", 1)
    );
    std::fs::write(&path, &one_done).unwrap();
    let (_, code) = out(&["explain", "pod", "ml/infer-2", "-f", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    // None left: zone a is as empty as zone b.
    std::fs::write(
        &path,
        one_done.replacen("status: {phase: Running}", "status: {phase: Succeeded}", 1),
    )
    .unwrap();
    let (json, code) = out(&[
        "explain",
        "pod",
        "ml/infer-2",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    assert_eq!(code, 0, "{json}");
}

/// NodePorts (nodeports.go, util.GetHostPorts: containers and sidecars;
/// before NodeResourcesFit): infer-2's metrics sidecar asks for host port
/// 8000, which infer-0's sidecar holds on n1, so n1 is ruled out in the
/// scheduler's words and the pod goes to n2.
#[test]
fn a_taken_host_port_rules_the_node_out() {
    let file = "testdata/fixtures/explain-node-ports.yaml";
    let (json, code) = out(&["explain", "pod", "ml/infer-2", "-f", file, "-o", "json"]);
    assert_eq!(code, 0, "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let n1 = v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == "n1")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(n1["result"], "excluded", "{json}");
    assert_eq!(
        n1["reason"], "node(s) didn't have free ports for the requested pod ports",
        "{json}"
    );
    assert_eq!(v["verdict"]["allocatedOn"][0], "n2", "{json}");
}

/// `explain pods --in-order` binds each pod it places, as the scheduler's
/// cache assumes it: the pods after it see its requests, labels,
/// anti-affinity and host ports. Two workers with anti-affinity to their
/// own kind (one per node), n1 and n2 free: the first goes to n1, the
/// second to n2, not beside it (placing only its claims, both went to n1).
#[test]
fn in_order_binds_the_placed_pod() {
    let file = "testdata/fixtures/explain-pod-anti-affinity.yaml";
    let dir = support::ScratchDir::new("explain-in-order-bind");
    let path = dir.join("two.yaml");
    let text = std::fs::read_to_string(support::root().join(file)).unwrap();
    let text = text.replace("status: {phase: Running}", "status: {phase: Succeeded}");
    // The notebook pod keeps n3's GPU; a second pending worker alike.
    let text = text.replacen(
        "metadata: {name: notebook, namespace: research, uid: 5d1c6c3a-0000-4000-8000-000000000003}\nspec:\n  nodeName: n3\n  resourceClaims:\n  - {name: gpu, resourceClaimName: notebook}\n  containers: [{name: main, image: x, resources: {claims: [{name: gpu}]}}]\nstatus: {phase: Succeeded}",
        "metadata: {name: notebook, namespace: research, uid: 5d1c6c3a-0000-4000-8000-000000000003}\nspec:\n  nodeName: n3\n  resourceClaims:\n  - {name: gpu, resourceClaimName: notebook}\n  containers: [{name: main, image: x, resources: {claims: [{name: gpu}]}}]\nstatus: {phase: Running}",
        1,
    );
    let worker = text
        .split("---\n")
        .find(|d| d.contains("name: worker-2"))
        .unwrap()
        .replace("worker-2", "worker-3");
    std::fs::write(&path, format!("{text}---\n{worker}")).unwrap();
    let (json, _) = out(&[
        "explain",
        "pods",
        "-n",
        "ml",
        "--in-order",
        "-f",
        path.to_str().unwrap(),
        "-o",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let placed: Vec<&str> = v["pods"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["placedOn"].as_str())
        .collect();
    assert_eq!(placed, ["n1", "n2"], "{json}");
}

/// Selectors that keep every device of a group of nodes out are named as
/// the defect under their cause: the selector and the term that is false on
/// every device, what the devices hold where it reads, and a likely fix
/// only when the value exists nowhere (dra_core::selector_miss).
#[test]
fn selectors_that_match_no_device_name_what_the_devices_hold() {
    let fixture = "testdata/fixtures/explain-selector-miss.yaml";
    for (claim, cause, miss) in [
        (
            "ml/train",
            "  2 nodes  request \"gpu\": fewer than 2 devices pass the request selectors  (e.g. n1)",
            "    the request's selector #0: device.attributes[\"gpu.example.com\"].model == \"h100\" is false on all 4 devices of its class on these nodes; device.attributes[\"gpu.example.com\"].model is \"a100\" on 4 devices (it holds on 2 devices of other nodes)",
        ),
        (
            "ml/typo",
            "  3 nodes  request \"gpu\": no device passes the request selectors  (e.g. n1)",
            "    the request's selector #0: device.attributes[\"gpu.example.com\"].model == \"H100\" is false on all 6 devices of its class on these nodes; device.attributes[\"gpu.example.com\"].model is \"a100\" on 4 devices, \"h100\" on 2 devices: did you mean \"h100\"?",
        ),
        (
            "ml/alt",
            "  3 nodes  request \"gpu\": none of its 2 alternatives fits: request \"gpu/big\": no device passes the request selectors; request \"gpu/small\" needs 3 devices, only 2 are on the node  (e.g. n1)",
            "    alternative gpu/big, its selector #0: device.attributes[\"gpu.example.com\"].model == \"B200\" is false on all 6 devices of its class on these nodes; device.attributes[\"gpu.example.com\"].model is \"a100\" on 4 devices, \"h100\" on 2 devices",
        ),
        (
            "ml/wrong-class",
            "  3 nodes  request \"gpu\": no device of its class on the node (none of the node's 2 devices passes the class selectors)  (e.g. n1)",
            "    class gpu-typo, selector #0: device.driver == \"gpu.exmaple.com\" is false on all 6 devices in the inventory; device.driver is \"gpu.example.com\" on 6 devices: did you mean \"gpu.example.com\"?",
        ),
    ] {
        let (text, code) = out(&["explain", "claim", claim, "-f", fixture]);
        assert_eq!(code, 1, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], cause, "{text}");
        assert_eq!(lines[2], miss, "{text}");
    }
    let (v, _) = json_out(&["explain", "claim", "ml/typo", "-f", fixture]);
    let m = &v["verdict"]["causes"][0]["selectorMiss"];
    assert_eq!(m["class"], serde_json::Value::Null, "{m}");
    assert_eq!(m["index"], 0);
    assert_eq!(m["devices"], 6);
    assert_eq!(m["holdsElsewhere"], 0);
    assert_eq!(
        m["comparison"]["held"],
        serde_json::json!([{"value": "\"a100\"", "devices": 4}, {"value": "\"h100\"", "devices": 2}])
    );
    assert_eq!(m["comparison"]["likely"], "\"h100\"");
    let (v, _) = json_out(&["explain", "claim", "ml/train", "-f", fixture]);
    let m = &v["verdict"]["causes"][0]["selectorMiss"];
    assert_eq!(m["holdsElsewhere"], 2, "{m}");
    assert_eq!(m["comparison"]["likely"], serde_json::Value::Null, "{m}");
    // `explain pods` says it under the group's cause.
    let mut text = std::fs::read_to_string(fixture).unwrap();
    text.push_str("---\napiVersion: v1\nkind: Pod\nmetadata: {name: trainer, namespace: ml}\nspec:\n  containers: [{name: main, image: x}]\n  resourceClaims:\n  - {name: gpu, resourceClaimName: typo}\n");
    let (_dir, file) = fixture_file(&text);
    let (pods, code) = out(&["explain", "pods", "-A", "-f", &file]);
    assert_eq!(code, 1, "{pods}");
    assert!(
        pods.contains("    1 pod   requestSelectors: request \"gpu\": no device passes the request selectors\n            the request's selector #0: device.attributes[\"gpu.example.com\"].model == \"H100\" is false on all 6 devices"),
        "{pods}"
    );
}

/// kube-scheduler's VolumeBinding and VolumeZone run before DynamicResources
/// (dra_core::volumes): a bound PV's node affinity rules a node out, a
/// missing PVC or an ephemeral volume's PVC not created yet stops the pod
/// at PreFilter, and a claim waiting for its first consumer needs a PV it
/// can bind on the node (a local one here). Files without any storage
/// object leave the volumes unchecked, and say so.
#[test]
fn the_pods_volumes_filter_nodes_as_the_scheduler_does() {
    let fixture = "testdata/fixtures/explain-volumes.yaml";
    for (pod, code, lines) in [
        (
            "ml/train",
            0,
            [
                "Pod ml/train (ml/train-gpu) can be scheduled: its claims fit on 1 of 2 nodes: n2.",
                "  1 node   the pod cannot run there: node(s) had volume node affinity conflict (PersistentVolume pv-data of PVC data is for nodes with topology.kubernetes.io/zone In [b])  (e.g. n1)",
            ],
        ),
        (
            "ml/local",
            0,
            [
                "Pod ml/local (ml/local-gpu) can be scheduled: its claims fit on 1 of 2 nodes: n1.",
                "  1 node   the pod cannot run there: node(s) didn't find available persistent volumes to bind (no PersistentVolume of class local can be bound to PVC cache here, and StorageClass local does not provision (kubernetes.io/no-provisioner))  (e.g. n2)",
            ],
        ),
        (
            "ml/second",
            1,
            [
                "Pod ml/second (ml/second-gpu) stays Pending: none of the 2 nodes can take the pod; each is ruled out before its claims are tried.",
                "  2 nodes  the pod cannot run there: node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode (PVC solo is ReadWriteOncePod and pod ml/first on node n2 uses it)  (e.g. n1)",
            ],
        ),
        (
            "ml/orphan",
            1,
            [
                "Pod ml/orphan (ml/orphan-gpu) stays Pending: the scheduler's PreFilter marks it unschedulable before it tries any node.",
                "  persistentvolumeclaim \"missing\" not found",
            ],
        ),
        (
            "ml/scratch",
            1,
            [
                "Pod ml/scratch (ml/scratch-gpu) stays Pending: the scheduler's PreFilter marks it unschedulable before it tries any node.",
                "  waiting for ephemeral volume controller to create the persistentvolumeclaim \"scratch-tmp\"",
            ],
        ),
    ] {
        let (text, got) = out(&["explain", "pod", pod, "-f", fixture]);
        assert_eq!(got, code, "{text}");
        for line in lines {
            assert!(text.lines().any(|l| l == line), "{line}\n{text}");
        }
    }
    let (v, _) = json_out(&["explain", "pod", "ml/orphan", "-f", fixture]);
    assert_eq!(
        v["verdict"]["preFilter"]["kind"],
        serde_json::json!({"check": "volumes", "name": "missing"})
    );
    let (v, _) = json_out(&["explain", "pods", "-n", "ml", "-f", fixture]);
    assert_eq!(
        (
            v["blockedOnVolumes"].as_u64(),
            v["blockedOnDevices"].as_u64()
        ),
        (Some(2), Some(1)),
        "{v}"
    );
    // Without a PVC, PV or StorageClass in the files: not checked, and said.
    let dir = support::ScratchDir::new("explain-volumes-unread");
    let text = std::fs::read_to_string(support::root().join(fixture)).unwrap();
    let cut = text
        .find("---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: standard}")
        .unwrap();
    let bare = dir.join("bare.yaml");
    std::fs::write(&bare, &text[..cut]).unwrap();
    let o = support::run(&["explain", "pod", "ml/train", "-f", bare.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("the pod's volumes are not checked"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
