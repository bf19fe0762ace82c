//! DRA-V161: CEL expression does not compile.
use super::prelude::*;

declare_rule! {
    id: "DRA-V161", name: "cel-compile-error", severity: Error, origin: Apiserver,
    summary: "A CEL selector expression does not compile (syntax error)",
    docs: "The apiserver compiles every new selector and rejects those that do not parse. The finding points at the token inside the expression where parsing failed.",
    example: "cel:\n  expression: device.driver == \"gpu.example.com\" &&\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path) in cel_selectors(obj) {
        let Some(expr) = n.as_str() else { continue };
        if expr.trim().is_empty() || expr.len() > CEL_MAX_LEN {
            continue;
        }
        if let Err(e) = crate::cel::parse(expr) {
            let span = cx.expression_span(obj, n, e.line, e.column);
            let short = crate::cel::short_message(&e.message);
            out.report(
                obj,
                Invalid,
                path,
                span,
                format!("CEL compilation failed: {short}"),
            )
            .label_text(short)
            .note(format!(
                "cel: ERROR: <input>:{}:{}: {}",
                e.line, e.column, e.message
            ));
        }
    }
}
