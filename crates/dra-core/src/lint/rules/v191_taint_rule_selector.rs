//! DRA-V191: DeviceTaintRule device selector with malformed names.
use super::prelude::*;

declare_rule! {
    id: "DRA-V191", name: "invalid-taint-rule-selector", severity: Error, origin: Apiserver,
    summary: "A DeviceTaintRule's `spec.deviceSelector` names a driver, pool or device that is not a valid name",
    docs: "`validateDeviceTaintSelector` checks each field that is set as the ResourceSlice fields it matches: `driver` as a driver name (DNS subdomain, at most 63 characters), `pool` as a pool name (DNS subdomains separated by '/', at most 253), `device` as a device name (DNS label). In Kubernetes 1.34 the selector also had `deviceClassName` (a DNS subdomain) and CEL `selectors`; 1.35 removed both. A rule without `deviceSelector` taints no device.",
    example: "kind: DeviceTaintRule\nspec:\n  deviceSelector: {driver: GPU_Driver, pool: node-1, device: gpu.0}\n",
    check: Check::Object(&[DeviceTaintRule], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(sel) = obj.spec().and_then(|s| get(s, "deviceSelector")) else {
        return;
    };
    let path = "spec.deviceSelector";
    // Each field is a pointer upstream: validated only when present and
    // not null (null is nil).
    let present = |key: &str| get(sel, key).is_some_and(|n| !n.is_null());
    if present("driver") {
        check_driver_name(obj, sel, "driver", &format!("{path}.driver"), out);
    }
    if present("pool") {
        check_pool_name(obj, sel, "pool", &format!("{path}.pool"), out);
    }
    if present("device") {
        check_dns_label(obj, sel, "device", &format!("{path}.device"), out);
    }
    let class = get(sel, "deviceClassName").filter(|_| cx.gates.version < Version::V1_35);
    if let Some(n) = class {
        if let Some(name) = n.as_str() {
            for msg in crate::name_errors::dns1123_subdomain(name) {
                out.report(obj, Invalid, format!("{path}.deviceClassName"), n.span, msg);
            }
        }
    }
}
