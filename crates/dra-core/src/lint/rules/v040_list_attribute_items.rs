//! DRA-V040: invalid items of list attributes.
use super::prelude::*;

declare_rule! {
    id: "DRA-V040", name: "invalid-list-attribute-item", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "An item of a strings or versions attribute is too long or not semver",
    docs: "Items of list attributes follow the scalar rules (the same functions upstream): strings at most 64 bytes, versions strict semver and at most 64 bytes.",
    example: "attributes:\n  firmware: {versions: [\"1.0\"]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            for (j, s) in items(&a.value, "strings").iter().enumerate() {
                let Some(v) = s.as_str() else { continue };
                let path = format!("spec.devices[{i}].attributes[{}].strings[{j}]", a.key);
                check_attribute_string(obj, v, path, s.span, out);
            }
            for (j, s) in items(&a.value, "versions").iter().enumerate() {
                let Some(v) = s.as_str() else { continue };
                let path = format!("spec.devices[{i}].attributes[{}].versions[{j}]", a.key);
                check_attribute_version(obj, v, path, s.span, out);
            }
        }
    }
}
