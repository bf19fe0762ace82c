//! DRA-V212: a constraint on an attribute no device publishes.
use super::prelude::*;
use super::v155_too_many_constraints::constraints;

declare_rule! {
    id: "DRA-V212", name: "constraint-attribute-unpublished", severity: Warning, origin: Linter,
    summary: "A matchAttribute/distinctAttribute names an attribute that no device in the input publishes",
    docs: "A constraint on a missing attribute can never be satisfied (matchAttribute needs the attribute on every device). Checked only when the input contains ResourceSlices.",
    example: "constraints:\n- matchAttribute: gpu.example.com/numaNode   # devices publish numa\n",
    check: Check::Object(CLAIMS, check),
}

/// Whether any device of any slice publishes `domain/id` (bare names fall
/// under the driver's domain).
pub(crate) fn published(cx: &Ctx<'_>, full: &str) -> bool {
    let (domain, id) = full.split_once('/').unwrap_or(("", full));
    cx.dra().published("attributes").contains(&(domain, id))
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.of_kind(ResourceSlice).next().is_none() {
        return;
    }
    for (c, path) in constraints(cx.gates.version, obj) {
        for k in ["matchAttribute", "distinctAttribute"] {
            let Some(n) = get(c, k) else { continue };
            let Some(name) = n.as_str() else { continue };
            if name.contains('/') && !published(cx, name) {
                out.report(
                    obj,
                    Warning,
                    format!("{path}.{k}"),
                    n.span,
                    format!("no device in the input publishes attribute {name:?}"),
                )
                .note("the constraint can never be satisfied");
            }
        }
    }
}
