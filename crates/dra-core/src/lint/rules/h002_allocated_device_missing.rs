//! DRA-H002: an allocated device that no ResourceSlice of its pool's
//! current generation publishes.
use std::collections::HashMap;

use super::prelude::*;

declare_rule! {
    id: "DRA-H002", name: "allocated-device-missing", severity: Warning, origin: Linter,
    summary: "A claim's allocation names a device no ResourceSlice publishes, or only an older generation of its pool does",
    docs: "The driver stopped publishing the device (it failed, the node went away, the pool was renamed), or republished its pool under a newer generation without it (the scheduler reads only a pool's newest generation), while a claim still holds it: a pod using it cannot start again, and the claim keeps a device that is not there. Delete the claim (a template's claim goes with its pod) so that it is allocated anew. Checked on a cluster's state (an input with Nodes: `kubectl dra doctor`, a snapshot) that holds ResourceSlices.",
    example: "status:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: gpu.example.com, pool: worker-1, device: gpu-7}\n",
    check: Check::Run(check),
}

/// Per pool: its newest generation, and the newest generation each device
/// name is published in (built once: a cluster has many claims).
type Published<'a> = HashMap<(&'a str, &'a str), (i64, HashMap<&'a str, i64>)>;

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    if !has(cx, ResourceSlice, false) || !cluster_state(cx) {
        return;
    }
    let inv = cx.dra();
    let mut published: Published = HashMap::new();
    for s in &inv.slices {
        let (newest, devices) = published
            .entry((s.driver, s.pool.name))
            .or_insert((i64::MIN, HashMap::new()));
        *newest = (*newest).max(s.pool.generation);
        for d in s.devices() {
            let g = devices.entry(d.name).or_insert(i64::MIN);
            *g = (*g).max(s.pool.generation);
        }
    }
    for claim in &inv.claims {
        let Some(allocation) = &claim.allocation else {
            continue;
        };
        for (i, r) in allocation.results.iter().enumerate() {
            let (Some(driver), Some(pool), Some(device)) = (r.driver, r.pool, r.device) else {
                continue;
            };
            let found = published
                .get(&(driver, pool))
                .map(|(newest, devices)| (*newest, devices.get(device).copied()));
            let message = match found {
                Some((newest, Some(g))) if g == newest => continue,
                Some((newest, Some(g))) => format!(
                    "device {driver}/{pool}/{device} is only in generation {g} of its pool, which moved on to generation {newest} without it: the scheduler no longer sees the device the claim holds"
                ),
                _ => format!(
                    "device {driver}/{pool}/{device} is in no ResourceSlice: the claim holds a device that is gone"
                ),
            };
            let at = get(r.node, "device").map_or(r.node.span, |n| n.span);
            out.report(
                claim.object,
                NotFound,
                format!("status.allocation.devices.results[{i}].device"),
                at,
                message,
            );
        }
    }
}
