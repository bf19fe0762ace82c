//! DRA-V084: more than 10 validValues.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::value_lists;

declare_rule! {
    id: "DRA-V084", name: "too-many-valid-values", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validValues has more than 10 entries",
    docs: "Use validRange with a step for finer choices.",
    example: "validValues: [1G, 2G, ... 11 values]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, vals) in value_lists(cx, obj) {
        if vals.len() > MAX_VALID_VALUES {
            let span = entry(p.node, "validValues").map_or(p.node.span, |e| e.key_span);
            out.report(
                obj,
                TooMany,
                format!("{}.validValues", p.path),
                span,
                format!("must have at most {MAX_VALID_VALUES} items"),
            )
            .label_text(format!("{} values here", vals.len()));
        }
    }
}
