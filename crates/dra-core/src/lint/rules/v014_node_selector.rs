//! DRA-V014: invalid node selector requirements.
use super::prelude::*;

declare_rule! {
    id: "DRA-V014", name: "invalid-node-selector", severity: Error, origin: Apiserver,
    summary: "A node selector has no term, or a requirement is invalid (key, operator or values)",
    docs: "Core validation's node-selector rules (`ValidateNodeSelector`: at least one term, Required; `ValidateNodeSelectorRequirement`, `ValidateNodeFieldSelectorRequirement`): keys are label names and values label values; `In`/`NotIn` need values, `Exists`/`DoesNotExist` take none, `Gt`/`Lt` exactly one; another operator is Invalid. `matchFields` takes `In`/`NotIn` with exactly one value and only the key `metadata.name` (another key is Invalid at the key), whose values are node names. A `Gt`/`Lt` value that is not an integer passes the apiserver but not the scheduler's parser (a warning).",
    example: "nodeSelector:\n  nodeSelectorTerms:\n  - matchExpressions:\n    - {key: gpu, operator: Exists, values: [a100]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    check_selector(cx.gates.version, obj, spec, "spec", out);
    // A device's selector is validated only under perDeviceNodeSelection:
    // true (validateDevice); otherwise DRA-V051 alone.
    if !per_device_node_selection(obj) {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        check_selector(cx.gates.version, obj, d, &format!("spec.devices[{i}]"), out);
    }
}

pub(crate) fn check_selector(
    version: Version,
    obj: &Object,
    owner: &Node,
    path: &str,
    out: &mut Sink<'_>,
) {
    let Some(sel) = get(owner, "nodeSelector").filter(|n| !n.is_null()) else {
        return;
    };
    let terms = items(sel, "nodeSelectorTerms");
    if terms.is_empty() {
        // ValidateNodeSelector stops here, before any term (C34-C37; the
        // slice's own "exactly one term" is DRA-V013's, reported beside it).
        let span = entry(sel, "nodeSelectorTerms").map_or(sel.span, |e| e.key_span);
        out.report(
            obj,
            Required,
            format!("{path}.nodeSelector.nodeSelectorTerms"),
            span,
            "must have at least one node selector term",
        );
        return;
    }
    for (t, term) in terms.iter().enumerate() {
        let tpath = format!("{path}.nodeSelector.nodeSelectorTerms[{t}]");
        for (j, req) in items(term, "matchExpressions").iter().enumerate() {
            let rpath = format!("{tpath}.matchExpressions[{j}]");
            requirement(version, obj, req, &rpath, false, out);
        }
        for (j, req) in items(term, "matchFields").iter().enumerate() {
            let rpath = format!("{tpath}.matchFields[{j}]");
            requirement(version, obj, req, &rpath, true, out);
        }
    }
}

/// core validation's `ValidateNodeSelectorRequirement` (match expressions)
/// and `ValidateNodeFieldSelectorRequirement` (match fields), as
/// `ValidateNodeSelector(sel, false, ...)` calls them for slices.
fn requirement(
    version: Version,
    obj: &Object,
    req: &Node,
    path: &str,
    field: bool,
    out: &mut Sink<'_>,
) {
    let key = get_str(req, "key").unwrap_or("");
    let key_span = get(req, "key").map_or(req.span, |n| n.span);
    let op = get_str(req, "operator").unwrap_or("");
    let op_span = get(req, "operator").map_or(req.span, |n| n.span);
    let values = items(req, "values");
    let vspan = entry(req, "values").map_or(req.span, |e| e.key_span);
    let bad_operator = |out: &mut Sink<'_>| {
        out.report(
            obj,
            Invalid,
            format!("{path}.operator"),
            op_span,
            "not a valid selector operator",
        );
    };
    if field {
        match op {
            "In" | "NotIn" if values.len() != 1 => {
                out.report(obj, Required, format!("{path}.values"), vspan, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
            }
            "In" | "NotIn" => {}
            _ => bad_operator(out),
        }
        if key != "metadata.name" {
            out.report(
                obj,
                Invalid,
                format!("{path}.key"),
                key_span,
                "not a valid field selector key",
            );
            return;
        }
        // metadata.name values are node names.
        for (k, v) in values.iter().enumerate() {
            for msg in v
                .as_str()
                .map(crate::name_errors::dns1123_subdomain)
                .unwrap_or_default()
            {
                out.report(obj, Invalid, format!("{path}.values[{k}]"), v.span, msg);
            }
        }
        return;
    }
    match op {
        "In" | "NotIn" if values.is_empty() => {
            out.report(
                obj,
                Required,
                format!("{path}.values"),
                vspan,
                "must be specified when `operator` is 'In' or 'NotIn'",
            );
        }
        "Exists" | "DoesNotExist" if !values.is_empty() => {
            out.report(
                obj,
                Forbidden,
                format!("{path}.values"),
                vspan,
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            );
        }
        "Gt" | "Lt" if values.len() != 1 => {
            out.report(
                obj,
                Required,
                format!("{path}.values"),
                vspan,
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            );
        }
        "Gt" | "Lt" => {
            // The apiserver accepts any label value here; the scheduler's
            // node-affinity parser then refuses a non-integer.
            if values[0]
                .scalar_text()
                .and_then(|v| v.parse::<i64>().ok())
                .is_none()
            {
                out.report(obj, Warning, format!("{path}.values[0]"), values[0].span, "not an integer: the apiserver accepts it, but the scheduler cannot parse this node selector and fails every allocation that reads it");
            }
        }
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        _ => bad_operator(out),
    }
    // unversionedvalidation.ValidateLabelName: every problem is Invalid.
    for msg in crate::name_errors::label_key(version, key) {
        out.report(obj, Invalid, format!("{path}.key"), key_span, msg);
    }
    for (k, v) in values.iter().enumerate() {
        let msgs = v
            .as_str()
            .map(|s| crate::name_errors::label_value(version, s));
        for msg in msgs.unwrap_or_default() {
            out.report(obj, Invalid, format!("{path}.values[{k}]"), v.span, msg);
        }
    }
}
