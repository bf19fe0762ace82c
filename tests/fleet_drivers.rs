//! The whole-cluster views on a fleet shaped as real drivers publish
//! (issue 32): testdata/fixtures/fleet-drivers/cluster.yaml holds dranet's
//! real A100 (EKS) and GB300 RDMA NIC (AKS) slices, an H100 partitioned by
//! MIG counters as dra-driver-nvidia-gpu publishes it, TPU v5e hosts and
//! dra-driver-cpu's devices, with a leak, an evicting taint rule, a slice of
//! a gone node, four pending pods and one the kubelet cannot start (its
//! driver's kubelet plugin is not running: the kubelet's event). The live and snapshot paths run the
//! same fleet in tests/cluster.rs.

mod support;

const FLEET: &str = "testdata/fixtures/fleet-drivers/cluster.yaml";

fn run(args: &[&str]) -> (String, i32) {
    let o = support::run_env(args, &[("NO_COLOR", std::ffi::OsStr::new("1"))]);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["-f", FLEET, "-o", "json"]);
    let (out, _) = run(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"))
}

#[test]
fn explain_pods_names_the_defect_on_the_closest_node() {
    let (text, code) = run(&["explain", "pods", "-A", "-f", FLEET]);
    assert_eq!(code, 1, "{text}");
    insta::assert_snapshot!("fleet_drivers_explain_pods", text);
    let v = json(&["explain", "pods", "-A"]);
    let groups: Vec<(String, String, String)> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["kind"].as_str().unwrap_or("").to_owned(),
                g["example"].as_str().unwrap_or("").to_owned(),
                g["closestNode"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    // Not "no device of its class" (true of every node without the
    // driver), but what stops it where it could run.
    assert!(
        groups.contains(&(
            "counters".into(),
            "ml/infer-big".into(),
            "gpu-h100-1".into()
        )),
        "{groups:?}"
    );
    assert!(
        groups.contains(&(
            "constraint".into(),
            "net/allreduce-0".into(),
            "aks-gpu-45139532-vmss000081".into()
        )),
        "{groups:?}"
    );
    assert!(
        groups
            .iter()
            .any(|g| g.0 == "preFilter.classMissing" && g.1 == "tpu/serve-0"),
        "{groups:?}"
    );
    assert!(
        groups
            .iter()
            .any(|g| g.0 == "claimsFit" && g.1 == "cpu/pinned-0"),
        "{groups:?}"
    );
    insta::assert_json_snapshot!("fleet_drivers_explain_pods_json", v["groups"]);
}

#[test]
fn doctor_finds_the_leak_the_evicting_rule_the_gone_node_the_missing_class_and_the_plugin_not_running(
) {
    let (text, code) = run(&["doctor", "-f", FLEET]);
    assert_eq!(code, 1, "a pod that cannot start: {text}");
    insta::assert_snapshot!("fleet_drivers_doctor", text);
    let v = json(&["doctor"]);
    let mut found: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["object"]["name"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("DRA-H001", "tpu-v5e-2-tpu.google.com"),
            ("DRA-H003", "a100-orphan"),
            ("DRA-H004", "a100-train"),
            ("DRA-H008", "infer-small"),
            ("DRA-V209", "serve-0-tpu"),
            ("DRA-V209", "tpu-2x2"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
    );
}

#[test]
fn devices_count_mig_counters_and_show_taints_on_held_devices() {
    let (text, code) = run(&[
        "devices",
        "--summary",
        "-g",
        "node",
        "-g",
        "driver",
        "-f",
        FLEET,
    ]);
    assert_eq!(code, 0, "{text}");
    insta::assert_snapshot!("fleet_drivers_devices_summary", text);
    let v = json(&["devices", "--summary", "-g", "node"]);
    let h100 = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["keys"][0] == "gpu-h100-1")
        .unwrap_or_else(|| panic!("{v}"));
    // The 3g.40gb holds memory slices 0-3 and a 1g.10gb slice 4: the whole
    // GPU, the 7g.80gb, four 1g.10gb and the other 3g.40gb are blocked; two
    // 1g.10gb are free.
    assert_eq!(
        (
            &h100["devices"],
            &h100["allocated"],
            &h100["blocked"],
            &h100["free"]
        ),
        (&11.into(), &2.into(), &7.into(), &2.into()),
        "{h100}"
    );
    // The held A100 under a NoExecute rule says so (doctor's DRA-H004).
    let (rows, _) = run(&[
        "devices",
        "--node",
        "ip-192-168-153-160.ec2.internal",
        "-f",
        FLEET,
    ]);
    let gpu1 = rows.lines().find(|l| l.contains(" gpu-1 ")).unwrap();
    assert!(
        gpu1.contains("reserved for pod ml/train-0")
            && gpu1.contains("gpu.nvidia.com/xid=79:NoExecute"),
        "{gpu1}"
    );
}

#[test]
fn a_scheduled_pod_whose_driver_plugin_is_not_running_will_not_start() {
    let (text, code) = run(&["explain", "pod", "ml/infer-small", "-f", FLEET]);
    assert_eq!(code, 1, "{text}");
    insta::assert_snapshot!("fleet_drivers_explain_not_prepared", text);
    let v = json(&["explain", "pod", "ml/infer-small"]);
    assert_eq!(v["verdict"]["fate"], "WillNotStart", "{v}");
    let np = &v["verdict"]["notPrepared"];
    assert_eq!(np["driverNotRegistered"], "gpu.nvidia.com", "{np}");
    assert_eq!(np["node"], "gpu-h100-1", "{np}");
    assert_eq!(np["count"], 37, "{np}");
    // A pending pod is not judged by the kubelet's events.
    let v = json(&["explain", "pod", "ml/infer-big"]);
    assert!(v["verdict"]["notPrepared"].is_null(), "{v}");
}
