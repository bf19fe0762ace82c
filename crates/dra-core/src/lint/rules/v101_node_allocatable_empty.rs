//! DRA-V101: a nodeAllocatableResources entry with neither mapping nor overhead.
use super::prelude::*;

declare_rule! {
    id: "DRA-V101", name: "node-allocatable-without-mapping-or-overhead", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A `nodeAllocatableResources` entry has neither `mapping` nor `overhead`",
    docs: "Each entry says how allocating the device consumes the node resource: through a `mapping` (from the device or one of its capacities) or a fixed `overhead`, or both. An empty entry is rejected.",
    example: "nodeAllocatableResources:\n  memory: {}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        if get(e.value, "mapping").is_none() && get(e.value, "overhead").is_none() {
            out.report(
                obj,
                Required,
                e.path.clone(),
                e.key_span,
                "at least one of mapping or overhead must be set",
            );
        }
    }
}
