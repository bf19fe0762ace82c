//! DRA-V011: allNodes set to false.
use super::prelude::*;

declare_rule! {
    id: "DRA-V011", name: "all-nodes-false", severity: Error, origin: Apiserver,
    summary: "spec.allNodes is false (it must be unset or true)",
    docs: "`allNodes: false` is rejected: leave the field out and use one of the other node selections.",
    example: "spec:\n  allNodes: false\n  nodeName: node-1\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "allNodes")) else {
        return;
    };
    if n.as_bool() == Some(false) {
        out.report(
            obj,
            Invalid,
            "spec.allNodes",
            n.span,
            "must be either unset or set to true",
        );
    }
}
