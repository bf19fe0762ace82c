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
                        Node::new(Value::Map(Vec::new()), Default::default()),
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
}
