//! DRA-V047: too many binding conditions.
use super::prelude::*;

declare_rule! {
    id: "DRA-V047", name: "too-many-binding-conditions", severity: Error, origin: Apiserver,
    summary: "bindingConditions or bindingFailureConditions has more than 4 entries",
    docs: "Binding conditions (DRADeviceBindingConditions) delay binding until a controller reports the device ready; each list holds at most 4 condition types.",
    example: "bindingConditions: [a, b, c, d, e]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for k in ["bindingConditions", "bindingFailureConditions"] {
            check_too_many(
                obj,
                d,
                k,
                format_args!("spec.devices[{i}].{k}"),
                MAX_BINDING_CONDITIONS,
                "conditions",
                out,
            );
        }
    }
}
