//! DRA-V148: unsupported toleration operator.
use super::prelude::*;
use super::v146_toleration_key::tolerations;

declare_rule! {
    id: "DRA-V148", name: "invalid-toleration-operator", severity: Error, origin: Apiserver,
    summary: "A toleration operator is not Equal or Exists",
    docs: "Device tolerations support `Equal` (the default) and `Exists`.",
    example: "tolerations:\n- {key: a, operator: In}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (t, path) in tolerations(cx.gates.version, obj) {
        let Some(n) = get(t, "operator") else {
            continue;
        };
        if let Some(op) = n.as_str() {
            if !matches!(op, "" | "Equal" | "Exists") {
                out.report(
                    obj,
                    NotSupported,
                    format!("{path}.operator"),
                    n.span,
                    format!("unsupported value {op:?}: supported values: \"Equal\", \"Exists\""),
                );
            }
        }
    }
}
