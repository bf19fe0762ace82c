//! DRA-H002: an allocated device that no ResourceSlice publishes any more.
use super::prelude::*;

declare_rule! {
    id: "DRA-H002", name: "allocated-device-missing", severity: Warning, origin: Linter,
    summary: "A claim's allocation names a device no ResourceSlice publishes",
    docs: "The driver stopped publishing the device (it failed, the node went away, the pool was renamed) while a claim still holds it: a pod using it cannot start again, and the claim keeps a device that is not there. Delete the claim (a template's claim goes with its pod) so that it is allocated anew. Checked on a cluster's state (an input with Nodes: `kubectl dra doctor`, a snapshot) that holds ResourceSlices.",
    example: "status:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: gpu.example.com, pool: worker-1, device: gpu-7}\n",
    check: Check::Object(&[ResourceClaim], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !has(cx, ResourceSlice, false) || !cluster_state(cx) {
        return;
    }
    let claim = crate::dra::Claim::decode(obj);
    let Some(allocation) = &claim.allocation else {
        return;
    };
    for (i, r) in allocation.results.iter().enumerate() {
        let (Some(driver), Some(pool), Some(device)) = (r.driver, r.pool, r.device) else {
            continue;
        };
        if !published(cx, driver, pool, device) {
            let at = get(r.node, "device").map_or(r.node.span, |n| n.span);
            out.report(
                obj,
                NotFound,
                format!("status.allocation.devices.results[{i}].device"),
                at,
                format!("device {driver}/{pool}/{device} is in no ResourceSlice: the claim holds a device that is gone"),
            );
        }
    }
}
