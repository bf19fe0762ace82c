//! DRA-V145: negative count.
use super::prelude::*;

declare_rule! {
    id: "DRA-V145", name: "negative-count", severity: Error, origin: Apiserver,
    summary: "count is negative with allocationMode ExactCount",
    docs: "A count of 0 (or unset) is defaulted to 1; a negative count is rejected.",
    example: "exactly:\n  count: -1\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        if !matches!(
            get_str(b.node, "allocationMode"),
            None | Some("") | Some("ExactCount")
        ) {
            continue;
        }
        if let Some(n) = get(b.node, "count") {
            if n.as_i64().is_some_and(|c| c < 0) {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.count", b.path),
                    n.span,
                    "must be greater than zero",
                );
            }
        }
    }
}
