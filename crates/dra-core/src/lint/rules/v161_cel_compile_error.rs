//! DRA-V161: CEL expression does not compile.
use super::prelude::*;
use crate::cel::CompileErrorKind;

declare_rule! {
    id: "DRA-V161", name: "cel-compile-error", severity: Error, origin: Apiserver,
    summary: "A CEL selector does not compile: syntax error, undeclared function or variable, unknown device field, mismatched types, or a result that is not bool",
    docs: "The apiserver compiles every new selector in the DRA CEL environment and rejects those that do not type-check. `device` has only `driver` (string), `attributes` and `capacity` (maps by domain) and, with DRAConsumableCapacity, `allowMultipleAllocations`. Capacities are quantities: compare them with `compareTo`, `isGreaterThan`, `isLessThan`, not with `<`. The finding points at the token inside the expression.",
    example: "cel:\n  expression: device.capacity[\"gpu.example.com\"].memory > quantity(\"40Gi\")\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path, compiled) in compiled_selectors(cx, obj) {
        if let Err(e) = &*compiled {
            if e.kind != CompileErrorKind::Gated {
                report_compile_error(cx, obj, n, path, e, out);
            }
        }
    }
}

/// Reports a compile error at its token (shared with DRA-V164).
pub(crate) fn report_compile_error(
    cx: &Ctx<'_>,
    obj: &Object,
    n: &Node,
    path: String,
    e: &crate::cel::CompileError,
    out: &mut Sink<'_>,
) {
    let span = match e.position {
        Some((line, col)) => cx.expression_span(obj, n, line, col),
        None => n.span,
    };
    let short = match e.kind {
        CompileErrorKind::Syntax => {
            let msg = e.message.splitn(5, ':').nth(4).unwrap_or(&e.message).trim();
            crate::cel::short_message(msg)
        }
        _ => e.message.trim_end_matches(" (in container '')").to_owned(),
    };
    if e.kind == CompileErrorKind::Instantiation {
        // convertCELErrorToValidationError: ErrorTypeInternal is
        // field.InternalError, "Internal error: program instantiation failed: ...".
        out.report(obj, InternalError, path, span, format!("CEL {}", e.message))
            .label_text("fails when cel-go folds this constant conversion")
            .note(format!("apiserver: Internal error: {}", e.message));
        return;
    }
    // The apiserver's message: every error, with cel-go's source snippets.
    let full = e.detail(n.as_str().unwrap_or_default());
    out.report(
        obj,
        Invalid,
        path,
        span,
        format!("CEL compilation failed: {short}"),
    )
    .label_text(short)
    .note(format!("apiserver: {full}"));
}
