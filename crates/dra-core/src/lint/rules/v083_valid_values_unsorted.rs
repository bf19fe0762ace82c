//! DRA-V083: validValues not ascending.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, value_lists};

declare_rule! {
    id: "DRA-V083", name: "valid-values-unsorted", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validValues is not sorted in ascending order",
    docs: "The allocator rounds a request up to the next valid value, which needs the list sorted.",
    example: "requestPolicy:\n  default: 4Gi\n  validValues: [8Gi, 4Gi]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, vals) in value_lists(cx, obj) {
        for j in 1..vals.len() {
            if let (Some(a), Some(b)) = (quantity_of(&vals[j - 1]), quantity_of(&vals[j])) {
                if a > b {
                    out.report(
                        obj,
                        Invalid,
                        format!("{}.validValues[{j}]", p.path),
                        vals[j].span,
                        "values must be sorted in ascending order",
                    );
                }
            }
        }
    }
}
