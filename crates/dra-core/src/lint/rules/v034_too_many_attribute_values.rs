//! DRA-V034: too many attribute values on a device (1.36+).
use super::prelude::*;

declare_rule! {
    id: "DRA-V034", name: "too-many-attribute-values", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "A device's attributes hold more than 48 values in total (each list item counts)",
    docs: "From 1.36, with list-type attributes, a device may carry at most 48 attribute values: each scalar attribute counts one, each item of a list attribute counts one.",
    example: "attributes:\n  numaNodes: {ints: [0, 1, ... 60]}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_36 {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        // numEntriesDeviceAttribute: an attribute whose lists are all empty
        // (a scalar, or no value at all) is one entry; otherwise its list
        // items are, scalars beside them not counted.
        let n: usize = entries(d, "attributes")
            .iter()
            .map(|a| {
                let lists: usize = ["ints", "bools", "strings", "versions"]
                    .iter()
                    .map(|k| items(&a.value, k).len())
                    .sum();
                lists.max(1)
            })
            .sum();
        if n > MAX_ATTRIBUTE_VALUES {
            out.report(
                obj,
                Invalid,
                format!("spec.devices[{i}]"),
                d.span,
                format!(
                    "the total number of attribute values must not exceed {MAX_ATTRIBUTE_VALUES}"
                ),
            )
            .note(format!("this device has {n}"));
        }
    }
}
