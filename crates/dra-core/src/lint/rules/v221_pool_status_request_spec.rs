//! DRA-V221: a ResourcePoolStatusRequest whose spec names no valid driver,
//! pool, limit or default partition type attribute.
use super::prelude::*;

declare_rule! {
    id: "DRA-V221", name: "invalid-pool-status-request-spec", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "ResourcePoolStatusRequest spec.driver is missing or not a DNS subdomain, spec.poolName is not a pool name, spec.limit is outside 1-1000, or (1.37) spec.defaultPartitionTypeAttribute is set with its gate off or is not a fully qualified name",
    docs: "The spec of a ResourcePoolStatusRequest is validated only declaratively: the handwritten `ValidateResourcePoolStatusRequest` of 1.36 and 1.37 checks the metadata alone, and the apiserver enforces the type's standard `+k8s:` tags (k8s.io/api resource/v1alpha3 at release-1.36 and master, the 1.37 line, whose errors apimachinery's `validate` package words): `driver` is required (`Required value`) and must be a DNS subdomain in any letter case (`k8s-long-name-caseless`: at most 253 bytes); `poolName`, when set, must be '/'-separated DNS subdomains of at most 253 bytes in all (`k8s-resource-pool-name`, each message naming its segment; an empty string is \"segment 0: must not be empty\"); `limit` defaults to 100 and must be at least 1 and at most 1000. 1.37 adds `defaultPartitionTypeAttribute` (#140170): with DRAPartitionableDevicesType off it is Forbidden (`+k8s:ifDisabled(...)=+k8s:forbidden`; the strategy does not drop it), with the gate on it must be a fully qualified attribute name, domain and name (`k8s-resource-fully-qualified-name`: `profile` alone is Invalid). kubernetes' `declarative_validation_test.go` for the kind lists these errors.",
    example: "# kubectl dra lint --kubernetes-version 1.36 --feature-gates DRAResourcePoolStatus=true\napiVersion: resource.k8s.io/v1alpha3\nkind: ResourcePoolStatusRequest\nmetadata: {name: gpu-pools}\nspec:\n  driver: gpu_example\n  poolName: node-1//gpu\n  limit: 5000\n",
    check: Check::Object(&[ResourcePoolStatusRequest], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else {
        // Go's zero spec: no driver.
        let span = missing_span(&obj.root);
        out.report(obj, Required, "spec.driver", span, "Required value");
        return;
    };
    check_driver(obj, spec, "spec.driver", out);
    // A pointer: unset and null are nil, not validated.
    if let Some(n) = get(spec, "poolName").filter(|n| !n.is_null()) {
        if let Some(name) = n.as_str() {
            check_resource_pool_name(obj, name, n.span, "spec.poolName", out);
        }
    }
    if cx.gates.version >= Version::V1_37 {
        check_default_partition_type(cx, obj, spec, out);
    }
    // Defaulted to 100 when unset or null, then bounded.
    if let Some((n, v)) = get(spec, "limit").and_then(|n| Some((n, n.as_i64()?))) {
        if v > 1000 {
            out.report(
                obj,
                Invalid,
                "spec.limit",
                n.span,
                "must be less than or equal to 1000",
            );
        }
        if v < 1 {
            out.report(
                obj,
                Invalid,
                "spec.limit",
                n.span,
                "must be greater than or equal to 1",
            );
        }
    }
}

/// `defaultPartitionTypeAttribute`'s tags (1.37): forbidden while
/// DRAPartitionableDevicesType is off, else optional and
/// `format=k8s-resource-fully-qualified-name`. A pointer: null is unset.
fn check_default_partition_type(cx: &Ctx<'_>, obj: &Object, spec: &Node, out: &mut Sink<'_>) {
    let Some(n) = get(spec, "defaultPartitionTypeAttribute").filter(|n| !n.is_null()) else {
        return;
    };
    let path = "spec.defaultPartitionTypeAttribute";
    if !gate_on(cx, Gate::DRAPartitionableDevicesType) {
        out.report(obj, Forbidden, path, n.span, "Forbidden")
            .note("the field needs feature gate DRAPartitionableDevicesType (alpha in 1.37, off by default; it depends on DRAResourcePoolStatus)");
        return;
    }
    if let Some(name) = n.as_str() {
        for (ty, msg) in crate::format::fully_qualified_name_errors(Version::V1_37, name) {
            out.report(obj, ty, path, n.span, msg);
        }
    }
}

/// `+k8s:required` and `+k8s:format=k8s-long-name-caseless` on a driver
/// field: a missing name stops there (the tag short-circuits).
pub(crate) fn check_driver(obj: &Object, parent: &Node, path: &str, out: &mut Sink<'_>) {
    let Some((name, span)) = string_field(parent, "driver") else {
        return;
    };
    if name.is_empty() {
        out.report(obj, Required, path, span, "Required value");
        return;
    }
    for msg in crate::name_errors::long_name_caseless(name) {
        out.report(obj, Invalid, path, span, msg);
    }
}

/// `+k8s:format=k8s-resource-pool-name`.
pub(crate) fn check_resource_pool_name(
    obj: &Object,
    name: &str,
    span: crate::tree::Span,
    path: &str,
    out: &mut Sink<'_>,
) {
    let (too_long, faults) = crate::name_errors::resource_pool_name(name);
    if too_long {
        out.report(obj, TooLong, path, span, "may not be more than 253 bytes");
    }
    for msg in faults {
        out.report(obj, Invalid, path, span, msg);
    }
}
