//! DRA-V136: a request with both exactly and firstAvailable.
use super::prelude::*;

declare_rule! {
    id: "DRA-V136", name: "request-with-exactly-and-first-available", severity: Error, origin: Apiserver,
    summary: "A request sets both exactly and firstAvailable",
    docs: "A request is either one exact request or a prioritized list of alternatives.",
    example: "requests:\n- name: gpu\n  exactly: {deviceClassName: a}\n  firstAvailable: [{name: b, deviceClassName: b}]\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (_, r, path) in requests(cx.gates.version, obj) {
        if let (Some(_), Some(fa)) = (entry(r, "exactly"), entry(r, "firstAvailable")) {
            out.report(obj, Invalid, path, fa.key_span, "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set");
        }
    }
}
