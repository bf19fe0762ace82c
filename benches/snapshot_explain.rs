//! `kubectl dra explain claim ... -f cluster.yaml -o json`, the whole
//! command, on a one-file snapshot of a generated fleet (8 GPUs x 7
//! partitions per node, counter sets in their own slices, one Node object
//! per node): 5,000 and 20,000 nodes (issue 37's targets at 20,000: under
//! 8 s of CPU and 1.5 GiB peak RSS). Prints, for each command, wall time,
//! CPU (user + system), the CLI's peak RSS and its ratio to the bytes of
//! YAML, and the pages it touched (wait4's rusage). Run:
//! `cargo bench --bench snapshot_explain` (add `-- --nodes 65000` for one
//! size). Without `--bench` (as `cargo test --benches` runs it) a 50-node
//! smoke run.
//!
//! Also `capacity claim` of both claims (issue 33: under 10 s on 5,000
//! nodes), `devices -o json` (issue 37), and `explain pods -A -o json` with pending pods of 10 shapes (a
//! template each, 1 to 10 whole GPUs) in the same snapshot: 2,000 pods at
//! full size (issue 32's target: under 10 s and 2 GiB on 5,000 nodes).

use std::io::Write;
use std::time::Instant;

use dra_core::fleet::{generate, FleetSpec};

use dra_core::fleet::BENCH_CLAIMS as CLAIMS;

/// Pending pods of 10 shapes: `pods` in all, spread over the templates.
fn pending_pods(pods: usize) -> String {
    let mut out = String::new();
    for t in 0..10 {
        out.push_str(&format!(
            "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {{name: gpus-{n}, namespace: default}}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: gpus\n        exactly:\n          deviceClassName: gpu.example.com\n          count: {n}\n          selectors:\n          - cel: {{expression: '!has(device.attributes[\"gpu.example.com\"].profile)'}}\n",
            n = t + 1
        ));
    }
    // A pod of four MIG partitions of one GPU (`capacity pod`, issue 33).
    out.push_str("---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: four-partitions, namespace: default}\nspec:\n  spec:\n    devices:\n      requests:\n      - name: mig\n        exactly:\n          deviceClassName: gpu.example.com\n          count: 4\n          selectors:\n          - cel: {expression: 'has(device.attributes[\"gpu.example.com\"].profile)'}\n      constraints:\n      - matchAttribute: gpu.example.com/parentUUID\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: mig-0, namespace: default}\nspec:\n  resourceClaims:\n  - {name: mig, resourceClaimTemplateName: four-partitions}\n  containers:\n  - {name: main, image: x, resources: {claims: [{name: mig}]}}\n");
    for i in 0..pods {
        out.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: job-{i}, namespace: default}}\nspec:\n  resourceClaims:\n  - {{name: gpus, resourceClaimTemplateName: gpus-{t}}}\n  containers:\n  - {{name: main, image: x, resources: {{claims: [{{name: gpus}}]}}}}\n",
            t = i % 10 + 1
        ));
    }
    out
}

fn snapshot(nodes: usize) -> String {
    let mut text = generate(FleetSpec {
        nodes,
        gpus_per_node: 8,
        partitions_per_gpu: 7,
    });
    for n in 0..nodes {
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: worker-{n}\n  labels:\n    kubernetes.io/hostname: worker-{n}\n"
        ));
    }
    text.push_str("\n---\n");
    text.push_str(CLAIMS);
    text.push('\n');
    text.push_str(&pending_pods(if nodes >= 1000 { 2000 } else { 20 }));
    text
}

/// What one run of the CLI cost.
struct Cost {
    wall: f64,
    /// User and system time, seconds.
    cpu: f64,
    /// Peak resident set, bytes (wait4's ru_maxrss).
    peak: f64,
    /// Page faults (minor and major): each is a first touch of memory the
    /// kernel zeroes (issue 37: memory is time). A transparent huge page,
    /// which mimalloc asks for, is one fault for 512 pages.
    pages: i64,
    code: i32,
}

impl Cost {
    /// One line: wall, CPU, peak RSS and its ratio to the YAML read, pages.
    fn line(&self, yaml_bytes: usize) -> String {
        format!(
            "{:.2} s wall, {:.2} s CPU, peak RSS {:.0} MB ({:.2} bytes per byte of YAML), {} page faults",
            self.wall,
            self.cpu,
            self.peak / 1e6,
            self.peak / yaml_bytes as f64,
            self.pages
        )
    }
}

/// Runs the CLI and measures it.
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives its rusage
fn run(args: &[&str]) -> Cost {
    let started = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-dra"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn kubectl-dra");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter for wait4.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our child; status and usage are valid pointers.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    let wall = started.elapsed().as_secs_f64();
    // A run killed by a signal (the OOM killer) is no exit 0.
    let code = if libc::WIFSIGNALED(status) {
        -libc::WTERMSIG(status)
    } else {
        libc::WEXITSTATUS(status)
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Cost {
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        peak: usage.ru_maxrss as f64 * 1024.0,
        pages: usage.ru_minflt + usage.ru_majflt,
        code,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    let full = args.iter().any(|a| a == "--bench");
    // `--keep`: leave the snapshot files for profiling.
    let keep = args.iter().any(|a| a == "--keep");
    let sizes: Vec<usize> = match args.iter().position(|a| a == "--nodes") {
        Some(i) => vec![args[i + 1].parse().expect("--nodes N")],
        None if full => vec![5_000, 20_000],
        None => vec![50],
    };
    let dir = std::env::temp_dir().join(format!("kubectl-dra-snapshot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for nodes in sizes {
        let path = dir.join(format!("cluster-{nodes}.yaml"));
        let text = snapshot(nodes);
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .unwrap();
        let bytes = text.len();
        println!("{nodes} nodes: one file of {:.0} MB", bytes as f64 / 1e6);
        drop(text);
        let file = path.to_str().unwrap();
        for claim in ["default/one-gpu", "default/four-partitions"] {
            for _ in 0..if full { 2 } else { 1 } {
                let cost = run(&["explain", "claim", claim, "-f", file, "-o", "json"]);
                assert_eq!(cost.code, 0, "explain {claim} exit {}", cost.code);
                println!("  explain claim {claim} -o json: {}", cost.line(bytes));
            }
        }
        // Issue 33: how many more copies fit, per node, with each node's
        // maximum (target: under 10 s on 5,000 nodes).
        for claim in ["default/one-gpu", "default/four-partitions"] {
            let cost = run(&["capacity", "claim", claim, "-f", file, "-o", "json"]);
            assert_eq!(cost.code, 0, "capacity {claim} exit {}", cost.code);
            println!("  capacity claim {claim} -o json: {}", cost.line(bytes));
        }
        // The same for pods: one GPU (job-0, template gpus-1) and four
        // partitions of one GPU (mig-0).
        for pod in ["default/job-0", "default/mig-0"] {
            let cost = run(&["capacity", "pod", pod, "-f", file, "-o", "json"]);
            assert_eq!(cost.code, 0, "capacity pod {pod} exit {}", cost.code);
            println!("  capacity pod {pod} -o json: {}", cost.line(bytes));
        }
        // Issue 37: every device as JSON, streamed.
        let cost = run(&["devices", "-f", file, "-o", "json"]);
        assert_eq!(cost.code, 0, "devices exit {}", cost.code);
        println!("  devices -o json: {}", cost.line(bytes));
        // And lint of the same file (issue 37: not slower for the sharing),
        // up to 20,000 nodes: lint keeps every span, some 6 bytes a byte.
        if nodes <= 20_000 {
            let cost = run(&["lint", file, "--max-file-size", "2Gi", "-o", "json"]);
            println!("  lint -o json (exit {}): {}", cost.code, cost.line(bytes));
        }
        let cost = run(&["explain", "pods", "-A", "-f", file, "-o", "json"]);
        assert_eq!(
            cost.code, 1,
            "explain pods: some pods cannot fit (exit {})",
            cost.code
        );
        println!("  explain pods -A -o json: {}", cost.line(bytes));
        if keep {
            println!("  kept {}", path.display());
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
    if !keep {
        let _ = std::fs::remove_dir_all(&dir);
    }
}
