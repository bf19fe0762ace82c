//! DRA-V085: a repeated valid value.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, value_lists};

declare_rule! {
    id: "DRA-V085", name: "duplicate-valid-values", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validValues repeats a value (compared as whole units, or milli-units with DRAFractionalCapacityRange)",
    docs: "The apiserver compares options by their integer value (rounded up), so `1.5` and `2` are the same option unless DRAFractionalCapacityRange is on.",
    example: "validValues: [1Gi, 1024Mi]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let fractional = cx.gates.enabled(Gate::DRAFractionalCapacityRange);
    for (p, vals) in value_lists(cx, obj) {
        if !items_validated(cx.gates.version, vals.len(), MAX_VALID_VALUES) {
            continue;
        }
        let mut seen: Vec<i128> = Vec::new();
        for (j, v) in vals.iter().enumerate() {
            let Some(q) = quantity_of(v) else { continue };
            let key = if fractional {
                q.milli_value()
            } else {
                q.value()
            };
            if seen.contains(&key) {
                out.report(
                    obj,
                    Duplicate,
                    format!("{}.validValues[{j}]", p.path),
                    v.span,
                    "duplicate value",
                );
            } else {
                seen.push(key);
            }
        }
    }
}
