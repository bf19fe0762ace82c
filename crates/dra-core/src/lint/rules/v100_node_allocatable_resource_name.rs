//! DRA-V100: a nodeAllocatableResources key that is not a node-allocatable resource.
use super::prelude::*;

declare_rule! {
    id: "DRA-V100", name: "invalid-node-allocatable-resource-name", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A `nodeAllocatableResources` key is not a node-allocatable resource (cpu, memory, ephemeral-storage, hugepages-*)",
    docs: "With DRANodeAllocatableResources (alpha, 1.36+) a device declares how it maps to the node's allocatable cpu, memory, ephemeral-storage or hugepages, so that the scheduler counts them with pod requests. Extended resources and other names are rejected.",
    example: "nodeAllocatableResources:\n  example.com/gpu: {overhead: {perPod: \"1\"}}\n",
    check: Check::Object(SLICES, check),
}

pub(crate) fn is_node_allocatable(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage")
        || name
            .strip_prefix("hugepages-")
            .is_some_and(|s| !s.is_empty())
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
            .note("node-allocatable resources are cpu, memory, ephemeral-storage and hugepages-<size>");
        }
    }
}
