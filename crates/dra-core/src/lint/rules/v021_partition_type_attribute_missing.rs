//! DRA-V021: a partition without its partition-type attribute.
use super::prelude::*;

declare_rule! {
    id: "DRA-V021", name: "partition-type-attribute-missing", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A device that consumes counters lacks the string attribute named by partitionTypeAttribute",
    docs: "Every partition (device with consumesCounters) must publish the partition-type attribute as a string; the bare name in the driver's domain is accepted too.",
    example: "spec:\n  partitionTypeAttribute: gpu.example.com/profile\n  devices:\n  - name: mig-0\n    consumesCounters: [...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let Some(attr) = get_str(spec, "partitionTypeAttribute") else {
        return;
    };
    // A malformed name is DRA-V020's alone: no device can carry it
    // (validatePartitionTypeAttribute returns before the devices).
    let malformed = !attr.contains('/')
        || !crate::format::qualified_name_errors(crate::gates::Version::V1_37, attr).is_empty();
    if malformed {
        return;
    }
    let driver = get_str(spec, "driver").unwrap_or("");
    // A name in the driver's domain may be written bare; the explicit key
    // wins when a device has both (lookupQualifiedAttribute).
    let bare = attr.strip_prefix(driver).and_then(|r| r.strip_prefix('/'));
    for (i, d) in devices(cx.gates.version, obj) {
        if items(d, "consumesCounters").is_empty() {
            continue;
        }
        let attrs = entries(d, "attributes");
        let found = attrs
            .iter()
            .find(|a| a.key == attr)
            .or_else(|| bare.and_then(|b| attrs.iter().find(|a| a.key == b)));
        // Reported at the name the slice gives, whichever key the device
        // used (`attributes.Key(name)`).
        let path = format!("spec.devices[{i}].attributes[{attr}]");
        match found {
            None => {
                out.report(
                    obj,
                    Required,
                    path,
                    d.span,
                    "device consumes counters and `partitionTypeAttribute` names this attribute, so it must be set",
                );
            }
            Some(a) if get(&a.value, "string").is_none_or(Node::is_null) => {
                out.report(
                    obj,
                    Invalid,
                    path,
                    a.key_span,
                    "must be a string value because `partitionTypeAttribute` names this attribute",
                );
            }
            _ => {}
        }
    }
}
