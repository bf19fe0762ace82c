//! DRA-V039: an empty list attribute.
use super::prelude::*;

declare_rule! {
    id: "DRA-V039", name: "empty-list-attribute", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "A list attribute (ints, bools, strings, versions) is present but empty",
    docs: "List-type attributes (DRAListTypeAttributes, alpha in 1.36) must hold at least one value.",
    example: "attributes:\n  numaNodes: {ints: []}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            for k in ["ints", "bools", "strings", "versions"] {
                if let Some(e) = entry(&a.value, k) {
                    if e.value.as_seq().is_some_and(<[Node]>::is_empty) {
                        out.report(
                            obj,
                            Invalid,
                            format!("spec.devices[{i}].attributes[{}].{k}", a.key),
                            e.key_span,
                            "must not be empty if specified",
                        );
                    }
                }
            }
        }
    }
}
