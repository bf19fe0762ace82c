//! DRA-V052: a device without exactly one node selection in a per-device slice.
use super::prelude::*;
use super::v007_node_selection_missing::set_selections;

declare_rule! {
    id: "DRA-V052", name: "device-node-selection-count", severity: Error, origin: Apiserver,
    summary: "With perDeviceNodeSelection, a device sets none, or several, of nodeName, nodeSelector, allNodes",
    docs: "In a slice with `perDeviceNodeSelection: true` every device must say where it is available, in exactly one way.",
    example: "spec:\n  perDeviceNodeSelection: true\n  devices:\n  - name: gpu-0\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    if get(spec, "perDeviceNodeSelection").and_then(Node::as_bool) != Some(true) {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        // validateDevice counts `allNodes` only when true and `nodeName`
        // only when not empty: either is Invalid there (DRA-V053) and
        // selects nothing, so a device with nothing else is Required as well
        // (validation.go@009801d; upstream's resourceslice test
        // invalid-node-selector-in-basicdevice).
        let set: Vec<&str> = set_selections(d, &["nodeName", "nodeSelector", "allNodes"])
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        match set.len() {
            0 => {
                out.report(
                    obj,
                    Required,
                    format!("spec.devices[{i}]"),
                    d.span,
                    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec",
                );
            }
            1 => {}
            _ => {
                out.report(obj, Invalid, format!("spec.devices[{i}]"), d.span, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec").note(format!("{{{}}} are set", set.join(", ")));
            }
        }
    }
}
