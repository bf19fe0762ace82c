//! DRA-V050: binding conditions without failure conditions, or the reverse.
use super::prelude::*;

declare_rule! {
    id: "DRA-V050", name: "binding-conditions-unpaired", severity: Error, origin: Apiserver,
    summary: "bindingConditions is set without bindingFailureConditions, or the other way round",
    docs: "Both lists must be set together: the scheduler waits for a binding condition and gives up on a failure condition.",
    example: "bindsToNode: true\nbindingConditions: [ready]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        let ok = items(d, "bindingConditions");
        let fail = items(d, "bindingFailureConditions");
        if !ok.is_empty() && fail.is_empty() {
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}].bindingFailureConditions"),
                entry(d, "bindingConditions").map_or(d.span, |e| e.key_span),
                "bindingFailureConditions are required to use bindingConditions",
            );
        } else if ok.is_empty() && !fail.is_empty() {
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}].bindingConditions"),
                entry(d, "bindingFailureConditions").map_or(d.span, |e| e.key_span),
                "bindingConditions are required to use bindingFailureConditions",
            );
        }
    }
}
