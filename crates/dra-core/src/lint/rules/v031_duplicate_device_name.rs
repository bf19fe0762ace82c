//! DRA-V031: a device name repeated in a slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V031", name: "duplicate-device-name", severity: Error, origin: Apiserver,
    summary: "Two devices in one slice have the same name",
    docs: "Device names identify devices within their pool; allocation results name them.",
    example: "devices:\n- name: gpu-0\n- name: gpu-0\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let devs: Vec<(usize, &Node)> = devices(cx.gates.version, obj).collect();
    let names = devs
        .iter()
        .filter_map(|(i, d)| get_str_or_zero(d, "name").map(|n| (*i, n)));
    for (i, name) in duplicates(names) {
        out.report(
            obj,
            Duplicate,
            duplicate_path(cx, format!("spec.devices[{i}]"), "name"),
            devs[i].1.span,
            format!("device name {name:?} is used twice in this slice"),
        );
    }
}
