//! DRA-V103: capacityKey and capacityMultiplier go together.
use super::prelude::*;

declare_rule! {
    id: "DRA-V103", name: "node-allocatable-mapping-half", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "`mapping.capacityKey` and `mapping.capacityMultiplier` of a `nodeAllocatableResources` entry: one is set without the other",
    docs: "A capacity-based mapping needs both the capacity it reads and the factor it applies.",
    example: "nodeAllocatableResources:\n  memory: {mapping: {capacityKey: memory}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        let Some(mapping) = get(e.value, "mapping") else {
            continue;
        };
        match (
            get(mapping, "capacityKey"),
            get(mapping, "capacityMultiplier"),
        ) {
            (Some(k), None) => {
                out.report(
                    obj,
                    Required,
                    format!("{}.mapping.capacityMultiplier", e.path),
                    k.span,
                    "capacityMultiplier is required when capacityKey is set",
                );
            }
            (None, Some(m)) => {
                out.report(
                    obj,
                    Required,
                    format!("{}.mapping.capacityKey", e.path),
                    m.span,
                    "capacityKey is required when capacityMultiplier is set",
                );
            }
            _ => {}
        }
    }
}
