//! DRA-V156: constraint requests too many or repeated.
use super::prelude::*;
use super::v155_too_many_constraints::constraints;

declare_rule! {
    id: "DRA-V156", name: "invalid-constraint-request-list", severity: Error, origin: Apiserver,
    summary: "A constraint's requests list has more than 32 entries or repeats one",
    docs: "An empty list means the constraint applies to all requests.",
    example: "constraints:\n- requests: [gpu, gpu]\n  matchAttribute: gpu.example.com/numa\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (c, path) in constraints(cx.gates.version, obj) {
        check_too_many(
            obj,
            c,
            "requests",
            format_args!("{path}.requests"),
            MAX_REQUESTS,
            "request references",
            out,
        );
        let refs = items(c, "requests");
        if !items_validated(cx.gates.version, refs.len(), MAX_REQUESTS) {
            continue;
        }
        for (j, name) in duplicates(
            refs.iter()
                .enumerate()
                .filter_map(|(j, r)| r.as_str().map(|s| (j, s))),
        ) {
            out.report(
                obj,
                Duplicate,
                format!("{path}.requests[{j}]"),
                refs[j].span,
                format!("{name:?} is listed twice"),
            );
        }
    }
}
