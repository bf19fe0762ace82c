//! DRA-V086: a valid value above the capacity.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, value_lists};

declare_rule! {
    id: "DRA-V086", name: "valid-value-above-capacity", severity: Error, origin: Apiserver,
    summary: "A requestPolicy.validValues option is larger than the capacity value",
    docs: "No claim can ever get more than the device has.",
    example: "capacity:\n  memory:\n    value: 8Gi\n    requestPolicy: {default: 4Gi, validValues: [4Gi, 16Gi]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, vals) in value_lists(cx, obj) {
        if !items_validated(cx.gates.version, vals.len(), MAX_VALID_VALUES) {
            continue;
        }
        for (j, v) in vals.iter().enumerate() {
            if quantity_of(v).is_some_and(|q| q > p.capacity) {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.validValues[{j}]", p.path),
                    v.span,
                    format!("option is larger than capacity value: {}", p.capacity_text),
                );
            }
        }
    }
}
