//! DRA-V096: range values outside the integer arithmetic (1.37).
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges};

declare_rule! {
    id: "DRA-V096", name: "range-value-out-of-bounds", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A validRange value (or default) is negative or above 2^63-1 in whole units (1.37)",
    docs: "From 1.37 the apiserver does the step arithmetic in int64 whole units and rejects values it cannot represent; the multiple-of-step checks are skipped then.",
    example: "validRange: {min: -1, step: 1}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_37 {
        return;
    }
    let fractional = cx.gates.enabled(Gate::DRAFractionalCapacityRange);
    for (p, r) in ranges(cx, obj) {
        if get(r, "min").is_none() || p.default.is_none() {
            continue;
        }
        // C37 checks the bounds only on the way to the step arithmetic: for a
        // positive step (a step of zero or less is V093's).
        let Some(step) = get(r, "step").and_then(quantity_of) else {
            continue;
        };
        if step <= Quantity::zero() {
            continue;
        }
        let mut fields: Vec<(String, &Node)> = ["min", "max", "step"]
            .iter()
            .filter_map(|k| get(r, k).map(|n| (format!("validRange.{k}"), n)))
            .collect();
        if let Some((_, dn)) = p.default {
            fields.push(("validRange.default".into(), dn));
        }
        let qs: Vec<Quantity> = fields.iter().filter_map(|(_, n)| quantity_of(n)).collect();
        if fractional && qs.iter().any(Quantity::is_fractional) {
            continue;
        }
        for (name, n) in fields {
            let Some(q) = quantity_of(n) else { continue };
            // validateInt64Range: the sign, then the exact value against MaxInt64.
            let why = if q.is_negative() {
                Some("must be greater than or equal to 0")
            } else if q > Quantity::from_int(i64::MAX) {
                Some("must not be larger than 9223372036854775807")
            } else {
                None
            };
            if let Some(why) = why {
                out.report(obj, Invalid, format!("{}.{name}", p.path), n.span, why);
            }
        }
    }
}
