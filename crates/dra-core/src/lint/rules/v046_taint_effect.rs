//! DRA-V046: taint effect missing or unsupported.
use super::prelude::*;
use super::v043_too_many_taints::taints;

declare_rule! {
    id: "DRA-V046", name: "invalid-taint-effect", severity: Error, origin: Apiserver,
    summary: "A device taint has no effect, or one other than NoSchedule, NoExecute, None",
    docs: "Device taints support `NoSchedule`, `NoExecute` and `None`; unlike node taints, `PreferNoSchedule` is not allowed.",
    example: "taints:\n- {key: example.com/degraded, effect: PreferNoSchedule}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, t) in taints(cx, d).iter().enumerate() {
            let path = format!("spec.devices[{i}].taints[{j}].effect");
            match get(t, "effect").map(|e| (e, e.as_str())) {
                None | Some((_, Some(""))) => {
                    out.report(obj, Required, path, t.span, "a taint effect is required");
                }
                Some((e, Some(s))) if !matches!(s, "NoSchedule" | "NoExecute" | "None") => {
                    out.report(obj, NotSupported, path, e.span, format!("unsupported value {s:?}: supported values: \"NoExecute\", \"NoSchedule\", \"None\""));
                }
                _ => {}
            }
        }
    }
}
