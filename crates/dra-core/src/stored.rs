//! Objects as the cluster stores them. A file object with the same kind,
//! namespace and name as a stored one is an update of it (`kubectl apply`),
//! and the apiserver's update-only rules apply: immutable fields.

use std::collections::HashMap;

use serde_json::Value;

use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

/// The stored objects, by kind, namespace and name.
#[derive(Default)]
pub struct Stored<'a> {
    by_key: HashMap<(&'a str, &'a str, &'a str), &'a Object>,
}

/// An object's identity in the cluster: its kind as written (a Pod and a
/// Deployment of one name are two objects, both `ObjectKind::Workload`),
/// its namespace when the kind has one, and its name.
fn key(o: &Object) -> Option<(&str, &str, &str)> {
    let namespaced = matches!(
        o.kind,
        ObjectKind::ResourceClaim
            | ObjectKind::ResourceClaimTemplate
            | ObjectKind::Workload
            | ObjectKind::Role
            | ObjectKind::RoleBinding
            | ObjectKind::ServiceAccount
    );
    let ns = if namespaced {
        o.namespace_or_default()
    } else {
        ""
    };
    Some((o.reference.kind.as_str(), ns, o.name()?))
}

impl<'a> Stored<'a> {
    pub fn new(objects: &'a [Object]) -> Self {
        Stored {
            by_key: objects.iter().filter_map(|o| Some((key(o)?, o))).collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The stored object that `obj` would update.
    pub fn get(&self, obj: &Object) -> Option<&'a Object> {
        self.by_key.get(&key(obj)?).copied()
    }
}

/// A ResourceClaimSpec as the apiserver compares it on update: the API's
/// defaults applied (resource/v1 `allocationMode: ExactCount`, `count: 1`,
/// toleration `operator: Equal`), empty and null fields dropped (the stored
/// object omits them), capacity quantities by value (`1Gi` equals `1024Mi`).
pub fn comparable_claim_spec(spec: &Node) -> Value {
    let mut v = spec.to_json();
    if let Some(requests) = v
        .pointer_mut("/devices/requests")
        .and_then(Value::as_array_mut)
    {
        for r in requests {
            if let Some(exact) = r.get_mut("exactly") {
                default_request(exact);
            }
            if let Some(subs) = r.get_mut("firstAvailable").and_then(Value::as_array_mut) {
                subs.iter_mut().for_each(default_request);
            }
        }
    }
    prune(&mut v);
    v
}

fn default_request(r: &mut Value) {
    let Some(m) = r.as_object_mut() else { return };
    let mode = m
        .entry("allocationMode")
        .or_insert_with(|| Value::from("ExactCount"));
    if mode == "ExactCount" {
        m.entry("count").or_insert_with(|| Value::from(1));
    }
    if let Some(ts) = m.get_mut("tolerations").and_then(Value::as_array_mut) {
        for t in ts.iter_mut().filter_map(Value::as_object_mut) {
            t.entry("operator").or_insert_with(|| Value::from("Equal"));
        }
    }
    if let Some(reqs) = m
        .get_mut("capacity")
        .and_then(|c| c.get_mut("requests"))
        .and_then(Value::as_object_mut)
    {
        for q in reqs.values_mut() {
            let parsed = match q {
                Value::String(s) => Quantity::parse_field(s).ok(),
                Value::Number(n) => Quantity::parse_field(&n.to_string()).ok(),
                _ => None,
            };
            if let Some(p) = parsed {
                *q = Value::from(p.milli_value().to_string() + "m");
            }
        }
    }
}

/// Any value as the apiserver's semantic equality compares it: nulls, empty
/// lists and empty maps dropped (the stored form omits them).
pub fn comparable(n: &Node) -> Value {
    let mut v = n.to_json();
    prune(&mut v);
    v
}

/// Drops nulls, empty lists and empty maps, as the stored form omits them.
fn prune(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.values_mut().for_each(prune);
            m.retain(|_, x| !is_empty(x));
        }
        Value::Array(a) => a.iter_mut().for_each(prune),
        _ => {}
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// The first place two comparable values differ, as an apiserver field path
/// below `base`, with each side (`None`: absent).
pub fn first_difference(
    base: &str,
    a: &Value,
    b: &Value,
) -> Option<(String, Option<Value>, Option<Value>)> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let path = format!("{base}.{k}");
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => {
                        if let Some(d) = first_difference(&path, p, q) {
                            return Some(d);
                        }
                    }
                    (p, q) => return Some((path, p.cloned(), q.cloned())),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_difference(&format!("{base}[{i}]"), p, q) {
                    return Some(d);
                }
            }
            match x.len().cmp(&y.len()) {
                std::cmp::Ordering::Equal => None,
                _ => Some((
                    format!("{base}[{}]", x.len().min(y.len())),
                    x.get(y.len()).cloned(),
                    y.get(x.len()).cloned(),
                )),
            }
        }
        _ if a == b => None,
        _ => Some((base.to_owned(), Some(a.clone()), Some(b.clone()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(yaml: &str) -> Value {
        let doc = crate::yaml::load(yaml, Default::default())
            .documents
            .remove(0)
            .root;
        comparable_claim_spec(&doc)
    }

    #[test]
    fn defaults_and_quantities_compare_as_stored() {
        let file = spec("devices:\n  requests:\n  - name: gpu\n    exactly:\n      deviceClassName: gpu\n      capacity: {requests: {memory: 1Gi}}\n      tolerations: [{key: k, effect: NoSchedule}]\n  constraints: []\n");
        let stored = spec("devices:\n  requests:\n  - name: gpu\n    exactly:\n      deviceClassName: gpu\n      allocationMode: ExactCount\n      count: 1\n      capacity: {requests: {memory: 1024Mi}}\n      tolerations: [{key: k, operator: Equal, effect: NoSchedule}]\n");
        assert_eq!(first_difference("spec", &file, &stored), None);
    }

    #[test]
    fn a_changed_count_is_named() {
        let file = spec(
            "devices:\n  requests:\n  - name: gpu\n    exactly: {deviceClassName: gpu, count: 2}\n",
        );
        let stored =
            spec("devices:\n  requests:\n  - name: gpu\n    exactly: {deviceClassName: gpu}\n");
        let (path, a, b) = first_difference("spec", &file, &stored).expect("differs");
        assert_eq!(path, "spec.devices.requests[0].exactly.count");
        assert_eq!((a, b), (Some(Value::from(2)), Some(Value::from(1))));
        let all = spec("devices:\n  requests:\n  - name: gpu\n    exactly: {deviceClassName: gpu, allocationMode: All}\n");
        let (path, _, _) = first_difference("spec", &all, &stored).expect("differs");
        assert_eq!(path, "spec.devices.requests[0].exactly.allocationMode");
    }
}
