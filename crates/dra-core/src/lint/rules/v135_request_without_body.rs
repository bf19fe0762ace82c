//! DRA-V135: a request with neither exactly nor firstAvailable.
use super::prelude::*;

declare_rule! {
    id: "DRA-V135", name: "request-without-exactly-or-first-available", severity: Error, origin: Apiserver,
    summary: "A request has neither exactly nor firstAvailable",
    docs: "Each request says what it wants in `exactly` or lists alternatives in `firstAvailable`. This also happens when firstAvailable is dropped because DRAPrioritizedList is off. resource.k8s.io/v1beta1 put the fields directly in the request; v1 needs them under `exactly`.",
    example: "requests:\n- name: gpu\n  deviceClassName: gpu.example.com   # v1beta1 shape\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (_, r, path) in requests(cx.gates.version, obj) {
        if get(r, "exactly").is_none() && get(r, "firstAvailable").is_none() {
            let d = out.report(
                obj,
                Required,
                path,
                r.span,
                "exactly one of `exactly` or `firstAvailable` is required",
            );
            if r.get("deviceClassName").is_some() {
                d.note("this looks like the v1beta1 shape: in v1 the request's fields go under `exactly`");
            }
        }
    }
}
