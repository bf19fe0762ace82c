//! DRA-V141: more than 32 selectors in a request.
use super::prelude::*;

declare_rule! {
    id: "DRA-V141", name: "too-many-request-selectors", severity: Error, origin: Apiserver,
    summary: "A request (or subrequest) has more than 32 selectors",
    docs: "Combine conditions with && in one CEL expression instead.",
    example: "exactly:\n  selectors: [... 33 ...]\n",
    check: Check::Object(CLAIMS, |cx, obj, out| {
        for b in request_bodies(cx.gates.version, obj) {
            check_too_many(obj, b.node, "selectors", format_args!("{}.selectors", b.path), MAX_SELECTORS, "selectors", out);
        }
    }),
}
