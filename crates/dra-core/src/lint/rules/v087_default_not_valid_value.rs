//! DRA-V087: default is not one of the valid values.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, value_lists};

declare_rule! {
    id: "DRA-V087", name: "default-not-a-valid-value", severity: Error, origin: Apiserver,
    summary: "requestPolicy.default is not one of validValues",
    docs: "The default must itself be an allowed amount.",
    example: "requestPolicy:\n  default: 3Gi\n  validValues: [2Gi, 4Gi]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, vals) in value_lists(cx, obj) {
        if !items_validated(cx.gates.version, vals.len(), MAX_VALID_VALUES) {
            continue;
        }
        let Some((default, _)) = p.default else {
            continue;
        };
        if !vals.iter().any(|v| quantity_of(v) == Some(default)) {
            let span = entry(p.node, "validValues").map_or(p.node.span, |e| e.key_span);
            out.report(
                obj,
                Invalid,
                format!("{}.validValues", p.path),
                span,
                format!("default value {default} is not valid according to the requestPolicy"),
            );
        }
    }
}
