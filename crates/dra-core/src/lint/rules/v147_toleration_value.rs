//! DRA-V147: toleration value invalid for its operator.
use super::prelude::*;
use super::v146_toleration_key::tolerations;

declare_rule! {
    id: "DRA-V147", name: "invalid-toleration-value", severity: Error, origin: Apiserver,
    summary: "A toleration with operator Exists has a value, or an Equal toleration's value is not a label value",
    docs: "`Exists` matches any value of the key, so a value is meaningless and rejected; `Equal` (the default) compares with a label value.",
    example: "tolerations:\n- {key: example.com/unhealthy, operator: Exists, value: \"true\"}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (t, path) in tolerations(cx.gates.version, obj) {
        let Some(v) = get(t, "value") else { continue };
        let Some(value) = v.as_str() else { continue };
        match get_str(t, "operator").unwrap_or("Equal") {
            "Exists" if !value.is_empty() => {
                out.report(
                    obj,
                    Invalid,
                    format!("{path}.value"),
                    v.span,
                    "must be empty for operator `Exists`",
                );
            }
            "Equal" | "" => {
                for msg in crate::name_errors::label_value(cx.gates.version, value) {
                    out.report(obj, Invalid, format!("{path}.value"), v.span, msg);
                }
            }
            _ => {}
        }
    }
}
