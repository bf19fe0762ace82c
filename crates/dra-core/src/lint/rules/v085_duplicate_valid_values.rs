//! DRA-V085: a repeated valid value.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{
    go_amount_of, quantity_of, text_of, value_lists,
};
use crate::quantity::DecKey;

declare_rule! {
    id: "DRA-V085", name: "duplicate-valid-values", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validValues repeats a value (compared by Quantity.Value(), or as written in decimal with DRAFractionalCapacityRange)",
    docs: "The apiserver keys each option by `Quantity.Value()`, the integer value rounded up, so `1.5` and `2` are the same option, and past int64 the reading wraps or is 0 (`100E` and `1000E` both read 0). With DRAFractionalCapacityRange (1.37) the key is `AsDec().String()`: `1` and `1.0` differ, `1Ki` and `1024` do not.",
    example: "validValues: [1Gi, 1024Mi]\n",
    check: Check::Object(SLICES, check),
}

/// validateSet's key for one option: C34-C36 `quantityKey` and C37
/// `quantityKeyInt` (`strconv.FormatInt(item.Value(), 10)`), C37
/// `quantityKeyAsDec` (`item.AsDec().String()`) with the gate on.
#[derive(PartialEq)]
enum Key {
    Int(i64),
    Dec(DecKey),
    /// A quantity too wide to model (see GoAmount::parse): its exact value.
    Exact(Quantity),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let fractional = cx.gates.enabled(Gate::DRAFractionalCapacityRange);
    for (p, vals) in value_lists(cx, obj) {
        if !items_validated(cx.gates.version, vals.len(), MAX_VALID_VALUES) {
            continue;
        }
        let keys = keys(vals, fractional);
        let mut seen: Vec<&Key> = Vec::new();
        for (j, (v, key)) in vals.iter().zip(&keys).enumerate() {
            let Some(key) = key else { continue };
            if !seen.contains(&key) {
                seen.push(key);
                continue;
            }
            let message = match key {
                Key::Int(k) => format!("duplicate value \"{k}\""),
                _ => "duplicate value".to_owned(),
            };
            let report = out.report(
                obj,
                Duplicate,
                format!("{}.validValues[{j}]", p.path),
                v.span,
                message,
            );
            if let (Key::Int(k), Some(q)) = (key, quantity_of(v)) {
                if q != Quantity::from_int(*k) {
                    report.note(format!(
                        "the apiserver keys options by Quantity.Value(), which reads {} as {k}: past int64 it wraps or reads 0",
                        text_of(v)
                    ));
                }
            }
        }
    }
}

/// Each option's key, `None` for one that does not parse (the object
/// then fails to decode). Before the keys, the sorted-order check has
/// run `validValues[i].Cmp(validValues[i+1])` on each pair, which turns
/// option i into an inf.Dec when option i+1 is one; Value() of the two
/// forms differs past int64 and below zero.
fn keys(vals: &[Node], fractional: bool) -> Vec<Option<Key>> {
    let exact = |v: &Node| quantity_of(v).map(Key::Exact);
    let mut amounts: Vec<Option<GoAmount>> = vals.iter().map(go_amount_of).collect();
    if vals
        .iter()
        .zip(&amounts)
        .any(|(v, a)| a.is_none() && quantity_of(v).is_some())
    {
        return vals.iter().map(exact).collect();
    }
    for i in 1..amounts.len() {
        let (head, tail) = amounts.split_at_mut(i);
        if let (Some(a), Some(next)) = (&mut head[i - 1], &tail[0]) {
            a.touched_by_cmp(next);
        }
    }
    amounts
        .into_iter()
        .map(|a| {
            a.map(|a| {
                if fractional {
                    Key::Dec(a.dec_key())
                } else {
                    Key::Int(a.value())
                }
            })
        })
        .collect()
}
