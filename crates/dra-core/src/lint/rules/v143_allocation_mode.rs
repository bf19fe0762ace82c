//! DRA-V143: unsupported allocationMode.
use super::prelude::*;

declare_rule! {
    id: "DRA-V143", name: "invalid-allocation-mode", severity: Error, origin: Apiserver,
    summary: "allocationMode is not ExactCount or All",
    docs: "`ExactCount` (the default) allocates `count` devices; `All` allocates every matching device in the pool.",
    example: "exactly:\n  allocationMode: Any\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        let Some(n) = get(b.node, "allocationMode") else {
            continue;
        };
        if let Some(m) = n.as_str() {
            if !matches!(m, "" | "ExactCount" | "All") {
                out.report(
                    obj,
                    NotSupported,
                    format!("{}.allocationMode", b.path),
                    n.span,
                    format!("unsupported value {m:?}: supported values: \"All\", \"ExactCount\""),
                );
            }
        }
    }
}
