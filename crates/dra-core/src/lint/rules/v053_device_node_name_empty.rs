//! DRA-V053: empty device nodeName or allNodes false.
use super::prelude::*;

declare_rule! {
    id: "DRA-V053", name: "invalid-device-node-selection", severity: Error, origin: Apiserver,
    summary: "A device's nodeName is empty or not a node name, or its allNodes is false",
    docs: "Per-device node selection follows the slice-level rules: a non-empty valid node name, or `allNodes: true`. `validateDevice` checks a device's nodeName, allNodes (and nodeSelector, DRA-V014) only when the slice says `perDeviceNodeSelection: true`; otherwise setting any of them is one Invalid at the device (DRA-V051) and nothing else is said of them (C34-C37).",
    example: "devices:\n- {name: gpu-0, allNodes: false}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    // Checked only under perDeviceNodeSelection: true (C34 ≈38k, C37
    // kubernetes@009801d ≈48k validateDevice); otherwise DRA-V051 alone.
    if !per_device_node_selection(obj) {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        if let Some(n) = get(d, "nodeName") {
            if let Some(s) = n.as_str() {
                // An empty name is "must not be empty"; another is checked as
                // a node name (validateDevice).
                if s.is_empty() {
                    out.report(
                        obj,
                        Invalid,
                        format!("spec.devices[{i}].nodeName"),
                        n.span,
                        "must not be empty",
                    );
                } else {
                    for msg in crate::name_errors::dns1123_subdomain(s) {
                        out.report(
                            obj,
                            Invalid,
                            format!("spec.devices[{i}].nodeName"),
                            n.span,
                            msg,
                        );
                    }
                }
            }
        }
        if let Some(n) = get(d, "allNodes") {
            if n.as_bool() == Some(false) {
                out.report(
                    obj,
                    Invalid,
                    format!("spec.devices[{i}].allNodes"),
                    n.span,
                    "must be either unset or set to true",
                );
            }
        }
    }
}
