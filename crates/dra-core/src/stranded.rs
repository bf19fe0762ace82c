//! Devices no node can use: slices (or, with per-device node selection,
//! devices) whose node selection names no node of the cluster. When a
//! request finds no device on any node, this is often where its devices
//! are: a driver's `nodeSelector` with a label no node carries, or a
//! `nodeName` of a node that was renamed or removed.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::allocate::node_selector_matches;
use crate::cel::{Device, Env, Program};
use crate::dra::{DeviceClass, NodeSelection, Slice};
use crate::gates::FeatureGates;
use crate::model::{Object, ObjectKind};
use crate::tree::Node;

/// The class's selectors, compiled as stored expressions (a selector that
/// does not compile selects nothing here, as the allocator's error says).
fn class_programs(class: &Object, gates: &FeatureGates) -> Vec<Program> {
    let env = Env::stored(gates);
    DeviceClass::decode(class)
        .expressions()
        .iter()
        .filter_map(|e| Program::compile(e, &env).ok())
        .collect()
}

/// Devices of one slice that no node can use, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stranded {
    pub slice: String,
    /// `driver/pool`.
    pub pool: String,
    /// How many of them the class selects.
    pub devices: usize,
    pub why: String,
}

/// The devices `class` selects that no node of `objects` can use, slice
/// by slice. Empty when the input has no Node objects (the cluster's nodes
/// are not known then).
pub fn stranded(objects: &[Object], class: &Object, gates: &FeatureGates) -> Vec<Stranded> {
    let list_types = crate::cel::list_values_converted(gates);
    let nodes: Vec<(&str, Option<&Node>)> = crate::model::node_labels(objects).collect();
    if nodes.is_empty() {
        return Vec::new();
    }
    let programs = class_programs(class, gates);
    let count = nodes.len();
    let names: HashSet<&str> = nodes.iter().map(|(n, _)| *n).collect();
    // Slices of a fleet repeat few selectors: each distinct one is matched
    // against the nodes once.
    let seen: std::cell::RefCell<HashMap<String, bool>> = Default::default();
    let selects_a_node = |sel: &Node| -> bool {
        let key = sel.to_json().to_string();
        if let Some(hit) = seen.borrow().get(&key) {
            return *hit;
        }
        let hit = nodes
            .iter()
            .any(|(n, labels)| node_selector_matches(sel, n, *labels));
        seen.borrow_mut().insert(key, hit);
        hit
    };
    let why_not = |selection: NodeSelection| -> Option<String> {
        match selection {
            NodeSelection::Node(name) if !names.contains(name) => {
                Some(format!("nodeName {name} is not a node of the cluster"))
            }
            NodeSelection::Selector(sel) if !selects_a_node(sel) => Some(format!(
                "its nodeSelector matches none of the {count} node{}",
                if count == 1 { "" } else { "s" }
            )),
            _ => None,
        }
    };
    let mut out: Vec<Stranded> = Vec::new();
    // One slice decoded at a time: a fleet's inventory is not held twice.
    for slice in objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .map(Slice::decode)
    {
        // One answer per slice when the slice selects the nodes.
        let slice_why = (!slice.per_device())
            .then(|| why_not(slice.selection))
            .flatten();
        if !slice.per_device() && slice_why.is_none() {
            continue;
        }
        for d in slice.devices() {
            let Some(why) = slice_why.clone().or_else(|| why_not(d.selection)) else {
                continue;
            };
            let view = Arc::new(Device::from_node(slice.driver, d.node, list_types));
            if !programs.iter().all(|p| p.matches(&view) == Ok(true)) {
                continue;
            }
            match out
                .iter_mut()
                .find(|s| s.slice == slice.name && s.why == why)
            {
                Some(s) => s.devices += 1,
                None => out.push(Stranded {
                    slice: slice.name.to_owned(),
                    pool: format!("{}/{}", slice.driver, slice.pool.name),
                    devices: 1,
                    why,
                }),
            }
        }
    }
    out
}

/// The drivers whose devices `class` selects in slices bound to one node
/// by `nodeName` (node-local drivers), each with the nodes it publishes on:
/// a node missing from the list has no slice of that driver (its kubelet
/// plugin not running there, say). One device per slice is tried, and a
/// driver once matched is not evaluated again.
pub fn publishing_nodes<'a>(
    objects: &'a [Object],
    class: &Object,
    gates: &FeatureGates,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let list_types = crate::cel::list_values_converted(gates);
    let programs = class_programs(class, gates);
    let mut out: Vec<(&'a str, Vec<&'a str>)> = Vec::new();
    let mut rejected: HashSet<&str> = HashSet::new();
    for slice in objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .map(Slice::decode)
    {
        let NodeSelection::Node(node) = slice.selection else {
            continue;
        };
        if let Some((_, nodes)) = out.iter_mut().find(|(d, _)| *d == slice.driver) {
            if !nodes.contains(&node) {
                nodes.push(node);
            }
            continue;
        }
        if rejected.contains(slice.driver) {
            continue;
        }
        let Some(d) = slice.devices().first() else {
            continue;
        };
        let view = Arc::new(Device::from_node(slice.driver, d.node, list_types));
        if programs.iter().all(|p| p.matches(&view) == Ok(true)) {
            out.push((slice.driver, vec![node]));
        } else {
            rejected.insert(slice.driver);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::{load_objects, SourceFile};
    use crate::yaml::Limits;

    fn load(text: &str) -> Vec<Object> {
        let files = [SourceFile {
            name: "t.yaml".into(),
            text: text.into(),
        }];
        load_objects(&files, Limits::default()).0
    }

    const CLUSTER: &str = r#"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: nic}
spec:
  selectors: [{cel: {expression: 'device.driver == "nic.example.com"'}}]
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {rack: r1}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: nic.example.com
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: [r3]}]}]
  devices: [{name: nic-0}, {name: nic-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: rack1}
spec:
  driver: nic.example.com
  pool: {name: rack1, generation: 1, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms: [{matchExpressions: [{key: rack, operator: In, values: [r1]}]}]
  devices: [{name: nic-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: gone}
spec:
  driver: nic.example.com
  pool: {name: n9, generation: 1, resourceSliceCount: 1}
  nodeName: n9
  devices: [{name: nic-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: other-driver}
spec:
  driver: gpu.example.com
  pool: {name: n9, generation: 1, resourceSliceCount: 1}
  nodeName: n9
  devices: [{name: gpu-0}]
"#;

    #[test]
    fn devices_of_the_class_that_no_node_can_use() {
        let objects = load(CLUSTER);
        let class = objects
            .iter()
            .find(|o| o.kind == ObjectKind::DeviceClass)
            .unwrap();
        let got = stranded(
            &objects,
            class,
            &FeatureGates::defaults(crate::gates::Version::LATEST),
        );
        assert_eq!(
            got,
            [
                Stranded {
                    slice: "fabric".into(),
                    pool: "nic.example.com/fabric".into(),
                    devices: 2,
                    why: "its nodeSelector matches none of the 1 node".into(),
                },
                Stranded {
                    slice: "gone".into(),
                    pool: "nic.example.com/n9".into(),
                    devices: 1,
                    why: "nodeName n9 is not a node of the cluster".into(),
                },
            ]
        );
    }

    #[test]
    fn without_node_objects_nothing_is_said() {
        let objects: Vec<Object> = load(CLUSTER)
            .into_iter()
            .filter(|o| o.kind != ObjectKind::Node)
            .collect();
        let class = objects
            .iter()
            .find(|o| o.kind == ObjectKind::DeviceClass)
            .unwrap();
        assert!(stranded(
            &objects,
            class,
            &FeatureGates::defaults(crate::gates::Version::LATEST)
        )
        .is_empty());
    }
}
