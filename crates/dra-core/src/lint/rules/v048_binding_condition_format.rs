//! DRA-V048: malformed or repeated binding condition.
use super::prelude::*;

declare_rule! {
    id: "DRA-V048", name: "invalid-binding-condition", severity: Error, origin: Apiserver,
    summary: "A binding condition is not a condition type (label-name syntax) or is repeated",
    docs: "Binding conditions name condition types in the claim's device status, which follow label-key syntax.",
    example: "bindingConditions: [\"not ready\"]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for k in ["bindingConditions", "bindingFailureConditions"] {
            let list = items(d, k);
            if !items_validated(cx.gates.version, list.len(), MAX_BINDING_CONDITIONS) {
                continue;
            }
            for (j, c) in list.iter().enumerate() {
                if let Some(s) = c.as_str() {
                    // metav1validation.ValidateLabelName.
                    for msg in crate::name_errors::label_key(cx.gates.version, s) {
                        out.report(
                            obj,
                            Invalid,
                            format!("spec.devices[{i}].{k}[{j}]"),
                            c.span,
                            msg,
                        );
                    }
                }
            }
            for (j, s) in duplicates(
                list.iter()
                    .enumerate()
                    .filter_map(|(j, c)| c.as_str().map(|s| (j, s))),
            ) {
                out.report(
                    obj,
                    Duplicate,
                    format!("spec.devices[{i}].{k}[{j}]"),
                    list[j].span,
                    format!("{s:?} is listed twice"),
                );
            }
        }
    }
}
