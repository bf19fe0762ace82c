//! DRA-V090: default below validRange.min.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges};

declare_rule! {
    id: "DRA-V090", name: "default-below-min", severity: Error, origin: Apiserver,
    summary: "requestPolicy.default is less than validRange.min",
    docs: "The default must lie inside the range. Kubernetes 1.37 reports it at `validRange.default`.",
    example: "requestPolicy:\n  default: 1G\n  validRange: {min: 2G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let (Some(min), Some((default, dn))) = (get(r, "min").and_then(quantity_of), p.default)
        else {
            continue;
        };
        if default < min {
            out.report(
                obj,
                Invalid,
                format!("{}.validRange.default", p.path),
                dn.span,
                format!("default is less than min: {min}"),
            );
        }
    }
}
