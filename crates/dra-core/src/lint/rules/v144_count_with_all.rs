//! DRA-V144: count set with allocationMode All.
use super::prelude::*;

declare_rule! {
    id: "DRA-V144", name: "count-with-all-mode", severity: Error, origin: Apiserver,
    summary: "count is set while allocationMode is All",
    docs: "With `allocationMode: All` the request gets every matching device; a count contradicts that.",
    example: "exactly:\n  allocationMode: All\n  count: 2\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        if get_str(b.node, "allocationMode") != Some("All") {
            continue;
        }
        if let Some(n) = get(b.node, "count") {
            if n.as_i64().is_some_and(|c| c != 0) {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.count", b.path),
                    n.span,
                    "must not be specified when allocationMode is 'All'",
                );
            }
        }
    }
}
