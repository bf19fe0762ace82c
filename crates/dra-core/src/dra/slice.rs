//! ResourceSlices: the pool they belong to, the nodes they are for, shared
//! counters, and their devices.

use super::{list, quantity, strings, text, NodeSelection, Taint};
use crate::model::Object;
use crate::quantity::Quantity;
use crate::tree::{Entry, Node};
use std::sync::OnceLock;

#[derive(Debug)]
pub struct Slice<'t> {
    pub object: &'t Object,
    pub name: &'t str,
    /// `""` when unset.
    pub driver: &'t str,
    pub pool: Pool<'t>,
    /// The slice's node selection as written; with per-device node
    /// selection each device has its own ([`Slice::selection_of`]).
    pub selection: NodeSelection<'t>,
    /// `perDeviceNodeSelection`, `None` when unset (the scheduler's gate
    /// check tells unset from `false`).
    pub per_device_node_selection: Option<bool>,
    pub shared_counters: Vec<CounterSet<'t>>,
    /// `spec.devices` as written, decoded on first read ([`Slice::devices`]).
    device_nodes: &'t [Node],
    devices: OnceLock<Vec<Device<'t>>>,
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
                per_device_node_selection: None,
                shared_counters: Vec::new(),
                device_nodes: &[],
                devices: OnceLock::new(),
            };
        };
        let per_device_node_selection = spec.get("perDeviceNodeSelection").and_then(Node::as_bool);
        Slice {
            object,
            name: object.name().unwrap_or_default(),
            driver: text(spec, "driver"),
            pool: spec.get("pool").map(Pool::decode).unwrap_or_default(),
            selection: NodeSelection::of(spec),
            per_device_node_selection,
            shared_counters: list(spec, "sharedCounters")
                .iter()
                .map(CounterSet::decode)
                .collect(),
            device_nodes: list(spec, "devices"),
            devices: OnceLock::new(),
        }
    }

    /// The pool it belongs to, (driver, pool name); `None` without either.
    pub fn pool_key(&self) -> Option<(&'t str, &'t str)> {
        (!self.driver.is_empty() && !self.pool.name.is_empty())
            .then_some((self.driver, self.pool.name))
    }

    /// Whether each device selects its nodes (`perDeviceNodeSelection: true`).
    pub fn per_device(&self) -> bool {
        self.per_device_node_selection == Some(true)
    }

    /// The devices, decoded when first read: a reader that needs only the
    /// slices (the allocator's pool index, lint's pool grouping) or only
    /// some pools' devices (a search of one node) decodes no others, which
    /// at 10,000 nodes is hundreds of megabytes.
    pub fn devices(&self) -> &[Device<'t>] {
        let per_device = self.per_device();
        self.devices.get_or_init(|| {
            self.device_nodes
                .iter()
                .map(|d| Device::decode(d, per_device))
                .collect()
        })
    }

    /// Whether [`Slice::devices`] has decoded them.
    #[cfg(test)]
    pub(crate) fn devices_decoded(&self) -> bool {
        self.devices.get().is_some()
    }

    /// How many devices the slice lists (without decoding them).
    pub fn device_count(&self) -> usize {
        self.device_nodes.len()
    }

    /// Each (counter set, counter) a device of the slice consumes, read
    /// from the device nodes without decoding the devices: a reader that
    /// checks every pool this way (the pool index) keeps the devices
    /// undecoded, which at 20,000 nodes is some 300 MB.
    pub fn consumed_counters(&self) -> impl Iterator<Item = (&'t str, &'t str)> {
        self.device_nodes
            .iter()
            .flat_map(|d| list(d, "consumesCounters"))
            .flat_map(|c| {
                let set = text(c, "counterSet");
                map(c, "counters")
                    .iter()
                    .map(move |e| (set, e.key.as_str()))
            })
    }

    /// The device nodes as written (for readers that fingerprint or point
    /// at what was written rather than read its fields).
    pub fn device_nodes(&self) -> &'t [Node] {
        self.device_nodes
    }

    /// The node selection that applies to one of its devices.
    pub fn selection_of(&self, device: &Device<'t>) -> NodeSelection<'t> {
        if self.per_device() {
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

    /// Whether it defines the counter, whatever its value (the scheduler's
    /// pool validation checks names only).
    pub fn has_counter(&self, name: &str) -> bool {
        self.counters.iter().any(|e| e.key == name)
    }

    /// The counter's value, when it is a quantity.
    pub fn counter(&self, name: &str) -> Option<Quantity> {
        let e = self.counters.iter().find(|e| e.key == name)?;
        quantity(e.value.get("value")?)
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

    /// The counters it names, whatever the amounts.
    pub fn counter_names(&self) -> impl Iterator<Item = &'t str> {
        self.counters.iter().map(|e| e.key.as_str())
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

    /// `capacity` with each entry's request policy (consumable capacity);
    /// entries whose value is not a quantity are left out.
    pub fn capacities(&self) -> impl Iterator<Item = Capacity<'t>> {
        self.capacity.iter().filter_map(|e| {
            let policy = e.value.get("requestPolicy");
            let at = |n: Option<&Node>, k: &str| n.and_then(|n| n.get(k)).and_then(quantity);
            let range = policy.and_then(|p| p.get("validRange"));
            Some(Capacity {
                name: e.key.as_str(),
                value: quantity(e.value.get("value")?)?,
                default: at(policy, "default"),
                valid_values: list_of(policy, "validValues")
                    .iter()
                    .filter_map(quantity)
                    .collect(),
                valid_range: range.map(|_| ValidRange {
                    min: at(range, "min"),
                    max: at(range, "max"),
                    step: at(range, "step"),
                }),
            })
        })
    }

    /// The attribute's value node (`attributes.<name>`), fully qualified or short.
    pub fn attribute(&self, name: &str) -> Option<&'t Node> {
        self.node.get("attributes")?.get(name)
    }
}

/// One capacity of a device with its request policy (`requestPolicy`).
#[derive(Clone, Debug)]
pub struct Capacity<'t> {
    pub name: &'t str,
    pub value: Quantity,
    pub default: Option<Quantity>,
    pub valid_values: Vec<Quantity>,
    pub valid_range: Option<ValidRange>,
}

/// `requestPolicy.validRange`; a bound that is unset or not a quantity is
/// `None` (the apiserver requires `min`).
#[derive(Clone, Copy, Debug)]
pub struct ValidRange {
    pub min: Option<Quantity>,
    pub max: Option<Quantity>,
    pub step: Option<Quantity>,
}

fn list_of<'t>(n: Option<&'t Node>, key: &str) -> &'t [Node] {
    n.map(|n| list(n, key)).unwrap_or_default()
}
