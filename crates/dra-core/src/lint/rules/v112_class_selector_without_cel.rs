//! DRA-V112: a DeviceClass selector without cel.
use super::prelude::*;

declare_rule! {
    id: "DRA-V112", name: "class-selector-without-cel", severity: Error, origin: Apiserver,
    summary: "A DeviceClass selector has no cel expression",
    docs: "CEL is the only kind of device selector; `{}` is rejected.",
    example: "spec:\n  selectors:\n  - {}\n",
    check: Check::Object(CLASSES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let sels = items(spec, "selectors");
    if !items_validated(cx.gates.version, sels.len(), MAX_SELECTORS) {
        return;
    }
    for (j, s) in sels.iter().enumerate() {
        if get(s, "cel").is_none() {
            out.report(
                obj,
                Required,
                format!("spec.selectors[{j}].cel"),
                s.span,
                "a CEL selector is required",
            );
        }
    }
}
