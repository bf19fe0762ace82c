//! DRA-H005: a DeviceTaintRule that taints every device of every driver.
use super::prelude::*;

declare_rule! {
    id: "DRA-H005", name: "taint-rule-selects-every-device", severity: Warning, origin: Linter,
    summary: "A DeviceTaintRule without a deviceSelector, or with an empty one, taints every device of every driver",
    docs: "The scheduler's tracker reads an omitted or empty `deviceSelector` as no restriction (resourceslice/tracker applyPatches), although the API documentation says an unset selector matches nothing: every device of every driver gets the taint, and with NoExecute every pod using a device is evicted (kubernetes/kubernetes#141620). Name the driver, pool or device.",
    example: "spec:\n  deviceSelector: {}\n  taint: {key: maintenance, effect: NoSchedule}\n",
    check: Check::Object(&[DeviceTaintRule], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let rule = crate::dra::DeviceTaintRule::decode(obj);
    let narrowed = rule.selector.as_ref().is_some_and(|s| {
        s.driver.is_some()
            || s.pool.is_some()
            || s.device.is_some()
            || (cx.gates.version == Version::V1_34
                && (s.device_class_name.is_some() || s.selectors.is_some()))
    });
    if narrowed {
        return;
    }
    let (path, span) = match &rule.selector {
        Some(s) => ("spec.deviceSelector", s.node.span),
        None => ("spec", obj.spec().map_or(obj.root.span, |s| s.span)),
    };
    out.report(
        obj,
        Warning,
        path,
        span,
        "the deviceSelector names no driver, pool or device: the taint goes on every device of every driver".to_owned(),
    );
}
