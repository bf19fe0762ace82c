//! DRA-V088: validRange without min.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::ranges;

declare_rule! {
    id: "DRA-V088", name: "valid-range-min-missing", severity: Error, origin: Apiserver,
    summary: "requestPolicy.validRange has no min",
    docs: "A range needs its lower bound; the other range checks are skipped without it.",
    example: "requestPolicy:\n  default: 1G\n  validRange: {max: 10G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (p, r) in ranges(cx, obj) {
        if get(r, "min").is_none() {
            out.report(
                obj,
                Required,
                format!("{}.validRange.min", p.path),
                r.span,
                "required when validRange is defined",
            );
        }
    }
}
