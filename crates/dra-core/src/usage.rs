//! Who holds each device: the inventory view of `kubectl dra devices`.
//! Allocations come from claims' `status.allocation`, reservations from
//! `status.reservedFor`, taints from the devices themselves, counter use
//! from the allocated devices of each pool, consumed capacity from results.

use serde::Serialize;

use crate::model::{Object, ObjectKind};
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
    let by_pool = crate::slices::by_pool(objects);
    let gen = crate::slices::generation;
    let mut out = Vec::new();
    for ((driver, pool), slices) in by_pool {
        let newest = slices.iter().map(|o| gen(o)).max().unwrap_or(0);
        let slices: Vec<&Object> = slices.into_iter().filter(|o| gen(o) == newest).collect();
        let counts: Vec<(i64, &str)> = slices
            .iter()
            .map(|o| {
                let c = o
                    .spec()
                    .and_then(|sp| sp.get("pool"))
                    .and_then(|p| p.get("resourceSliceCount"))
                    .and_then(Node::as_i64)
                    .unwrap_or(0);
                (c, o.name().unwrap_or_default())
            })
            .collect();
        let mut names: Vec<&str> = Vec::new();
        let mut reason = None;
        'slices: for o in &slices {
            for d in seq(o.spec().and_then(|sp| sp.get("devices"))) {
                let n = s(d, &["name"]);
                if names.contains(&n) {
                    reason = Some(format!(
                        "device name {n} is listed twice (slice {})",
                        o.name().unwrap_or_default()
                    ));
                    break 'slices;
                }
                names.push(n);
            }
        }
        if reason.is_none() && counts.iter().any(|(c, _)| *c != counts[0].0) {
            let parts: Vec<String> = counts.iter().map(|(c, n)| format!("{n}: {c}")).collect();
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

fn s<'a>(n: &'a Node, path: &[&str]) -> &'a str {
    let mut n = n;
    for k in path {
        match n.get(k) {
            Some(c) => n = c,
            None => return "",
        }
    }
    n.as_str().unwrap_or("")
}

fn seq(n: Option<&Node>) -> &[Node] {
    n.and_then(Node::as_seq).unwrap_or_default()
}

fn qty(n: Option<&Node>) -> Option<Quantity> {
    let n = n?;
    match n.as_str() {
        Some(t) => Quantity::parse(t).ok(),
        None => n.to_json().as_i64().map(Quantity::from_int),
    }
}

fn node_of(n: &Node) -> Option<String> {
    if let Some(name) = n.get("nodeName").and_then(Node::as_str) {
        return Some(name.to_owned());
    }
    if n.get("allNodes").and_then(Node::as_bool) == Some(true) {
        return Some("<all nodes>".into());
    }
    n.get("nodeSelector").map(|_| "<node selector>".into())
}

/// (driver, pool, device).
type DeviceKey = (String, String, String);
/// The claims holding a device, and the capacity their results consume.
type Held = (Vec<Holder>, Vec<(String, Quantity)>);

/// One row per device of the slices, in slice order.
pub fn device_rows(objects: &[Object]) -> Vec<DeviceRow> {
    // (driver, pool, device) -> holders and consumed capacity.
    let mut holders: std::collections::HashMap<DeviceKey, Held> = std::collections::HashMap::new();
    for c in objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceClaim)
    {
        let Some(status) = c.root.get("status") else {
            continue;
        };
        let ns = c.namespace_or_default();
        let reserved: Vec<String> = seq(status.get("reservedFor"))
            .iter()
            .map(|r| format!("{ns}/{}", s(r, &["name"])))
            .collect();
        for r in seq(status
            .get("allocation")
            .and_then(|a| a.get("devices"))
            .and_then(|d| d.get("results")))
        {
            let key = (
                s(r, &["driver"]).to_owned(),
                s(r, &["pool"]).to_owned(),
                s(r, &["device"]).to_owned(),
            );
            let entry = holders.entry(key).or_default();
            entry.0.push(Holder {
                namespace: ns.to_owned(),
                claim: c.name().unwrap_or_default().to_owned(),
                request: s(r, &["request"]).to_owned(),
                reserved_for: reserved.clone(),
            });
            for e in r
                .get("consumedCapacity")
                .and_then(Node::as_map)
                .unwrap_or_default()
            {
                if let Some(q) = qty(Some(&e.value)) {
                    entry.1.push((e.key.to_string(), q));
                }
            }
        }
    }
    // (driver, pool) -> counter set -> counter -> (total, used).
    type Counters = Vec<(String, Vec<(String, Quantity, Quantity)>)>;
    let mut pools: std::collections::HashMap<(String, String), Counters> =
        std::collections::HashMap::new();
    let slices: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .collect();
    for sl in &slices {
        let Some(spec) = sl.spec() else { continue };
        let key = (
            s(spec, &["driver"]).to_owned(),
            s(spec, &["pool", "name"]).to_owned(),
        );
        let sets = pools.entry(key).or_default();
        for set in seq(spec.get("sharedCounters")) {
            let counters = set
                .get("counters")
                .and_then(Node::as_map)
                .unwrap_or_default()
                .iter()
                .filter_map(|e| {
                    Some((
                        e.key.to_string(),
                        qty(e.value.get("value"))?,
                        Quantity::zero(),
                    ))
                })
                .collect();
            sets.push((s(set, &["name"]).to_owned(), counters));
        }
    }
    // (driver, pool, counter set) -> the claims whose devices draw on it.
    let mut set_users: std::collections::HashMap<(String, String, String), Vec<String>> =
        std::collections::HashMap::new();
    for sl in &slices {
        let Some(spec) = sl.spec() else { continue };
        let (driver, pool) = (s(spec, &["driver"]), s(spec, &["pool", "name"]));
        for d in seq(spec.get("devices")) {
            let key = (
                driver.to_owned(),
                pool.to_owned(),
                s(d, &["name"]).to_owned(),
            );
            let Some((held, _)) = holders.get(&key) else {
                continue;
            };
            for cc in seq(d.get("consumesCounters")) {
                let users = set_users
                    .entry((
                        driver.to_owned(),
                        pool.to_owned(),
                        s(cc, &["counterSet"]).to_owned(),
                    ))
                    .or_default();
                for h in held {
                    let c = format!("{}/{}", h.namespace, h.claim);
                    if !users.contains(&c) {
                        users.push(c);
                    }
                }
            }
            let Some(sets) = pools.get_mut(&(driver.to_owned(), pool.to_owned())) else {
                continue;
            };
            for cc in seq(d.get("consumesCounters")) {
                let Some((_, counters)) =
                    sets.iter_mut().find(|(n, _)| n == s(cc, &["counterSet"]))
                else {
                    continue;
                };
                for e in cc
                    .get("counters")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                {
                    let (Some(q), Some(c)) = (
                        qty(e.value.get("value")),
                        counters.iter_mut().find(|c| c.0 == e.key),
                    ) else {
                        continue;
                    };
                    c.2 = c.2.checked_add(&q).unwrap_or(c.2);
                }
            }
        }
    }
    let rules: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceTaintRule)
        .collect();
    let mut out = Vec::new();
    for sl in &slices {
        let Some(spec) = sl.spec() else { continue };
        let (driver, pool) = (s(spec, &["driver"]), s(spec, &["pool", "name"]));
        let slice_node = node_of(spec);
        let per_device = spec.get("perDeviceNodeSelection").and_then(Node::as_bool) == Some(true);
        for d in seq(spec.get("devices")) {
            let name = s(d, &["name"]);
            let node = if per_device {
                node_of(d)
            } else {
                slice_node.clone()
            }
            .unwrap_or_default();
            let key = (driver.to_owned(), pool.to_owned(), name.to_owned());
            let (held, consumed) = holders.get(&key).cloned().unwrap_or_default();
            let taint_text = |t: &Node| {
                let v = s(t, &["value"]);
                let kv = if v.is_empty() {
                    s(t, &["key"]).to_owned()
                } else {
                    format!("{}={v}", s(t, &["key"]))
                };
                format!("{kv}:{}", s(t, &["effect"]))
            };
            let mut taints: Vec<String> = seq(d.get("taints")).iter().map(taint_text).collect();
            for r in &rules {
                let sel = r.spec().and_then(|sp| sp.get("deviceSelector"));
                let applies = sel.is_some_and(|sel| {
                    let f = |k: &str| sel.get(k).and_then(Node::as_str);
                    f("driver").is_none_or(|x| x == driver)
                        && f("pool").is_none_or(|x| x == pool)
                        && f("device").is_none_or(|x| x == name)
                        && sel.get("deviceClassName").is_none()
                        && sel.get("selectors").is_none()
                });
                if let (true, Some(t)) = (applies, r.spec().and_then(|sp| sp.get("taint"))) {
                    taints.push(format!(
                        "{} (DeviceTaintRule {})",
                        taint_text(t),
                        r.name().unwrap_or_default()
                    ));
                }
            }
            let mut counters = Vec::new();
            let mut blocked_by = None;
            let sets = pools.get(&(driver.to_owned(), pool.to_owned()));
            for cc in seq(d.get("consumesCounters")) {
                let set = s(cc, &["counterSet"]);
                for e in cc
                    .get("counters")
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                {
                    if let Some((_, total, used)) = sets
                        .and_then(|ss| ss.iter().find(|(n, _)| n == set))
                        .and_then(|(_, cs)| cs.iter().find(|c| c.0 == e.key))
                    {
                        let needs = qty(e.value.get("value"));
                        let left = total.checked_sub(used).unwrap_or_else(Quantity::zero);
                        if blocked_by.is_none()
                            && held.is_empty()
                            && needs.as_ref().is_some_and(|n| *n > left)
                        {
                            blocked_by = Some(Blocked {
                                counter_set: set.to_owned(),
                                counter: e.key.to_string(),
                                needs: needs.as_ref().map(Quantity::human).unwrap_or_default(),
                                left: left.human(),
                                claims: set_users
                                    .get(&(driver.to_owned(), pool.to_owned(), set.to_owned()))
                                    .cloned()
                                    .unwrap_or_default(),
                            });
                        }
                        counters.push(Use {
                            name: format!("{set}/{}", e.key),
                            consumes: needs.map(|q| q.human()),
                            used: used.human(),
                            total: total.human(),
                        });
                    }
                }
            }
            let mut capacity = Vec::new();
            if d.get("allowMultipleAllocations").and_then(Node::as_bool) == Some(true) {
                for e in d.get("capacity").and_then(Node::as_map).unwrap_or_default() {
                    let Some(total) = qty(e.value.get("value")) else {
                        continue;
                    };
                    let used = consumed
                        .iter()
                        .filter(|(n, _)| *n == e.key)
                        .fold(Quantity::zero(), |a, (_, q)| a.checked_add(q).unwrap_or(a));
                    capacity.push(Use {
                        name: e.key.to_string(),
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
            out.push(DeviceRow {
                node,
                driver: driver.to_owned(),
                pool: pool.to_owned(),
                device: name.to_owned(),
                state,
                holders: held,
                taints,
                blocked_by,
                counters,
                capacity,
            });
        }
    }
    out
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
    let mut all = true;
    for p in parts.iter().map(|p| p.trim()) {
        let ok = if let Some((k, v)) = p.split_once("!=") {
            get(k.trim()) != Some(v.trim())
        } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
            get(k.trim()) == Some(v.trim())
        } else if let Some(k) = p.strip_prefix('!') {
            get(k.trim()).is_none()
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
        } else if p
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        {
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
        let rows = device_rows(&objects);
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
        assert!(label_selector_matches("", Some(&labels)).unwrap());
    }
}
