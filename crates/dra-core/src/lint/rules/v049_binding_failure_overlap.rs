//! DRA-V049: a condition both a binding and a failure condition.
use super::prelude::*;

declare_rule! {
    id: "DRA-V049", name: "binding-failure-overlap", severity: Error, origin: Apiserver,
    summary: "A condition type is listed in both bindingConditions and bindingFailureConditions",
    docs: "A condition cannot signal both readiness and failure.",
    example: "bindingConditions: [ready]\nbindingFailureConditions: [ready]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        let ok: Vec<&str> = items(d, "bindingConditions")
            .iter()
            .filter_map(Node::as_str)
            .collect();
        for (j, c) in items(d, "bindingFailureConditions").iter().enumerate() {
            if c.as_str().is_some_and(|s| ok.contains(&s)) {
                out.report(
                    obj,
                    Invalid,
                    format!("spec.devices[{i}].bindingFailureConditions[{j}]"),
                    c.span,
                    "bindingFailureConditions must not overlap with bindingConditions",
                );
            }
        }
    }
}
