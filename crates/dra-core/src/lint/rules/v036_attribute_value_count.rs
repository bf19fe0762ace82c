//! DRA-V036: an attribute with no value or several.
use super::prelude::*;

declare_rule! {
    id: "DRA-V036", name: "attribute-value-count", severity: Error, origin: Apiserver,
    summary: "An attribute sets none, or more than one, of int, bool, string, version (and the list forms)",
    docs: "Each attribute carries exactly one typed value. With DRAListTypeAttributes off the list forms (`ints`, `bools`, `strings`, `versions`) are dropped first, which can leave an attribute with no value.",
    example: "attributes:\n  numa: {int: 0, string: \"0\"}\n",
    check: Check::Object(SLICES, check),
}

const KINDS: [&str; 8] = [
    "int", "bool", "string", "version", "ints", "bools", "strings", "versions",
];

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            let set = || -> Vec<&str> {
                KINDS
                    .iter()
                    .copied()
                    .filter(|k| get(&a.value, k).is_some())
                    .collect()
            };
            let count = KINDS.iter().filter(|k| get(&a.value, k).is_some()).count();
            let path = || format!("spec.devices[{i}].attributes[{}]", a.key);
            match count {
                1 => {}
                0 => {
                    // 1.34: validateDeviceAttribute's Required.
                    let ty = if paths_1_34(cx) { Required } else { Invalid };
                    out.report(
                        obj,
                        ty,
                        path(),
                        a.key_span,
                        "exactly one value must be specified",
                    );
                }
                _ => {
                    out.report(
                        obj,
                        Invalid,
                        path(),
                        a.key_span,
                        format!(
                            "exactly one value must be specified, got {}",
                            set().join(", ")
                        ),
                    );
                }
            }
        }
    }
}
