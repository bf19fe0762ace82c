//! DRA-V158: a constraint with neither matchAttribute nor distinctAttribute.
use super::prelude::*;
use super::v155_too_many_constraints::constraints;

declare_rule! {
    id: "DRA-V158", name: "constraint-without-attribute", severity: Error, origin: Apiserver,
    summary: "A constraint sets neither matchAttribute nor distinctAttribute",
    docs: "A constraint says which attribute must be equal (matchAttribute) or different (distinctAttribute, DRAConsumableCapacity) across the devices of its requests. The path is `constraints[i]` when DRAConsumableCapacity is on and `constraints[i].matchAttribute` when it is off.",
    example: "constraints:\n- requests: [gpu, nic]\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let consumable = cx.gates.enabled(Gate::DRAConsumableCapacity);
    for (c, path) in constraints(cx.gates.version, obj) {
        if get(c, "matchAttribute").is_none() && get(c, "distinctAttribute").is_none() {
            // validateDeviceConstraint's two messages, word for word (the
            // "but multiple fields are set" is upstream's).
            let (path, message) = if consumable {
                (path, "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set")
            } else {
                (
                    format!("{path}.matchAttribute"),
                    "matchAttribute is required",
                )
            };
            out.report(obj, Required, path, c.span, message);
        }
    }
}
