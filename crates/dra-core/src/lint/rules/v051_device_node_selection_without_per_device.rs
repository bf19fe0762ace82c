//! DRA-V051: per-device node selection on a slice that does not allow it.
use super::prelude::*;

declare_rule! {
    id: "DRA-V051", name: "device-node-selection-not-enabled", severity: Error, origin: Apiserver,
    summary: "A device sets nodeName, nodeSelector or allNodes while spec.perDeviceNodeSelection is not true",
    docs: "Device-level node selection is only allowed in slices with `perDeviceNodeSelection: true`. Reported once per device, at the device, as validateDevice does.",
    example: "spec:\n  nodeName: node-1\n  devices:\n  - {name: gpu-0, nodeName: node-1}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    if get(spec, "perDeviceNodeSelection").and_then(Node::as_bool) == Some(true) {
        return;
    }
    // validateDevice reports this once per device, at the device
    // (field.Invalid(fldPath, nil, ...)); the first such field is shown.
    for (i, d) in devices(cx.gates.version, obj) {
        let first = ["nodeName", "nodeSelector", "allNodes"]
            .into_iter()
            .find_map(|k| entry(d, k));
        if let Some(e) = first {
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}]"),
                e.key_span,
                "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
            );
        }
    }
}
