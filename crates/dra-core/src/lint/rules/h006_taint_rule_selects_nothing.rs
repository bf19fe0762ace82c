//! DRA-H006: a DeviceTaintRule that selects no published device.
use super::prelude::*;

declare_rule! {
    id: "DRA-H006", name: "taint-rule-selects-nothing", severity: Warning, origin: Linter,
    summary: "A DeviceTaintRule's driver, pool and device match no device of the ResourceSlices",
    docs: "A misspelt driver, pool or device name: the devices meant to be taken out of service are not tainted and keep being allocated. Checked only when the input holds ResourceSlices (1.34 class and CEL selectors are left to `explain` and `devices`).",
    example: "spec:\n  deviceSelector: {driver: gpu.exmaple.com}\n",
    check: Check::Object(&[DeviceTaintRule], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !has(cx, ResourceSlice, false) {
        return;
    }
    let rule = crate::dra::DeviceTaintRule::decode(obj);
    let Some(sel) = &rule.selector else { return };
    if sel.driver.is_none() && sel.pool.is_none() && sel.device.is_none() {
        return;
    }
    let any = cx.dra().slices.iter().any(|s| {
        s.devices()
            .iter()
            .any(|d| sel.names(s.driver, s.pool.name, d.name))
    });
    if !any {
        let drivers: Vec<&str> = cx.dra().slices.iter().map(|s| s.driver).collect();
        let d = out.report(
            obj,
            Warning,
            "spec.deviceSelector",
            sel.node.span,
            "no device of the ResourceSlices matches this driver, pool and device: the rule taints nothing".to_owned(),
        );
        if let Some(s) = sel
            .driver
            .filter(|d| !drivers.contains(d))
            .and_then(|d| crate::suggest::did_you_mean(d, drivers.iter().copied()))
        {
            d.note(format!("did you mean driver {s:?}?"));
        }
    }
}
