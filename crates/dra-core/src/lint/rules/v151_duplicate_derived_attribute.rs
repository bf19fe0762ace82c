//! DRA-V151: a derived attribute name repeated in one request.
use super::prelude::*;

declare_rule! {
    id: "DRA-V151", name: "duplicate-derived-attribute", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "Two `derivedAttributes` of one request have the same name",
    docs: "Derived attributes (DRADerivedAttributes, alpha 1.37) are a map keyed by name: a name may appear once per request.",
    example: "derivedAttributes:\n- {name: slot, expression: device.attributes[\"x.example.com\"].slot}\n- {name: slot, expression: \"1\"}\n",
    check: Check::Object(CLAIMS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (body, list) in derived_attributes(cx.gates.version, obj) {
        for (j, name) in duplicates(
            list.iter()
                .enumerate()
                .filter_map(|(j, d)| get_str_or_zero(d, "name").map(|n| (j, n))),
        ) {
            out.report(
                obj,
                Duplicate,
                format!("{}.derivedAttributes[{j}]", body.path),
                list[j].span,
                format!("derived attribute {name:?} is defined twice"),
            );
        }
    }
}
