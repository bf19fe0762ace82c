//! Selector evaluations per second over the devices of a generated
//! 5,000-node fleet (8 GPUs x 7 partitions per node: 320,000 devices).
//! Devices are built once; each expression is compiled once.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dra_core::cel::{Env, Program};
use dra_core::fleet::{generate, FleetSpec};
use dra_core::gates::{FeatureGates, Version};
use dra_core::inventory;
use dra_core::lint::{load_objects, SourceFile};
use dra_core::yaml::Limits;

// The allocator the CLI uses, so the figures match the command's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SELECTORS: [(&str, &str); 5] = [
    (
        "driver-and-attribute",
        r#"device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100-SXM4-80GB""#,
    ),
    (
        "quantity",
        r#"device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0"#,
    ),
    // The same attribute compared with `==`: `matches()` should cost no
    // more per device (issue 37).
    (
        "equals",
        r#"device.attributes["gpu.example.com"].model == "A100-SXM4-80GB""#,
    ),
    (
        "matches",
        r#"device.attributes["gpu.example.com"].model.matches("^A100-SXM4-[0-9]+GB$")"#,
    ),
    (
        "semver",
        r#"has(device.attributes["gpu.example.com"].driverVersion) && device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("535.0.0"))"#,
    ),
];

fn bench(c: &mut Criterion) {
    let text = generate(FleetSpec {
        nodes: 5000,
        gpus_per_node: 8,
        partitions_per_gpu: 7,
    });
    let files = [SourceFile {
        name: "fleet.yaml".into(),
        text,
    }];
    let (objects, _) = load_objects(&files, Limits::default());
    let devices = inventory::devices(&objects, false);
    drop(objects);
    assert_eq!(devices.len(), 320_000);
    let env = Env::new(&FeatureGates::defaults(Version::LATEST));
    let mut g = c.benchmark_group("cel-320k-devices");
    g.sample_size(10);
    g.throughput(Throughput::Elements(devices.len() as u64));
    for (name, expr) in SELECTORS {
        let program = Program::compile(expr, &env).expect("benchmark selectors compile");
        g.bench_function(name, |b| {
            b.iter(|| {
                devices
                    .iter()
                    .filter(|d| program.matches(&d.cel) == Ok(true))
                    .count()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
