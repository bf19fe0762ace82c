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
    let driver = get_str(spec, "driver").unwrap_or("");
    let Some((domain, id)) = attr.split_once('/') else {
        return;
    };
    for (i, d) in devices(cx.gates.version, obj) {
        if items(d, "consumesCounters").is_empty() {
            continue;
        }
        let attrs = entries(d, "attributes");
        let found = attrs
            .iter()
            .find(|a| a.key == attr || (domain == driver && a.key == id));
        match found {
            None => {
                out.report(
                    obj,
                    Required,
                    format!("spec.devices[{i}].attributes[{attr}]"),
                    d.span,
                    format!("device consumes counters but has no {attr:?} attribute"),
                );
            }
            Some(a) if get(&a.value, "string").is_none() => {
                out.report(
                    obj,
                    Invalid,
                    format!("spec.devices[{i}].attributes[{}]", a.key),
                    a.key_span,
                    "the partition type attribute must be a string",
                );
            }
            _ => {}
        }
    }
}
