//! DRA-V038: a version attribute that is not semver.
use super::prelude::*;

declare_rule! {
    id: "DRA-V038", name: "invalid-version-attribute", severity: Error, origin: Apiserver,
    summary: "A version attribute is not a semantic version 2.0.0, or longer than 64 bytes",
    docs: "Version attributes are compared with CEL's semver functions, so they must be strict semver: MAJOR.MINOR.PATCH with optional -prerelease and +build, no leading 'v', no leading zeros; at most 64 bytes (both are reported when both fail, as `validateDeviceAttributeVersionValue` does).",
    example: "attributes:\n  driverVersion: {version: v1.2}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for a in entries(d, "attributes") {
            let Some(n) = get(&a.value, "version") else {
                continue;
            };
            let Some(v) = n.as_str() else { continue };
            let path = format!("spec.devices[{i}].attributes[{}].version", a.key);
            check_attribute_version(obj, v, path, n.span, out);
        }
    }
}
