//! DRA-V094: min + step above the capacity.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, quantity_text, ranges};

declare_rule! {
    id: "DRA-V094", name: "step-above-capacity", severity: Error, origin: Apiserver,
    summary: "validRange.min plus one step is larger than the capacity value",
    docs: "A range whose first step already exceeds the capacity has only one usable value; use validValues or a smaller step.",
    example: "capacity:\n  bw:\n    value: 10G\n    requestPolicy: {default: 5G, validRange: {min: 5G, step: 6G}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let (Some(min), Some(sn)) = (get(r, "min").and_then(quantity_of), get(r, "step")) else {
            continue;
        };
        let Some(step) = quantity_of(sn) else {
            continue;
        };
        // The overflow guard's fast return (V097).
        if !super::v097_finer_than_milli::unsafe_values(cx, &p, r).is_empty() {
            continue;
        }

        // 1.37 checks it only for a positive step (C37 ≈70k); earlier
        // releases for any step.
        if cx.gates.version >= Version::V1_37 && step <= Quantity::zero() {
            continue;
        }
        if let Some(added) = min.checked_add(&step) {
            if added > p.capacity {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.validRange.step", p.path),
                    sn.span,
                    format!(
                        "one step {} is larger than capacity value: {}",
                        one_step_text(r).unwrap_or_else(|| added.to_string()),
                        p.capacity_text
                    ),
                );
            }
        }
    }
}

/// `min + step` as `added.String()` prints it after `added.Add(step)`.
fn one_step_text(r: &Node) -> Option<String> {
    let min = get(r, "min").and_then(quantity_text)?;
    let step = get(r, "step").and_then(quantity_text)?;
    Some(min.add(&step)?.to_string())
}
