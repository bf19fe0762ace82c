//! DRA-V093: validRange.step zero or negative.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges};

declare_rule! {
    id: "DRA-V093", name: "step-not-positive", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validRange.step is zero or negative",
    docs: "Requests are rounded up to min + n*step; a step must be positive.",
    example: "validRange: {min: 1G, step: 0}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        if get(r, "min").is_none() {
            continue;
        }
        let Some(n) = get(r, "step") else { continue };
        if quantity_of(n).is_some_and(|s| s <= Quantity::zero()) {
            out.report(
                obj,
                Invalid,
                format!("{}.validRange.step", p.path),
                n.span,
                "step must be positive",
            );
        }
    }
}
