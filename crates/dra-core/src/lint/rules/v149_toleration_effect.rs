//! DRA-V149: unsupported toleration effect.
use super::prelude::*;
use super::v046_taint_effect::taint_effects;
use super::v146_toleration_key::tolerations;

declare_rule! {
    id: "DRA-V149", name: "invalid-toleration-effect", severity: Error, origin: Apiserver, releases: "1.34+ (None from 1.35)",
    summary: "A toleration effect is set and not one the release supports (NoSchedule, NoExecute, and from 1.35 None)",
    docs: "Leave the effect empty to tolerate all effects of the key. `validateDeviceToleration` accepts the same effects as device taints: `NoSchedule` and `NoExecute`, and from Kubernetes 1.35 `None`.",
    example: "tolerations:\n- {key: a, operator: Exists, effect: PreferNoSchedule}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let effects = taint_effects(cx.gates.version);
    for (t, path) in tolerations(cx.gates.version, obj) {
        let Some(n) = get(t, "effect") else { continue };
        if let Some(e) = n.as_str() {
            if !e.is_empty() && !effects.contains(&e) {
                let list: Vec<String> = effects.iter().map(|x| format!("{x:?}")).collect();
                out.report(
                    obj,
                    NotSupported,
                    format!("{path}.effect"),
                    n.span,
                    format!(
                        "unsupported value {e:?}: supported values: {}",
                        list.join(", ")
                    ),
                );
            }
        }
    }
}
