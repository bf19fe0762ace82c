//! DRA-V157: a constraint naming a request that does not exist.
use super::prelude::*;
use super::v155_too_many_constraints::constraints;

declare_rule! {
    id: "DRA-V157", name: "unknown-constraint-request", severity: Error, origin: Apiserver,
    summary: "A constraint refers to a request (or request/subrequest) that the claim does not have",
    docs: "Constraint requests are the names of requests in the same claim, or `request/subrequest` for a firstAvailable alternative.",
    example: "requests:\n- {name: gpu, exactly: {...}}\nconstraints:\n- requests: [gpu, nic]\n  matchAttribute: example.com/pcieRoot\n",
    check: Check::Object(CLAIMS, check),
}

/// Checks one `REQ` or `REQ/SUB` reference (DRA `validateRequestNameRef`).
pub(crate) fn check_request_ref(
    obj: &Object,
    r: &Node,
    path: String,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    // A null item decodes to "" (the decoding rule reports other types).
    let Some(name) = string_or_zero(Some(r)) else {
        return;
    };
    check_request_name_ref(obj, name, r.span, path, names, out);
}

/// [`check_request_ref`] on a value (Go's "" for an unset field).
pub(crate) fn check_request_name_ref(
    obj: &Object,
    name: &str,
    span: crate::tree::Span,
    path: String,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    let msg = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";
    let segments: Vec<&str> = name.split('/').collect();
    if segments.len() > 2 {
        out.report(obj, Invalid, path, span, msg);
        return;
    }
    for s in &segments {
        // validateRequestName on each segment.
        for m in crate::name_errors::dns1123_label(s) {
            out.report(obj, Invalid, path.clone(), span, m);
        }
    }
    let known = match segments.as_slice() {
        [req] => names.iter().any(|(n, _)| n == req),
        [req, sub] => names
            .iter()
            .any(|(n, subs)| n == req && subs.iter().any(|s| s == sub)),
        _ => false,
    };
    if !known {
        let all: Vec<String> = names
            .iter()
            .flat_map(|(n, subs)| {
                std::iter::once(n.clone()).chain(subs.iter().map(move |s| format!("{n}/{s}")))
            })
            .collect();
        let d = out.report(obj, Invalid, path, span, msg);
        if let Some(s) = crate::suggest::did_you_mean(name, all.iter().map(String::as_str)) {
            d.note(format!("did you mean {s:?}?"));
        }
    }
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let names = request_names(cx.gates.version, obj);
    for (c, path) in constraints(cx.gates.version, obj) {
        let refs = items(c, "requests");
        if !items_validated(cx.gates.version, refs.len(), MAX_REQUESTS) {
            continue;
        }
        for (j, r) in refs.iter().enumerate() {
            check_request_ref(obj, r, format!("{path}.requests[{j}]"), &names, out);
        }
    }
}
