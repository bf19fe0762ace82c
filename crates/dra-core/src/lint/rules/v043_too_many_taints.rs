//! DRA-V043: too many taints on a device.
use super::prelude::*;

declare_rule! {
    id: "DRA-V043", name: "too-many-taints", severity: Error, origin: Apiserver,
    summary: "A device has more than 16 taints (4 before 1.35)",
    docs: "Device taints (DRADeviceTaints) are limited per device.",
    example: "taints: [... 17 taints ...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let max = max_taints(cx.gates.version);
    for (i, d) in devices(cx.gates.version, obj) {
        check_too_many(
            obj,
            d,
            "taints",
            format_args!("spec.devices[{i}].taints"),
            max,
            "taints",
            out,
        );
    }
}

/// The taints of a device that the apiserver validates one by one.
pub(crate) fn taints<'a>(cx: &Ctx<'_>, d: &'a Node) -> &'a [Node] {
    let t = items(d, "taints");
    if t.len() > max_taints(cx.gates.version) {
        &[]
    } else {
        t
    }
}
