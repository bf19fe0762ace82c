//! DRA-V102: mapping.capacityKey empty or not a capacity of the device.
use super::prelude::*;

declare_rule! {
    id: "DRA-V102", name: "node-allocatable-unknown-capacity-key", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "`mapping.capacityKey` of a `nodeAllocatableResources` entry is empty or names no capacity of the device",
    docs: "A mapping from a capacity multiplies what a claim consumes of that capacity; the key must be one of the device's own `capacity` names.",
    example: "capacity: {cores: {value: \"8\"}}\nnodeAllocatableResources:\n  cpu: {mapping: {capacityKey: threads, capacityMultiplier: \"1\"}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        let Some(mapping) = get(e.value, "mapping") else {
            continue;
        };
        let Some(key) = get(mapping, "capacityKey") else {
            continue;
        };
        let Some(k) = key.as_str() else { continue };
        let path = format!("{}.mapping.capacityKey", e.path);
        if k.is_empty() {
            // validateNodeAllocatableMapping's words (C37 ≈49k).
            out.report(
                obj,
                Invalid,
                path,
                key.span,
                "capacityKey must not be an empty string",
            );
        } else if entry(e.device, "capacity")
            .and_then(|c| c.value.as_map())
            .is_none_or(|m| !m.iter().any(|c| c.key == k))
        {
            out.report(
                obj,
                NotFound,
                path,
                key.span,
                format!("the device has no capacity {k:?}"),
            );
        }
    }
}
