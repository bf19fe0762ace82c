//! DRA-V167: a claim config entry without opaque.
use super::prelude::*;

declare_rule! {
    id: "DRA-V167", name: "claim-config-without-opaque", severity: Error, origin: Apiserver,
    summary: "A claim config entry has no opaque configuration",
    docs: "Opaque driver configuration is the only kind of config. Its driver and parameters are checked by DRA-V116 and DRA-V117.",
    example: "config:\n- requests: [gpu]\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some((dc, prefix)) = device_claim(obj) else {
        return;
    };
    let cfgs = items(dc, "config");
    if !items_validated(cx.gates.version, cfgs.len(), MAX_CONFIGS) {
        return;
    }
    for (i, c) in cfgs.iter().enumerate() {
        if get(c, "opaque").is_none() {
            out.report(
                obj,
                Required,
                format!("{prefix}.config[{i}].opaque"),
                c.span,
                "opaque configuration is required",
            );
        }
    }
}
