//! Devices whose NoExecute taint the pod tolerates only for a while.

use serde::Serialize;

/// A device the pod gets whose NoExecute taint it tolerates only for a
/// while: the device taint eviction controller evicts the pod once
/// `tolerationSeconds` have passed since the taint's `timeAdded`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Eviction {
    pub claim: String,
    /// `driver/pool/device`.
    pub device: String,
    /// `key=value:NoExecute`.
    pub taint: String,
    /// The DeviceTaintRule that puts the taint on, if not the slice.
    pub device_taint_rule: Option<String>,
    pub time_added: String,
    pub toleration_seconds: i64,
    /// The time has already passed: the pod is evicted as soon as it runs.
    pub at_once: bool,
}

/// The NoExecute taints of the devices in `claims` (one node's allocation)
/// that a toleration with `tolerationSeconds` admits, and whether that time
/// has run out at `now` (nanoseconds since the epoch; the caller reads the
/// clock). Taints without `timeAdded` are left out (no time to count from).
pub fn evictions(
    objects: &[crate::model::Object],
    gates: &crate::gates::FeatureGates,
    claims: &[crate::allocate::ClaimAllocation],
    now: i128,
) -> Vec<Eviction> {
    use crate::model::ObjectKind;
    let rules: Vec<crate::dra::DeviceTaintRule> = if gates.taint_rules_applied() {
        objects
            .iter()
            .filter(|o| o.kind == ObjectKind::DeviceTaintRule)
            .map(crate::dra::DeviceTaintRule::decode)
            .collect()
    } else {
        Vec::new()
    };
    let cels: Vec<crate::dra::TaintCel> = rules
        .iter()
        .map(|r| crate::dra::TaintCel::new(r, objects))
        .collect();
    let list_types = crate::cel::list_values_converted(gates);
    // The slices of the allocated devices' pools, decoded once (a cluster
    // holds many more slices than one pod's claims use).
    let wanted: std::collections::HashSet<(&str, &str)> = claims
        .iter()
        .flat_map(|c| &c.results)
        .map(|r| (r.driver.as_str(), r.pool.as_str()))
        .collect();
    let slices: Vec<crate::dra::Slice> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .filter(|o| {
            let spec = o.spec();
            let driver = spec
                .and_then(|s| s.get("driver"))
                .and_then(crate::tree::Node::as_str);
            let pool = spec
                .and_then(|s| s.get("pool"))
                .and_then(|p| p.get("name"))
                .and_then(crate::tree::Node::as_str);
            matches!((driver, pool), (Some(d), Some(p)) if wanted.contains(&(d, p)))
        })
        .map(crate::dra::Slice::decode)
        .collect();
    let mut out = Vec::new();
    for c in claims {
        for r in &c.results {
            // The device's own taints, then the rules'.
            let mut taints: Vec<(&crate::tree::Node, Option<&str>)> = Vec::new();
            let mut device_node = None;
            for s in slices
                .iter()
                .filter(|s| s.driver == r.driver.as_str() && s.pool.name == r.pool.as_str())
            {
                for d in s.devices().iter().filter(|d| d.name == r.device.as_str()) {
                    taints.extend(d.taints.iter().map(|t| (t.node, None)));
                    device_node = Some(d.node);
                }
            }
            for (rule, cel) in rules.iter().zip(&cels) {
                // A 1.34 class or CEL selector needs the device itself.
                let selected = cel.selects(gates, || {
                    let empty =
                        crate::tree::Node::new(crate::tree::Value::Null, Default::default());
                    std::sync::Arc::new(crate::cel::Device::from_node(
                        &r.driver,
                        device_node.unwrap_or(&empty),
                        list_types,
                    ))
                });
                if rule.applies_to(&r.driver, &r.pool, &r.device) && selected {
                    if let Some(t) = &rule.taint {
                        taints.push((t.node, Some(rule.name)));
                    }
                }
            }
            let tolerations: &[serde_json::Value] = r
                .tolerations
                .as_ref()
                .and_then(serde_json::Value::as_array)
                .map_or(&[], Vec::as_slice);
            for (t, rule) in taints {
                let field = |k: &str| {
                    t.get(k)
                        .and_then(crate::tree::Node::as_str)
                        .unwrap_or_default()
                };
                let (key, value, effect) = (field("key"), field("value"), field("effect"));
                if effect != "NoExecute" {
                    continue;
                }
                let Some(added) = t
                    .get("timeAdded")
                    .and_then(crate::tree::Node::as_str)
                    .and_then(|a| {
                        crate::cel::time::parse_timestamp(a)
                            .ok()
                            .map(|(n, _)| (a, n))
                    })
                else {
                    continue;
                };
                // The tolerations that admit it; the longest time wins, none
                // set means forever (`v1.Toleration`'s semantics).
                let admitting: Vec<Option<i64>> = tolerations
                    .iter()
                    .filter(|tol| {
                        let s = |k: &str| tol[k].as_str().unwrap_or_default();
                        let op = if s("operator").is_empty() {
                            "Equal"
                        } else {
                            s("operator")
                        };
                        (s("effect").is_empty() || s("effect") == effect)
                            && match op {
                                "Exists" => s("key").is_empty() || s("key") == key,
                                _ => s("key") == key && s("value") == value,
                            }
                    })
                    .map(|tol| tol["tolerationSeconds"].as_i64())
                    .collect();
                if admitting.is_empty() || admitting.iter().any(Option::is_none) {
                    continue;
                }
                let seconds = admitting.iter().flatten().copied().max().unwrap_or(0);
                let until = added.1 + i128::from(seconds) * 1_000_000_000;
                out.push(Eviction {
                    claim: format!("{}/{}", c.namespace, c.name),
                    device: format!("{}/{}/{}", r.driver, r.pool, r.device),
                    taint: if value.is_empty() {
                        format!("{key}:{effect}")
                    } else {
                        format!("{key}={value}:{effect}")
                    },
                    device_taint_rule: rule.map(str::to_owned),
                    time_added: added.0.to_owned(),
                    toleration_seconds: seconds,
                    at_once: until <= now,
                });
            }
        }
    }
    out
}
