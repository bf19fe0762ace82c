//! DRA-V051: per-device node selection on a slice that does not allow it.
use super::prelude::*;

declare_rule! {
    id: "DRA-V051", name: "device-node-selection-not-enabled", severity: Error, origin: Apiserver,
    summary: "A device sets nodeName, nodeSelector or allNodes while spec.perDeviceNodeSelection is not true",
    docs: "Device-level node selection is only allowed in slices with `perDeviceNodeSelection: true`.",
    example: "spec:\n  nodeName: node-1\n  devices:\n  - {name: gpu-0, nodeName: node-1}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    if get(spec, "perDeviceNodeSelection").and_then(Node::as_bool) == Some(true) {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        for k in ["nodeName", "nodeSelector", "allNodes"] {
            if let Some(e) = entry(d, k) {
                out.report(
                    obj,
                    Invalid,
                    format!("spec.devices[{i}].{k}"),
                    e.key_span,
                    "may only be set when spec.perDeviceNodeSelection is true",
                );
            }
        }
    }
}
