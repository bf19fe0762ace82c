//! DRA-V012: perDeviceNodeSelection set to false.
use super::prelude::*;

declare_rule! {
    id: "DRA-V012", name: "per-device-node-selection-false", severity: Error, origin: Apiserver,
    summary: "spec.perDeviceNodeSelection is false (it must be unset or true)",
    docs: "With `perDeviceNodeSelection: true` each device says where it is available. `false` is rejected: leave the field out instead.",
    example: "spec:\n  perDeviceNodeSelection: false\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "perDeviceNodeSelection")) else {
        return;
    };
    if n.as_bool() == Some(false) {
        out.report(
            obj,
            Invalid,
            "spec.perDeviceNodeSelection",
            n.span,
            "must be either unset or set to true",
        );
    }
}
