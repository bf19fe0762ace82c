//! `kubectl dra doctor` (issue 32, item 2): the stored state checked for
//! what makes pods pend or devices leak, as lint findings with stable ids.

mod support;

fn stdout(args: &[&str]) -> (String, i32) {
    let o = support::run(args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

const CLUSTER: &str = "testdata/fixtures/doctor/cluster.yaml";

#[test]
fn doctor_finds_leaks_dangling_objects_and_stuck_pods() {
    let (out, code) = stdout(&[
        "doctor",
        "-f",
        CLUSTER,
        "--feature-gates",
        "DRADeviceTaintRules=true",
        "-o",
        "json",
    ]);
    assert_eq!(code, 1, "an error (a pod that cannot start): {out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["object"]["name"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let want = [
        ("DRA-H001", "worker-9-gpu"),
        ("DRA-V205", "worker-9-gpu"),
        ("DRA-H002", "gone-device"),
        ("DRA-H003", "leaked"),
        ("DRA-H004", "leaked"),
        ("DRA-H003", "orphan"),
        ("DRA-H007", "pinned"),
        ("DRA-V209", "fpga"),
        ("DRA-H005", "everything"),
        ("DRA-H006", "typo"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(r, n)| (r.to_string(), n.to_string()))
        .collect();
    assert_eq!(found, want);
    // An incomplete pool says since when it waits for its missing slices.
    assert!(
        v["diagnostics"][1]["notes"].to_string().contains(
            "its newest slice was created at 2026-11-02T08:00:00Z: the other 1 never arrived since"
        ),
        "{}",
        v["diagnostics"][1]
    );
    // DeviceTaintRules do not count on 1.36 defaults (DRADeviceTaintRules
    // off): no eviction is predicted.
    let (out, _) = stdout(&[
        "doctor",
        "-f",
        CLUSTER,
        "-o",
        "json",
        "--kubernetes-version",
        "1.36",
    ]);
    assert!(!out.contains("DRA-H004"), "{out}");
    let (text, _) = stdout(&[
        "doctor",
        "-f",
        CLUSTER,
        "--feature-gates",
        "DRADeviceTaintRules=true",
    ]);
    insta::assert_snapshot!("doctor_text", text);
    // Every id doctor reports is documented by `rules`.
    for id in ["DRA-H001", "DRA-H004", "DRA-H007"] {
        assert_eq!(stdout(&["rules", id]).1, 0, "{id}");
    }
}

/// Manifests without a cluster's state (no Nodes) get no stored-state
/// findings from lint: statuses there are discarded on create.
#[test]
fn manifests_are_not_checked_as_stored_state() {
    let o = support::run_with_stdin(
        &["lint", "-o", "json", "-", "--ignore", "DRA-V169"],
        Some(b"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\nspec:\n  devices:\n    requests:\n    - {name: gpu, exactly: {deviceClassName: gpu}}\nstatus:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: d.example.com, pool: p, device: x}\n"),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0, "{v}");
}
