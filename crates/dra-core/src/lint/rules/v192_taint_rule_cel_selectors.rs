//! DRA-V192: a 1.34 DeviceTaintRule's CEL selectors, validated as selectors.
use super::prelude::*;

declare_rule! {
    id: "DRA-V192", name: "invalid-taint-rule-cel-selector", severity: Error, origin: Apiserver, releases: "1.34",
    summary: "A Kubernetes 1.34 DeviceTaintRule's `spec.deviceSelector.selectors` has too many selectors, one without `cel`, or an expression that is empty, too long, does not compile or costs too much",
    docs: "In 1.34 (`resource.k8s.io/v1alpha3`) a DeviceTaintRule's device selector had CEL `selectors`, and `validateDeviceTaintSelector` checked them with `validateSelector`, as a claim's: at most 32, each with `cel`, its expression at most 10,240 characters, compiled in the DRA CEL environment and held to the cost limit. 1.35 removed the field.",
    example: "kind: DeviceTaintRule\nspec:\n  deviceSelector:\n    selectors:\n    - cel: {expression: device.attributes[\"gpu.example.com\"].model ==}\n",
    check: Check::Object(&[DeviceTaintRule], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version >= Version::V1_35 {
        return;
    }
    let Some(sel) = obj.spec().and_then(|s| get(s, "deviceSelector")) else {
        return;
    };
    let base = "spec.deviceSelector.selectors";
    let sels = items(sel, "selectors");
    if sels.len() > MAX_SELECTORS {
        check_too_many(
            obj,
            sel,
            "selectors",
            format_args!("{base}"),
            MAX_SELECTORS,
            "selectors",
            out,
        );
        // 1.34's validateSlice goes on to validate every item.
    }
    for (j, s) in sels.iter().enumerate() {
        let Some(cel) = get(s, "cel") else {
            out.report(
                obj,
                Required,
                format!("{base}[{j}].cel"),
                s.span,
                "a CEL selector is required",
            );
            continue;
        };
        let path = format!("{base}[{j}].cel.expression");
        let Some(n) = get(cel, "expression") else {
            out.report(
                obj,
                Required,
                path,
                cel.span,
                "a CEL expression is required",
            );
            continue;
        };
        let Some(expr) = n.as_str() else { continue };
        if expr.trim().is_empty() {
            out.report(obj, Required, path, n.span, "a CEL expression is required");
        } else if expr.len() > CEL_MAX_LEN {
            out.report(
                obj,
                TooLong,
                path,
                n.span,
                format!("may not be more than {CEL_MAX_LEN} bytes"),
            );
        } else {
            match &*cx.compile(expr) {
                Err(e) => {
                    super::v161_cel_compile_error::report_compile_error(cx, obj, n, path, e, out)
                }
                Ok(p) if p.estimated_cost > crate::cel::MAX_ESTIMATED_COST => {
                    out.report(
                        obj,
                        Forbidden,
                        path,
                        n.span,
                        crate::cel::cost_exceeded(p.estimated_cost),
                    );
                }
                Ok(_) => {}
            }
        }
    }
}
