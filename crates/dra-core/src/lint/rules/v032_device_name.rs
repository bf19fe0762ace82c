//! DRA-V032: device name missing or not a DNS label.
use super::prelude::*;

declare_rule! {
    id: "DRA-V032", name: "invalid-device-name", severity: Error, origin: Apiserver,
    summary: "A device has no name, or its name is not a DNS label",
    docs: "Device names are DNS labels: lower-case letters, digits and '-', at most 63 characters; no dots. `validateDevice` calls `ValidateDNS1123Label` with no Required check first, so a device without a name is Invalid (the empty string fails the pattern), as it is in 1.34-1.37; each message is apimachinery's own (`must not contain dots`, `a lowercase RFC 1123 label must consist of ...`).",
    example: "devices:\n- name: gpu.0\n",
    check: Check::Object(SLICES, check),
    fix: &crate::fix::builders::LOWER_CASE,
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        check_dns_label(obj, d, "name", &format!("spec.devices[{i}].name"), out);
    }
}
