//! DRA-V037: a string attribute over 64 bytes.
use super::prelude::*;

declare_rule! {
    id: "DRA-V037", name: "attribute-string-too-long", severity: Error, origin: Apiserver,
    summary: "A string attribute value is longer than 64 bytes",
    docs: "Attribute values are meant for matching, not for descriptions: strings are limited to 64 bytes of UTF-8 (`validateDeviceAttributeStringValue` compares Go's `len`, so 22 three-byte characters are already too long).",
    example: "attributes:\n  serial: {string: \"...65 characters...\"}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            if let Some(n) = get(&a.value, "string") {
                if let Some(s) = n.as_str() {
                    let path = format!("spec.devices[{i}].attributes[{}].string", a.key);
                    check_attribute_string(obj, s, path, n.span, out);
                }
            }
        }
    }
}
