//! DRA-V089: validRange.min above the capacity.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges};

declare_rule! {
    id: "DRA-V089", name: "valid-range-min-above-capacity", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validRange.min is larger than the capacity value",
    docs: "Every claim takes at least min, so min cannot exceed what the device has.",
    example: "capacity:\n  bandwidth:\n    value: 10G\n    requestPolicy: {default: 20G, validRange: {min: 20G}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let Some(n) = get(r, "min") else { continue };
        if quantity_of(n).is_some_and(|min| min > p.capacity) {
            out.report(
                obj,
                Invalid,
                format!("{}.validRange.min", p.path),
                n.span,
                format!("min is larger than capacity value: {}", p.capacity_text),
            );
        }
    }
}
