//! DRA-V080: requestPolicy on a device that cannot be shared.
use super::prelude::*;

declare_rule! {
    id: "DRA-V080", name: "request-policy-without-multiple-allocations", severity: Error, origin: Apiserver,
    summary: "A capacity has a requestPolicy but the device does not set allowMultipleAllocations: true",
    docs: "Consumable capacity (DRAConsumableCapacity) lets several claims share one device, each taking part of a capacity as its requestPolicy allows. A policy on a device that can only be allocated once is rejected.",
    example: "devices:\n- name: nic-0\n  capacity:\n    bandwidth:\n      value: 100G\n      requestPolicy: {default: 1G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        if get(d, "allowMultipleAllocations").and_then(Node::as_bool) == Some(true) {
            continue;
        }
        for c in entries(d, "capacity") {
            if let Some(e) = entry(&c.value, "requestPolicy") {
                out.report(
                    obj,
                    Forbidden,
                    format!("spec.devices[{i}].capacity[{}].requestPolicy", c.key),
                    e.key_span,
                    "allowMultipleAllocations must be true",
                );
            }
        }
    }
}

/// A capacity's request policy, parsed, on a device that allows multiple allocations.
pub(crate) struct Policy<'a> {
    pub node: &'a Node,
    pub path: String,
    pub capacity: Quantity,
    /// The capacity as the apiserver prints it (`Quantity.String()`).
    pub capacity_text: String,
    /// The capacity's value node (a missing one decodes to zero).
    pub capacity_node: Option<&'a Node>,
    pub default: Option<(Quantity, &'a Node)>,
}

pub(crate) fn quantity_of(n: &Node) -> Option<Quantity> {
    json_text(n).and_then(|t| Quantity::parse_field(&t).ok())
}

/// The quantity as apimachinery holds it (int64Amount or inf.Dec), for
/// the checks whose answer depends on that form. `None` where it is not
/// modelled (see `GoAmount::parse`).
pub(crate) fn go_amount_of(n: &Node) -> Option<GoAmount> {
    json_text(n).and_then(|t| GoAmount::parse(&t))
}

/// A quantity field's text as Quantity.UnmarshalJSON reads it: a YAML
/// float reaches the apiserver as encoding/json writes it (`1e21` is
/// `1e+21`, an inf.Dec-free int64Amount, not twenty-two digits).
fn json_text(n: &Node) -> Option<std::borrow::Cow<'_, str>> {
    match n.value {
        crate::tree::Value::Float(f) => Some(crate::cel::go_fmt::json_float(f).into()),
        _ => n.scalar_text(),
    }
}

/// A quantity field as the apiserver's messages print it, `Quantity.String()`
/// of the decoded value (`1.1` is `1100m`, `1024Mi` is `1Gi`).
pub(crate) fn text_of(n: &Node) -> String {
    quantity_text(n).map_or_else(|| "0".into(), |q| q.to_string())
}

pub(crate) fn quantity_text(n: &Node) -> Option<QuantityText> {
    json_text(n).and_then(|t| QuantityText::parse(&t))
}

pub(crate) fn policies<'a>(cx: &Ctx<'_>, obj: &'a Object) -> Vec<Policy<'a>> {
    let mut out = Vec::new();
    for (i, d) in devices(cx.gates.version, obj) {
        if get(d, "allowMultipleAllocations").and_then(Node::as_bool) != Some(true) {
            continue;
        }
        for c in entries(d, "capacity") {
            let Some(rp) = get(&c.value, "requestPolicy") else {
                continue;
            };
            let value = get(&c.value, "value");
            let capacity = value.and_then(quantity_of).unwrap_or_else(Quantity::zero);
            // A missing value decodes to the zero Quantity, printed "0".
            let capacity_text = value.map_or_else(|| "0".into(), text_of);
            let default = get(rp, "default").and_then(|n| quantity_of(n).map(|q| (q, n)));
            out.push(Policy {
                node: rp,
                path: format!("spec.devices[{i}].capacity[{}].requestPolicy", c.key),
                capacity,
                capacity_text,
                capacity_node: value,
                default,
            });
        }
    }
    out
}

/// Policies with `validRange` and not also `validValues` (which V081 rejects).
pub(crate) fn ranges<'a>(cx: &Ctx<'_>, obj: &'a Object) -> Vec<(Policy<'a>, &'a Node)> {
    policies(cx, obj)
        .into_iter()
        .filter(|p| items(p.node, "validValues").is_empty())
        .filter_map(|p| get(p.node, "validRange").map(|r| (p, r)))
        .filter(|(p, _)| p.default.is_some())
        .collect()
}

/// `validValues` policies with a default (V082 reports the others).
pub(crate) fn value_lists<'a>(cx: &Ctx<'_>, obj: &'a Object) -> Vec<(Policy<'a>, &'a [Node])> {
    policies(cx, obj)
        .into_iter()
        .filter(|p| get(p.node, "validRange").is_none() && p.default.is_some())
        .filter_map(|p| {
            let vals = items(p.node, "validValues");
            (!vals.is_empty()).then_some((p, vals))
        })
        .collect()
}
