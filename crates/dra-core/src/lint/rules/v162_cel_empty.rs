//! DRA-V162: empty CEL expression.
use super::prelude::*;

declare_rule! {
    id: "DRA-V162", name: "cel-expression-empty", severity: Error, origin: Apiserver,
    summary: "A CEL selector has an empty expression",
    docs: "A selector needs an expression that evaluates to a boolean; to select every device of the class, leave the selector out.",
    example: "cel:\n  expression: \"\"\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let owners: Vec<(&Node, String)> = match obj.kind {
        DeviceClass => obj
            .spec()
            .map(|s| vec![(s, "spec".to_owned())])
            .unwrap_or_default(),
        _ => request_bodies(cx.gates.version, obj)
            .into_iter()
            .map(|b| (b.node, b.path))
            .collect(),
    };
    for (owner, base) in owners {
        let sels = items(owner, "selectors");
        if !items_validated(cx.gates.version, sels.len(), MAX_SELECTORS) {
            continue;
        }
        for (j, s) in sels.iter().enumerate() {
            let Some(cel) = get(s, "cel") else { continue };
            let expr = get(cel, "expression");
            if expr.is_none_or(|e| e.as_str().is_some_and(|s| s.trim().is_empty())) {
                out.report(
                    obj,
                    Required,
                    format!("{base}.selectors[{j}].cel.expression"),
                    expr.map_or(cel.span, |e| e.span),
                    "a CEL expression is required",
                );
            }
        }
    }
}
