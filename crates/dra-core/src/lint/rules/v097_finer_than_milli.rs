//! DRA-V097: fractional range values finer than a milli-unit (1.37).
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges};

declare_rule! {
    id: "DRA-V097", name: "range-value-finer-than-milli", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "With DRAFractionalCapacityRange, a fractional validRange value has digits below a milli-unit",
    docs: "Fractional ranges (1.37, DRAFractionalCapacityRange) are computed in milli-units; `0.0001` cannot be represented.",
    example: "validRange: {min: 0.0001, step: 0.5}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !cx.gates.enabled(Gate::DRAFractionalCapacityRange) {
        return;
    }
    for (p, r) in ranges(cx, obj) {
        let mut fields: Vec<(String, &Node)> = ["min", "max", "step"]
            .iter()
            .filter_map(|k| get(r, k).map(|n| (format!("validRange.{k}"), n)))
            .collect();
        if let Some((_, dn)) = p.default {
            fields.push(("validRange.default".into(), dn));
        }
        let qs: Vec<(String, &Node, Quantity)> = fields
            .into_iter()
            .filter_map(|(k, n)| quantity_of(n).map(|q| (k, n, q)))
            .collect();
        if !qs.iter().any(|(_, _, q)| q.is_fractional()) {
            continue;
        }
        for (name, n, q) in qs {
            if q.finer_than_milli() {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.{name}", p.path),
                    n.span,
                    "value cannot be represented as a milli value",
                );
            }
        }
    }
}
