//! DRA-V009: nodeName set to the empty string.
use super::prelude::*;

declare_rule! {
    id: "DRA-V009", name: "empty-node-name", severity: Error, origin: Apiserver,
    summary: "spec.nodeName is set to an empty string",
    docs: "`nodeName: \"\"` counts as set but names no node; leave the field out or name the node.",
    example: "spec:\n  nodeName: \"\"\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "nodeName")) else {
        return;
    };
    if n.as_str() == Some("") {
        out.report(
            obj,
            Invalid,
            "spec.nodeName",
            n.span,
            "must be either unset or set to a non-empty string",
        );
    }
}
