//! DRA-V082: a request policy without a default.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::policies;

declare_rule! {
    id: "DRA-V082", name: "request-policy-default-missing", severity: Error, origin: Apiserver,
    summary: "A requestPolicy with validValues or validRange has no default",
    docs: "The default is what a claim gets when it does not ask for an amount of this capacity.",
    example: "requestPolicy:\n  validRange: {min: 1G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for p in policies(cx, obj) {
        let values = !items(p.node, "validValues").is_empty();
        let range = get(p.node, "validRange").is_some();
        if (values != range) && get(p.node, "default").is_none() {
            let what = if values { "validValues" } else { "validRange" };
            out.report(
                obj,
                Required,
                format!("{}.default", p.path),
                p.node.span,
                format!("required when {what} is defined"),
            );
        }
    }
}
