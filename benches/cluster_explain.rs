//! `kubectl dra explain claim` end to end against the loopback stand-in
//! apiserver holding 10,000 ResourceSlices (8 GPUs each, 10,000 Nodes, 2,000
//! allocated claims), served over HTTPS in pages of 500. Prints wall time,
//! requests and the CLI's peak RSS (VmHWM, polled). The stand-in caches the
//! pages it encodes, so the first run includes its JSON encoding (on the same
//! two cores) and the second measures the client. Run:
//! `cargo bench --bench cluster_explain`.

#[path = "../tests/support/apiserver.rs"]
mod apiserver;

use std::io::Read;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// `cargo bench` passes `--bench`; `cargo test --benches` runs this
/// binary without it, and then a 100-slice smoke run is enough.
fn full() -> bool {
    std::env::args().any(|a| a == "--bench")
}

const SLICES: usize = 10_000;
const GPUS: usize = 8;
const CLAIMS: usize = 2_000;

fn fixture(slices: usize, claims: usize) -> Vec<Value> {
    let mut objects = Vec::with_capacity(2 * slices + claims + 2);
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "gpu.example.com"},
        "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}}]}}));
    for i in 0..slices {
        let node = format!("node-{i:05}");
        let devices: Vec<Value> = (0..GPUS)
            .map(|d| json!({"name": format!("gpu-{d}"),
                "attributes": {"model": {"string": if i % 4 == 0 { "h100" } else { "a100" }}, "uuid": {"string": format!("GPU-{i:05}-{d}")},
                               "driverVersion": {"version": "550.54.15"}, "numa": {"int": d / 4}},
                "capacity": {"memory": {"value": "80Gi"}}}))
            .collect();
        objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
            "metadata": {"name": format!("{node}-gpu.example.com-x7k2p"), "uid": format!("uid-{i}"), "resourceVersion": "1"},
            "spec": {"driver": "gpu.example.com", "nodeName": node,
                     "pool": {"name": node, "generation": 1, "resourceSliceCount": 1}, "devices": devices}}));
        objects.push(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": node,
            "labels": {"kubernetes.io/hostname": node, "topology.kubernetes.io/zone": format!("zone-{}", i % 3)}}}));
    }
    for c in 0..claims {
        let node = format!("node-{:05}", c * 5);
        objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
            "metadata": {"name": format!("job-{c}"), "namespace": format!("team-{}", c % 20)},
            "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com", "count": 8}}]}},
            "status": {"allocation": {"devices": {"results": (0..GPUS).map(|d| json!({"request": "gpu", "driver": "gpu.example.com", "pool": node, "device": format!("gpu-{d}")})).collect::<Vec<_>>()},
                "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}]}}}}));
    }
    objects.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {"name": "train", "namespace": "default"},
        "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com", "count": 4,
            "selectors": [{"cel": {"expression": "device.attributes[\"gpu.example.com\"].model == \"h100\""}}]}}],
            "constraints": [{"requests": ["gpu"], "matchAttribute": "gpu.example.com/numa"}]}}}));
    objects
}

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn run(label: &str, server: &apiserver::Server, kubeconfig: &std::path::Path, args: &[&str]) {
    server.clear_log();
    let started = Instant::now();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-dra"))
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        .env("KUBECTL_DRA_STATS", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn kubectl-dra");
    let pid = child.id();
    let mut peak = 0;
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    loop {
        if let Some(kb) = vm_hwm_kb(pid) {
            peak = peak.max(kb);
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let wall = started.elapsed();
    let out = reader.join().unwrap();
    let status = child.wait().unwrap();
    let requests = server.log().len();
    let list_pages = server
        .log()
        .iter()
        .filter(|r| r.query.contains("limit="))
        .count();
    println!(
        "{label}: {:.2} s wall, exit {:?}, {requests} requests ({list_pages} list pages), peak RSS {:.0} MB, {} bytes of output",
        wall.as_secs_f64(),
        status.code(),
        peak as f64 / 1024.0,
        out.len()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    // KUBECTL_DRA_BENCH_SLICES scales the full run (100000: issue 29's
    // cluster-scale read), claims in proportion.
    let scaled = std::env::var("KUBECTL_DRA_BENCH_SLICES")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    let (slices, claims) = match (full(), scaled) {
        (true, Some(n)) => (n, n / 5),
        (true, None) => (SLICES, CLAIMS),
        _ => (100, 20),
    };
    let objects = fixture(slices, claims);
    let server = apiserver::Server::start(apiserver::Fixture::new("1.37", &objects, &[]));
    let dir = std::env::temp_dir().join(format!("kubectl-dra-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kubeconfig = server.kubeconfig(&dir, "default");
    println!("fixture: {slices} ResourceSlices x {GPUS} devices, {slices} Nodes, {claims} allocated claims (pages of 500)");
    if let Some(i) = std::env::args().position(|a| a == "--snapshot") {
        // Writes the fixture as a snapshot, for profiling the offline path.
        let path = std::env::args().nth(i + 1).expect("--snapshot FILE");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-dra"))
            .args(["snapshot", "-w", &path])
            .env("KUBECONFIG", &kubeconfig)
            .status()
            .unwrap();
        assert!(o.success());
        return;
    }
    let quick = !full() || std::env::args().any(|a| a == "--quick");
    for _ in 0..if quick { 1 } else { 2 } {
        run(
            "explain claim train --node node-00004",
            &server,
            &kubeconfig,
            &[
                "explain",
                "claim",
                "train",
                "--node",
                "node-00004",
                "-o",
                "json",
            ],
        );
        if quick {
            continue;
        }
        run(
            "explain claim train (all 10,000 nodes)",
            &server,
            &kubeconfig,
            &["explain", "claim", "train", "-o", "json"],
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
