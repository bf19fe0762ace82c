//! The live-cluster path end to end: the built binary, a generated
//! kubeconfig, and the loopback stand-in apiserver (tests/support/apiserver.rs)
//! over HTTPS. Every test also checks that only GETs reached the server.

#[path = "support/apiserver.rs"]
mod apiserver;
mod support;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Output;

use apiserver::{Fixture, Server};
use serde_json::{json, Value};

struct Live {
    server: Server,
    dir: support::ScratchDir,
    kubeconfig: PathBuf,
}

fn scratch(name: &str) -> support::ScratchDir {
    support::ScratchDir::new(&format!("cluster-{name}"))
}

impl Live {
    fn start(name: &str, fixture: Fixture) -> Live {
        let server = Server::start(fixture);
        let dir = scratch(name);
        let kubeconfig = server.kubeconfig(&dir, "default");
        Live {
            server,
            dir,
            kubeconfig,
        }
    }

    fn run(&self, args: &[&str]) -> Output {
        let o = support::run_env(
            args,
            &[
                ("KUBECONFIG", self.kubeconfig.as_os_str()),
                ("NO_COLOR", OsStr::new("1")),
            ],
        );
        self.assert_read_only();
        o
    }

    /// Takes a snapshot (`extra` flags to `snapshot`), runs `argv` on it
    /// offline, and checks that verdict and exit code equal `live_out`'s;
    /// returns the snapshot's text.
    fn replay_from_snapshot(
        &self,
        name: &str,
        extra: &[&str],
        argv: &[&str],
        live_out: &Output,
    ) -> String {
        let snap = self.dir.join("snapshot.yaml");
        let mut snap_args = vec!["snapshot", "--output-file", snap.to_str().unwrap()];
        snap_args.extend(extra);
        let s = self.run(&snap_args);
        assert!(s.status.success(), "{name}: {}", stderr(&s));
        let mut offline = argv.to_vec();
        offline.extend(["-f", snap.to_str().unwrap()]);
        let from_snapshot = support::run(&offline);
        assert_eq!(
            json_of(&from_snapshot),
            json_of(live_out),
            "{name}: snapshot differs from live"
        );
        assert_eq!(
            from_snapshot.status.code(),
            live_out.status.code(),
            "{name}"
        );
        std::fs::read_to_string(&snap).unwrap()
    }

    fn assert_read_only(&self) {
        for r in self.server.log() {
            assert_eq!(r.method, "GET", "kubectl-dra sent {} {}", r.method, r.path);
        }
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", String::from_utf8_lossy(&o.stdout), stderr(o)))
}

fn case(name: &str) -> Value {
    support::load_yaml(&support::root().join(format!("testdata/conformance/allocate/{name}.yaml")))
}

fn case_fixture(c: &Value) -> Fixture {
    let version = c["kubernetesVersion"].as_str().unwrap_or("1.37");
    let gates: Vec<(String, bool)> = c["featureGates"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.as_bool().unwrap_or(false)))
        .collect();
    Fixture::new(version, c["objects"].as_array().unwrap(), &gates)
}

/// For several conformance cases: the live verdict is the offline one, and
/// `snapshot` then `explain -f` gives the same JSON as the live `explain`.
#[test]
fn live_explain_equals_offline_and_snapshot() {
    for name in [
        "all-mode-one-in-use",
        "backtrack-across-claims",
        "binding-conditions-copied",
        "admin-access-ignores-in-use",
        "all-nodes-slice",
        "all-devices-allocated",
    ] {
        let c = case(name);
        let live = Live::start(name, case_fixture(&c));
        let alloc = &c["allocate"];
        let mut args: Vec<String> = vec!["explain".into(), "claim".into()];
        args.extend(
            alloc["claims"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned()),
        );
        args.extend([
            "--node".into(),
            alloc["node"].as_str().unwrap().to_owned(),
            "-o".into(),
            "json".into(),
        ]);
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let live_out = live.run(&argv);
        let live_json = json_of(&live_out);

        live.replay_from_snapshot(name, &[], &argv, &live_out);

        // The same objects as files, with the case's version and gates as flags.
        let file = live.dir.join("case.yaml");
        support::write_objects(c["objects"].as_array().unwrap(), &file);
        let mut file_args = argv.clone();
        file_args.extend(["-f", file.to_str().unwrap()]);
        let gate_args = support::gate_args(&c);
        file_args.extend(gate_args.iter().map(String::as_str));
        assert_eq!(
            json_of(&support::run(&file_args)),
            live_json,
            "{name}: files differ from live"
        );

        // Lists are paged with kubectl's chunk size.
        let log = live.server.log();
        assert!(log
            .iter()
            .any(|r| r.path == "/apis/resource.k8s.io/v1/resourceslices"
                && r.query.contains("limit=500")));
        // Nodes are read whole: a metadata-only list loses their taints.
        assert!(log
            .iter()
            .filter(|r| r.path == "/api/v1/nodes")
            .all(|r| !r.accept.contains("PartialObjectMetadataList")));
    }
}

fn slice(i: usize, devices: usize) -> Value {
    json!({
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
        "metadata": {"name": format!("node-{i}-gpu")},
        "spec": {"driver": "gpu.example.com", "nodeName": format!("node-{i}"),
                 "pool": {"name": format!("node-{i}"), "generation": 1, "resourceSliceCount": 1},
                 "devices": (0..devices).map(|d| json!({"name": format!("gpu-{d}"), "attributes": {"model": {"string": "h100"}}})).collect::<Vec<_>>()}
    })
}

/// The ResourceClaimTemplate `ml/one-gpu`: one device of class `gpu`.
fn one_gpu_template() -> Value {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
        "metadata": {"name": "one-gpu", "namespace": "ml"},
        "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}})
}

/// The value `explain -o json` gives node `name`.
fn node_of(v: &Value, name: &str) -> Value {
    v["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["node"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{v}"))
}

fn small_cluster(slices: usize) -> Vec<Value> {
    let mut objects: Vec<Value> = (0..slices).map(|i| slice(i, 2)).collect();
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
        "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}));
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "train", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 2}}]}}}));
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "held", "namespace": "team-b"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
        "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-0", "device": "gpu-0"}]},
                   "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-0"]}]}]}},
                   "reservedFor": [{"resource": "pods", "name": "trainer", "uid": "u1"}]}}));
    for i in 0..slices {
        objects.push(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": format!("node-{i}"), "labels": {"zone": if i % 2 == 0 { "a" } else { "b" }}}}));
    }
    objects
}

#[test]
fn lists_page_and_restart_on_expired_continue() {
    let mut f = Fixture::new("1.37", &small_cluster(1200), &[]);
    f.expire_first_continue = true;
    let live = Live::start("paging", f);
    let o = live.run(&["devices", "-o", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = json_of(&o)["devices"].as_array().unwrap().len();
    assert_eq!(rows, 2400);
    let slice_reads: Vec<_> = live
        .server
        .log()
        .into_iter()
        .filter(|r| r.path == "/apis/resource.k8s.io/v1/resourceslices")
        .collect();
    // 3 pages, one of them answered 410 and the list started over: 1 + 1 + 3.
    assert_eq!(slice_reads.len(), 5, "{slice_reads:?}");
    assert!(
        slice_reads
            .iter()
            .filter(|r| r.query.contains("continue="))
            .count()
            >= 2
    );
}

#[test]
fn devices_view_shows_holders_and_filters() {
    let live = Live::start("devices", Fixture::new("1.37", &small_cluster(3), &[]));
    let o = live.run(&["devices", "--node", "node-0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!("devices_node_0", String::from_utf8(o.stdout).unwrap());
    let o = live.run(&["devices", "-l", "zone=b", "-o", "json"]);
    let rows = json_of(&o)["devices"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["node"] == "node-1"));
    let o = live.run(&[
        "devices",
        "--class",
        "gpu",
        "--driver",
        "gpu.example.com",
        "-o",
        "yaml",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("state: reserved"));
    // kubectl's -v: at 6 each request is logged to stderr, the output unchanged.
    let quiet = live.run(&["devices", "--node", "node-0"]);
    let o = live.run(&["devices", "--node", "node-0", "-v", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, quiet.stdout);
    let log = stderr(&o);
    assert!(
        log.lines().any(|l| l.starts_with("GET http")
            && l.contains("/apis/resource.k8s.io/v1/resourceslices")
            && l.contains(" 200 OK in ")),
        "{log}"
    );
    assert!(!stderr(&quiet).contains("GET http"));
    // kubectl's listing habits: -o name, --no-headers, --sort-by.
    let o = live.run(&["devices", "-o", "name", "--sort-by", "{.device}"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(
        !names.is_empty()
            && names
                .iter()
                .all(|n| n.starts_with("gpu.example.com/") && n.split('/').count() == 3),
        "{names:?}"
    );
    let devices: Vec<&str> = names
        .iter()
        .map(|n| n.rsplit('/').next().unwrap())
        .collect();
    assert!(devices.windows(2).all(|w| w[0] <= w[1]), "{devices:?}");
    let o = live.run(&["devices", "--no-headers", "--sort-by", "state"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(text.lines().count(), names.len(), "{text}");
    assert!(
        !text.contains("NODE") && !text.contains("devices:"),
        "{text}"
    );
    let o = live.run(&["devices", "--sort-by", ".color"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot sort devices by"),
        "{}",
        stderr(&o)
    );
    let o = live.run(&["devices", "-v=11"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn explain_and_match_read_the_context_namespace() {
    let live = Live::start("ctx", Fixture::new("1.37", &small_cluster(2), &[]));
    // "train" is in the context's namespace (default): no -n needed.
    let o = live.run(&["explain", "claim", "train", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["summary"]["allocated"], 1, "{v}");
    let o = live.run(&[
        "match",
        "device.attributes[\"gpu.example.com\"].model == \"h100\"",
        "-o",
        "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_of(&o)["summary"]["matching"], 4);
    let o = live.run(&["explain", "claim", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no ResourceClaim default/nope in the cluster"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn lint_against_the_cluster() {
    let live = Live::start(
        "lint",
        Fixture::new(
            "1.36",
            &small_cluster(2),
            &[("DRAPartitionableDevices".into(), false)],
        ),
    );
    let file = live.dir.join("claim.yaml");
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n        deviceClassName: gpus\n    - name: b\n      exactly:\n        deviceClassName: gpu\n        selectors:\n        - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"a100\"'}\n",
    )
    .unwrap();
    let o = live.run(&["lint", "--cluster", "-o", "json", file.to_str().unwrap()]);
    let v = json_of(&o);
    let rules: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(rules.contains(&"DRA-V209"), "{v}");
    assert!(rules.contains(&"DRA-C003"), "{v}");
    // The cluster's version is the target.
    assert!(v.to_string().contains("1.36"), "{v}");
}

/// Files that name stored objects are updates: the immutable fields of
/// slices and the spec of claims are compared with what the cluster has.
#[test]
fn lint_checks_files_as_updates_of_stored_objects() {
    let live = Live::start("lint-update", Fixture::new("1.37", &small_cluster(2), &[]));
    let file = live.dir.join("update.yaml");
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: train, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, count: 3}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-1-gpu}\nspec:\n  driver: gpu.example.com\n  nodeName: node-9\n  pool: {name: node-1, generation: 2, resourceSliceCount: 1}\n  devices:\n  - name: gpu-0\n",
    )
    .unwrap();
    let v = json_of(&live.run(&["lint", "--cluster", "-o", "json", file.to_str().unwrap()]));
    let found: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["rule"].as_str().unwrap().to_owned(),
                d["field"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(found.contains(&("DRA-V168".into(), "spec".into())), "{v}");
    assert!(
        found.contains(&("DRA-V016".into(), "spec.nodeName".into())),
        "{v}"
    );
    // The stored count (2) is named.
    assert!(
        v.to_string()
            .contains("exactly.count is 3 in the file and 2"),
        "{v}"
    );

    // Unchanged: the same claim as stored is a valid update.
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: train, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: gpu, count: 2}\n",
    )
    .unwrap();
    let o = live.run(&["lint", "--cluster", "-o", "json", file.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

#[test]
fn forbidden_list_names_the_grant() {
    let mut f = Fixture::new("1.37", &small_cluster(1), &[]);
    f.deny
        .push(("/apis/resource.k8s.io/v1/deviceclasses".into(), 403));
    let live = Live::start("forbidden", f);
    let o = live.run(&["explain", "claim", "train"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains(
            "refused to list deviceclasses.resource.k8s.io (403 Forbidden for user \"alice\")"
        ),
        "{e}"
    );
    assert!(
        e.contains("kind: ClusterRole") && e.contains("verbs: [get, list]"),
        "{e}"
    );
}

#[test]
fn claims_of_other_namespaces_forbidden_is_a_warning() {
    let mut f = Fixture::new("1.37", &small_cluster(1), &[]);
    f.deny
        .push(("/apis/resource.k8s.io/v1/resourceclaims".into(), 403));
    f.metrics = None;
    let live = Live::start("partial", f);
    let o = live.run(&["explain", "claim", "train", "-o", "json"]);
    let e = stderr(&o);
    assert!(
        e.contains("warning: could not list ResourceClaims in all namespaces"),
        "{e}"
    );
    assert!(
        e.contains("devices held by claims in other namespaces look free"),
        "{e}"
    );
    assert!(
        e.contains("feature gates: the defaults of Kubernetes 1.37"),
        "{e}"
    );
    // team-b's claim holds node-0/gpu-0 but cannot be seen: node-0 looks free.
    assert_eq!(json_of(&o)["summary"]["allocated"], 1);
    assert!(live
        .server
        .log()
        .iter()
        .any(|r| r.path == "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"));
}

#[test]
fn each_failure_has_one_clear_paragraph_and_exit_2() {
    // 401: a user the server does not know.
    let live = Live::start("errors", Fixture::new("1.37", &small_cluster(1), &[]));
    let o = live.run(&["devices", "--context", "bad-user"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did not accept the credentials to get /version (401 Unauthorized"),
        "{}",
        stderr(&o)
    );

    // 404: a 1.33 cluster serves no resource.k8s.io/v1.
    live.server.set_fixture(|f| {
        f.version = "v1.33.4".into();
        f.serves_v1 = false;
    });
    let o = live.run(&["devices"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("resource.k8s.io/v1 is served from 1.34"),
        "{}",
        stderr(&o)
    );
    live.server.set_fixture(|f| {
        f.version = "v1.35.1".into();
        f.serves_v1 = false;
    });
    let o = live.run(&["devices"]);
    assert!(stderr(&o).contains("does not serve resource.k8s.io/v1: it is older than 1.34, or DynamicResourceAllocation is off"), "{}", stderr(&o));

    // 429 then success: retried, bounded.
    live.server.set_fixture(|f| {
        f.version = "v1.37.0".into();
        f.serves_v1 = true;
        f.script.insert(
            "/apis/resource.k8s.io/v1/resourceslices".into(),
            [429, 429].into(),
        );
    });
    let o = live.run(&["devices", "-o", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));

    // 500: no retry, a paragraph.
    live.server.set_fixture(|f| {
        f.script.insert(
            "/apis/resource.k8s.io/v1/resourceslices".into(),
            [500].into(),
        );
    });
    let o = live.run(&["devices"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the cluster failed to list resourceslices.resource.k8s.io (500"),
        "{}",
        stderr(&o)
    );

    // 429 for good: gives up after a bounded number of retries.
    live.server.set_fixture(|f| {
        f.script.insert(
            "/apis/resource.k8s.io/v1/resourceslices".into(),
            [429; 10].into(),
        );
    });
    live.server.clear_log();
    let o = live.run(&["devices"]);
    assert_eq!(o.status.code(), Some(2));
    let tries = live
        .server
        .log()
        .iter()
        .filter(|r| r.path == "/apis/resource.k8s.io/v1/resourceslices")
        .count();
    assert_eq!(tries, 4, "one try and three retries");

    // A stalled answer: the request timeout fires.
    live.server.set_fixture(|f| {
        f.script.clear();
        f.stall = Some((
            "/apis/resource.k8s.io/v1/deviceclasses".into(),
            std::time::Duration::from_secs(5),
        ));
    });
    let started = std::time::Instant::now();
    let o = live.run(&["explain", "claim", "train", "--request-timeout", "1s"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no answer to list deviceclasses.resource.k8s.io within 1s"),
        "{}",
        stderr(&o)
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn tls_and_unreachable_servers() {
    let live = Live::start("tls", Fixture::new("1.37", &small_cluster(1), &[]));
    // Another CA than the one that signed the server's certificate.
    let other = Server::start(Fixture::new("1.37", &[], &[]));
    let text = std::fs::read_to_string(&live.kubeconfig).unwrap();
    let other_dir = scratch("tls-other");
    let other_cfg = std::fs::read_to_string(other.kubeconfig(&other_dir, "default")).unwrap();
    let ca_line = |t: &str| {
        t.lines()
            .find(|l| l.contains("certificate-authority-data"))
            .unwrap()
            .to_owned()
    };
    let bad = live.dir.join("bad-ca");
    std::fs::write(&bad, text.replace(&ca_line(&text), &ca_line(&other_cfg))).unwrap();
    let o = support::run_env(&["devices"], &[("KUBECONFIG", bad.as_os_str())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("TLS failed while trying to get /version"),
        "{}",
        stderr(&o)
    );

    // Nothing listens on the port any more.
    let port_cfg = live.dir.join("closed");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    std::fs::write(
        &port_cfg,
        text.replace(&live.server.url, &format!("https://127.0.0.1:{port}")),
    )
    .unwrap();
    let o = support::run_env(&["devices"], &[("KUBECONFIG", port_cfg.as_os_str())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot reach the apiserver to get /version"),
        "{}",
        stderr(&o)
    );

    // No kubeconfig at all, outside a cluster.
    let o = support::run_env(
        &["devices"],
        &[
            ("KUBECONFIG", OsStr::new("/nonexistent/kubeconfig")),
            ("HOME", OsStr::new("/nonexistent")),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot configure the connection"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn explain_pod_reads_the_pod_and_its_template() {
    let mut objects = small_cluster(1);
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "worker", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}]}}));
    let live = Live::start("pod", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "worker", "-n", "ml", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["nodes"][0]["claims"][0]["name"], "worker-gpu", "{v}");
    let o = live.run(&["explain", "pod", "ml/ghost"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no Pod ml/ghost in the cluster"),
        "{}",
        stderr(&o)
    );
}

/// `explain pods` live: the pods of the namespace that use claims, read as
/// `snapshot` reads them, each decided with its template (issue 32).
#[test]
fn explain_pods_reads_the_namespace_pods() {
    let mut objects = small_cluster(1);
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
        "metadata": {"name": "many-gpus", "namespace": "ml"},
        "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu", "count": 64}}]}}}}));
    for name in ["a", "b"] {
        objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "many-gpus"}],
                     "containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}]}}));
    }
    // Bound: not pending.
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bound", "namespace": "ml"},
        "spec": {"nodeName": "node-0", "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "many-gpus"}],
                 "containers": [{"name": "c", "image": "x"}]}}));
    let live = Live::start("pods", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pods", "-n", "ml", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["pending"], 2, "{v}");
    assert_eq!(v["groups"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["groups"][0]["pods"], 2, "{v}");
    // One evaluation, shared: the second pod's answer names its own claim.
    assert_eq!(v["evaluations"], 1, "{v}");
    assert!(
        v["pods"][1]["explain"]["verdict"]["fatalError"]["error"]
            .as_str()
            .unwrap()
            .starts_with("claim ml/b-gpu:"),
        "{v}"
    );
}

/// What holds a pod before any device, read live as kube-scheduler reads
/// it: scheduling gates survive the cluster read (a gated pod is its own
/// cause), and a claim the cluster does not have is PreFilter's stop, not
/// an error of the command.
#[test]
fn explain_pods_live_sees_gates_and_missing_claims() {
    let mut objects = small_cluster(1);
    objects.push(one_gpu_template());
    objects.push(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "queued", "namespace": "ml"},
        "spec": {"schedulingGates": [{"name": "kueue.x-k8s.io/admission"}],
                 "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x"}]}}),
    );
    objects.push(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "orphan", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimName": "gone"}],
                 "containers": [{"name": "c", "image": "x"}]}}),
    );
    let live = Live::start("gates", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pods", "-n", "ml", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(v["pending"], 2, "{v}");
    assert_eq!(v["schedulingGated"], 1, "{v}");
    assert_eq!(v["blockedOnDevices"], 1, "{v}");
    let kinds: Vec<&str> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|g| g["kind"].as_str())
        .collect();
    assert!(kinds.contains(&"schedulingGated"), "{v}");
    assert!(kinds.contains(&"preFilter.claimMissing"), "{v}");
    let o = live.run(&["explain", "pod", "orphan", "-n", "ml", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(
        v["verdict"]["preFilter"]["message"], "could not find ResourceClaim \"ml/gone\"",
        "{v}"
    );
}

/// NodeResourcesFit on a live cluster: the read keeps each Node's
/// allocatable and the pods bound to nodes (not only those with claims),
/// so `explain pods -A` takes what a running pod requests off its node
/// (NodeInfo.Requested): 4 CPUs, 3 taken, and a pending pod asking for 2
/// cannot run there. A pending pod with extended resources and no claim is
/// kept as well (it was dropped).
#[test]
fn explain_pods_live_counts_what_bound_pods_request() {
    let mut objects = small_cluster(1);
    for o in objects.iter_mut() {
        if o["kind"] == "Node" {
            o["status"] = json!({"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}});
        }
    }
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "3"}}}]},
        "status": {"phase": "Running"}}));
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "done", "namespace": "default"},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "4"}}}]},
        "status": {"phase": "Succeeded"}}));
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2"}}}]}}));
    // A pod with no claim that asks for a class's implicit extended
    // resource (DRAExtendedResource): the read keeps it too.
    objects.push(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "legacy", "namespace": "ml"},
        "spec": {"containers": [{"name": "c", "image": "x",
                 "resources": {"limits": {"deviceclass.resource.kubernetes.io/gpu": "1"}}}]}}),
    );
    let live = Live::start("node-fit", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pods", "-A", "-o", "json"]);
    let v = json_of(&o);
    let big = v["pods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "big")
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(v["pending"], 2, "{v}");
    assert!(
        v["pods"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "legacy"),
        "{v}"
    );
    let causes = big["explain"]["verdict"]["causes"].to_string();
    assert!(causes.contains("Insufficient cpu"), "{v}");
    assert_eq!(
        big["explain"]["verdict"]["fitsWhereExcluded"][0]["node"], "node-0",
        "{v}"
    );
}

/// NodeResourcesFit counts every namespace's pods on a node, whatever the
/// command reads of one namespace: `explain pod ml/big`, `explain pods -n
/// ml` and `capacity pod ml/big` read the bound pods of every namespace in
/// one list (the scheduler's own selector: bound, not Succeeded or Failed),
/// so `default/web`'s 3 CPUs are taken off node-0's 4. Before, only the
/// command's namespace (or nothing, for one pod) was counted and node-0
/// "fit". Where listing every namespace's pods is forbidden, the answer says
/// what it could not count.
#[test]
fn one_namespace_still_counts_every_bound_pod() {
    let mut objects = small_cluster(1);
    for o in objects.iter_mut() {
        if o["kind"] == "Node" {
            o["status"] = json!({"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}});
        }
    }
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "3"}}}]},
        "status": {"phase": "Running"}}));
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2"}}}]}}));
    let live = Live::start("node-fit-ns", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "ml/big", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_of(&o);
    assert!(
        v["verdict"]["causes"]
            .to_string()
            .contains("Insufficient cpu"),
        "{v}"
    );
    let listed: Vec<String> = live
        .server
        .log()
        .iter()
        .filter(|l| l.path == "/api/v1/pods")
        .map(|l| l.query.clone())
        .collect();
    // The bound pods, then those nominated for a node: two lists.
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(
        listed[0].contains(
            "fieldSelector=spec.nodeName%21%3D%2Cstatus.phase%21%3DSucceeded%2Cstatus.phase%21%3DFailed"
        ),
        "{listed:?}"
    );
    let o = live.run(&["explain", "pods", "-n", "ml", "-o", "json"]);
    let v = json_of(&o);
    assert!(
        v["pods"][0]["explain"]["verdict"]["causes"]
            .to_string()
            .contains("Insufficient cpu"),
        "{v}"
    );
    let o = live.run(&["capacity", "pod", "ml/big", "-o", "json"]);
    assert_eq!(
        json_of(&o)["total"],
        0,
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Forbidden: the pod fits on what kubectl-dra could read, and says so.
    live.server
        .set_fixture(|f| f.deny.push(("/api/v1/pods".into(), 403)));
    let o = live.run(&["explain", "pod", "ml/big"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("could not list Pods in all namespaces"),
        "{}",
        stderr(&o)
    );
}

/// VolumeBinding and VolumeZone on a live cluster: for a pod with a PVC
/// volume (and only then) the PVCs of its namespace, the PVs and the
/// StorageClasses are read; the bound PV's node affinity rules node-0 out,
/// a missing PVC stops the pod before any node, and a snapshot replays the
/// same verdict. Forbidden, the answer says the volumes were not checked.
#[test]
fn explain_pod_reads_the_volumes_the_scheduler_filters_on() {
    let mut objects = small_cluster(2);
    objects.push(one_gpu_template());
    let pod = |name: &str, volumes: Value| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ml"},
            "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                     "containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}],
                     "volumes": volumes}})
    };
    objects.push(pod(
        "db",
        json!([{"name": "data", "persistentVolumeClaim": {"claimName": "data"}},
                                 {"name": "token", "secret": {"secretName": "db-token"}}]),
    ));
    objects.push(pod(
        "lost",
        json!([{"name": "data", "persistentVolumeClaim": {"claimName": "nowhere"}}]),
    ));
    objects.push(pod(
        "plain",
        json!([{"name": "token", "secret": {"secretName": "db-token"}}]),
    ));
    objects.push(json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": "data", "namespace": "ml", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
        "spec": {"volumeName": "pv-data", "storageClassName": "standard", "accessModes": ["ReadWriteOnce"],
                 "resources": {"requests": {"storage": "10Gi"}}},
        "status": {"phase": "Bound"}}));
    objects.push(json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-data"},
        "spec": {"capacity": {"storage": "10Gi"}, "storageClassName": "standard",
                 "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["b"]}]}]}}}}));
    objects.push(json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "standard"},
        "provisioner": "pd.csi.storage.gke.io", "volumeBindingMode": "WaitForFirstConsumer"}));
    // A ReadWriteOncePod PVC a running pod uses (VolumeRestrictions): its
    // volumes survive the bound pods' reduction.
    objects.push(json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": "solo", "namespace": "ml", "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
        "spec": {"volumeName": "pv-solo", "accessModes": ["ReadWriteOncePod"], "resources": {"requests": {"storage": "1Gi"}}}}));
    objects.push(
        json!({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-solo"},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOncePod"]}}),
    );
    objects.push(
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "first", "namespace": "ml"},
        "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "x"}],
                 "volumes": [{"name": "solo", "persistentVolumeClaim": {"claimName": "solo"}}]},
        "status": {"phase": "Running"}}),
    );
    objects.push(pod(
        "second",
        json!([{"name": "solo", "persistentVolumeClaim": {"claimName": "solo"}}]),
    ));
    let live = Live::start("volumes", Fixture::new("1.37", &objects, &[]));
    let read_storage = |live: &Live| {
        live.server
            .log()
            .iter()
            .filter(|l| {
                [
                    "persistentvolumeclaims",
                    "persistentvolumes",
                    "storageclasses",
                ]
                .iter()
                .any(|p| l.path.ends_with(p))
            })
            .map(|l| l.path.clone())
            .collect::<Vec<_>>()
    };
    let argv = ["explain", "pod", "ml/db", "-o", "json"];
    let o = live.run(&argv);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert!(
        v["verdict"]
            .to_string()
            .contains("node(s) had volume node affinity conflict"),
        "{v}"
    );
    let mut paths = read_storage(&live);
    paths.sort();
    assert_eq!(
        paths,
        [
            "/api/v1/namespaces/ml/persistentvolumeclaims",
            "/api/v1/persistentvolumes",
            "/apis/storage.k8s.io/v1/storageclasses"
        ]
    );
    let snapshot = live.replay_from_snapshot("volumes", &["-n", "ml"], &argv, &o);
    // The pod's volumes keep their claim, never a secret's name.
    assert!(snapshot.contains("claimName: data"), "{snapshot}");
    assert!(!snapshot.contains("db-token"), "{snapshot}");
    let o = live.run(&["explain", "pod", "ml/lost", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(
        v["verdict"]["preFilter"]["kind"],
        json!({"check": "volumes", "name": "nowhere"}),
        "{v}"
    );
    assert_eq!(
        v["verdict"]["preFilter"]["message"],
        "persistentvolumeclaim \"nowhere\" not found"
    );
    let o = live.run(&["explain", "pod", "ml/second", "-o", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        json_of(&o)["verdict"]["causes"]
            .to_string()
            .contains("ReadWriteOncePod access mode"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // No PVC volume: nothing of storage is read.
    live.server.clear_log();
    let o = live.run(&["explain", "pod", "ml/plain", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read_storage(&live), Vec::<String>::new());
    // Forbidden: not checked, and said.
    live.server
        .set_fixture(|f| f.deny.push(("/api/v1/persistentvolumes".into(), 403)));
    let o = live.run(&["explain", "pod", "ml/db"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the pods' volumes are not checked"),
        "{}",
        stderr(&o)
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains("volume node affinity"));
}

/// A cluster that holds no PVC, PV or StorageClass at all: the pod's PVC
/// is not found, live and from a snapshot alike (the snapshot's header
/// says the storage was listed, so an empty list is not "not read").
#[test]
fn a_cluster_without_storage_still_checks_the_pods_volumes() {
    let mut objects = small_cluster(1);
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "db", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "resources": {"claims": [{"name": "gpu"}]}}],
                 "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]}}));
    let live = Live::start("no-storage", Fixture::new("1.37", &objects, &[]));
    let argv = ["explain", "pod", "ml/db", "-o", "json"];
    let o = live.run(&argv);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        json_of(&o)["verdict"]["preFilter"]["message"],
        "persistentvolumeclaim \"data\" not found"
    );
    let snapshot = live.replay_from_snapshot("no-storage", &["-n", "ml"], &argv, &o);
    assert!(snapshot.contains("volumesListed: true"), "{snapshot}");
}

/// InterPodAffinity on a live cluster: the bound pods of another namespace
/// keep their labels and required anti-affinity terms through the read,
/// and a term that selects namespaces by label reads the Namespaces
/// (listed metadata-only). `ml/big` must not share a zone with a pod
/// labelled `app: api` in a namespace labelled `team: serving`; one runs
/// in zone a (node-0), so node-0 is ruled out and node-1 (zone b) is not.
/// Without the Namespaces the selector selects none, and the answer says
/// why it could not tell.
#[test]
fn pod_anti_affinity_reads_other_namespaces_and_their_labels() {
    let mut objects = small_cluster(2);
    objects.push(json!({"apiVersion": "v1", "kind": "Namespace",
        "metadata": {"name": "serve", "labels": {"team": "serving"}}}));
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "api", "namespace": "serve", "labels": {"app": "api"}},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x"}]},
        "status": {"phase": "Running"}}));
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                     {"labelSelector": {"matchLabels": {"app": "api"}},
                      "namespaceSelector": {"matchLabels": {"team": "serving"}},
                      "topologyKey": "zone"}]}},
                 "containers": [{"name": "c", "image": "x"}]}}));
    let live = Live::start("inter-pod", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "ml/big", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    let node = |name: &str| node_of(&v, name);
    assert_eq!(node("node-0")["result"], "excluded", "{v}");
    assert_eq!(
        node("node-0")["reason"],
        "node(s) didn't match pod anti-affinity rules",
        "{v}"
    );
    assert_eq!(node("node-1")["result"], "allocated", "{v}");
    let ns_reads: Vec<_> = live
        .server
        .log()
        .into_iter()
        .filter(|l| l.path == "/api/v1/namespaces")
        .collect();
    assert_eq!(ns_reads.len(), 1, "{ns_reads:?}");
    assert!(
        ns_reads[0]
            .accept
            .starts_with("application/json;as=PartialObjectMetadataList"),
        "{ns_reads:?}"
    );
    // Forbidden: that exact path (a prefix would deny the namespaced reads).
    live.server.set_fixture(|f| {
        f.script
            .insert("/api/v1/namespaces".into(), [403].into_iter().collect());
    });
    let o = live.run(&["explain", "pod", "ml/big", "-o", "json"]);
    assert!(
        stderr(&o).contains("could not list Namespaces"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        json_of(&o)["nodes"][0]["result"],
        "allocated",
        "{}",
        stderr(&o)
    );
}

/// PodTopologySpread on a live cluster: the read keeps the pending pod's
/// `topologySpreadConstraints` and the bound pods' labels, so zone a
/// (node-0, one replica) is ruled out for a second replica with maxSkew 1
/// while zone b (node-1, none) is empty.
#[test]
fn topology_spread_reads_the_constraints_and_bound_replicas() {
    let mut objects = small_cluster(2);
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "s0", "namespace": "ml", "labels": {"app": "s"}},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x"}]},
        "status": {"phase": "Running"}}));
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "s1", "namespace": "ml", "labels": {"app": "s"}},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone",
                     "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "s"}}}],
                 "containers": [{"name": "c", "image": "x"}]}}));
    let live = Live::start("spread", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "ml/s1", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    let node = |name: &str| node_of(&v, name);
    assert_eq!(
        node("node-0")["reason"],
        "node(s) didn't match pod topology spread constraints",
        "{v}"
    );
    assert_eq!(node("node-1")["result"], "allocated", "{v}");
}

/// NodePorts on a live cluster: a bound pod of another namespace keeps its
/// containers' ports through the read, so its host port rules node-0 out.
#[test]
fn a_host_port_taken_in_another_namespace_rules_the_node_out() {
    let mut objects = small_cluster(2);
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "exporter", "namespace": "monitoring"},
        "spec": {"nodeName": "node-0", "containers": [{"name": "c", "image": "x",
                 "ports": [{"containerPort": 9100, "hostPort": 9100}]}]},
        "status": {"phase": "Running"}}));
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "ports": [{"containerPort": 9100, "hostPort": 9100}]}]}}));
    let live = Live::start("ports", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "ml/p", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert!(
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["node"] == "node-0"
                && n["reason"] == "node(s) didn't have free ports for the requested pod ports"),
        "{v}"
    );
    assert_eq!(v["verdict"]["allocatedOn"][0], "node-1", "{v}");
}

/// Nominated pods on a live cluster (RunFilterPluginsWithNominatedPods):
/// the read lists the pods nominated for a node and not yet bound (the
/// scheduler's own terms as a field selector), so a preemptor of higher
/// priority nominated for node-0 takes its 3 CPUs there, and the pending
/// pod asking for 2 of node-0's 4 goes to node-1.
#[test]
fn a_nominated_preemptor_holds_its_node() {
    let mut objects = small_cluster(2);
    for o in objects.iter_mut() {
        if o["kind"] == "Node" {
            o["status"] = json!({"allocatable": {"cpu": "4", "memory": "16Gi", "pods": "110"}});
        }
    }
    objects.push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "preemptor", "namespace": "batch"},
        "spec": {"priority": 1000, "containers": [{"name": "c", "image": "x",
                 "resources": {"requests": {"cpu": "3"}}}]},
        "status": {"phase": "Pending", "nominatedNodeName": "node-0"}}));
    objects.push(one_gpu_template());
    objects.push(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ml"},
        "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
                 "containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2"}}}]}}));
    let live = Live::start("nominated", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "pod", "ml/p", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json_of(&o);
    assert_eq!(node_of(&v, "node-0")["reason"], "Insufficient cpu", "{v}");
    assert_eq!(v["verdict"]["allocatedOn"][0], "node-1", "{v}");
    assert!(
        live.server.log().iter().any(|l| l.path == "/api/v1/pods"
            && l.query
                .contains("fieldSelector=status.nominatedNodeName%21%3D%2Cspec.nodeName%3D")),
        "{:?}",
        live.server.log()
    );
}

/// `doctor` live: the cluster read once (nodes, slices, claims of every
/// namespace, pods that use claims), its findings named after the server.
#[test]
fn doctor_reads_the_cluster_state() {
    let mut objects = small_cluster(1);
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "leaked", "namespace": "ml"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
        "status": {"allocation": {"devices": {"results": [
            {"request": "gpu", "driver": "gpu.example.com", "pool": "node-0", "device": "gone"}]}}}}));
    let live = Live::start("doctor", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["doctor", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "warnings only: {}", stderr(&o));
    let v = json_of(&o);
    let rules: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"DRA-H002") && rules.contains(&"DRA-H003"),
        "{v}"
    );
    assert!(
        v["diagnostics"][0]["file"]
            .as_str()
            .unwrap()
            .starts_with("<cluster https://127.0.0.1:"),
        "{v}"
    );
}

/// The bundled examples (partitionable GPUs, compatibility groups,
/// consumable bandwidth, extended resources, templates, firstAvailable) as a
/// 1.37 cluster with every DRA feature.
fn examples_objects() -> Vec<Value> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(support::root().join("examples"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for o in dra_core::model::parse_file(0, &text, dra_core::yaml::Limits::default()).objects {
            out.push(o.root.to_json());
        }
    }
    out
}

#[test]
fn full_featured_1_37_cluster() {
    let gates: Vec<(String, bool)> = [
        "DRAConsumableCapacity",
        "DRAPartitionableDevices",
        "DRADeviceCompatibilityGroups",
        "DRAExtendedResource",
    ]
    .iter()
    .map(|g| (g.to_string(), true))
    .collect();
    let live = Live::start("full", Fixture::new("1.37", &examples_objects(), &gates));
    let o = live.run(&["devices", "-o", "wide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!(
        "devices_examples_wide",
        String::from_utf8(o.stdout).unwrap()
    );
    let snap = live.dir.join("snapshot.yaml");
    assert!(live
        .run(&["snapshot", "--output-file", snap.to_str().unwrap(), "-A"])
        .status
        .success());
    for claim in ["team-a/train-0", "team-a/inference-net"] {
        let live_out = json_of(&live.run(&[
            "explain", "claim", claim, "--node", "worker-1", "-o", "json",
        ]));
        assert_eq!(live_out["result"], "allocated", "{claim}: {live_out}");
        let offline = json_of(&support::run(&[
            "explain",
            "claim",
            claim,
            "--node",
            "worker-1",
            "-o",
            "json",
            "-f",
            snap.to_str().unwrap(),
        ]));
        assert_eq!(offline, live_out, "{claim}");
    }
    // The snapshot reads back through the whole pipeline: lint finds nothing new in it.
    let lint = support::run(&["lint", "-o", "json", snap.to_str().unwrap()]);
    assert_eq!(
        json_of(&lint)["summary"]["errors"],
        0,
        "{}",
        String::from_utf8_lossy(&lint.stdout)
    );
}

#[test]
fn a_1_34_cluster_is_judged_as_1_34() {
    let live = Live::start("v134", Fixture::new("1.34", &small_cluster(2), &[]));
    let o = live.run(&["explain", "claim", "train", "-o", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("does not serve resource.k8s.io/v1 DeviceTaintRules"),
        "{}",
        stderr(&o)
    );
    // A field alpha and off in 1.34 is dropped: the cluster's version is the target.
    let file = live.dir.join("slice.yaml");
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec:\n  driver: gpu.example.com\n  nodeName: node-0\n  pool: {name: node-0, generation: 1, resourceSliceCount: 1}\n  sharedCounters:\n  - name: gpu-0\n    counters: {memory: {value: 80Gi}}\n",
    )
    .unwrap();
    let v = json_of(&live.run(&["lint", "--cluster", "-o", "json", file.to_str().unwrap()]));
    assert!(
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "DRA-D001"),
        "{v}"
    );
    // --kubernetes-version still wins over the cluster's.
    let v = json_of(&live.run(&[
        "lint",
        "--cluster",
        "--kubernetes-version",
        "1.36",
        "-o",
        "json",
        file.to_str().unwrap(),
    ]));
    assert!(
        !v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["rule"] == "DRA-D001"),
        "{v}"
    );
}

#[test]
fn exec_credential_plugins_provide_the_token() {
    let live = Live::start("exec", Fixture::new("1.37", &small_cluster(1), &[]));
    let text = std::fs::read_to_string(&live.kubeconfig).unwrap();
    let exec = format!(
        "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: sh\n      args: [\"-c\", \"printf '%s' '{{\\\"apiVersion\\\":\\\"client.authentication.k8s.io/v1\\\",\\\"kind\\\":\\\"ExecCredential\\\",\\\"status\\\":{{\\\"token\\\":\\\"{}\\\"}}}}'\"]\n      interactiveMode: Never\n",
        apiserver::TOKEN
    );
    let cfg = live.dir.join("exec-kubeconfig");
    std::fs::write(
        &cfg,
        text.replace(&format!("    token: {}\n", apiserver::TOKEN), &exec),
    )
    .unwrap();
    let o = support::run_env(
        &["devices", "-o", "json"],
        &[("KUBECONFIG", cfg.as_os_str())],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_of(&o)["devices"].as_array().unwrap().len(), 2);
}

/// A token pasted as a block scalar (`token: |`, trailing newline) or with
/// CR LF is cleaned, not a panic in the HTTP layer; a token with other control
/// characters is refused naming the user, never the token.
#[test]
fn kubeconfig_tokens_with_line_ends_are_cleaned() {
    let live = Live::start("token-ws", Fixture::new("1.37", &small_cluster(1), &[]));
    let text = std::fs::read_to_string(&live.kubeconfig).unwrap();
    let plain = format!("    token: {}\n", apiserver::TOKEN);
    for (name, token) in [
        (
            "block",
            format!("    token: |\n      {}\n", apiserver::TOKEN),
        ),
        (
            "crlf",
            format!("    token: \"{}\\r\\n\"\n", apiserver::TOKEN),
        ),
    ] {
        let cfg = live.dir.join(format!("{name}-kubeconfig"));
        std::fs::write(&cfg, text.replace(&plain, &token)).unwrap();
        let o = support::run_env(
            &["devices", "-o", "json"],
            &[("KUBECONFIG", cfg.as_os_str())],
        );
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
    let cfg = live.dir.join("ctl-kubeconfig");
    std::fs::write(
        &cfg,
        text.replace(
            &plain,
            &format!("    token: \"ab\\u0007{}\"\n", apiserver::TOKEN),
        ),
    )
    .unwrap();
    let o = support::run_env(
        &["devices", "-o", "json"],
        &[("KUBECONFIG", cfg.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("has control or non-ASCII characters"), "{err}");
    assert!(!err.contains(apiserver::TOKEN), "{err}");
}

/// A FIFO as kubeconfig is refused, not waited on.
#[cfg(unix)]
#[test]
fn a_fifo_kubeconfig_is_refused() {
    let dir = scratch("fifo-kubeconfig");
    let fifo = dir.join("config");
    if !std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        return;
    }
    let o = support::run_env(&["devices"], &[("KUBECONFIG", fifo.as_os_str())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
}

/// `lint --cluster manifests/`: the directory is a path, not the cluster's
/// name; `--cluster` means the current context wherever it stands.
#[test]
fn lint_cluster_before_a_path() {
    let live = Live::start(
        "lint-cluster-path",
        Fixture::new("1.36", &small_cluster(1), &[]),
    );
    let dir = live.dir.join("manifests");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("class.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: Bad_Name}\n",
    )
    .unwrap();
    let o = live.run(&["lint", "-o", "json", "--cluster", dir.to_str().unwrap()]);
    let v = json_of(&o);
    assert_eq!(v["summary"]["files"], 1, "only the directory given: {v}");
    assert!(v.to_string().contains("DRA-V110"), "{v}");
    assert_eq!(
        v["kubernetesVersion"], "1.36",
        "the cluster is the target: {v}"
    );
}

/// A server whose continue tokens cycle is cut off with an error naming
/// the list, not followed forever.
#[test]
fn cycling_pagination_is_an_error() {
    let mut fixture = Fixture::new("1.37", &small_cluster(2), &[]);
    fixture.cycle_continue = true;
    let live = Live::start("cycle", fixture);
    let o = live.run(&["devices", "-o", "json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("continue token it gave before"),
        "{}",
        stderr(&o)
    );
}

/// An exec plugin that never exits is killed at --request-timeout; one that
/// prints a raw token instead of an ExecCredential is refused without
/// showing what it printed.
#[test]
fn exec_plugins_are_bounded_and_never_echoed() {
    let live = Live::start("exec-bad", Fixture::new("1.37", &small_cluster(1), &[]));
    let text = std::fs::read_to_string(&live.kubeconfig).unwrap();
    let with_exec = |script: &str| {
        text.replace(
            &format!("    token: {}\n", apiserver::TOKEN),
            &format!("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: sh\n      args: [\"-c\", \"{script}\"]\n      interactiveMode: Never\n"),
        )
    };
    let hang = live.dir.join("hang-kubeconfig");
    std::fs::write(&hang, with_exec("sleep 60")).unwrap();
    let o = support::run_env(
        &["devices", "--request-timeout", "1s"],
        &[("KUBECONFIG", hang.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(2));
    // The plugin was killed, not waited on to its end.
    assert!(
        stderr(&o).contains("did not finish within 1s"),
        "{}",
        stderr(&o)
    );
    let raw = live.dir.join("raw-kubeconfig");
    std::fs::write(&raw, with_exec("printf super-secret-token-123")).unwrap();
    let o = support::run_env(&["devices"], &[("KUBECONFIG", raw.as_os_str())]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("not an ExecCredential"), "{err}");
    assert!(!err.contains("super-secret-token-123"), "{err}");
}

/// `--kubeconfig` gets the same care as `KUBECONFIG`: its exec plugin runs
/// under the deadline, and a file it names (certificate authority, client
/// key, token file) that is a device or FIFO is refused, not read forever.
#[cfg(unix)]
#[test]
fn kubeconfig_flag_and_the_files_it_names_are_bounded() {
    let live = Live::start("kc-flag", Fixture::new("1.37", &small_cluster(1), &[]));
    let text = std::fs::read_to_string(&live.kubeconfig).unwrap();
    let hang = live.dir.join("hang-kubeconfig");
    std::fs::write(
        &hang,
        text.replace(
            &format!("    token: {}\n", apiserver::TOKEN),
            "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: sh\n      args: [\"-c\", \"sleep 60\"]\n      interactiveMode: Never\n",
        ),
    )
    .unwrap();
    let o = support::run(&[
        "devices",
        "--request-timeout",
        "1s",
        "--kubeconfig",
        hang.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did not finish within 1s"),
        "{}",
        stderr(&o)
    );
    let zero = live.dir.join("zero-kubeconfig");
    std::fs::write(
        &zero,
        text.replace(
            &format!("    token: {}\n", apiserver::TOKEN),
            "    tokenFile: /dev/zero\n",
        ),
    )
    .unwrap();
    for (how, env) in [("flag", None), ("env", Some(zero.as_os_str()))] {
        let o = match env {
            None => support::run(&["devices", "--kubeconfig", zero.to_str().unwrap()]),
            Some(e) => support::run_env(&["devices"], &[("KUBECONFIG", e)]),
        };
        assert_eq!(o.status.code(), Some(2), "{how}");
        let err = stderr(&o);
        assert!(
            err.contains("tokenFile file /dev/zero is not a regular file"),
            "{how}: {err}"
        );
    }
}

/// $KUBECONFIG lists files to merge, as client-go's loading rules read it:
/// a missing one is skipped (it was an error), the first file to set a
/// value wins, and a directory is refused by name.
#[test]
fn kubeconfig_lists_skip_missing_files_and_merge() {
    let live = Live::start(
        "kubeconfig-list",
        Fixture::new("1.37", &small_cluster(1), &[]),
    );
    // A second file with another context that the first file's
    // current-context wins over.
    let other = live.dir.join("other");
    std::fs::write(
        &other,
        "apiVersion: v1\nkind: Config\ncurrent-context: elsewhere\nclusters:\n- name: elsewhere\n  cluster: {server: 'https://127.0.0.1:1'}\ncontexts:\n- name: elsewhere\n  context: {cluster: elsewhere, user: nobody}\nusers:\n- name: nobody\n  user: {token: x}\n",
    )
    .unwrap();
    let list = std::env::join_paths([
        live.dir.join("missing"),
        live.kubeconfig.clone(),
        other.clone(),
    ])
    .unwrap();
    let o = support::run_env(
        &["devices", "-o", "json"],
        &[
            ("KUBECONFIG", list.as_os_str()),
            ("NO_COLOR", OsStr::new("1")),
        ],
    );
    live.assert_read_only();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(json_of(&o)["devices"].as_array().unwrap().len(), 2);

    let o = support::run_env(&["devices"], &[("KUBECONFIG", live.dir.as_os_str())]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
}

/// One node with one GPU, a template and a pod using it; `node` and
/// `pod_spec` are merged into the Node's and the Pod's spec.
fn filter_cluster(node: Value, labels: Value, pod_spec: Value) -> Vec<Value> {
    let mut spec = json!({"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "one-gpu"}],
        "containers": [{"name": "c", "image": "x", "env": [{"name": "TOKEN", "value": "s3cret-env"}],
                        "resources": {"claims": [{"name": "gpu"}]}}]});
    for (k, v) in pod_spec.as_object().unwrap() {
        spec[k] = v.clone();
    }
    vec![
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "worker-1", "labels": labels}, "spec": node,
               "status": {"images": [{"names": ["registry/driver:1"], "sizeBytes": 1}]}}),
        json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu"},
            "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}),
        slice_on("worker-1"),
        json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate",
            "metadata": {"name": "one-gpu", "namespace": "ml"},
            "spec": {"spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}}}}),
        json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "worker", "namespace": "ml", "uid": "pod-uid",
                         "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"password\":\"s3cret-annotation\"}"}},
            "spec": spec}),
    ]
}

fn slice_on(node: &str) -> Value {
    json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": format!("{node}-gpu")},
        "spec": {"driver": "gpu.example.com", "nodeName": node,
                 "pool": {"name": node, "generation": 1, "resourceSliceCount": 1},
                 "devices": [{"name": "gpu-0"}]}})
}

/// Every node filter `explain pod` applies (TaintToleration,
/// NodeUnschedulable, NodeAffinity from nodeSelector and required affinity,
/// NodeName) gives the same verdict from files, from the cluster and from
/// its snapshot; the snapshot keeps what the filters read and no secret.
#[test]
fn explain_pod_filters_agree_from_files_cluster_and_snapshot() {
    let taint =
        json!({"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]});
    let gpu = json!({"pool": "gpu"});
    let affinity = |op: &str| {
        json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": op, "values": ["gpu"]}]}]}}}})
    };
    // (name, node spec, pod spec additions, schedulable, what the verdict names)
    let cases: Vec<(&str, Value, Value, bool, &str)> = vec![
        (
            "taint",
            taint.clone(),
            json!({}),
            false,
            "nvidia.com/gpu=present:NoSchedule",
        ),
        (
            "taint-tolerated",
            taint,
            json!({"tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists"}]}),
            true,
            "",
        ),
        (
            "cordon",
            json!({"unschedulable": true}),
            json!({}),
            false,
            "unschedulable",
        ),
        (
            "node-selector",
            json!({}),
            json!({"nodeSelector": {"pool": "cpu"}}),
            false,
            "pool",
        ),
        ("affinity-in", json!({}), affinity("In"), true, ""),
        (
            "affinity-not-in",
            json!({}),
            affinity("NotIn"),
            false,
            "affinity",
        ),
        (
            "node-name",
            json!({}),
            json!({"nodeName": "worker-1"}),
            false,
            "nodeName",
        ),
    ];
    for (name, node, pod, schedulable, names) in cases {
        let objects = filter_cluster(node, gpu.clone(), pod);
        let live = Live::start(
            &format!("filter-{name}"),
            Fixture::new("1.37", &objects, &[]),
        );
        let argv = ["explain", "pod", "ml/worker", "-o", "json"];
        let live_out = live.run(&argv);
        let live_json = json_of(&live_out);
        assert_eq!(
            live_json["verdict"]["schedulable"],
            json!(schedulable),
            "{name}: {live_json}"
        );
        assert_eq!(
            live_out.status.code(),
            Some(if schedulable { 0 } else { 1 }),
            "{name}"
        );
        if !names.is_empty() {
            let text = live.run(&["explain", "pod", "ml/worker"]);
            let text = String::from_utf8_lossy(&text.stdout).into_owned();
            assert!(
                // Among the first lines (wrapped at 100 columns).
                text.lines().take(4).any(|l| l.contains(names)),
                "{name}: {text}"
            );
        }

        let file = live.dir.join("case.yaml");
        support::write_objects(&objects, &file);
        let from_files = support::run(&[
            "explain",
            "pod",
            "ml/worker",
            "-o",
            "json",
            "-f",
            file.to_str().unwrap(),
        ]);
        assert_eq!(
            json_of(&from_files),
            live_json,
            "{name}: files differ from live"
        );

        let text = live.replay_from_snapshot(name, &["-A"], &argv, &live_out);
        for secret in ["s3cret-env", "s3cret-annotation", "registry/driver"] {
            assert!(
                !text.contains(secret),
                "{name}: the snapshot keeps {secret}:\n{text}"
            );
        }
    }
}

/// Every key of `recorded` is in `served`, with the same JSON type; kinds,
/// API versions, Status reasons and codes are equal.
fn same_shape(recorded: &Value, served: &Value, at: &str) -> Result<(), String> {
    match (recorded, served) {
        (Value::Object(r), Value::Object(s)) => {
            for (k, rv) in r {
                let sv = s
                    .get(k)
                    .ok_or_else(|| format!("{at}.{k}: missing in {served}"))?;
                if matches!(
                    k.as_str(),
                    "kind" | "apiVersion" | "reason" | "code" | "status"
                ) && rv.is_string() | rv.is_number()
                    && rv != sv
                {
                    return Err(format!("{at}.{k}: recorded {rv}, served {sv}"));
                }
                same_shape(rv, sv, &format!("{at}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(r), Value::Array(s)) => match (r.first(), s.first()) {
            (Some(r0), Some(s0)) => same_shape(r0, s0, &format!("{at}[0]")),
            (Some(_), None) => Err(format!("{at}: served an empty list")),
            _ => Ok(()),
        },
        (r, s) if std::mem::discriminant(r) == std::mem::discriminant(s) => Ok(()),
        (Value::Number(_), Value::Number(_)) => Ok(()),
        (r, s) => Err(format!("{at}: recorded {r}, served {s}")),
    }
}

/// The stand-in answers the read path as kube-apiserver does, checked
/// against the answers the Kubernetes documentation records
/// (testdata/apiserver/README.md names each source): paging with
/// `remainingItemCount`, 410 Expired, Table and metadata-only lists, 406
/// for a media type it does not serve, label and field selectors (and 400
/// for an unsupported field label), `resourceVersionMatch` rules, objects
/// with server-set metadata and API defaults.
#[test]
fn stand_in_answers_as_kube_apiserver_does() {
    let mut objects = vec![];
    for i in 0..3 {
        objects.push(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": format!("foo-{i}"), "namespace": "default", "labels": {"app": if i == 0 { "a" } else { "b" }}},
            "spec": {"nodeName": format!("node-{i}"), "containers": [{"name": "c"}]}}));
    }
    objects.push(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node-0"}}));
    let mut fixture = Fixture::new("1.37", &objects, &[]);
    fixture.expire_first_continue = true;
    let live = Live::start("stand-in", fixture);
    let ca = live.dir.join("ca.pem");
    std::fs::write(&ca, &live.server.ca_pem).unwrap();
    let get = |path: &str, accept: &str| -> (u16, Value) {
        let o = std::process::Command::new("curl")
            .args(["-sS", "--cacert", ca.to_str().unwrap(), "-H"])
            .arg(format!("Authorization: Bearer {}", apiserver::TOKEN))
            .args(["-H", &format!("Accept: {accept}"), "-w", "\n%{http_code}"])
            .arg(format!("{}{path}", live.server.url))
            .output()
            .expect("curl");
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let (body, code) = text.rsplit_once('\n').unwrap();
        (
            code.parse().unwrap(),
            serde_json::from_str(body).unwrap_or(Value::Null),
        )
    };
    let recorded = |name: &str| -> Value {
        serde_json::from_str(
            &std::fs::read_to_string(support::root().join("testdata/apiserver").join(name))
                .unwrap(),
        )
        .unwrap()
    };
    let json = "application/json";
    let (code, first) = get("/api/v1/pods?limit=1", json);
    assert_eq!(code, 200);
    same_shape(&recorded("list-chunk.json"), &first, "").unwrap();
    assert_eq!(first["metadata"]["remainingItemCount"], 2);
    let token = first["metadata"]["continue"].as_str().unwrap().to_owned();
    let (code, expired) = get(&format!("/api/v1/pods?limit=1&continue={token}"), json);
    assert_eq!(code, 410);
    same_shape(&recorded("expired.json"), &expired, "").unwrap();
    assert_eq!(expired, recorded("expired.json"));
    let (code, table) = get(
        "/api/v1/pods",
        "application/json;as=Table;g=meta.k8s.io;v=v1",
    );
    assert_eq!(code, 200);
    same_shape(&recorded("table.json"), &table, "").unwrap();
    let (code, meta) = get(
        "/api/v1/nodes",
        "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
    );
    assert_eq!(code, 200);
    same_shape(&recorded("metadata-list.json"), &meta, "").unwrap();
    assert!(meta["items"][0].get("spec").is_none(), "{meta}");
    let (code, refused) = get("/api/v1/pods", "application/vnd.kubernetes.protobuf");
    assert_eq!((code, &refused), (406, &recorded("not-acceptable.json")));
    let (code, bad) = get(
        "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue",
        json,
    );
    assert_eq!((code, &bad), (400, &recorded("field-label.json")));
    let names = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["metadata"]["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        names(&get("/api/v1/pods?labelSelector=app%3Db", json).1),
        ["foo-1", "foo-2"]
    );
    assert_eq!(
        names(&get("/api/v1/pods?labelSelector=app!%3Db", json).1),
        ["foo-0"]
    );
    assert_eq!(
        names(&get("/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-2", json).1),
        ["foo-2"]
    );
    let (code, _) = get("/api/v1/pods?resourceVersionMatch=Exact", json);
    assert_eq!(code, 400);
    // Server-set metadata and the API's defaults.
    let (_, pod) = get("/api/v1/namespaces/default/pods/foo-0", json);
    assert_eq!(pod["spec"]["schedulerName"], "default-scheduler");
    assert_eq!(
        pod["spec"]["tolerations"].as_array().unwrap().len(),
        2,
        "{pod}"
    );
    assert!(pod["metadata"]["managedFields"].is_array());
    assert!(pod["metadata"]["uid"].is_string());
}

/// A view where an allocation names a device no slice holds is read once
/// more, and said when it stays so; a read past `--read-deadline` stops
/// with how far the lists got.
#[test]
fn torn_views_are_read_again_and_reads_have_a_deadline() {
    let mut objects = small_cluster(1);
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "stale", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu"}}]}},
        "status": {"allocation": {"devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-0", "device": "gpu-7"}]}}}}));
    let live = Live::start("torn", Fixture::new("1.37", &objects, &[]));
    let o = live.run(&["explain", "claim", "train", "--node", "node-0"]);
    assert!(
        stderr(&o).contains("read twice, still inconsistent: ResourceClaim default/stale is allocated device gpu.example.com/node-0/gpu-7"),
        "{}",
        stderr(&o)
    );
    let slice_lists = live
        .server
        .log()
        .iter()
        .filter(|r| r.path == "/apis/resource.k8s.io/v1/resourceslices")
        .count();
    assert_eq!(slice_lists, 2);

    live.server.set_fixture(|f| {
        f.stall = Some((
            "/apis/resource.k8s.io/v1/resourceslices".into(),
            std::time::Duration::from_secs(5),
        ))
    });
    let o = live.run(&["explain", "claim", "train", "--read-deadline", "1s"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("did not finish within --read-deadline 1s"),
        "{}",
        stderr(&o)
    );
}

/// A proxy URL's password never reaches the output, whatever the error.
#[test]
fn a_proxy_password_is_never_printed() {
    let dir = scratch("proxy");
    let kc = dir.join("kubeconfig");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n    proxy-url: http://bob:hunter2@127.0.0.1:9/\nusers:\n- name: u\n  user: {token: abc}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n",
    )
    .unwrap();
    let o = support::run_env(
        &["devices", "--request-timeout", "2s"],
        &[("KUBECONFIG", kc.as_os_str())],
    );
    assert_eq!(o.status.code(), Some(2));
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(!all.contains("hunter2") && !all.contains("bob:"), "{all}");
    assert!(all.contains("http://127.0.0.1:9/"), "{all}");
}

/// Objects a server repeats between pages are used once, and said.
#[test]
fn objects_repeated_between_pages_are_used_once() {
    let mut fixture = Fixture::new("1.37", &small_cluster(600), &[]);
    fixture.repeat_between_pages = true;
    let live = Live::start("repeat", fixture);
    let o = live.run(&["devices", "-o", "json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the server listed 1 object twice (ResourceSlice node-499-gpu)"),
        "{}",
        stderr(&o)
    );
    let v = json_of(&o);
    let devices = v
        .as_array()
        .map_or_else(|| v["devices"].as_array().map_or(0, Vec::len), Vec::len);
    assert_eq!(devices, 1200, "{v}");
}

/// The real-driver fleet (tests/fleet_drivers.rs) served by the stand-in:
/// `explain pods -A`, `doctor` and `devices --summary` answer live as they
/// do from the file, and from a snapshot of the live cluster (issue 32).
#[test]
fn the_real_driver_fleet_answers_alike_live_from_a_file_and_from_a_snapshot() {
    let path = support::root().join("testdata/fixtures/fleet-drivers/cluster.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let loaded = dra_core::yaml::load(&text, dra_core::yaml::Limits::default());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let objects: Vec<Value> = loaded.documents.iter().map(|d| d.root.to_json()).collect();
    let live = Live::start("fleet-drivers", Fixture::new("1.37", &objects, &[]));
    let file = |args: &[&str]| {
        let mut a = args.to_vec();
        a.extend(["-f", path.to_str().unwrap(), "-o", "json"]);
        json_of(&support::run(&a))
    };
    // explain pods: the same groups (kind, example, closest node, count).
    let argv = ["explain", "pods", "-A"];
    let mut live_args = argv.to_vec();
    live_args.extend(["-o", "json"]);
    let o = live.run(&live_args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(json_of(&o)["groups"], file(&argv)["groups"]);
    live.replay_from_snapshot("explain pods", &["-A"], &live_args, &o);
    // devices --summary: the same counts per node.
    let argv = ["devices", "--summary", "-g", "node"];
    let mut live_args = argv.to_vec();
    live_args.extend(["-o", "json"]);
    let o = live.run(&live_args);
    assert_eq!(
        json_of(&o)["groups"],
        file(&argv)["groups"],
        "{}",
        stderr(&o)
    );
    // doctor: the same findings on the same objects.
    let findings = |v: &Value| {
        let mut f: Vec<(String, String)> = v["diagnostics"]
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
        f.sort();
        f
    };
    live.server.clear_log();
    let o = live.run(&["doctor", "-o", "json"]);
    let live_findings = findings(&json_of(&o));
    assert_eq!(
        live_findings,
        findings(&file(&["doctor"])),
        "{}",
        stderr(&o)
    );
    // The kubelet's events, asked for by reason (a field selector the
    // stand-in checks as kube-apiserver does), name the pod that cannot start.
    assert!(
        live_findings.contains(&("DRA-H008".into(), "infer-small".into())),
        "{live_findings:?}"
    );
    assert!(
        live.server.log().iter().any(|l| l.path == "/api/v1/events"
            && l.query
                .contains("fieldSelector=reason%3DFailedPrepareDynamicResources")),
        "{:?}",
        live.server
            .log()
            .iter()
            .map(|l| l.path.clone())
            .collect::<Vec<_>>()
    );
    // explain pod reads the events of the pod's namespace only.
    live.server.clear_log();
    let o = live.run(&["explain", "pod", "ml/infer-small", "-o", "json"]);
    assert_eq!(
        json_of(&o)["verdict"]["fate"],
        "WillNotStart",
        "{}",
        stderr(&o)
    );
    assert!(
        live.server
            .log()
            .iter()
            .any(|l| l.path == "/api/v1/namespaces/ml/events"),
        "{:?}",
        live.server
            .log()
            .iter()
            .map(|l| l.path.clone())
            .collect::<Vec<_>>()
    );
    // Where events are forbidden, doctor says so and goes on.
    live.server
        .set_fixture(|f| f.deny.push(("/api/v1/events".into(), 403)));
    let o = live.run(&["doctor", "-o", "json"]);
    assert!(
        stderr(&o).contains("could not list Events"),
        "{}",
        stderr(&o)
    );
    assert!(!findings(&json_of(&o)).contains(&("DRA-H008".into(), "infer-small".into())));
}
