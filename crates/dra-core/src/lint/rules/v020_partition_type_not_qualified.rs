//! DRA-V020: partitionTypeAttribute not a fully qualified name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V020", name: "partition-type-not-qualified", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "partitionTypeAttribute is not a fully qualified attribute name (domain/name)",
    docs: "The attribute must be named with its domain, e.g. `gpu.example.com/profile`.",
    example: "spec:\n  partitionTypeAttribute: profile\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "partitionTypeAttribute")) else {
        return;
    };
    let Some(name) = n.as_str() else { return };
    // validateFullyQualifiedName's errors (the field's declarative tag is
    // format=k8s-resource-fully-qualified-name, the same function's origin).
    for (ty, msg) in crate::format::fully_qualified_name_errors(crate::gates::Version::V1_37, name)
    {
        out.report(obj, ty, "spec.partitionTypeAttribute", n.span, msg);
    }
}
