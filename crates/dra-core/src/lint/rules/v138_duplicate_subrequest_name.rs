//! DRA-V138: subrequest name repeated.
use super::prelude::*;

declare_rule! {
    id: "DRA-V138", name: "duplicate-subrequest-name", severity: Error, origin: Apiserver,
    summary: "Two firstAvailable entries of one request have the same name",
    docs: "Subrequests are referenced as `request/subrequest` and must be unique within their request.",
    example: "firstAvailable:\n- {name: big, deviceClassName: a}\n- {name: big, deviceClassName: b}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (_, r, path) in requests(cx.gates.version, obj) {
        let subs = items(r, "firstAvailable");
        if !items_validated(cx.gates.version, subs.len(), MAX_SUBREQUESTS) {
            continue;
        }
        for (k, name) in duplicates(
            subs.iter()
                .enumerate()
                .filter_map(|(k, s)| get_str_or_zero(s, "name").map(|n| (k, n))),
        ) {
            out.report(
                obj,
                Duplicate,
                duplicate_path(cx, format!("{path}.firstAvailable[{k}]"), "name"),
                subs[k].span,
                format!("subrequest name {name:?} is used twice"),
            );
        }
    }
}
