//! Synthetic fleets for tests and benchmarks: nodes with partitionable GPUs,
//! published as real drivers do it (one counter-set slice and one device
//! slice per node and pool, 8 GPUs with 7 MIG-style partitions each).

use std::fmt::Write;

/// The shape of a generated fleet.
#[derive(Clone, Copy, Debug)]
pub struct FleetSpec {
    pub nodes: usize,
    pub gpus_per_node: usize,
    pub partitions_per_gpu: usize,
}

impl Default for FleetSpec {
    fn default() -> Self {
        FleetSpec {
            nodes: 10,
            gpus_per_node: 8,
            partitions_per_gpu: 7,
        }
    }
}

impl FleetSpec {
    pub fn devices(&self) -> usize {
        self.nodes * self.gpus_per_node * (1 + self.partitions_per_gpu)
    }
}

/// The benchmarks' two claims on a generated fleet: one GPU, and four
/// partitions of one GPU (a matchAttribute on the parent's UUID).
pub const BENCH_CLAIMS: &str = r#"
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: one-gpu, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: '!has(device.attributes["gpu.example.com"].profile)'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: four-partitions, namespace: default}
spec:
  devices:
    requests:
    - name: mig
      exactly:
        deviceClassName: gpu.example.com
        count: 4
        selectors:
        - cel: {expression: 'has(device.attributes["gpu.example.com"].profile)'}
    constraints:
    - matchAttribute: gpu.example.com/parentUUID
"#;

/// Writes the fleet's ResourceSlices (and one DeviceClass) as multi-document YAML.
pub fn generate(spec: FleetSpec) -> String {
    let per_gpu = 1 + spec.partitions_per_gpu;
    // Device slices hold at most 64 devices when devices consume counters.
    let gpus_per_slice = (64 / per_gpu).max(1);
    let device_slices = spec.gpus_per_node.div_ceil(gpus_per_slice);
    let slices_per_pool = 1 + device_slices;
    let mut out = String::with_capacity(spec.devices() * 420 + 4096);
    out.push_str(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu.example.com\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.example.com\"\n",
    );
    let mem_per_part = 80 / per_gpu.max(1);
    for n in 0..spec.nodes {
        let node = format!("worker-{n}");
        let _ = write!(
            out,
            "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: {node}-gpu.example.com-counters\nspec:\n  driver: gpu.example.com\n  nodeName: {node}\n  pool:\n    name: {node}\n    generation: 1\n    resourceSliceCount: {slices_per_pool}\n  sharedCounters:\n"
        );
        for g in 0..spec.gpus_per_node {
            let _ = write!(
                out,
                "  - name: gpu-{g}-counters\n    counters:\n      memory:\n        value: 80Gi\n      compute-slices:\n        value: \"{}\"\n",
                spec.partitions_per_gpu.max(1)
            );
        }
        for s in 0..device_slices {
            let _ = write!(
                out,
                "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: {node}-gpu.example.com-devices-{s}\nspec:\n  driver: gpu.example.com\n  nodeName: {node}\n  pool:\n    name: {node}\n    generation: 1\n    resourceSliceCount: {slices_per_pool}\n  devices:\n"
            );
            let first = s * gpus_per_slice;
            for g in first..(first + gpus_per_slice).min(spec.gpus_per_node) {
                let uuid = format!("GPU-{n:08x}-{g:04x}-4c1a-9f0b-2c1d3e4f5a6b");
                let _ = write!(
                    out,
                    "  - name: gpu-{g}\n    attributes:\n      model:\n        string: A100-SXM4-80GB\n      uuid:\n        string: {uuid}\n      driverVersion:\n        version: 550.54.15\n      index:\n        int: {g}\n    capacity:\n      memory:\n        value: 80Gi\n    consumesCounters:\n    - counterSet: gpu-{g}-counters\n      counters:\n        memory:\n          value: 80Gi\n        compute-slices:\n          value: \"{}\"\n",
                    spec.partitions_per_gpu.max(1)
                );
                for p in 0..spec.partitions_per_gpu {
                    let _ = write!(
                        out,
                        "  - name: gpu-{g}-mig-{p}\n    attributes:\n      model:\n        string: A100-SXM4-80GB\n      profile:\n        string: 1g.{mem_per_part}gb\n      parentUUID:\n        string: {uuid}\n      index:\n        int: {p}\n    capacity:\n      memory:\n        value: {mem_per_part}Gi\n    consumesCounters:\n    - counterSet: gpu-{g}-counters\n      counters:\n        memory:\n          value: {mem_per_part}Gi\n        compute-slices:\n          value: \"1\"\n"
                    );
                }
            }
        }
    }
    out
}

/// A constructed worst case for the allocator: 64 devices that differ only
/// in name on node `node-w`, and claim `default/w` for 8 of them with a
/// distinctAttribute that only 7 values can meet: the search must give up.
pub fn hopeless_case() -> String {
    let mut devices = String::new();
    for i in 0..64 {
        let _ = write!(
            devices,
            "  - name: d{i}\n    attributes:\n      slot: {{int: {}}}\n",
            i % 7
        );
    }
    format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec: {{}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: x.example.com\n  nodeName: node-w\n  pool: {{name: node-w, generation: 1, resourceSliceCount: 1}}\n  devices:\n{devices}---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: w, namespace: default}}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {{deviceClassName: c, count: 8}}\n    constraints:\n    - distinctAttribute: x.example.com/slot\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gates::{FeatureGates, Version};
    use crate::lint::{lint, Settings, SourceFile};

    #[test]
    fn generated_fleet_is_valid_and_complete() {
        let spec = FleetSpec {
            nodes: 3,
            ..FleetSpec::default()
        };
        let text = generate(spec);
        let settings = Settings::for_gates(FeatureGates::defaults(Version::LATEST));
        let r = lint(
            &[SourceFile {
                name: "fleet.yaml".into(),
                text,
            }],
            Vec::new(),
            &settings,
        );
        assert!(
            r.diagnostics.is_empty(),
            "{:#?}",
            &r.diagnostics[..r.diagnostics.len().min(3)]
        );
        // 1 class + per node: counters + one 64-device slice.
        assert_eq!(r.summary.objects, 1 + 3 * 2);
        assert_eq!(spec.devices(), 3 * 64);
    }
}
