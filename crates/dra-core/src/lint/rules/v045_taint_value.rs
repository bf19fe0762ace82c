//! DRA-V045: taint value not a label value.
use super::prelude::*;
use super::v043_too_many_taints::{all_taints, TAINTED};

declare_rule! {
    id: "DRA-V045", name: "invalid-taint-value", severity: Error, origin: Apiserver,
    summary: "A device taint value (in a ResourceSlice or a DeviceTaintRule) is not a label value",
    docs: "Taint values follow label-value syntax: empty, or up to 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric.",
    example: "taints:\n- {key: example.com/broken, value: \"not ok\", effect: NoSchedule}\n",
    check: Check::Object(TAINTED, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for t in all_taints(cx, obj) {
        let Some(v) = t.node.and_then(|n| get(n, "value")) else {
            continue;
        };
        let msgs = v
            .as_str()
            .map(|s| crate::name_errors::label_value(cx.gates.version, s));
        for msg in msgs.unwrap_or_default() {
            out.report(obj, Invalid, format!("{}.value", t.path), v.span, msg);
        }
    }
}
