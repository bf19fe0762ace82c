//! Nodes alike are counted once (issue 33: "equivalent nodes computed
//! once"). Two nodes are alike when everything the allocator reads for a
//! copy of the claim is the same on both, up to the node's own name and the
//! values only compared for equality:
//!
//! - the node's slices (the node's name in their own, pool and node names
//!   made a token) and what the claims holding their devices take (results:
//!   pool token, device, consumed capacity; not names or share IDs). Node
//!   labels are not read: every slice is bound to its node by name;
//! - device attributes: those a selector names are kept as they are; those
//!   read only by a `matchAttribute`/`distinctAttribute` constraint become
//!   per-node tokens in first-seen order (equal values stay equal, distinct
//!   ones distinct); those nothing reads are left out (a fleet's per-device
//!   UUIDs). A selector that iterates over attributes (`all`, `exists`,
//!   `map`, `filter`) or indexes them twice (`attrs["d"][k]`, a key that
//!   may be computed) keeps every attribute as it is.
//!
//! Anything this cannot vouch for (DeviceTaintRules, whose selectors name
//! pools; slices shared between nodes; a NUL in a name) counts each node
//! alone.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// What a copy of the claim reads of device attributes.
pub(crate) struct Reads {
    /// Every CEL expression of the claim and of the classes, joined.
    cel: String,
    /// Selectors iterate over attributes: keep them all.
    keeps_all: bool,
    /// Qualified attribute names the claim's constraints compare.
    constrained: BTreeSet<String>,
}

impl Reads {
    /// `None`: nodes cannot be compared (taint rules select by pool).
    pub(crate) fn of(spec: &Node, objects: &[Object]) -> Option<Reads> {
        if objects
            .iter()
            .any(|o| o.kind == ObjectKind::DeviceTaintRule)
        {
            return None;
        }
        let mut cel = String::new();
        let spec_json = spec.to_json();
        collect_expressions(&spec_json, &mut cel);
        for class in objects.iter().filter(|o| o.kind == ObjectKind::DeviceClass) {
            if let Some(s) = class.spec() {
                collect_expressions(&s.to_json(), &mut cel);
            }
        }
        // Iteration over attributes, or a key computed rather than written
        // (`attrs["uu" + "id"]`): the names read cannot be known from the text.
        let keeps_all = [
            ".all(",
            ".exists(",
            ".exists_one(",
            ".map(",
            ".filter(",
            "][",
        ]
        .iter()
        .any(|m| cel.contains(m));
        let mut constrained = BTreeSet::new();
        for c in spec_json
            .pointer("/devices/constraints")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            for key in ["matchAttribute", "distinctAttribute"] {
                if let Some(a) = c.get(key).and_then(Value::as_str) {
                    constrained.insert(a.to_owned());
                }
            }
        }
        Some(Reads {
            cel,
            keeps_all,
            constrained,
        })
    }

    /// The node's shape: equal for two nodes on which copies of the claim
    /// fare alike. `None`: the node is counted alone.
    pub(crate) fn signature(
        &self,
        node: &str,
        slices: &[&Object],
        claims: &[&Object],
    ) -> Option<String> {
        if node.is_empty() || node.contains('\0') {
            return None;
        }
        let token = |s: &str| s.replace(node, "\0node");
        let mut tokens: HashMap<(String, String), usize> = HashMap::new();
        let mut parts: Vec<String> = Vec::with_capacity(slices.len() + claims.len());
        for s in slices {
            let mut spec = s.spec()?.to_json();
            let driver = spec.get("driver")?.as_str()?.to_owned();
            // The node's name only where it names the node or its pools:
            // an attribute a selector reads is compared as written.
            if let Some(n) = spec.get_mut("nodeName") {
                *n = Value::from(token(n.as_str()?));
            }
            if let Some(p) = spec.pointer_mut("/pool/name") {
                *p = Value::from(token(p.as_str()?));
            }
            if let Some(devices) = spec.get_mut("devices").and_then(Value::as_array_mut) {
                for d in devices {
                    if let Some(attrs) = d.get_mut("attributes").and_then(Value::as_object_mut) {
                        self.shape_attributes(&driver, attrs, &mut tokens);
                    }
                }
            }
            let v = serde_json::json!({"name": token(s.name()?), "spec": spec});
            parts.push(format!("S{v}"));
        }
        for c in claims {
            // What a held claim takes: its results (pool and device, consumed
            // capacity, admin access), not its spec, names or share IDs.
            let mut results = c
                .root
                .get("status")
                .and_then(|s| s.get("allocation"))
                .and_then(|a| a.get("devices"))
                .and_then(|d| d.get("results"))
                .map(Node::to_json)
                .unwrap_or(Value::Null);
            for r in results.as_array_mut().into_iter().flatten() {
                if let Some(o) = r.as_object_mut() {
                    o.remove("shareID");
                    o.remove("request");
                    if let Some(p) = o.get("pool").and_then(Value::as_str) {
                        let p = token(p);
                        o.insert("pool".into(), Value::from(p));
                    }
                }
            }
            parts.push(format!("C{results}"));
        }
        // Slices are read in name order within their pools, pools in name
        // order: names (with the node's token) are part of each entry.
        parts.sort();
        Some(parts.join("\n"))
    }

    fn shape_attributes(
        &self,
        driver: &str,
        attrs: &mut serde_json::Map<String, Value>,
        tokens: &mut HashMap<(String, String), usize>,
    ) {
        if self.keeps_all {
            return;
        }
        let keys: Vec<String> = attrs.keys().cloned().collect();
        for key in keys {
            let (qualified, bare) = match key.split_once('/') {
                Some((_, bare)) => (key.clone(), bare.to_owned()),
                None => (format!("{driver}/{key}"), key.clone()),
            };
            if self.cel.contains(&bare) {
                continue;
            }
            if self.constrained.contains(&qualified) {
                let value = attrs[&key].to_string();
                let next = tokens.len();
                let t = *tokens.entry((qualified, value)).or_insert(next);
                attrs.insert(key, Value::from(format!("\0{t}")));
            } else {
                attrs.remove(&key);
            }
        }
    }
}

fn collect_expressions(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("expression", Value::String(s)) => {
                        out.push_str(s);
                        out.push('\n');
                    }
                    _ => collect_expressions(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect_expressions(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(yaml: &str) -> Vec<Object> {
        crate::model::parse_file(0, yaml, Default::default()).objects
    }

    const SLICES: &str = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: w1-gpus}\nspec:\n  driver: gpu.example.com\n  pool: {name: w1, resourceSliceCount: 1}\n  nodeName: w1\n  devices:\n  - name: gpu-0\n    attributes:\n      uuid: {string: GPU-1}\n      parent: {string: GPU-1}\n      model: {string: a100}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: w2-gpus}\nspec:\n  driver: gpu.example.com\n  pool: {name: w2, resourceSliceCount: 1}\n  nodeName: w2\n  devices:\n  - name: gpu-0\n    attributes:\n      uuid: {string: GPU-2}\n      parent: {string: GPU-2}\n      model: {string: a100}\n";

    fn signatures(spec: &str) -> (Option<String>, Option<String>) {
        let objs = objects(SLICES);
        let spec = crate::yaml::load(spec, Default::default())
            .documents
            .remove(0)
            .root;
        let reads = Reads::of(&spec, &objs).expect("comparable");
        let s = |i: usize, n: &str| reads.signature(n, &[&objs[i]], &[]);
        (s(0, "w1"), s(1, "w2"))
    }

    #[test]
    fn per_device_uuids_nothing_reads_do_not_tell_nodes_apart() {
        let (a, b) = signatures(
            "devices:\n  requests:\n  - name: g\n    exactly: {deviceClassName: gpu}\n  constraints:\n  - matchAttribute: gpu.example.com/parent\n",
        );
        assert!(a.is_some());
        assert_eq!(a, b);
    }

    #[test]
    fn an_attribute_a_selector_names_tells_nodes_apart() {
        let (a, b) = signatures(
            "devices:\n  requests:\n  - name: g\n    exactly:\n      deviceClassName: gpu\n      selectors:\n      - cel: {expression: 'device.attributes[\"gpu.example.com\"].uuid == \"GPU-1\"'}\n",
        );
        assert_ne!(a, b);
    }

    #[test]
    fn a_selector_over_all_attributes_keeps_them_all() {
        let (a, b) = signatures(
            "devices:\n  requests:\n  - name: g\n    exactly:\n      deviceClassName: gpu\n      selectors:\n      - cel: {expression: 'device.attributes[\"gpu.example.com\"].exists(k, k == \"x\")'}\n",
        );
        assert_ne!(a, b);
    }

    #[test]
    fn an_attribute_a_selector_reads_is_compared_as_written_even_with_the_node_name() {
        let objs = objects(
            &SLICES
                .replace("model: {string: a100}\n      ", "")
                .replace("uuid: {string: GPU-1}", "host: {string: w1}")
                .replace("uuid: {string: GPU-2}", "host: {string: w2}"),
        );
        let spec = crate::yaml::load(
            "devices:\n  requests:\n  - name: g\n    exactly:\n      deviceClassName: gpu\n      selectors:\n      - cel: {expression: 'device.attributes[\"gpu.example.com\"].host == \"w1\"'}\n",
            Default::default(),
        )
        .documents
        .remove(0)
        .root;
        let reads = Reads::of(&spec, &objs).expect("comparable");
        assert_ne!(
            reads.signature("w1", &[&objs[0]], &[]),
            reads.signature("w2", &[&objs[1]], &[])
        );
    }
}
