//! DRA-V204: the same device name in two slices of a pool.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V204", name: "duplicate-device-in-pool", severity: Warning, origin: Linter,
    summary: "The same device name appears in two slices of one pool",
    docs: "Device names must be unique within a pool (allocation results name driver, pool and device). The apiserver only checks within a slice.",
    example: "# slices a and b of pool node-1 both publish a device named gpu-0\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        // name -> the first slice that publishes it
        let mut first: std::collections::HashMap<&str, &Object> = std::collections::HashMap::new();
        for (slice, i, d) in pool.devices() {
            let Some(n) = get(d, "name") else { continue };
            let Some(name) = n.as_str() else { continue };
            match first.get(name) {
                Some(f) if !std::ptr::eq(*f, slice) => {
                    out.report(
                        slice,
                        Warning,
                        format!("spec.devices[{i}].name"),
                        n.span,
                        format!(
                            "device {name:?} is also published by {} in pool {}/{}",
                            f.reference, pool.driver, pool.name
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    first.insert(name, slice);
                }
            }
        }
    }
}
