//! Who holds each device: the inventory view of `kubectl dra devices`.
//! Allocations come from claims' `status.allocation`, reservations from
//! `status.reservedFor`, taints from the devices themselves, counter use
//! from the allocated devices of each pool, consumed capacity from results.

use serde::Serialize;

use std::collections::HashMap;

use crate::dra::{quantity, Inventory, Slice, Taint};
use crate::model::Object;
use crate::quantity::Quantity;
use crate::tree::Node;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Holder {
    pub namespace: String,
    pub claim: String,
    pub request: String,
    /// `namespace/name` of the pods the claim is reserved for.
    #[serde(rename = "reservedFor")]
    pub reserved_for: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Use {
    pub name: String,
    /// For a counter: what this device consumes of it when allocated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumes: Option<String>,
    pub used: String,
    pub total: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceRow {
    pub node: String,
    pub driver: String,
    pub pool: String,
    pub device: String,
    /// free, allocated, reserved, tainted, or blocked (a counter it needs is used up).
    pub state: &'static str,
    pub holders: Vec<Holder>,
    /// `key=value:Effect`, with ` (DeviceTaintRule NAME)` for a rule's.
    pub taints: Vec<String>,
    /// For a blocked device: which counter is short, and the claims using it.
    #[serde(rename = "blockedBy", skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<Blocked>,
    /// Per counter this device consumes: what the pool's allocated devices use of the set's total.
    pub counters: Vec<Use>,
    /// Per capacity of a shareable device: what its allocations consume.
    pub capacity: Vec<Use>,
}

/// A counter a device needs that the pool's allocated devices use up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Blocked {
    #[serde(rename = "counterSet")]
    pub counter_set: String,
    pub counter: String,
    pub needs: String,
    pub left: String,
    /// `namespace/name` of the claims whose devices draw on the set.
    pub claims: Vec<String>,
}

/// A pool the scheduler does not use, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InvalidPool {
    pub driver: String,
    pub pool: String,
    pub reason: String,
}

/// Pools whose slices (of the newest generation) list a device name twice or
/// disagree on `resourceSliceCount`: the scheduler skips all their devices.
pub fn invalid_pools(objects: &[Object]) -> Vec<InvalidPool> {
    let inventory = Inventory::decode(objects);
    let mut out = Vec::new();
    for ((driver, pool), slices) in inventory.pools() {
        let newest = slices.iter().map(|s| s.pool.generation).max().unwrap_or(0);
        let slices: Vec<&Slice> = slices
            .into_iter()
            .filter(|s| s.pool.generation == newest)
            .collect();
        let mut names: Vec<&str> = Vec::new();
        let mut reason = None;
        'slices: for slice in &slices {
            for d in slice.devices() {
                if names.contains(&d.name) {
                    reason = Some(format!(
                        "device name {} is listed twice (slice {})",
                        d.name, slice.name
                    ));
                    break 'slices;
                }
                names.push(d.name);
            }
        }
        let counts: Vec<i64> = slices.iter().map(|s| s.pool.resource_slice_count).collect();
        if reason.is_none() && counts.iter().any(|c| *c != counts[0]) {
            let parts: Vec<String> = slices
                .iter()
                .map(|s| format!("{}: {}", s.name, s.pool.resource_slice_count))
                .collect();
            reason = Some(format!(
                "its slices disagree on resourceSliceCount ({})",
                parts.join(", ")
            ));
        }
        if let Some(reason) = reason {
            out.push(InvalidPool {
                driver: driver.to_owned(),
                pool: pool.to_owned(),
                reason,
            });
        }
    }
    out
}

/// (driver, pool, device).
type DeviceKey<'t> = (&'t str, &'t str, &'t str);
/// The claims holding a device, and the capacity their results consume.
type Held<'t> = (Vec<Holder>, Vec<(&'t str, Quantity)>);
/// (driver, pool) -> counter set -> counter -> (total, used).
type PoolCounters<'t> = Vec<(&'t str, Vec<(&'t str, Quantity, Quantity)>)>;

/// The claims holding each device, from the claims' allocation results.
fn holders<'t>(inventory: &Inventory<'t>) -> HashMap<DeviceKey<'t>, Held<'t>> {
    let mut holders: HashMap<DeviceKey<'t>, Held<'t>> = HashMap::new();
    for c in &inventory.claims {
        let reserved: Vec<String> = c
            .reserved_for
            .iter()
            .map(|r| format!("{}/{}", c.namespace, r.name))
            .collect();
        let Some(allocation) = &c.allocation else {
            continue;
        };
        for r in &allocation.results {
            let key = (
                r.driver.unwrap_or_default(),
                r.pool.unwrap_or_default(),
                r.device.unwrap_or_default(),
            );
            let entry = holders.entry(key).or_default();
            entry.0.push(Holder {
                namespace: c.namespace.to_owned(),
                claim: c.name.to_owned(),
                request: r.request.to_owned(),
                reserved_for: reserved.clone(),
            });
            for (name, q) in r.consumed_capacity.iter().flatten() {
                if let Some(q) = quantity(q) {
                    entry.1.push((name, q));
                }
            }
        }
    }
    holders
}

/// One row per device of the slices, in slice order.
pub fn device_rows(objects: &[Object], gates: &crate::gates::FeatureGates) -> Vec<DeviceRow> {
    let mut out = Vec::new();
    for_each_device_row(objects, gates, &mut |row| out.push(row));
    out
}

/// [`device_rows`] one row at a time, in the same order: a caller that
/// writes each row as it comes never holds a fleet's rows (issue 37).
pub fn for_each_device_row(
    objects: &[Object],
    gates: &crate::gates::FeatureGates,
    each: &mut dyn FnMut(DeviceRow),
) {
    let rules_apply = gates.taint_rules_applied();
    let inventory = Inventory::decode(objects);
    let holders = holders(&inventory);
    let mut pools: HashMap<(&str, &str), PoolCounters> = HashMap::new();
    for sl in &inventory.slices {
        let sets = pools.entry((sl.driver, sl.pool.name)).or_default();
        for set in &sl.shared_counters {
            let counters = set
                .counters()
                .map(|(name, total)| (name, total, Quantity::zero()))
                .collect();
            sets.push((set.name, counters));
        }
    }
    // (driver, pool, counter set) -> the claims whose devices draw on it.
    let mut set_users: HashMap<(&str, &str, &str), Vec<String>> = HashMap::new();
    for sl in &inventory.slices {
        let (driver, pool) = (sl.driver, sl.pool.name);
        for d in sl.devices() {
            let Some((held, _)) = holders.get(&(driver, pool, d.name)) else {
                continue;
            };
            for cc in &d.consumes_counters {
                let users = set_users.entry((driver, pool, cc.counter_set)).or_default();
                for h in held {
                    let c = format!("{}/{}", h.namespace, h.claim);
                    if !users.contains(&c) {
                        users.push(c);
                    }
                }
            }
            let Some(sets) = pools.get_mut(&(driver, pool)) else {
                continue;
            };
            for cc in &d.consumes_counters {
                let Some((_, counters)) = sets.iter_mut().find(|(n, _)| *n == cc.counter_set)
                else {
                    continue;
                };
                for (name, q) in cc.counters() {
                    if let Some(c) = counters.iter_mut().find(|c| c.0 == name) {
                        c.2 = c.2.checked_add(&q).unwrap_or(c.2);
                    }
                }
            }
        }
    }
    // 1.34's class and CEL selectors of the rules, compiled once.
    let cels: Vec<crate::dra::TaintCel> = inventory
        .taint_rules
        .iter()
        .map(|r| crate::dra::TaintCel::new(r, objects))
        .collect();
    let list_types = crate::cel::list_values_converted(gates);
    for sl in &inventory.slices {
        let (driver, pool) = (sl.driver, sl.pool.name);
        for d in sl.devices() {
            let node = sl.selection_of(d).label().unwrap_or_default();
            let (held, consumed) = holders
                .get(&(driver, pool, d.name))
                .cloned()
                .unwrap_or_default();
            let mut taints: Vec<String> = d.taints.iter().map(Taint::display).collect();
            // As the scheduler applies them: only with DRADeviceTaintRules
            // on, and a rule without a selector on every device.
            for (r, cel) in inventory
                .taint_rules
                .iter()
                .zip(&cels)
                .filter(|_| rules_apply)
            {
                let applies = r.applies_to(driver, pool, d.name)
                    && cel.selects(gates, || {
                        std::sync::Arc::new(crate::cel::Device::from_node(
                            driver, d.node, list_types,
                        ))
                    });
                if let (true, Some(t)) = (applies, &r.taint) {
                    taints.push(format!("{} (DeviceTaintRule {})", t.display(), r.name));
                }
            }
            let mut counters = Vec::new();
            let mut blocked_by = None;
            let sets = pools.get(&(driver, pool));
            for cc in &d.consumes_counters {
                let set = cc.counter_set;
                for (counter, needs) in cc.counters() {
                    let Some((_, total, used)) = sets
                        .and_then(|ss| ss.iter().find(|(n, _)| *n == set))
                        .and_then(|(_, cs)| cs.iter().find(|c| c.0 == counter))
                    else {
                        continue;
                    };
                    let left = total.checked_sub(used).unwrap_or_else(Quantity::zero);
                    if blocked_by.is_none() && held.is_empty() && needs > left {
                        blocked_by = Some(Blocked {
                            counter_set: set.to_owned(),
                            counter: counter.to_owned(),
                            needs: needs.human(),
                            left: left.human(),
                            claims: set_users
                                .get(&(driver, pool, set))
                                .cloned()
                                .unwrap_or_default(),
                        });
                    }
                    counters.push(Use {
                        name: format!("{set}/{counter}"),
                        consumes: Some(needs.human()),
                        used: used.human(),
                        total: total.human(),
                    });
                }
            }
            let mut capacity = Vec::new();
            if d.allow_multiple_allocations {
                for (name, total) in d.capacity() {
                    let used = consumed
                        .iter()
                        .filter(|(n, _)| *n == name)
                        .fold(Quantity::zero(), |a, (_, q)| a.checked_add(q).unwrap_or(a));
                    capacity.push(Use {
                        name: name.to_owned(),
                        consumes: None,
                        used: used.human(),
                        total: total.human(),
                    });
                }
            }
            let state = if held.iter().any(|h| !h.reserved_for.is_empty()) {
                "reserved"
            } else if !held.is_empty() {
                "allocated"
            } else if !taints.is_empty() {
                "tainted"
            } else if blocked_by.is_some() {
                "blocked"
            } else {
                "free"
            };
            each(DeviceRow {
                node,
                driver: driver.to_owned(),
                pool: pool.to_owned(),
                device: d.name.to_owned(),
                state,
                holders: held,
                taints,
                blocked_by,
                counters,
                capacity,
            });
        }
    }
}

/// A node label selector as `kubectl -l` takes it: `a=b,c!=d,e,!f`, `k in (x,y)`.
/// Whether `selector` reads as a label selector (a usage error otherwise,
/// before any node is looked at).
pub fn check_label_selector(selector: &str) -> Result<(), LabelSelectorError> {
    label_selector_matches(selector, None).map(|_| ())
}

/// A label selector (or one of its requirements) that does not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelSelectorError {
    pub text: String,
    pub why: Option<&'static str>,
}

impl std::fmt::Display for LabelSelectorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read the label selector {:?}", self.text)?;
        match self.why {
            Some(why) => write!(f, ": {why}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for LabelSelectorError {}

impl From<LabelSelectorError> for String {
    fn from(e: LabelSelectorError) -> String {
        e.to_string()
    }
}

pub fn label_selector_matches(
    selector: &str,
    labels: Option<&Node>,
) -> Result<bool, LabelSelectorError> {
    let get = |k: &str| labels.and_then(|l| l.get(k)).and_then(Node::as_str);
    let bad = |p: &str, why: &'static str| {
        Err(LabelSelectorError {
            text: p.to_owned(),
            why: Some(why),
        })
    };
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in selector.chars() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return bad(selector, "unbalanced parentheses");
                }
            }
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    parts.push(cur);
    if depth != 0 {
        return bad(selector, "unbalanced parentheses");
    }
    // As kubectl: an empty selector selects everything.
    if selector.trim().is_empty() {
        return Ok(true);
    }
    if parts.iter().any(|p| p.trim().is_empty()) {
        return bad(selector, "an empty requirement");
    }
    // apimachinery's labels.Parse: every key a qualified name, every value
    // a label value (`!!!` or `a=b c` is refused, as kubectl refuses it).
    fn key<'k>(k: &'k str, p: &str) -> Result<&'k str, LabelSelectorError> {
        if crate::format::is_label_key(k) {
            Ok(k)
        } else {
            Err(LabelSelectorError {
                text: p.to_owned(),
                why: Some(
                    "not a label key (a qualified name, optionally prefixed: example.com/name)",
                ),
            })
        }
    }
    fn value<'v>(v: &'v str, p: &str) -> Result<&'v str, LabelSelectorError> {
        if crate::format::is_label_value(v) {
            Ok(v)
        } else {
            Err(LabelSelectorError {
                text: p.to_owned(),
                why: Some(
                    "not a label value (63 characters at most: letters, digits, '-', '_', '.')",
                ),
            })
        }
    }
    let mut all = true;
    for p in parts.iter().map(|p| p.trim()) {
        let ok = if let Some((k, v)) = p.split_once("!=") {
            get(key(k.trim(), p)?) != Some(value(v.trim(), p)?)
        } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
            get(key(k.trim(), p)?) == Some(value(v.trim(), p)?)
        } else if let Some(k) = p.strip_prefix('!') {
            get(key(k.trim(), p)?).is_none()
        } else if let Some((k, rest)) = p.split_once(" notin ").or_else(|| p.split_once(" in ")) {
            let rest = rest.trim();
            let Some(inner) = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
                return bad(p, "the values of in/notin go in parentheses: key in (a,b)");
            };
            let values: Vec<&str> = inner.split(',').map(str::trim).collect();
            if values.iter().any(|v| !crate::format::is_label_value(v))
                || !crate::format::is_label_key(k.trim())
            {
                return bad(p, "not a label key and label values");
            }
            let inside = get(k.trim()).is_some_and(|v| values.contains(&v));
            if p.contains(" notin ") {
                !inside
            } else {
                inside
            }
        } else if crate::format::is_label_key(p) {
            get(p).is_some()
        } else {
            return Err(LabelSelectorError {
                text: p.to_owned(),
                why: None,
            });
        };
        // Every requirement is read (and checked) before the answer.
        all &= ok;
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_show_holders_counters_and_taints() {
        let text = r#"
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  sharedCounters:
  - name: gpu-0
    counters: {memory: {value: 80Gi}}
  devices:
  - name: p0
    consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 40Gi}}}]
  - name: p1
    consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 40Gi}}}]
    taints: [{key: broken, effect: NoSchedule}]
  - name: nic
    allowMultipleAllocations: true
    capacity: {bandwidth: {value: 100G}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: team}
status:
  allocation:
    devices:
      results:
      - {request: r, driver: gpu.example.com, pool: n1, device: p0}
      - {request: n, driver: gpu.example.com, pool: n1, device: nic, consumedCapacity: {bandwidth: 10G}}
  reservedFor: [{resource: pods, name: pod-a, uid: x}]
"#;
        let objects = crate::model::parse_file(0, text, crate::yaml::Limits::default()).objects;
        let gates = crate::gates::FeatureGates::defaults(crate::gates::Version::LATEST);
        let rows = device_rows(&objects, &gates);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].state, "reserved");
        assert_eq!(rows[0].holders[0].reserved_for, vec!["team/pod-a"]);
        assert_eq!(rows[0].counters[0].used, "40Gi");
        assert_eq!(rows[0].counters[0].total, "80Gi");
        assert_eq!(rows[1].state, "tainted");
        assert_eq!(rows[1].taints, vec!["broken:NoSchedule"]);
        assert_eq!(rows[2].capacity[0].used, "10G");
    }

    #[test]
    fn label_selectors() {
        let labels: Node = serde_json::from_str(r#"{"zone":"a","gpu":"h100"}"#).unwrap();
        let m = |s: &str| label_selector_matches(s, Some(&labels)).unwrap();
        assert!(m("zone=a,gpu"));
        assert!(!m("zone!=a"));
        assert!(m("!missing,gpu in (a100,h100)"));
        assert!(!m("gpu notin (h100)"));
        // Unbalanced parentheses are refused (kubectl's parser refuses them too).
        assert!(label_selector_matches("a=(", Some(&labels)).is_err());
        for bad in ["!!!", "a=b c", "-a", "!", "a/b/c", "a=-x"] {
            assert!(check_label_selector(bad).is_err(), "{bad}");
        }
        for good in ["!a", "a=", "example.com/a=b", "a in (x, y)", "a"] {
            assert!(check_label_selector(good).is_ok(), "{good}");
        }
        assert!(label_selector_matches("", Some(&labels)).unwrap());
    }
}
