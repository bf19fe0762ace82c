//! DRA-V146: toleration key not a label name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V146", name: "invalid-toleration-key", severity: Error, origin: Apiserver,
    summary: "A device toleration key is set and not a label name",
    docs: "Toleration keys match taint keys, which follow label-key syntax. An empty key with operator Exists tolerates every taint.",
    example: "tolerations:\n- {key: \"bad key\", operator: Exists}\n",
    check: Check::Object(CLAIMS, check),
}

/// The tolerations of every request body. Their number has no limit in the
/// validation code (16 is only documented, DRA-V170), so each is validated.
pub(crate) fn tolerations(v: Version, obj: &Object) -> Vec<(&Node, String)> {
    let mut out = Vec::new();
    for b in request_bodies(v, obj) {
        let t = items(b.node, "tolerations");
        out.extend(
            t.iter()
                .enumerate()
                .map(|(j, n)| (n, format!("{}.tolerations[{j}]", b.path))),
        );
    }
    out
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (t, path) in tolerations(cx.gates.version, obj) {
        if let Some(k) = get(t, "key") {
            if let Some(s) = k.as_str().filter(|s| !s.is_empty()) {
                for msg in crate::name_errors::label_key(cx.gates.version, s) {
                    out.report(obj, Invalid, format!("{path}.key"), k.span, msg);
                }
            }
        }
    }
}
