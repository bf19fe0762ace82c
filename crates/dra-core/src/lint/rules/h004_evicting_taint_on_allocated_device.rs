//! DRA-H004: an allocated device with a NoExecute taint the claim does not tolerate.
use super::prelude::*;

declare_rule! {
    id: "DRA-H004", name: "evicting-taint-on-allocated-device", severity: Warning, origin: Linter,
    summary: "An allocated device has a NoExecute taint its claim does not tolerate: its pods are evicted",
    docs: "A NoExecute taint on a device (published by the driver, or put on by a DeviceTaintRule) makes the eviction controller delete the pods that use it unless the request tolerates it. Expected during maintenance; otherwise narrow or delete the DeviceTaintRule, or have the driver clear the taint. Checked on a cluster's state (an input with Nodes). Taints count as the scheduler's release applies them: device taints with DRADeviceTaints, rules with DRADeviceTaintRules (with DRADeviceTaints in 1.34).",
    example: "spec:\n  deviceSelector: {driver: gpu.example.com}\n  taint: {key: maintenance, effect: NoExecute}\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    if !cluster_state(cx) {
        return;
    }
    let inv = cx.dra();
    let device_taints = cx.gates.enabled(Gate::DRADeviceTaints);
    let rules_apply = cx.gates.taint_rules_applied();
    let list_types = crate::cel::list_values_converted(cx.gates);
    // Built once: a cluster has many claims (a scan of every slice per
    // allocation result, and the rules' CEL compiled per result, were
    // quadratic).
    let devices: std::collections::HashMap<(&str, &str, &str), &crate::dra::Device> = inv
        .slices
        .iter()
        .flat_map(|s| {
            s.devices()
                .iter()
                .map(move |d| ((s.driver, s.pool.name, d.name), d))
        })
        .collect();
    let rules: Vec<(&crate::dra::DeviceTaintRule, crate::dra::TaintCel)> = if rules_apply {
        inv.taint_rules
            .iter()
            .filter(|r| r.taint.is_some())
            .map(|r| (r, crate::dra::TaintCel::new(r, cx.objects)))
            .collect()
    } else {
        Vec::new()
    };
    for claim in &inv.claims {
        let Some(allocation) = &claim.allocation else {
            continue;
        };
        for (i, r) in allocation.results.iter().enumerate() {
            let (Some(driver), Some(pool), Some(device)) = (r.driver, r.pool, r.device) else {
                continue;
            };
            let tolerations = items(r.node, "tolerations");
            let dev = devices.get(&(driver, pool, device)).copied();
            // (key, value, effect, where from)
            let mut taints: Vec<(&str, &str, &str, String)> = Vec::new();
            if let (true, Some(d)) = (device_taints, dev) {
                for t in &d.taints {
                    taints.push((
                        t.key,
                        t.value,
                        t.effect,
                        "published by the driver".to_owned(),
                    ));
                }
            }
            for (rule, cel) in &rules {
                let Some(t) = &rule.taint else { continue };
                let selected = rule.applies_to(driver, pool, device)
                    && cel.selects(cx.gates, || {
                        let empty = Node::new(crate::tree::Value::Null, Default::default());
                        std::sync::Arc::new(crate::cel::Device::from_node(
                            driver,
                            dev.map_or(&empty, |d| d.node),
                            list_types,
                        ))
                    });
                if selected {
                    taints.push((
                        t.key,
                        t.value,
                        t.effect,
                        format!("from DeviceTaintRule {}", rule.name),
                    ));
                }
            }
            for (key, value, effect, from) in taints {
                if effect != "NoExecute"
                    || tolerations
                        .iter()
                        .any(|t| crate::scheduling::tolerates(t, key, value, effect))
                {
                    continue;
                }
                let shown = if value.is_empty() {
                    format!("{key}:{effect}")
                } else {
                    format!("{key}={value}:{effect}")
                };
                let at = get(r.node, "device").map_or(r.node.span, |n| n.span);
                out.report(
                    claim.object,
                    Warning,
                    format!("status.allocation.devices.results[{i}].device"),
                    at,
                    format!("device {driver}/{pool}/{device} has the taint {shown} ({from}), which the claim does not tolerate: the pods using it are evicted"),
                );
            }
        }
    }
}
