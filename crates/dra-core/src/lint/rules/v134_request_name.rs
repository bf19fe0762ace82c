//! DRA-V134: request name missing or not a DNS label.
use super::prelude::*;

declare_rule! {
    id: "DRA-V134", name: "invalid-request-name", severity: Error, origin: Apiserver,
    summary: "A request has no name, or its name is not a DNS label",
    docs: "Request names are DNS labels: lower-case letters, digits and '-'. `validateDeviceRequest` calls `ValidateDNS1123Label` with no Required check first, so a request without a name is Invalid, not Required (1.34-1.37).",
    example: "requests:\n- name: GPU_0\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (_, r, path) in requests(cx.gates.version, obj) {
        check_dns_label(obj, r, "name", &format!("{path}.name"), out);
    }
}
