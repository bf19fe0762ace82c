//! DRA-V118: extendedResourceName not an extended resource name.
use super::prelude::*;

declare_rule! {
    id: "DRA-V118", name: "invalid-extended-resource-name", severity: Error, origin: Apiserver,
    summary: "DeviceClass spec.extendedResourceName is not a valid extended resource name",
    docs: "With DRAExtendedResource a class can be requested as an extended resource in a container's resources (`example.com/gpu: 1`). The name must contain a domain and '/', must not be in the kubernetes.io namespace, must not start with `requests.`, and `requests.<name>` must be a qualified name (for quota).",
    example: "spec:\n  extendedResourceName: gpu\n",
    check: Check::Object(CLASSES, check),
}

/// apimachinery `IsExtendedResourceName`.
pub(crate) fn is_extended_resource_name(name: &str) -> bool {
    let native = !name.contains('/') || name.contains("kubernetes.io/");
    !native && !name.starts_with("requests.") && is_label_key(&format!("requests.{name}"))
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(n) = obj.spec().and_then(|s| get(s, "extendedResourceName")) else {
        return;
    };
    let Some(name) = n.as_str() else { return };
    if !is_extended_resource_name(name) {
        let d = out.report(
            obj,
            Invalid,
            "spec.extendedResourceName",
            n.span,
            format!("{name:?}: must be a valid extended resource name"),
        );
        if !name.contains('/') {
            d.note(format!(
                "extended resources need a domain, e.g. \"example.com/{name}\""
            ));
        }
    }
}
