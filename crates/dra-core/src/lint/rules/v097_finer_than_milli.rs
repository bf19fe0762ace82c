//! DRA-V097: fractional range values finer than a milli-unit (1.37).
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges, Policy};

declare_rule! {
    id: "DRA-V097", name: "range-value-finer-than-milli", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "With DRAFractionalCapacityRange, a validRange value of a fractional range has digits below a milli-unit or a milli-value past int64",
    docs: "Fractional ranges (1.37, DRAFractionalCapacityRange) are computed in milli-units: `0.0001` cannot be represented, nor `10P` (10^19 milli-units) beside a fractional step. The apiserver then skips the step checks.",
    example: "validRange: {min: 0.0001, step: 0.5}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        for (name, n) in unsafe_values(cx, &p, r) {
            out.report(
                obj,
                Invalid,
                format!("{}.validRange.{name}", p.path),
                n.span,
                "value cannot be represented as a milli value",
            );
        }
    }
}

/// validateRequestPolicyRange's overflow guard (C37 ≈66k): with
/// DRAFractionalCapacityRange on and a fractional min, max, step or
/// default, each of default, min, max and step (in that order) must equal
/// `NewMilliQuantity(q.MilliValue())`: no digit below a milli-unit and a
/// milli-value within int64. Any failure returns before the step checks
/// (V093-V096 stop on it too).
pub(crate) fn unsafe_values<'a>(
    cx: &Ctx<'_>,
    p: &Policy<'a>,
    r: &'a Node,
) -> Vec<(&'static str, &'a Node)> {
    if !cx.gates.enabled(Gate::DRAFractionalCapacityRange) || get(r, "min").is_none() {
        return Vec::new();
    }
    let fields: Vec<(&'static str, &Node, Quantity)> = [("default", p.default.map(|(_, n)| n))]
        .into_iter()
        .chain(["min", "max", "step"].map(|k| (k, get(r, k))))
        .filter_map(|(k, n)| n.and_then(|n| quantity_of(n).map(|q| (k, n, q))))
        .collect();
    if !fields.iter().any(|(_, _, q)| q.is_fractional()) {
        return Vec::new();
    }
    let in_int64 = |m: i128| i64::try_from(m).is_ok();
    fields
        .into_iter()
        .filter(|(_, _, q)| q.finer_than_milli() || !in_int64(q.milli_value()))
        .map(|(k, n, _)| (k, n))
        .collect()
}
