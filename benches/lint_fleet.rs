//! Lint throughput on a generated 1,000-node fleet (8 GPUs x 7 partitions
//! per node, 64,000 devices), against a bare saphyr-parser pass over the same
//! text. Criterion reports MB/s per group; the peak-memory figure comes from
//! `cargo bench --bench lint_fleet -- --memory` (a fresh process, VmHWM).

use criterion::{criterion_group, Criterion, Throughput};

// The allocator the CLI uses, so in-process figures match the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use dra_core::fleet::{generate, FleetSpec};
use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{lint, Settings, SourceFile};
use dra_core::yaml::{load, Limits};

fn fleet() -> String {
    generate(FleetSpec {
        nodes: 1000,
        gpus_per_node: 8,
        partitions_per_gpu: 7,
    })
}

fn settings() -> Settings {
    Settings::for_gates(FeatureGates::defaults(Version::LATEST))
}

fn bench(c: &mut Criterion) {
    let text = fleet();
    let mut g = c.benchmark_group("fleet-1000-nodes");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("saphyr-events", |b| {
        b.iter(|| {
            let mut p = saphyr_parser::Parser::new_from_str(&text);
            let mut n = 0usize;
            while let Some(Ok(_)) = p.next_event() {
                n += 1;
            }
            n
        })
    });
    g.bench_function("load-spanned-tree", |b| {
        b.iter(|| load(&text, Limits::default()).documents.len())
    });
    let s = settings();
    g.bench_function("lint", |b| {
        // Freeing the result is left out, as the CLI leaves it out (it exits
        // without freeing the tree).
        b.iter_with_large_drop(|| {
            let files = [SourceFile {
                name: "fleet.yaml".into(),
                text: text.clone(),
            }];
            lint(&files, Vec::new(), &s)
        })
    });
    g.finish();
}

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[allow(clippy::print_stdout)]
fn memory() {
    let text = fleet();
    let mb = text.len() as f64 / 1e6;
    // Peak memory first, in a process that has done nothing else yet.
    let before = vm_hwm_kib().unwrap_or(0);
    let start = std::time::Instant::now();
    let files = [SourceFile {
        name: "fleet.yaml".into(),
        text,
    }];
    let r = lint(&files, Vec::new(), &settings());
    let findings = r.diagnostics.len();
    let objects = r.summary.objects;
    drop(r);
    let elapsed = start.elapsed();
    let after = vm_hwm_kib().unwrap_or(0);
    if std::env::args().any(|a| a == "--lint-only") {
        return;
    }
    let text = &files[0].text;
    // The best of three bare passes: the VM's timings are noisy.
    let mut events = 0usize;
    let mut bare = std::time::Duration::MAX;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let mut p = saphyr_parser::Parser::new_from_str(text);
        events = 0;
        while let Some(Ok(_)) = p.next_event() {
            events += 1;
        }
        bare = bare.min(t.elapsed());
    }
    let t = std::time::Instant::now();
    let docs = load(text, Limits::default()).documents.len();
    let loaded = t.elapsed();
    println!("fleet: 1000 nodes, 64000 devices, {mb:.1} MB of YAML, {objects} objects, {findings} findings");
    println!(
        "bare saphyr-parser pass: {:.2} s ({events} events, {:.1} MB/s); spanned tree: {:.2} s ({docs} documents)",
        bare.as_secs_f64(),
        mb / bare.as_secs_f64(),
        loaded.as_secs_f64()
    );
    println!(
        "lint, end to end in-process: {:.2} s, {:.1} MB/s, {:.2}x the bare parse",
        elapsed.as_secs_f64(),
        mb / elapsed.as_secs_f64(),
        elapsed.as_secs_f64() / bare.as_secs_f64()
    );
    // The whole command, as users run it (reading, linting, rendering JSON).
    let path = std::env::temp_dir().join("kubectl-dra-fleet-1000.yaml");
    std::fs::write(&path, text).expect("write fleet");
    let t = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-dra"))
        .args(["lint", "-o", "json"])
        .arg(&path)
        .output()
        .expect("run kubectl-dra");
    let cli = t.elapsed();
    println!(
        "kubectl-dra lint -o json fleet.yaml: {:.2} s, {:.1} MB/s, {:.2}x the bare parse (exit {:?})",
        cli.as_secs_f64(),
        mb / cli.as_secs_f64(),
        cli.as_secs_f64() / bare.as_secs_f64(),
        out.status.code()
    );
    let _ = std::fs::remove_file(&path);
    println!(
        "peak RSS added by lint: {:.1} MB ({:.2}x the input)",
        (after.saturating_sub(before)) as f64 / 1024.0,
        (after.saturating_sub(before)) as f64 * 1024.0 / 1e6 / mb
    );
}

criterion_group!(benches, bench);

fn main() {
    // `--write FILE [NODES]`: only write a fleet (1,000 nodes unless given),
    // for profiling or timing the CLI on it.
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--write") {
        let path = args.get(i + 1).expect("--write FILE");
        let text = match args.get(i + 2).and_then(|n| n.parse().ok()) {
            Some(nodes) => generate(FleetSpec {
                nodes,
                gpus_per_node: 8,
                partitions_per_gpu: 7,
            }),
            None => fleet(),
        };
        std::fs::write(path, text).expect("write fleet");
        return;
    }
    if std::env::args().any(|a| a == "--memory") {
        memory();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
