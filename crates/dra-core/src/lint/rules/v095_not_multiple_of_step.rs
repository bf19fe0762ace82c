//! DRA-V095: default or max not on a step.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{
    go_amount_of, quantity_of, ranges, text_of, Policy,
};

declare_rule! {
    id: "DRA-V095", name: "not-a-multiple-of-step", severity: Error, origin: Apiserver,
    summary: "(default - min) or (max - min) is not a multiple of validRange.step",
    docs: "Default and max must be reachable from min in whole steps. Without DRAFractionalCapacityRange (or when no value is fractional) the check uses whole units, rounding each value up; with it, milli-units.",
    example: "requestPolicy:\n  default: 3Gi\n  validRange: {min: 2Gi, step: 2Gi}\n",
    check: Check::Object(SLICES, check),
}

/// The step arithmetic of 1.37: whole units, or milli-units when
/// DRAFractionalCapacityRange is on and a value is fractional; its guards
/// (V096, V097) keep every value exact. `None` when they reject one.
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
    if v.iter().any(|x| *x < 0 || *x > i128::from(i64::MAX)) {
        return None;
    }
    Some(v)
}

/// The step arithmetic before 1.37 (C34-C36 validateRequestPolicyRange
/// and validateRequestPolicyRangeStep): `Quantity.Value()` of default,
/// min, step and max, unguarded, and `(val - minVal) % stepVal` in int64.
/// Value() depends on each quantity's form, and the comparisons before it
/// (`q.Cmp(y)`, in this order) turn min, default and max into inf.Decs
/// when the other side is one. `None` when a value is too wide to model.
fn go_units(p: &Policy<'_>, r: &Node, default: &Node) -> Option<[Option<i64>; 4]> {
    let amount = |n: Option<&Node>| -> Option<Option<GoAmount>> {
        match n {
            None => Some(None),
            Some(n) => go_amount_of(n).map(Some),
        }
    };
    let capacity = match p.capacity_node {
        Some(n) => go_amount_of(n)?,
        None => GoAmount::Int { value: 0, scale: 0 },
    };
    let mut min = amount(get(r, "min"))??;
    let mut default = go_amount_of(default)?;
    let mut max = amount(get(r, "max"))?;
    let step = amount(get(r, "step"))??;
    min.touched_by_cmp(&capacity);
    default.touched_by_cmp(&min);
    if let Some(max) = &mut max {
        min.touched_by_cmp(max);
        max.touched_by_cmp(&capacity);
        default.touched_by_cmp(max);
    }
    Some([
        Some(min.value()),
        Some(step.value()),
        Some(default.value()),
        max.map(|m| m.value()),
    ])
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
        let u: Vec<i128> = if cx.gates.version >= Version::V1_37 {
            let mut all = vec![min, step, default];
            all.extend(max);
            let Some(u) = units(cx, &all) else { continue };
            u
        } else {
            let Some(dn) = p.default.map(|(_, n)| n) else {
                continue;
            };
            let Some(u) = go_units(&p, r, dn) else {
                continue;
            };
            u.into_iter().flatten().map(i128::from).collect()
        };
        // 1.37 stops at a step that is not positive (V093); earlier releases
        // divide by a negative step, and fail at zero (V093's internal error).
        if u[1] == 0 || (u[1] < 0 && cx.gates.version >= Version::V1_37) {
            continue;
        }
        let path = format!("{}.validRange.step", p.path);
        let step_text = text_of(sn);
        let min_text = get(r, "min").map(text_of).unwrap_or_default();
        if not_a_multiple(u[2], u[0], u[1]) {
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
            if not_a_multiple(*m, u[0], u[1]) {
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

/// `(val - minVal) % stepVal != 0`. Before 1.37 the three are int64
/// readings and the subtraction wraps as Go's does (and MinInt64 % -1 is
/// 0 in both languages); from 1.37 they are exact, within int64.
fn not_a_multiple(val: i128, min: i128, step: i128) -> bool {
    match (i64::try_from(val), i64::try_from(min), i64::try_from(step)) {
        (Ok(v), Ok(m), Ok(s)) => v.wrapping_sub(m).wrapping_rem(s) != 0,
        _ => (val - min) % step != 0,
    }
}
