//! The DRA objects as typed values, decoded once from the spanned tree.
//!
//! Objects reach this module in the v1 shape (older versions are converted
//! as they are loaded, see [`crate::convert`]). Decoding applies the API's
//! defaults in one place (a claim's namespace, a request's allocation mode
//! and count, a toleration's operator, a pool's generation) and reads each
//! field once; strings are borrowed from the tree, and every item keeps its
//! tree node (`node`) so that findings and explanations can still point at
//! the user's lines. A slice's devices are decoded when first read. The
//! per-object apiserver rules stay on the tree (they must see what was
//! written, not what defaulting made of it); the readers across objects
//! (the allocator, the pool and cross-object lint rules, the devices view,
//! `match`, `explain`) use these types.

mod claim;
mod class;
mod pod;
mod slice;
mod taint_cel;
mod taint_rule;
#[cfg(test)]
mod tests;

pub use claim::*;
pub use class::*;
pub use pod::*;
pub use slice::*;
pub use taint_cel::*;
pub use taint_rule::*;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

/// The DRA objects of an input, each decoded once, in input order.
#[derive(Debug, Default)]
pub struct Inventory<'t> {
    pub slices: Vec<Slice<'t>>,
    pub claims: Vec<Claim<'t>>,
    pub classes: Vec<DeviceClass<'t>>,
    pub taint_rules: Vec<DeviceTaintRule<'t>>,
}

impl<'t> Inventory<'t> {
    pub fn decode(objects: &'t [Object]) -> Self {
        let mut inventory = Inventory::default();
        for o in objects {
            match o.kind {
                ObjectKind::ResourceSlice => inventory.slices.push(Slice::decode(o)),
                ObjectKind::ResourceClaim => inventory.claims.push(Claim::decode(o)),
                ObjectKind::DeviceClass => inventory.classes.push(DeviceClass::decode(o)),
                ObjectKind::DeviceTaintRule => {
                    inventory.taint_rules.push(DeviceTaintRule::decode(o))
                }
                _ => {}
            }
        }
        inventory
    }

    /// The slices of each pool (a driver and a pool name, as the
    /// scheduler's `GatherPools` keys it), in input order, pools sorted by
    /// driver and name. A slice without a driver or pool name is in no pool.
    pub fn pools(&self) -> BTreeMap<(&'t str, &'t str), Vec<&Slice<'t>>> {
        crate::slices::group_by_pool(&self.slices, |s| s.pool_key())
    }

    /// The (domain, name) pairs the devices publish in `field`
    /// (`attributes` or `capacity`): a name without a domain belongs to the
    /// device's driver, as the scheduler's CEL view qualifies it.
    pub fn published(&self, field: &str) -> BTreeSet<(&'t str, &'t str)> {
        let mut out = BTreeSet::new();
        for s in &self.slices {
            for d in s.devices() {
                for (key, _) in entries(d.node, field) {
                    out.insert(match key.split_once('/') {
                        Some((domain, name)) => (domain, name),
                        None => (s.driver, key),
                    });
                }
            }
        }
        out
    }

    pub fn class(&self, name: &str) -> Option<&DeviceClass<'t>> {
        self.classes.iter().find(|c| c.name == name)
    }
}

/// A string field; `""` when unset or not a string (the API's zero value).
fn text<'t>(n: &'t Node, key: &str) -> &'t str {
    n.get(key).and_then(Node::as_str).unwrap_or_default()
}

/// A string field that may be unset.
fn opt_text<'t>(n: &'t Node, key: &str) -> Option<&'t str> {
    n.get(key).and_then(Node::as_str)
}

/// A list field; empty when unset or not a list.
fn list<'t>(n: &'t Node, key: &str) -> &'t [Node] {
    n.get(key).and_then(Node::as_seq).unwrap_or_default()
}

/// A list of strings; items that are not strings are left out.
fn strings<'t>(n: &'t Node, key: &str) -> Vec<&'t str> {
    list(n, key).iter().filter_map(Node::as_str).collect()
}

/// A map field's entries as (key, value node); empty when unset.
fn entries<'t>(n: &'t Node, key: &str) -> Vec<(&'t str, &'t Node)> {
    n.get(key)
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .map(|e| (e.key.as_str(), &e.value))
        .collect()
}

/// A quantity as the apiserver decodes one: a string, or a bare number.
pub fn quantity(n: &Node) -> Option<Quantity> {
    n.scalar_text().and_then(|t| Quantity::parse_field(&t).ok())
}

/// Which nodes a slice (or, with per-device node selection, a device) is for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NodeSelection<'t> {
    /// `nodeName`: exactly that node.
    Node(&'t str),
    /// `allNodes: true`.
    AllNodes,
    /// `nodeSelector`: the nodes the selector matches.
    Selector(&'t Node),
    /// None of the three is set.
    Unset,
}

impl<'t> NodeSelection<'t> {
    /// Reads `nodeName`, `allNodes` and `nodeSelector` in that order (the
    /// apiserver allows exactly one; the first set wins here).
    pub fn of(n: &'t Node) -> Self {
        // An empty nodeName selects nothing by name: the scheduler reads it
        // as unset (`ptr.Deref(NodeName, "") != ""` in GatherPools).
        if let Some(name) = opt_text(n, "nodeName").filter(|n| !n.is_empty()) {
            return NodeSelection::Node(name);
        }
        if n.get("allNodes").and_then(Node::as_bool) == Some(true) {
            return NodeSelection::AllNodes;
        }
        match n.get("nodeSelector") {
            Some(sel) => NodeSelection::Selector(sel),
            None => NodeSelection::Unset,
        }
    }

    /// How the devices view names it: the node, `<all nodes>`,
    /// `<node selector>`, or nothing.
    pub fn label(&self) -> Option<String> {
        match self {
            NodeSelection::Node(n) => Some((*n).to_owned()),
            NodeSelection::AllNodes => Some("<all nodes>".into()),
            NodeSelection::Selector(_) => Some("<node selector>".into()),
            NodeSelection::Unset => None,
        }
    }
}
