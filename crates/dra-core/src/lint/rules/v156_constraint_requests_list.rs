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
        check_request_set(cx, obj, c, &path, out, |_, _, _| {});
    }
}

/// `owner.requests`, a `validateSet` of request references (a constraint's
/// here, a config's in DRA-V166, an allocation config's in DRA-V171): at
/// most 32; past that, 1.35+ checks nothing else of the list while 1.34
/// still checks each entry (`each`, given the entry's path); none twice.
pub(crate) fn check_request_set(
    cx: &Ctx<'_>,
    obj: &Object,
    owner: &Node,
    path: &str,
    out: &mut Sink<'_>,
    mut each: impl FnMut(&mut Sink<'_>, String, &Node),
) {
    let path = format!("{path}.requests");
    check_too_many(
        obj,
        owner,
        "requests",
        format_args!("{path}"),
        MAX_REQUESTS,
        "request references",
        out,
    );
    let refs = items(owner, "requests");
    if !items_validated(cx.gates.version, refs.len(), MAX_REQUESTS) {
        return;
    }
    for (j, r) in refs.iter().enumerate() {
        each(out, format!("{path}[{j}]"), r);
    }
    for (j, name) in duplicates(
        refs.iter()
            .enumerate()
            .filter_map(|(j, r)| r.as_str().map(|s| (j, s))),
    ) {
        out.report(
            obj,
            Duplicate,
            format!("{path}[{j}]"),
            refs[j].span,
            format!("{name:?} is listed twice"),
        );
    }
}
