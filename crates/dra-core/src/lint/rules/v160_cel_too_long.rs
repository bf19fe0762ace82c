//! DRA-V160: CEL expression longer than 10240 characters.
use super::prelude::*;

declare_rule! {
    id: "DRA-V160", name: "cel-expression-too-long", severity: Error, origin: Apiserver,
    summary: "A CEL selector expression is longer than 10240 characters",
    docs: "Long expressions are rejected without being compiled. Split the condition over several selectors (they are ANDed).",
    example: "cel:\n  expression: device.driver == \"...10 KiB...\"\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path) in cel_selectors(cx.gates.version, obj) {
        if let Some(e) = n.as_str() {
            if e.len() > CEL_MAX_LEN {
                out.report(
                    obj,
                    TooLong,
                    path,
                    n.span,
                    format!("may not be more than {CEL_MAX_LEN} bytes"),
                );
            }
        }
    }
}
