//! DRA-V133: request name repeated.
use super::prelude::*;

declare_rule! {
    id: "DRA-V133", name: "duplicate-request-name", severity: Error, origin: Apiserver,
    summary: "Two requests in a claim have the same name",
    docs: "Constraints, configs and allocation results refer to requests by name.",
    example: "requests:\n- {name: gpu, exactly: {...}}\n- {name: gpu, exactly: {...}}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let reqs = requests(cx.gates.version, obj);
    for (i, name) in duplicates(
        reqs.iter()
            .filter_map(|(i, r, _)| get_str_or_zero(r, "name").map(|n| (*i, n))),
    ) {
        let (_, node, path) = &reqs[i];
        out.report(
            obj,
            Duplicate,
            duplicate_path(cx, path.clone(), "name"),
            node.span,
            format!("request name {name:?} is used twice"),
        );
    }
}
