//! DRA-V032: device name missing or not a DNS label.
use super::prelude::*;

declare_rule! {
    id: "DRA-V032", name: "invalid-device-name", severity: Error, origin: Apiserver,
    summary: "A device has no name, or its name is not a DNS label",
    docs: "Device names are DNS labels: lower-case letters, digits and '-', at most 63 characters; no dots.",
    example: "devices:\n- name: gpu.0\n",
    check: Check::Object(SLICES, check),
    fix: &crate::fix::builders::LOWER_CASE,
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        check_dns_label(
            obj,
            d,
            "name",
            &format!("spec.devices[{i}].name"),
            "device name",
            out,
        );
    }
}
