//! DRA-V045: taint value not a label value.
use super::prelude::*;
use super::v043_too_many_taints::taints;

declare_rule! {
    id: "DRA-V045", name: "invalid-taint-value", severity: Error, origin: Apiserver,
    summary: "A device taint value is not a label value",
    docs: "Taint values follow label-value syntax: empty, or up to 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric.",
    example: "taints:\n- {key: example.com/broken, value: \"not ok\", effect: NoSchedule}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, t) in taints(cx, d).iter().enumerate() {
            if let Some(v) = get(t, "value") {
                if v.as_str().is_some_and(|s| !is_label_value(s)) {
                    out.report(
                        obj,
                        Invalid,
                        format!("spec.devices[{i}].taints[{j}].value"),
                        v.span,
                        "not a valid label value",
                    );
                }
            }
        }
    }
}
