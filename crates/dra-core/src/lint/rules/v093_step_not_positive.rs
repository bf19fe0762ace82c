//! DRA-V093: validRange.step zero or negative.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{go_amount_of, quantity_of, ranges};

declare_rule! {
    id: "DRA-V093", name: "step-not-positive", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validRange.step is zero or negative",
    docs: "Requests are rounded up to min + n*step; a step must be positive. Kubernetes 1.37 rejects a step of zero or less (Invalid, \"must be greater than zero\"). Up to 1.36 there is no such check (C36 validateRequestPolicyRangeStep): a negative step passes, and a step of zero reaches a division by zero in the multiple-of-step check, so kube-apiserver answers 500 (type InternalError here) instead of a field error.",
    example: "validRange: {min: 1G, step: 0}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        if get(r, "min").is_none() {
            continue;
        }
        let Some(n) = get(r, "step") else { continue };
        let Some(step) = quantity_of(n) else { continue };
        // Without a default the range is not validated at all (Required
        // default, V082).
        if p.default.is_none() {
            continue;
        }
        // The overflow guard's fast return (V097).
        if !super::v097_finer_than_milli::unsafe_values(cx, &p, r).is_empty() {
            continue;
        }
        let path = format!("{}.validRange.step", p.path);
        if cx.gates.version >= Version::V1_37 {
            if step <= Quantity::zero() {
                out.report(obj, Invalid, path, n.span, "must be greater than zero");
            }
        } else if go_amount_of(n).map_or(step.value() == 0, |a| a.value() == 0) {
            // Quantity.Value() of the step as parsed (nothing compares the
            // step first): 0 for 0, but also for `1e19` and other
            // int64Amounts past int64, and for a multiple of 2^64.
            out.report(
                obj,
                InternalError,
                path,
                n.span,
                "a step of zero makes kube-apiserver divide by zero: the request fails with an internal error (500)",
            )
            .note("Kubernetes 1.37 rejects it as \"must be greater than zero\"");
        }
    }
}
