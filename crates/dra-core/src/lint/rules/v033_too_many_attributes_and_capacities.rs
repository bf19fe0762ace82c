//! DRA-V033: too many attributes and capacities on a device.
use super::prelude::*;

declare_rule! {
    id: "DRA-V033", name: "too-many-attributes-and-capacities", severity: Error, origin: Apiserver,
    summary: "A device has more than 32 attributes and capacities together",
    docs: "The apiserver limits the sum of attributes and capacities of one device to 32, reported as Invalid on the device.",
    example: "devices:\n- name: gpu-0\n  attributes: {... 20 ...}\n  capacity: {... 13 ...}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        let n = entries(d, "attributes").len() + entries(d, "capacity").len();
        if n > MAX_ATTRS_AND_CAPS {
            let span = entry(d, "name").map_or(d.span, |e| e.value.span);
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}]"),
                span,
                format!("the total number of attributes and capacities must not exceed {MAX_ATTRS_AND_CAPS}"),
            )
            .note(format!("this device has {n}"));
        }
    }
}
