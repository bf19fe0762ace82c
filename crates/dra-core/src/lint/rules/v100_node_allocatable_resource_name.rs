//! DRA-V100: a nodeAllocatableResources key that is not a node-allocatable resource.
use super::prelude::*;

declare_rule! {
    id: "DRA-V100", name: "invalid-node-allocatable-resource-name", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A `nodeAllocatableResources` key is not a node-allocatable resource (cpu, memory, hugepages-*)",
    docs: "With DRANodeAllocatableResources (alpha, 1.36+) a device declares how it maps to the node's allocatable cpu, memory or hugepages, so that the scheduler counts them with pod requests. Extended resources, ephemeral-storage and other names are rejected (core helper IsNodeAllocatableResourceName: cpu, memory and the `hugepages-` prefix).",
    example: "nodeAllocatableResources:\n  example.com/gpu: {overhead: {perPod: \"1\"}}\n",
    check: Check::Object(SLICES, check),
}

/// pkg/apis/core/helper IsNodeAllocatableResourceName: cpu, memory, or
/// IsHugePageResourceName (the `hugepages-` prefix, whatever follows); not
/// ephemeral-storage (helpers_test.go TestIsNodeAllocatableResource).
pub(crate) fn is_node_allocatable(name: &str) -> bool {
    matches!(name, "cpu" | "memory") || name.starts_with("hugepages-")
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        if !is_node_allocatable(e.key) {
            // validateNodeAllocatableResources (C37 kubernetes@009801d).
            out.report(
                obj,
                Invalid,
                e.path.clone(),
                e.key_span,
                format!("{:?}: must be a node allocatable resource name", e.key),
            )
            .note("node-allocatable resources are cpu, memory and hugepages-<size>");
        }
    }
}
