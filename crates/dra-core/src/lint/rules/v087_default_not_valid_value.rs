//! DRA-V087: default is not one of the valid values.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{quantity_of, value_lists};

declare_rule! {
    id: "DRA-V087", name: "default-not-a-valid-value", severity: Error, origin: Apiserver,
    summary: "requestPolicy.default is not one of validValues",
    docs: "The default must itself be an allowed amount. From 1.35, a list of more than 10 values is refused before its items are read, and this is reported with it whatever the list holds (the apiserver never sees the default among them).",
    example: "requestPolicy:\n  default: 3Gi\n  validValues: [2Gi, 4Gi]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, vals) in value_lists(cx, obj) {
        let Some((default, _)) = p.default else {
            continue;
        };
        // validateRequestPolicyValidValues notes the default in validateSet's
        // item callback; from 1.35 an over-long list stops at TooMany before
        // any item is seen, so the default is never found and Invalid is
        // reported as well, whatever the list holds (validation.go@009801d).
        let seen = items_validated(cx.gates.version, vals.len(), MAX_VALID_VALUES);
        if !seen || !vals.iter().any(|v| quantity_of(v) == Some(default)) {
            let span = entry(p.node, "validValues").map_or(p.node.span, |e| e.key_span);
            out.report(
                obj,
                Invalid,
                format!("{}.validValues", p.path),
                span,
                "default value is not valid according to the requestPolicy",
            )
            .note(format!("the default is {default}"));
        }
    }
}
