//! ResourceSlices: the pool they belong to, the nodes they are for, shared
//! counters, and their devices.

use super::{list, quantity, strings, text, NodeSelection, Taint};
use crate::model::Object;
use crate::quantity::Quantity;
use crate::tree::{Entry, Node};

#[derive(Debug)]
pub struct Slice<'t> {
    pub object: &'t Object,
    pub name: &'t str,
    /// `""` when unset.
    pub driver: &'t str,
    pub pool: Pool<'t>,
    /// The slice's node selection; with per-device node selection each
    /// device has its own (and this is `Unset`).
    pub selection: NodeSelection<'t>,
    pub per_device_node_selection: bool,
    pub shared_counters: Vec<CounterSet<'t>>,
    pub devices: Vec<Device<'t>>,
}

impl<'t> Slice<'t> {
    pub fn decode(object: &'t Object) -> Self {
        let Some(spec) = object.spec() else {
            return Slice {
                object,
                name: object.name().unwrap_or_default(),
                driver: "",
                pool: Pool::default(),
                selection: NodeSelection::Unset,
                per_device_node_selection: false,
                shared_counters: Vec::new(),
                devices: Vec::new(),
            };
        };
        let per_device = spec.get("perDeviceNodeSelection").and_then(Node::as_bool) == Some(true);
        Slice {
            object,
            name: object.name().unwrap_or_default(),
            driver: text(spec, "driver"),
            pool: spec.get("pool").map(Pool::decode).unwrap_or_default(),
            selection: if per_device {
                NodeSelection::Unset
            } else {
                NodeSelection::of(spec)
            },
            per_device_node_selection: per_device,
            shared_counters: list(spec, "sharedCounters")
                .iter()
                .map(CounterSet::decode)
                .collect(),
            devices: list(spec, "devices")
                .iter()
                .map(|d| Device::decode(d, per_device))
                .collect(),
        }
    }

    /// The node selection that applies to one of its devices.
    pub fn selection_of(&self, device: &Device<'t>) -> NodeSelection<'t> {
        if self.per_device_node_selection {
            device.selection
        } else {
            self.selection
        }
    }
}

/// `spec.pool`.
#[derive(Debug, Default)]
pub struct Pool<'t> {
    /// `""` when unset.
    pub name: &'t str,
    /// 0 when unset.
    pub generation: i64,
    /// 0 when unset.
    pub resource_slice_count: i64,
}

impl<'t> Pool<'t> {
    fn decode(node: &'t Node) -> Self {
        let int = |k: &str| node.get(k).and_then(Node::as_i64).unwrap_or(0);
        Pool {
            name: text(node, "name"),
            generation: int("generation"),
            resource_slice_count: int("resourceSliceCount"),
        }
    }
}

/// A named set of counters (`sharedCounters`).
#[derive(Debug)]
pub struct CounterSet<'t> {
    pub node: &'t Node,
    pub name: &'t str,
    counters: &'t [Entry],
}

impl<'t> CounterSet<'t> {
    fn decode(node: &'t Node) -> Self {
        CounterSet {
            node,
            name: text(node, "name"),
            counters: map(node, "counters"),
        }
    }

    /// Counters whose value is a quantity, in order.
    pub fn counters(&self) -> impl Iterator<Item = (&'t str, Quantity)> {
        values(self.counters)
    }
}

/// A map's entries; empty when unset or not a map.
fn map<'t>(node: &'t Node, key: &str) -> &'t [Entry] {
    node.get(key).and_then(Node::as_map).unwrap_or_default()
}

/// Name to `{value: quantity}` (counters, capacities), parsed as read:
/// decoding parses no amount, since most readers need few of them (lint's
/// pool rules none). Unreadable values are left out.
fn values(entries: &[Entry]) -> impl Iterator<Item = (&str, Quantity)> {
    entries
        .iter()
        .filter_map(|e| Some((e.key.as_str(), quantity(e.value.get("value")?)?)))
}

/// One entry of a device's `consumesCounters`.
#[derive(Debug)]
pub struct CounterConsumption<'t> {
    pub node: &'t Node,
    pub counter_set: &'t str,
    counters: &'t [Entry],
    /// `compatibilityGroups`; `None` when unset or empty.
    pub compatibility_groups: Option<Vec<&'t str>>,
}

impl<'t> CounterConsumption<'t> {
    fn decode(node: &'t Node) -> Self {
        let groups = strings(node, "compatibilityGroups");
        CounterConsumption {
            node,
            counter_set: text(node, "counterSet"),
            counters: map(node, "counters"),
            compatibility_groups: (!list(node, "compatibilityGroups").is_empty()).then_some(groups),
        }
    }

    /// What it consumes of each counter, in order.
    pub fn counters(&self) -> impl Iterator<Item = (&'t str, Quantity)> {
        values(self.counters)
    }
}

/// One device of a slice.
#[derive(Debug)]
pub struct Device<'t> {
    pub node: &'t Node,
    pub name: &'t str,
    /// With per-device node selection, the device's own; else `Unset`.
    pub selection: NodeSelection<'t>,
    pub taints: Vec<Taint<'t>>,
    pub consumes_counters: Vec<CounterConsumption<'t>>,
    pub allow_multiple_allocations: bool,
    capacity: &'t [Entry],
    pub binds_to_node: bool,
    pub binding_conditions: Vec<&'t str>,
    pub binding_failure_conditions: Vec<&'t str>,
}

impl<'t> Device<'t> {
    fn decode(node: &'t Node, per_device: bool) -> Self {
        let flag = |k: &str| node.get(k).and_then(Node::as_bool) == Some(true);
        Device {
            node,
            name: text(node, "name"),
            selection: if per_device {
                NodeSelection::of(node)
            } else {
                NodeSelection::Unset
            },
            taints: list(node, "taints").iter().map(Taint::decode).collect(),
            consumes_counters: list(node, "consumesCounters")
                .iter()
                .map(CounterConsumption::decode)
                .collect(),
            allow_multiple_allocations: flag("allowMultipleAllocations"),
            capacity: map(node, "capacity"),
            binds_to_node: flag("bindsToNode"),
            binding_conditions: strings(node, "bindingConditions"),
            binding_failure_conditions: strings(node, "bindingFailureConditions"),
        }
    }

    /// `capacity`: name to the `value` quantity (unreadable ones left out).
    pub fn capacity(&self) -> impl Iterator<Item = (&'t str, Quantity)> {
        values(self.capacity)
    }

    /// The attribute's value node (`attributes.<name>`), fully qualified or short.
    pub fn attribute(&self, name: &str) -> Option<&'t Node> {
        self.node.get("attributes")?.get(name)
    }
}
