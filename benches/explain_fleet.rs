//! `explain claim` across a generated 5,000-node fleet (8 GPUs x 7
//! partitions per node): a one-GPU claim, and a 4-partition claim with a
//! matchAttribute constraint, tried on every node. The fleet is loaded once.
//! `cargo bench --bench explain_fleet -- --worst` times the constructed worst
//! case (count 8 with distinctAttribute over 64 near-identical devices).

use criterion::{criterion_group, Criterion};

// The allocator the CLI uses, so the figures match the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use dra_core::allocate::{Allocator, Cluster, Outcome};
use dra_core::fleet::{generate, FleetSpec};
use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{load_objects, SourceFile};
use dra_core::model::Object;
use dra_core::yaml::Limits;
use std::sync::Arc;

use dra_core::fleet::BENCH_CLAIMS as CLAIMS;

fn load(nodes: usize, extra: &str) -> Vec<Object> {
    let mut text = generate(FleetSpec {
        nodes,
        gpus_per_node: 8,
        partitions_per_gpu: 7,
    });
    text.push_str("\n---\n");
    text.push_str(extra);
    let files = [SourceFile {
        name: "fleet.yaml".into(),
        text,
    }];
    load_objects(&files, Limits::default()).0
}

fn explain_all<'a>(
    cluster: &Arc<Cluster<'a>>,
    gates: &'a FeatureGates,
    claim: &str,
    nodes: &[String],
) -> usize {
    let c: Vec<_> = cluster
        .objects()
        .iter()
        .filter(|o| o.name() == Some(claim))
        .collect();
    let a = Allocator::over(Arc::clone(cluster), gates, &c);
    a.on_nodes(nodes)
        .iter()
        .filter(|o| matches!(o, Outcome::Allocated { .. }))
        .count()
}

#[allow(clippy::print_stdout)]
fn bench(c: &mut Criterion) {
    let objects = load(5000, CLAIMS);
    let gates = FeatureGates::defaults(Version::LATEST);
    let names: Vec<String> = (0..5000).map(|n| format!("worker-{n}")).collect();
    // The inventory is decoded once, as the CLI does; comparing the nodes'
    // own pools happens on the first run over many nodes, timed here.
    let t = std::time::Instant::now();
    let cluster = Arc::new(Cluster::new(&objects));
    let built = t.elapsed();
    let t = std::time::Instant::now();
    cluster.shapes();
    println!(
        "inventory: pool index {:.1} ms, node-local pool shapes {:.1} ms (once)",
        built.as_secs_f64() * 1e3,
        t.elapsed().as_secs_f64() * 1e3
    );
    for claim in ["one-gpu", "four-partitions"] {
        let a = Allocator::over(
            Arc::clone(&cluster),
            &gates,
            &objects
                .iter()
                .filter(|o| o.name() == Some(claim))
                .collect::<Vec<_>>(),
        );
        let allocated = a
            .on_nodes(&names)
            .iter()
            .filter(|o| matches!(o, Outcome::Allocated { .. }))
            .count();
        println!(
            "{claim}: allocated on {allocated} nodes with {} searches",
            a.searches()
        );
    }
    let mut g = c.benchmark_group("explain-5000-nodes");
    g.sample_size(10);
    for claim in ["one-gpu", "four-partitions"] {
        g.bench_function(claim, |b| {
            b.iter(|| explain_all(&cluster, &gates, claim, &names))
        });
    }
    g.finish();
}

#[allow(clippy::print_stdout)]
fn worst() {
    let text = dra_core::fleet::hopeless_case();
    let files = [SourceFile {
        name: "w.yaml".into(),
        text,
    }];
    let objects = load_objects(&files, Limits::default()).0;
    let gates = FeatureGates::defaults(Version::LATEST);
    let claims: Vec<&Object> = objects.iter().filter(|o| o.name() == Some("w")).collect();
    let t = std::time::Instant::now();
    let outcome = Allocator::new(&objects, &gates, &claims).on_node("node-w");
    let label = match &outcome {
        Outcome::Allocated { .. } => "allocated".to_owned(),
        Outcome::Unsatisfiable { .. } => "unsatisfiable".to_owned(),
        Outcome::Error { error, .. } => format!("error: {error}"),
        Outcome::Undecided { reason } => format!("undecided: {reason}"),
    };
    println!(
        "worst case (count 8, distinctAttribute, 64 identical devices): {:.2} s, {label}",
        t.elapsed().as_secs_f64()
    );
}

criterion_group!(benches, bench);

fn main() {
    if std::env::args().any(|a| a == "--worst") {
        worst();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
