//! DRA-V014: invalid node selector requirements.
use super::prelude::*;

declare_rule! {
    id: "DRA-V014", name: "invalid-node-selector", severity: Error, origin: Apiserver,
    summary: "A node selector requirement is invalid (key, operator or values)",
    docs: "The usual core NodeSelector rules apply: keys are label names; `In`/`NotIn` need values, `Exists`/`DoesNotExist` take none, `Gt`/`Lt` take exactly one integer; `matchFields` only supports `metadata.name` with `In`/`NotIn` and one value.",
    example: "nodeSelector:\n  nodeSelectorTerms:\n  - matchExpressions:\n    - {key: gpu, operator: Exists, values: [a100]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    check_selector(obj, spec, "spec", out);
    for (i, d) in devices(cx.gates.version, obj) {
        check_selector(obj, d, &format!("spec.devices[{i}]"), out);
    }
}

fn check_selector(obj: &Object, owner: &Node, path: &str, out: &mut Sink<'_>) {
    let Some(sel) = get(owner, "nodeSelector") else {
        return;
    };
    for (t, term) in items(sel, "nodeSelectorTerms").iter().enumerate() {
        let tpath = format!("{path}.nodeSelector.nodeSelectorTerms[{t}]");
        for (j, req) in items(term, "matchExpressions").iter().enumerate() {
            let rpath = format!("{tpath}.matchExpressions[{j}]");
            requirement(obj, req, &rpath, false, out);
        }
        for (j, req) in items(term, "matchFields").iter().enumerate() {
            let rpath = format!("{tpath}.matchFields[{j}]");
            requirement(obj, req, &rpath, true, out);
        }
    }
}

fn requirement(obj: &Object, req: &Node, path: &str, field: bool, out: &mut Sink<'_>) {
    let key = get_str(req, "key").unwrap_or("");
    let key_span = get(req, "key").map_or(req.span, |n| n.span);
    if field {
        if key != "metadata.name" {
            out.report(
                obj,
                NotSupported,
                format!("{path}.key"),
                key_span,
                format!("unsupported field {key:?}: supported values: \"metadata.name\""),
            );
        }
    } else if key.is_empty() || !is_label_key(key) {
        out.report(
            obj,
            Invalid,
            format!("{path}.key"),
            key_span,
            format!("{key:?} is not a valid label key"),
        );
    }
    let op = get_str(req, "operator").unwrap_or("");
    let op_span = get(req, "operator").map_or(req.span, |n| n.span);
    let values = items(req, "values");
    let vspan = entry(req, "values").map_or(req.span, |e| e.key_span);
    match op {
        "In" | "NotIn" => {
            if values.is_empty() {
                out.report(
                    obj,
                    Required,
                    format!("{path}.values"),
                    vspan,
                    format!("must be specified when operator is {op:?}"),
                );
            } else if field && values.len() != 1 {
                out.report(obj, Required, format!("{path}.values"), vspan, "must be only one value when operator is 'In' or 'NotIn' for node field selector");
            }
        }
        "Exists" | "DoesNotExist" if !field => {
            if !values.is_empty() {
                out.report(
                    obj,
                    Forbidden,
                    format!("{path}.values"),
                    vspan,
                    format!("may not be specified when operator is {op:?}"),
                );
            }
        }
        "Gt" | "Lt" if !field => {
            if values.len() != 1 {
                out.report(
                    obj,
                    Required,
                    format!("{path}.values"),
                    vspan,
                    "must be specified single value when operator is 'Lt' or 'Gt'",
                );
            } else if values[0]
                .scalar_text()
                .and_then(|v| v.parse::<i64>().ok())
                .is_none()
            {
                out.report(
                    obj,
                    Invalid,
                    format!("{path}.values[0]"),
                    values[0].span,
                    "must be an integer for 'Lt' or 'Gt'",
                );
            }
        }
        _ => {
            let supported = if field {
                "\"In\", \"NotIn\""
            } else {
                "\"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\""
            };
            out.report(
                obj,
                NotSupported,
                format!("{path}.operator"),
                op_span,
                format!("unsupported operator {op:?}: supported values: {supported}"),
            );
        }
    }
    if !field {
        for (k, v) in values.iter().enumerate() {
            if let Some(s) = v.as_str() {
                if !is_label_value(s) && matches!(op, "In" | "NotIn") {
                    out.report(
                        obj,
                        Invalid,
                        format!("{path}.values[{k}]"),
                        v.span,
                        format!("{s:?} is not a valid label value"),
                    );
                }
            }
        }
    }
}
