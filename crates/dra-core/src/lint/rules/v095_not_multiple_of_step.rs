//! DRA-V095: default or max not on a step.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, ranges, text_of};

declare_rule! {
    id: "DRA-V095", name: "not-a-multiple-of-step", severity: Error, origin: Apiserver,
    summary: "(default - min) or (max - min) is not a multiple of validRange.step",
    docs: "Default and max must be reachable from min in whole steps. Without DRAFractionalCapacityRange (or when no value is fractional) the check uses whole units, rounding each value up; with it, milli-units.",
    example: "requestPolicy:\n  default: 3Gi\n  validRange: {min: 2Gi, step: 2Gi}\n",
    check: Check::Object(SLICES, check),
}

/// The step arithmetic of the apiserver: whole units, or milli-units when
/// DRAFractionalCapacityRange is on and a value is fractional. `None` when
/// another rule (V093, V096, V097) already rejects the values.
pub(crate) fn units(cx: &Ctx<'_>, values: &[Quantity]) -> Option<Vec<i128>> {
    let milli = cx.gates.enabled(Gate::DRAFractionalCapacityRange)
        && values.iter().any(Quantity::is_fractional);
    if milli {
        if values.iter().any(Quantity::finer_than_milli) {
            return None;
        }
        return Some(values.iter().map(Quantity::milli_value).collect());
    }
    let v: Vec<i128> = values.iter().map(Quantity::value).collect();
    if cx.gates.version >= Version::V1_37 {
        if v.iter().any(|x| *x < 0 || *x > i128::from(i64::MAX)) {
            return None;
        }
        return Some(v);
    }
    // Up to 1.36 Quantity.Value() of a number past int64 is big.Int's
    // Int64(): the low 64 bits of the magnitude, signed (C37's comment: "a
    // positive multiple of 2^64 reads as 0").
    Some(v.into_iter().map(go_int64).collect())
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        let (Some(min), Some(sn), Some((default, _))) = (
            get(r, "min").and_then(quantity_of),
            get(r, "step"),
            p.default,
        ) else {
            continue;
        };
        let Some(step) = quantity_of(sn) else {
            continue;
        };
        // The overflow guard's fast return (V097).
        if !super::v097_finer_than_milli::unsafe_values(cx, &p, r).is_empty() {
            continue;
        }

        let max = get(r, "max").and_then(quantity_of);
        let mut all = vec![min, step, default];
        all.extend(max);
        let Some(u) = units(cx, &all) else { continue };
        // 1.37 stops at a step that is not positive (V093); earlier releases
        // divide by a negative step, and fail at zero (V093's internal error).
        if u[1] == 0 || (u[1] < 0 && cx.gates.version >= Version::V1_37) {
            continue;
        }
        let path = format!("{}.validRange.step", p.path);
        let step_text = text_of(sn);
        let min_text = get(r, "min").map(text_of).unwrap_or_default();
        if (u[2] - u[0]) % u[1] != 0 {
            out.report(
                obj,
                Invalid,
                path.clone(),
                sn.span,
                format!("value is not a multiple of a given step ({step_text}) from ({min_text})"),
            )
            .note(format!("the default, {default}"));
        }
        if let (Some(mx), Some(m)) = (max, u.get(3)) {
            if (m - u[0]) % u[1] != 0 {
                out.report(
                    obj,
                    Invalid,
                    path,
                    sn.span,
                    format!(
                        "value is not a multiple of a given step ({step_text}) from ({min_text})"
                    ),
                )
                .note(format!("the max, {mx}"));
            }
        }
    }
}

/// `big.Int.Int64()` of `x`: the low 64 bits of |x| as an int64, negated
/// for a negative x.
fn go_int64(x: i128) -> i128 {
    if i64::try_from(x).is_ok() {
        return x;
    }
    let low = (x.unsigned_abs() as u64) as i64;
    i128::from(if x < 0 { low.wrapping_neg() } else { low })
}
