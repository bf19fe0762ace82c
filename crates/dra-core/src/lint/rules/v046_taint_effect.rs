//! DRA-V046: taint effect missing or unsupported.
use super::prelude::*;
use super::v043_too_many_taints::{all_taints, TAINTED};

declare_rule! {
    id: "DRA-V046", name: "invalid-taint-effect", severity: Error, origin: Apiserver, releases: "1.34+ (None from 1.35)",
    summary: "A device taint (in a ResourceSlice or a DeviceTaintRule) has no effect, or one the release does not support",
    docs: "Device taints support `NoSchedule` and `NoExecute`, and from Kubernetes 1.35 also `None` (informational); unlike node taints, `PreferNoSchedule` is not allowed. A missing effect is Required (`validateDeviceTaint`).",
    example: "taints:\n- {key: example.com/degraded, effect: PreferNoSchedule}\n",
    check: Check::Object(TAINTED, check),
}

/// `validDeviceTaintEffects` of the release, sorted as `sets.List` prints them.
pub(crate) fn taint_effects(v: Version) -> &'static [&'static str] {
    if v < Version::V1_35 {
        &["NoExecute", "NoSchedule"]
    } else {
        &["NoExecute", "NoSchedule", "None"]
    }
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let effects = taint_effects(cx.gates.version);
    for t in all_taints(cx, obj) {
        let path = format!("{}.effect", t.path);
        let effect = t.node.and_then(|n| get(n, "effect"));
        match effect.map(|e| (e, e.as_str())) {
            None | Some((_, Some(""))) => {
                let span = effect.map_or(t.span, |e| e.span);
                out.report(obj, Required, path, span, "a taint effect is required");
            }
            Some((e, Some(s))) if !effects.contains(&s) => {
                let list: Vec<String> = effects.iter().map(|x| format!("{x:?}")).collect();
                out.report(
                    obj,
                    NotSupported,
                    path,
                    e.span,
                    format!(
                        "unsupported value {s:?}: supported values: {}",
                        list.join(", ")
                    ),
                );
            }
            _ => {}
        }
    }
}
