//! DRA-V166: a config naming a request that does not exist.
use super::prelude::*;
use super::v156_constraint_requests_list::check_request_set;
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

/// A config entry's `requests` (the claim's config here, an allocation's
/// config in DRA-V171): the set DRA-V156 checks, each entry naming a
/// request of the claim.
pub(crate) fn check_request_list(
    cx: &Ctx<'_>,
    obj: &Object,
    owner: &Node,
    path: &str,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    check_request_set(cx, obj, owner, path, out, |out, path, r| {
        check_request_ref(obj, r, path, names, out)
    });
}
