//! DRA-V044: taint key missing or not a label name.
use super::prelude::*;
use super::v043_too_many_taints::{all_taints, TAINTED};

declare_rule! {
    id: "DRA-V044", name: "invalid-taint-key", severity: Error, origin: Apiserver,
    summary: "A device taint (in a ResourceSlice or a DeviceTaintRule) has no key, or the key is not a label name",
    docs: "Taint keys follow label-key syntax: an optional DNS-subdomain prefix and '/', then a name of at most 63 characters. `validateDeviceTaint` checks them with `ValidateLabelName`, so a missing or empty key is Invalid (\"name part must be non-empty\"), not Required.",
    example: "taints:\n- {key: \"bad key\", effect: NoSchedule}\n",
    check: Check::Object(TAINTED, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for t in all_taints(cx, obj) {
        let path = format!("{}.key", t.path);
        // metav1validation.ValidateLabelName: every problem, an empty key
        // included, is Invalid.
        let key = t.node.and_then(|n| get(n, "key"));
        let Some(s) = string_or_zero(key) else {
            continue;
        };
        let span = key.map_or_else(|| t.node.map_or(t.span, missing_span), |k| k.span);
        for msg in crate::name_errors::label_key(cx.gates.version, s) {
            out.report(obj, Invalid, path.clone(), span, msg);
        }
    }
}
