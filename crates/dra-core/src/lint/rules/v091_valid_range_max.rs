//! DRA-V091: validRange.max below min or above the capacity.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges, text_of};

declare_rule! {
    id: "DRA-V091", name: "invalid-valid-range-max", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validRange.max is below min or above the capacity value",
    docs: "The range must be non-empty and within the device's capacity.",
    example: "requestPolicy:\n  default: 2G\n  validRange: {min: 2G, max: 1G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let (Some(min), Some(mn)) = (get(r, "min").and_then(quantity_of), get(r, "max")) else {
            continue;
        };
        let Some(max) = quantity_of(mn) else { continue };
        let path = format!("{}.validRange.max", p.path);
        if min > max {
            out.report(
                obj,
                Invalid,
                path.clone(),
                mn.span,
                format!("min is larger than max: {}", text_of(mn)),
            );
        }
        if max > p.capacity {
            out.report(
                obj,
                Invalid,
                path,
                mn.span,
                format!("max is larger than capacity value: {}", p.capacity_text),
            );
        }
    }
}
