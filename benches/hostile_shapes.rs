//! Time and peak RSS of the CLI on the input shapes that once blew up
//! (issue 18): a million empty documents, a 200,000-key mapping, thousands
//! of findings in a 1.7 MB file rendered as text, a 3,000-term CEL chain in
//! two files, a string-doubling cel.bind, 40 nodes alike with 5,000 values
//! of their own each; and (issue 29) 20,000 fixes shown as a diff, 500,000
//! findings as JSON, 100,000 repeats of one key, 50,000 single-device pools
//! on one node, a CEL membership test over a long list in a loop. Prints
//! one line per shape with
//! seconds, peak RSS and RSS per input MB. `cargo bench --bench hostile_shapes`.

use std::path::{Path, PathBuf};
use std::time::Instant;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the CLI and returns (seconds, peak RSS in KiB) of that child alone.
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives its rusage
fn run(args: &[&str]) -> (f64, i64) {
    let t = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-dra"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain data, zero is a valid value; wait4 fills it
    // for the child just spawned, which nothing else waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    (t.elapsed().as_secs_f64(), usage.ru_maxrss)
}

fn main() {
    // `cargo test --benches` runs this too (without --bench): a smaller
    // workload there keeps CI fast; `cargo bench` measures the full shapes.
    let scale = if std::env::args().any(|a| a == "--bench") {
        1
    } else {
        20
    };
    let dir =
        std::env::temp_dir().join(format!("kubectl-dra-hostile-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let docs = write(&dir, "docs.yaml", &"--- {}\n".repeat(1_200_000 / scale));
    let keys: String = (0..200_000 / scale)
        .map(|i| format!("  k{i}: v\n"))
        .collect();
    let keys = write(&dir, "keys.yaml", &format!("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\n  labels:\n{keys}"));
    let mut slices = Vec::new();
    for s in 0..200 / scale {
        let bad: String = (0..28).map(|d| format!("  - name: Bad_{d}\n")).collect();
        let good: String = (0..90)
            .map(|d| {
                format!(
                    "  - name: ok-{d}\n    attributes:\n      model: {{string: A100-SXM4-80GB}}\n"
                )
            })
            .collect();
        slices.push(format!("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s{s}}}\nspec:\n  driver: gpu.example.com\n  nodeName: n{s}\n  pool: {{name: n{s}, resourceSliceCount: 1}}\n  devices:\n{bad}{good}"));
    }
    let findings = write(&dir, "findings.yaml", &slices.join("---\n"));
    let expr = format!("{} > 0", vec!["1"; 3000].join("+"));
    let chain = format!("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec:\n  selectors:\n  - cel: {{expression: \"{expr}\"}}\n");
    let chain_dir = dir.join("chain");
    std::fs::create_dir_all(&chain_dir).unwrap();
    write(&chain_dir, "a.yaml", &chain);
    write(&chain_dir, "b.yaml", &chain);
    let mut bomb = "size(v30) > 0".to_owned();
    for i in (1..=30).rev() {
        bomb = format!("cel.bind(v{i}, v{} + v{}, {bomb})", i - 1, i - 1);
    }
    let bomb = format!("cel.bind(v0, \"xxxxxxxx\", {bomb})");
    // Nodes alike whose pools each hold thousands of devices with values of
    // their own: the node-local shapes and their equality patterns.
    let mut local = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: two, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, count: 2}\n    constraints:\n    - distinctAttribute: x.example.com/uid\n");
    for n in 0..40 {
        local.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s{n}}}\nspec:\n  driver: x.example.com\n  nodeName: n{n}\n  pool: {{name: n{n}, generation: 1, resourceSliceCount: 1}}\n  devices:\n"));
        for d in 0..5000 / scale {
            local.push_str(&format!(
                "  - name: d{d}\n    attributes:\n      uid: {{string: u-{n}-{d}}}\n"
            ));
        }
    }
    let local = write(&dir, "local.yaml", &local);
    // One v1beta1 claim per document, each fixable (DRA-A001).
    let fixable: String = (0..20_000 / scale)
        .map(|i| format!("---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c{i}\n  namespace: default\nspec:\n  devices:\n    requests:\n    - name: gpu\n      deviceClassName: gpu.example.com\n"))
        .collect();
    let fixable = write(&dir, "fixable.yaml", &fixable);
    // Every object invalid: one finding each, written as JSON.
    let invalid: String = (0..500_000 / scale)
        .map(|i| format!("---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: Bad_{i}\nspec: {{}}\n"))
        .collect();
    let invalid = write(&dir, "invalid.yaml", &invalid);
    // One key repeated: the YAML loader's duplicate-key path.
    let repeated = write(&dir, "repeated.yaml", &format!("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: x\n  labels:\n{}", "    k: v\n".repeat(100_000 / scale)));
    // Single-device pools on one node: the pool index.
    let mut pools = String::from("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\nspec: {}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: one, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: c, count: 2}\n");
    for p in 0..50_000 / scale {
        pools.push_str(&format!("---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s{p}}}\nspec:\n  driver: x.example.com\n  nodeName: n0\n  pool: {{name: p{p}, generation: 1, resourceSliceCount: 1}}\n  devices:\n  - name: d0\n"));
    }
    let pools = write(&dir, "pools.yaml", &pools);
    // Membership in a long list inside a loop: cel-go's cost tracker
    // stops it at once.
    let membership =
        "lists.range(4000).map(i, i).all(x, x in lists.range(4000).map(i, i))".to_owned();
    let fleet = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/fixtures/explain-fleet/fleet.yaml"
    );
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let shapes: Vec<(&str, Vec<String>, PathBuf)> = vec![
        (
            "1.2M empty documents",
            vec!["lint".into(), "-o".into(), "json".into(), s(&docs)],
            docs.clone(),
        ),
        (
            "200k-key mapping",
            vec!["lint".into(), "-o".into(), "json".into(), s(&keys)],
            keys.clone(),
        ),
        (
            "5,600 findings as text",
            vec![
                "lint".into(),
                "--color".into(),
                "never".into(),
                s(&findings),
            ],
            findings.clone(),
        ),
        (
            "3,000-term CEL chain x2",
            vec!["lint".into(), s(&chain_dir)],
            chain_dir.join("a.yaml"),
        ),
        (
            "40 nodes x 5,000 own values",
            vec![
                "explain".into(),
                "claim".into(),
                "two".into(),
                "-f".into(),
                s(&local),
                "-o".into(),
                "json".into(),
            ],
            local.clone(),
        ),
        (
            "20,000 fixes as a diff",
            vec!["lint".into(), "--fix".into(), "--diff".into(), s(&fixable)],
            fixable.clone(),
        ),
        (
            "500,000 findings as JSON",
            vec!["lint".into(), "-o".into(), "json".into(), s(&invalid)],
            invalid.clone(),
        ),
        (
            "100,000 repeats of one key",
            vec!["lint".into(), "-o".into(), "json".into(), s(&repeated)],
            repeated.clone(),
        ),
        (
            "50,000 pools on one node",
            vec![
                "explain".into(),
                "claim".into(),
                "one".into(),
                "-f".into(),
                s(&pools),
                "-o".into(),
                "json".into(),
            ],
            pools.clone(),
        ),
        (
            "membership loop in CEL",
            vec!["match".into(), membership, "-f".into(), fleet.into()],
            PathBuf::from(fleet),
        ),
        (
            "string-doubling cel.bind",
            vec!["match".into(), bomb, "-f".into(), fleet.into()],
            PathBuf::from(fleet),
        ),
    ];
    println!(
        "{:<28} {:>8} {:>10} {:>12}",
        "shape", "seconds", "peak MiB", "MiB per MB"
    );
    for (name, args, input) in shapes {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (secs, kib) = run(&argv);
        let mb = std::fs::metadata(&input)
            .map(|m| m.len() as f64 / 1e6)
            .unwrap_or(1.0)
            .max(0.001);
        let mib = kib as f64 / 1024.0;
        println!("{name:<28} {secs:>8.2} {mib:>10.1} {:>12.1}", mib / mb);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
