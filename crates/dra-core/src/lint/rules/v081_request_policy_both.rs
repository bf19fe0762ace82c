//! DRA-V081: validValues and validRange together.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::policies;

declare_rule! {
    id: "DRA-V081", name: "request-policy-values-and-range", severity: Error, origin: Apiserver,
    summary: "A requestPolicy sets both validValues and validRange",
    docs: "A request policy is either a list of allowed amounts or a range; not both.",
    example: "requestPolicy:\n  default: 1G\n  validValues: [1G, 2G]\n  validRange: {min: 1G}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for p in policies(cx, obj) {
        if !items(p.node, "validValues").is_empty() && get(p.node, "validRange").is_some() {
            out.report(obj, Forbidden, p.path, p.node.span, "exactly one policy can be specified, cannot specify \"validValues\" and \"validRange\" at the same time");
        }
    }
}
