//! DRA-V166: a config naming a request that does not exist.
use super::prelude::*;
use super::v157_constraint_request_reference::check_request_ref;

declare_rule! {
    id: "DRA-V166", name: "unknown-config-request", severity: Error, origin: Apiserver,
    summary: "A claim config entry refers to a request that the claim does not have, or repeats one",
    docs: "Config requests name requests of the same claim (or `request/subrequest`); an empty list applies the config to all requests.",
    example: "requests:\n- {name: gpu, exactly: {...}}\nconfig:\n- requests: [gpus]\n  opaque: {...}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some((dc, prefix)) = device_claim(obj) else {
        return;
    };
    let cfgs = items(dc, "config");
    if !items_validated(cx.gates.version, cfgs.len(), MAX_CONFIGS) {
        return;
    }
    let names = request_names(cx.gates.version, obj);
    for (i, c) in cfgs.iter().enumerate() {
        check_request_list(cx, obj, c, &format!("{prefix}.config[{i}]"), &names, out);
    }
}

/// A config entry's `requests`, a `validateSet` of request references (the
/// claim's config here, an allocation's config in DRA-V171): at most 32;
/// past that, 1.35+ checks nothing else of the list while 1.34 still checks
/// each entry; each names a request of the claim, none twice.
pub(crate) fn check_request_list(
    cx: &Ctx<'_>,
    obj: &Object,
    owner: &Node,
    path: &str,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    let refs = items(owner, "requests");
    let path = format!("{path}.requests");
    check_too_many(
        obj,
        owner,
        "requests",
        format_args!("{path}"),
        MAX_REQUESTS,
        "request references",
        out,
    );
    if !items_validated(cx.gates.version, refs.len(), MAX_REQUESTS) {
        return;
    }
    for (j, r) in refs.iter().enumerate() {
        check_request_ref(obj, r, format!("{path}[{j}]"), names, out);
    }
    for (j, name) in duplicates(
        refs.iter()
            .enumerate()
            .filter_map(|(j, r)| r.as_str().map(|s| (j, s))),
    ) {
        out.report(
            obj,
            Duplicate,
            format!("{path}[{j}]"),
            refs[j].span,
            format!("{name:?} is listed twice"),
        );
    }
}
