//! DRA-C001: an attribute or capacity read without a guard.
use super::prelude::*;

declare_rule! {
    id: "DRA-C001", name: "unguarded-attribute-lookup", severity: Warning, origin: Linter,
    summary: "A selector reads an attribute or capacity without has(), `in` or optional syntax",
    docs: "On a device that does not publish the key, `device.attributes[\"d\"].model` raises `no such key: model`, and the scheduler aborts the allocation attempt for the whole pod instead of skipping the device (kubernetes/kubernetes#125826). Guard the read: `has(device.attributes[\"d\"].model) && ...` or `device.attributes[\"d\"].?model.orValue(\"\")`. With `--inventory`, the finding says on how many devices the key exists, and is dropped when every candidate device has it.",
    example: "cel:\n  expression: device.attributes[\"gpu.example.com\"].model == \"h100\"\n",
    check: Check::Object(&[DeviceClass, ResourceClaim, ResourceClaimTemplate], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (n, path, compiled) in compiled_selectors(cx, obj) {
        let Ok(p) = &*compiled else { continue };
        // A domain holding "/" is DRA-C004's finding: a guard there is always
        // false, so C001's advice would mislead.
        for l in p
            .lookups()
            .into_iter()
            .filter(|l| !l.guarded && !l.domain.contains('/'))
        {
            let what = if l.map == "attributes" {
                "attribute"
            } else {
                "capacity"
            };
            let guard = format!("has(device.{}[{:?}].{}) && ...", l.map, l.domain, l.key);
            let msg = match cx.inventory {
                None => format!("{what} {:?} of {} is read without a guard: a device without it aborts scheduling of the pod", l.key, l.domain),
                Some(inv) => {
                    // Devices of the domain's driver, or every device when none.
                    let of_driver: Vec<_> = inv.iter().filter(|d| d.driver == l.domain).collect();
                    let candidates: Vec<_> = if of_driver.is_empty() { inv.iter().collect() } else { of_driver };
                    let with = candidates.iter().filter(|d| d.has(l.map, &l.domain, &l.key)).count();
                    if with == candidates.len() && !candidates.is_empty() {
                        continue;
                    }
                    let scope = if candidates.len() == inv.len() { String::new() } else { format!(" of {}", l.domain) };
                    format!(
                        "{what} {:?} exists on {with} of {} devices{scope}: the selector raises `no such key: {}` on the other {}",
                        l.key,
                        candidates.len(),
                        l.key,
                        candidates.len() - with
                    )
                }
            };
            out.report(obj, Warning, path.clone(), n.span, msg)
                .note(format!(
                    "guard it: {guard}, or device.{}[{:?}].?{}.orValue(...)",
                    l.map, l.domain, l.key
                ));
        }
    }
}
