//! DRA-V142: a request selector without cel.
use super::prelude::*;

declare_rule! {
    id: "DRA-V142", name: "request-selector-without-cel", severity: Error, origin: Apiserver,
    summary: "A request selector has no cel expression",
    docs: "CEL is the only kind of device selector; `{}` is rejected.",
    example: "exactly:\n  selectors:\n  - {}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for b in request_bodies(cx.gates.version, obj) {
        let sels = items(b.node, "selectors");
        if !items_validated(cx.gates.version, sels.len(), MAX_SELECTORS) {
            continue;
        }
        for (j, s) in sels.iter().enumerate() {
            if get(s, "cel").is_none() {
                out.report(
                    obj,
                    Required,
                    format!("{}.selectors[{j}].cel", b.path),
                    s.span,
                    "a CEL selector is required",
                );
            }
        }
    }
}
