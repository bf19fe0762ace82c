//! DRA-V139: subrequest name missing or not a DNS label.
use super::prelude::*;

declare_rule! {
    id: "DRA-V139", name: "invalid-subrequest-name", severity: Error, origin: Apiserver,
    summary: "A firstAvailable entry has no name, or its name is not a DNS label",
    docs: "Subrequest names are DNS labels; the allocation result names `request/subrequest`. As for requests, a missing name is Invalid, not Required (`validateDeviceSubRequest`, 1.34-1.37).",
    example: "firstAvailable:\n- {name: Big_GPU, deviceClassName: gpu.example.com}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        if b.subrequest.is_some() {
            check_dns_label(obj, b.node, "name", &format!("{}.name", b.path), out);
        }
    }
}
