//! DRA-V149: unsupported toleration effect.
use super::prelude::*;
use super::v146_toleration_key::tolerations;

declare_rule! {
    id: "DRA-V149", name: "invalid-toleration-effect", severity: Error, origin: Apiserver,
    summary: "A toleration effect is set and not NoSchedule, NoExecute or None",
    docs: "Leave the effect empty to tolerate all effects of the key.",
    example: "tolerations:\n- {key: a, operator: Exists, effect: PreferNoSchedule}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (t, path) in tolerations(obj) {
        let Some(n) = get(t, "effect") else { continue };
        if let Some(e) = n.as_str() {
            if !matches!(e, "" | "NoSchedule" | "NoExecute" | "None") {
                out.report(obj, NotSupported, format!("{path}.effect"), n.span, format!("unsupported value {e:?}: supported values: \"NoExecute\", \"NoSchedule\", \"None\""));
            }
        }
    }
}
