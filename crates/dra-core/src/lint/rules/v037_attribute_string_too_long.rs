//! DRA-V037: a string attribute over 64 characters.
use super::prelude::*;

declare_rule! {
    id: "DRA-V037", name: "attribute-string-too-long", severity: Error, origin: Apiserver,
    summary: "A string attribute value is longer than 64 characters",
    docs: "Attribute values are meant for matching, not for descriptions: strings are limited to 64 characters.",
    example: "attributes:\n  serial: {string: \"...65 characters...\"}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            if let Some(n) = get(&a.value, "string") {
                if let Some(s) = n.as_str() {
                    let len = s.chars().count();
                    if len > MAX_STRING_ATTR {
                        out.report(
                            obj,
                            TooLong,
                            format!("spec.devices[{i}].attributes[{}].string", a.key),
                            n.span,
                            format!("{len} characters; may not be longer than {MAX_STRING_ATTR}"),
                        );
                    }
                }
            }
        }
    }
}
