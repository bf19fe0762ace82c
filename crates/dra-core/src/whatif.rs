//! What-if: the inventory as it would be after a change, so that every
//! view (`explain`, `devices`, `doctor`) answers for it. Nothing is written
//! anywhere: the change is made to the objects read.
//!
//! - `apply`: objects added, or replacing those of the same kind, namespace
//!   and name (a DeviceTaintRule, new or changed slices, classes, claims).
//! - `delete`: an object removed by kind and name.
//! - `drain`: the node cordoned (`spec.unschedulable`: no new pods, as
//!   `kubectl drain` leaves it); its devices stay held by the pods on it.
//! - `remove_node`: the Node gone, with the ResourceSlices bound to it by
//!   `nodeName`; claims allocated there keep naming devices that are gone.
//! - `add_nodes`: copies of a node (labels, taints) with its node-local
//!   slices in fresh pools, nothing allocated: "would N more nodes like
//!   this one make the pending pods fit".

use crate::model::{Object, ObjectKind};
use crate::tree::{Node, Value};

/// One change, as the command line names it.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// `KIND/NAME` or `KIND/NAMESPACE/NAME`, KIND as kubectl spells it
    /// (`deviceclass`, `resourceslice`, `resourceclaim`, `devicetaintrule`,
    /// `node`, `pod`, singular or plural, any case).
    Delete(String),
    Drain(String),
    RemoveNode(String),
    /// `count` copies of the node `like`.
    AddNodes {
        like: String,
        count: usize,
    },
}

/// What a change did, in words for the answer's first lines.
pub type Done = String;

fn kind_of(word: &str) -> Option<(ObjectKind, &'static str)> {
    const KINDS: &[(&str, ObjectKind, &str)] = &[
        ("deviceclass", ObjectKind::DeviceClass, "DeviceClass"),
        ("resourceslice", ObjectKind::ResourceSlice, "ResourceSlice"),
        ("resourceclaim", ObjectKind::ResourceClaim, "ResourceClaim"),
        (
            "resourceclaimtemplate",
            ObjectKind::ResourceClaimTemplate,
            "ResourceClaimTemplate",
        ),
        (
            "devicetaintrule",
            ObjectKind::DeviceTaintRule,
            "DeviceTaintRule",
        ),
        ("node", ObjectKind::Node, "Node"),
        ("pod", ObjectKind::Workload, "Pod"),
    ];
    let w = word.to_ascii_lowercase();
    // Singular or plural, as kubectl takes them (`deviceclasses`, `nodes`).
    KINDS
        .iter()
        .find(|(k, _, _)| w == *k || w == format!("{k}s") || w == format!("{k}es"))
        .map(|(_, kind, shown)| (*kind, *shown))
}

fn same(a: &Object, b: &Object) -> bool {
    a.kind == b.kind
        && a.reference.kind == b.reference.kind
        && a.name() == b.name()
        && a.namespace_or_default() == b.namespace_or_default()
}

/// Adds `new` objects, each replacing the object of the same kind,
/// namespace and name.
pub fn apply(objects: &mut Vec<Object>, new: Vec<Object>) -> Vec<Done> {
    let mut done = Vec::new();
    for o in new {
        let what = o.reference.to_string();
        match objects.iter().position(|x| same(x, &o)) {
            Some(i) => {
                objects[i] = o;
                done.push(format!("replaced {what}"));
            }
            None => {
                objects.push(o);
                done.push(format!("added {what}"));
            }
        }
    }
    done
}

/// Makes one change; an object or node it names that is not there is an
/// error (a typo must not answer for the cluster as it is).
pub fn change(objects: &mut Vec<Object>, change: &Change) -> Result<Done, String> {
    match change {
        Change::Delete(what) => {
            let parts: Vec<&str> = what.split('/').collect();
            let (kind, ns, name) = match parts.as_slice() {
                [k, n] => (*k, None, *n),
                [k, ns, n] => (*k, Some(*ns), *n),
                _ => {
                    return Err(format!(
                        "--delete {what:?}: expected KIND/NAME or KIND/NAMESPACE/NAME"
                    ))
                }
            };
            let (kind, shown) = kind_of(kind).ok_or_else(|| {
                format!("--delete {what:?}: unknown kind {kind:?} (deviceclass, resourceslice, resourceclaim, resourceclaimtemplate, devicetaintrule, node, pod)")
            })?;
            let before = objects.len();
            objects.retain(|o| {
                !(o.kind == kind
                    && (kind != ObjectKind::Workload || o.reference.kind == "Pod")
                    && o.name() == Some(name)
                    && ns.is_none_or(|ns| o.namespace_or_default() == ns))
            });
            match before - objects.len() {
                0 => Err(format!(
                    "--delete {what}: no {shown} named {name:?} in the inventory"
                )),
                _ => Ok(format!("deleted {shown} {what}")),
            }
        }
        Change::Drain(node) => {
            let o = objects
                .iter_mut()
                .find(|o| o.kind == ObjectKind::Node && o.name() == Some(node.as_str()))
                .ok_or_else(|| {
                    format!("--drain {node}: no Node named {node:?} in the inventory")
                })?;
            let spec = match o.root.get_mut("spec") {
                Some(s) if matches!(s.value, Value::Map(_)) => s,
                _ => {
                    o.root.remove("spec");
                    o.root.insert_back(
                        "spec",
                        Node::new(Value::Map(Default::default()), Default::default()),
                    );
                    o.root.get_mut("spec").ok_or("no spec")?
                }
            };
            spec.remove("unschedulable");
            spec.insert_back(
                "unschedulable",
                Node::new(Value::Bool(true), Default::default()),
            );
            Ok(format!(
                "drained Node {node} (cordoned: no new pods; its devices stay held)"
            ))
        }
        Change::AddNodes { like, count } => add_nodes(objects, like, *count),
        Change::RemoveNode(node) => {
            let before = objects.len();
            objects.retain(|o| !(o.kind == ObjectKind::Node && o.name() == Some(node.as_str())));
            if before == objects.len() {
                return Err(format!(
                    "--remove-node {node}: no Node named {node:?} in the inventory"
                ));
            }
            let mut slices = 0;
            objects.retain(|o| {
                let bound = o.kind == ObjectKind::ResourceSlice
                    && o.spec()
                        .and_then(|s| s.get("nodeName"))
                        .and_then(Node::as_str)
                        == Some(node.as_str());
                slices += usize::from(bound);
                !bound
            });
            Ok(format!(
                "removed Node {node} and its {slices} ResourceSlice(s)"
            ))
        }
    }
}

/// Sets the string at `path` under `root` (which must exist).
fn set_str(root: &mut Node, path: &[&str], value: &str) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut n = root;
    for k in parents {
        match n.get_mut(k) {
            Some(next) => n = next,
            None => return,
        }
    }
    if let Some(v) = n.get_mut(last) {
        if matches!(v.value, Value::Str(_)) {
            v.value = Value::Str(value.into());
        }
    }
}

/// `name` with `old` replaced by `new`, or `name-new` when it does not
/// contain `old`: slice and pool names of a copy, unique and recognisable.
fn renamed(name: &str, old: &str, new: &str) -> String {
    if !old.is_empty() && name.contains(old) {
        name.replace(old, new)
    } else {
        format!("{name}-{new}")
    }
}

fn add_nodes(objects: &mut Vec<Object>, like: &str, count: usize) -> Result<Done, String> {
    let node_local = |o: &Object| {
        o.kind == ObjectKind::ResourceSlice
            && o.spec()
                .and_then(|s| s.get("nodeName"))
                .and_then(Node::as_str)
                == Some(like)
    };
    let node = objects
        .iter()
        .find(|o| o.kind == ObjectKind::Node && o.name() == Some(like))
        .cloned();
    let slices: Vec<Object> = objects.iter().filter(|o| node_local(o)).cloned().collect();
    if node.is_none() && slices.is_empty() {
        return Err(format!(
            "--like {like}: no Node named {like:?} and no ResourceSlice of it in the inventory"
        ));
    }
    let taken: std::collections::HashSet<String> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node || o.kind == ObjectKind::ResourceSlice)
        .filter_map(|o| o.name().map(str::to_owned))
        .collect();
    let mut names = Vec::new();
    let mut i = 0;
    while names.len() < count {
        i += 1;
        let name = format!("{like}-copy-{i}");
        if !taken.contains(&name) {
            names.push(name);
        }
    }
    for name in &names {
        if let Some(n) = &node {
            let mut c = n.clone();
            c.reference.name = Some(name.clone());
            set_str(&mut c.root, &["metadata", "name"], name);
            if let Some(m) = c.root.get_mut("metadata") {
                m.remove("uid");
                m.remove("resourceVersion");
                // The hostname label (and any label naming the node) names
                // the copy: node selectors on it pick the copy alone.
                if let Some(Value::Map(labels)) = m.get_mut("labels").map(|l| &mut l.value) {
                    for e in crate::tree::items_mut(labels).iter_mut() {
                        if e.value.as_str() == Some(like) {
                            e.value.value = Value::Str(name.as_str().into());
                        }
                    }
                }
            }
            objects.push(c);
        }
        for s in &slices {
            let mut c = s.clone();
            let slice_name = renamed(s.name().unwrap_or("slice"), like, name);
            c.reference.name = Some(slice_name.clone());
            set_str(&mut c.root, &["metadata", "name"], &slice_name);
            if let Some(m) = c.root.get_mut("metadata") {
                m.remove("uid");
                m.remove("resourceVersion");
            }
            set_str(&mut c.root, &["spec", "nodeName"], name);
            let pool = c
                .root
                .get("spec")
                .and_then(|s| s.get("pool"))
                .and_then(|p| p.get("name"))
                .and_then(Node::as_str)
                .map(|p| renamed(p, like, name));
            if let Some(pool) = pool {
                set_str(&mut c.root, &["spec", "pool", "name"], &pool);
            }
            // Devices bound one by one (perDeviceNodeSelection) to the node.
            if let Some(Value::Seq(devices)) = c
                .root
                .get_mut("spec")
                .and_then(|s| s.get_mut("devices"))
                .map(|d| &mut d.value)
            {
                for d in crate::tree::items_mut(devices) {
                    if d.get("nodeName").and_then(Node::as_str) == Some(like) {
                        set_str(d, &["nodeName"], name);
                    }
                }
            }
            objects.push(c);
        }
    }
    let span = match names.as_slice() {
        [] => String::new(),
        [one] => format!(" ({one})"),
        [first, .., last] => format!(" ({first} ... {last})"),
    };
    Ok(format!(
        "added {count} Node(s) like {like}{span}, each with copies of its {} node-local ResourceSlice(s) in fresh pools, nothing allocated",
        slices.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn objects(text: &str) -> Vec<Object> {
        crate::lint::load_objects(
            &[crate::lint::SourceFile {
                name: "t".into(),
                text: text.into(),
            }],
            crate::yaml::Limits::default(),
        )
        .0
    }

    #[test]
    fn changes_and_their_errors() {
        let mut o = objects("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d, nodeName: n1, pool: {name: p, generation: 1, resourceSliceCount: 1}}\n---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\n");
        assert!(change(&mut o, &Change::Drain("n1".into())).is_ok());
        let spec = o[0].root.get("spec").unwrap();
        assert_eq!(
            spec.get("unschedulable").and_then(Node::as_bool),
            Some(true)
        );
        assert!(change(&mut o, &Change::Drain("nope".into())).is_err());
        assert!(change(&mut o, &Change::Delete("DeviceClasses/c".into())).is_ok());
        assert!(change(&mut o, &Change::Delete("deviceclass/c".into())).is_err());
        assert!(change(&mut o, &Change::Delete("widget/c".into())).is_err());
        let done = change(&mut o, &Change::RemoveNode("n1".into())).unwrap();
        assert!(done.contains("1 ResourceSlice"), "{done}");
        assert!(o.is_empty());
        let new =
            objects("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\n");
        assert_eq!(apply(&mut o, new), ["added DeviceClass c"]);
    }

    #[test]
    fn copies_of_a_node_get_their_own_names_pools_and_labels() {
        let mut o = objects("apiVersion: v1\nkind: Node\nmetadata: {name: n1, uid: u, labels: {kubernetes.io/hostname: n1, zone: a}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpu}\nspec: {driver: d, nodeName: n1, pool: {name: n1, generation: 1, resourceSliceCount: 1}, devices: [{name: g}]}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: shared}\nspec: {driver: d, allNodes: true, pool: {name: fabric, generation: 1, resourceSliceCount: 1}}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1-copy-1}\n");
        let done = change(
            &mut o,
            &Change::AddNodes {
                like: "n1".into(),
                count: 2,
            },
        )
        .unwrap();
        assert!(done.contains("n1-copy-2 ... n1-copy-3"), "{done}");
        let names: Vec<&str> = o.iter().filter_map(|x| x.name()).collect();
        assert_eq!(
            names,
            [
                "n1",
                "n1-gpu",
                "shared",
                "n1-copy-1",
                "n1-copy-2",
                "n1-copy-2-gpu",
                "n1-copy-3",
                "n1-copy-3-gpu"
            ]
        );
        let copy = &o[4];
        let meta = copy.root.get("metadata").unwrap();
        assert!(meta.get("uid").is_none());
        let labels = meta.get("labels").unwrap();
        assert_eq!(
            labels.get("kubernetes.io/hostname").and_then(Node::as_str),
            Some("n1-copy-2")
        );
        assert_eq!(labels.get("zone").and_then(Node::as_str), Some("a"));
        let spec = o[5].root.get("spec").unwrap();
        assert_eq!(
            spec.get("nodeName").and_then(Node::as_str),
            Some("n1-copy-2")
        );
        let pool = spec
            .get("pool")
            .and_then(|p| p.get("name"))
            .and_then(Node::as_str);
        assert_eq!(pool, Some("n1-copy-2"));
        // Slices of all nodes are not the node's: not copied.
        assert!(change(
            &mut o,
            &Change::AddNodes {
                like: "none".into(),
                count: 1
            }
        )
        .is_err());
    }
}
