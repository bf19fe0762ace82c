//! DRA-V115: a DeviceClass config entry without opaque.
use super::prelude::*;

declare_rule! {
    id: "DRA-V115", name: "class-config-without-opaque", severity: Error, origin: Apiserver,
    summary: "A DeviceClass config entry has no opaque configuration",
    docs: "Opaque driver configuration is the only kind of config; an empty entry is rejected.",
    example: "spec:\n  config:\n  - {}\n",
    check: Check::Object(CLASSES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let cfgs = items(spec, "config");
    if !items_validated(cx.gates.version, cfgs.len(), MAX_CONFIGS) {
        return;
    }
    for (j, c) in cfgs.iter().enumerate() {
        if get(c, "opaque").is_none() {
            out.report(
                obj,
                Required,
                format!("spec.config[{j}].opaque"),
                c.span,
                "opaque configuration is required",
            );
        }
    }
}
