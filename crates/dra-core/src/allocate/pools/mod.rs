//! Gathering the pools a node can use (spec/allocator.md §3): node
//! selection, generations, completeness, validity and shared counters.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use super::capacity::Capacity;
use crate::cel::Device;
use crate::dra::{self, NodeSelection};
use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

mod counter_pools;
mod device_view;
mod node_selection;
mod shapes;

use device_view::*;
pub use node_selection::*;
pub use shapes::{AttributeUse, ResolvedUse, Shapes};

/// A device of a pool, by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevRef {
    pub pool: usize,
    pub index: usize,
}

/// A counter consumption: (counter set, counters, compatibility groups).
/// Names are borrowed from the slice: nothing is copied per device tried.
pub type Consumption<'a> = (&'a str, Vec<(&'a str, Quantity)>, Option<Vec<&'a str>>);

/// A device taint as the search reads it: (key, value, effect).
pub type TaintOf<'a> = (&'a str, &'a str, &'a str);

pub struct PoolDevice<'a> {
    pub name: &'a str,
    pub node: &'a Node,
    driver: &'a str,
    /// The device as its slice publishes it.
    device: &'a dra::Device<'a>,
    /// The CEL view, built when a selector first needs it.
    cel_view: std::cell::OnceCell<Arc<Device>>,
    /// Counter consumption and capacities, parsed when the search first
    /// looks at the device: most devices of a node are never tried.
    consumes: std::cell::OnceCell<Vec<Consumption<'a>>>,
    capacity: std::cell::OnceCell<Vec<Capacity>>,
    pub allow_multiple: bool,
    pub taints: Vec<TaintOf<'a>>,
    /// Where each taint comes from: a DeviceTaintRule, or `None` for the
    /// device's own (in its ResourceSlice).
    pub taint_rules: Vec<Option<TaintOrigin<'a>>>,
    pub binding_conditions: &'a [&'a str],
    pub binding_failure: &'a [&'a str],
    pub binds_to_node: bool,
    /// Set when the device (or its slice) is bound to one node by name.
    pub node_name: Option<&'a str>,
    /// DRAListTypeAttributes: list attributes are readable by CEL.
    pub list_types: bool,
    /// The node selector of the device (per-device node selection) or of
    /// its slice; what the allocation result's node selector is built from.
    pub node_selector: Option<&'a Node>,
    pub on_node: bool,
    /// The ResourceSlice that publishes it.
    pub slice: &'a str,
    sig: std::cell::OnceCell<u64>,
}

impl<'a> PoolDevice<'a> {
    pub fn consumes(&self) -> &[Consumption<'a>] {
        self.consumes.get_or_init(|| consumes_of(self.device))
    }

    /// How much of a counter of a counter set the device consumes (zero
    /// when it names neither).
    pub fn draws(&self, set: &str, counter: &str) -> Quantity {
        self.consumes()
            .iter()
            .filter(|(s, _, _)| *s == set)
            .flat_map(|(_, counters, _)| counters.iter())
            .filter(|(c, _)| *c == counter)
            .fold(Quantity::zero(), |sum, (_, q)| {
                sum.checked_add(q).unwrap_or(sum)
            })
    }

    /// Whether the device consumes counters (without parsing them).
    pub fn consumes_counters(&self) -> bool {
        !self.device.consumes_counters.is_empty()
    }

    pub fn capacity(&self) -> &[Capacity] {
        self.capacity.get_or_init(|| capacity_of(self.device))
    }

    /// Why the device's consumption does not fit the pool's counter sets
    /// (the scheduler's pool validation; `None` when not partitionable or
    /// fine), and whether it names compatibility groups: one pass, without
    /// parsing amounts or allocating, as this runs for every device of every
    /// node tried. Counters are checked by name, whatever the amount, as the
    /// scheduler does (and without touching each amount's node).
    fn check_consumption(&self, counter_sets: Option<&CounterSets<'_>>) -> (Option<String>, bool) {
        let mut unknown = None;
        let mut groups = false;
        for c in &self.device.consumes_counters {
            groups |= c.compatibility_groups.is_some();
            let (Some(sets), None) = (counter_sets, &unknown) else {
                continue;
            };
            let set = c.counter_set;
            unknown = match sets.get(set) {
                None => Some(format!(
                    "device {} consumes unknown counter set {set}",
                    self.name
                )),
                Some(cs) => c
                    .counter_names()
                    .find(|n| !cs.has_counter(n))
                    .map(|n| format!("device {} consumes unknown counter {set}/{n}", self.name)),
            };
        }
        (unknown, groups)
    }

    /// Whether a consumption names compatibility groups.
    fn has_groups(&self) -> bool {
        self.device
            .consumes_counters
            .iter()
            .any(|c| c.compatibility_groups.is_some())
    }

    pub fn cel(&self) -> &Arc<Device> {
        self.cel_view
            .get_or_init(|| Arc::new(Device::from_node(self.driver, self.node, self.list_types)))
    }

    /// Equal for devices that differ only in name: the search prunes a device
    /// whose twin already failed in the same slot (symmetry; same picks).
    pub fn signature(&self) -> u64 {
        *self.sig.get_or_init(|| {
            use std::hash::{BuildHasher, Hash, Hasher};
            // foldhash's quality variant: fast, and a fixed seed keeps runs
            // deterministic.
            let mut h = foldhash::quality::FixedState::default().build_hasher();
            for e in self.node.as_map().unwrap_or_default() {
                if e.key != "name" {
                    e.key.hash(&mut h);
                    hash_node(&e.value, &mut h);
                }
            }
            self.on_node.hash(&mut h);
            self.node_name.hash(&mut h);
            self.taints.hash(&mut h);
            h.finish()
        })
    }
}

fn hash_node<H: std::hash::Hasher>(n: &Node, h: &mut H) {
    use crate::tree::Value;
    use std::hash::Hash;
    match &n.value {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => b.hash(h),
        Value::Int(i) => i.hash(h),
        Value::Float(f) => f.to_bits().hash(h),
        Value::Str(s) => s.hash(h),
        Value::Seq(items) => {
            items.len().hash(h);
            items.iter().for_each(|i| hash_node(i, h));
        }
        Value::Map(entries) => {
            entries.len().hash(h);
            for e in entries.iter() {
                e.key.hash(h);
                hash_node(&e.value, h);
            }
        }
    }
}

/// The results of a pool's deferred checks.
struct Deferred {
    invalid: Option<String>,
    groups_incomplete: bool,
}

/// A pool's counter sets by name (validation reads names only; amounts are
/// parsed for the few counters the search charges).
pub type CounterSets<'a> = HashMap<&'a str, &'a dra::CounterSet<'a>>;

pub struct Pool<'a> {
    pub driver: &'a str,
    pub name: &'a str,
    /// Devices of the slices that target the node, slices sorted by name.
    pub devices: Vec<PoolDevice<'a>>,
    /// Every device of the pool's generation, on any node (counter
    /// accounting); `None` when those are exactly `devices` (the common
    /// node-local pool), which are then not built twice.
    all_devices: Option<Vec<PoolDevice<'a>>>,
    pub counter_sets: CounterSets<'a>,
    /// Consumption of allocated devices, per counter set and counter.
    charged: HashMap<&'a str, HashMap<&'a str, Quantity>>,
    /// The slice that defines each counter set (1.34 compares a slice's own).
    set_slices: HashMap<&'a str, &'a str>,
    /// Every counter of every counter set with what allocated devices left
    /// of it, computed when the search first charges a device of the pool
    /// (the allocated devices are all charged by then).
    left: std::cell::OnceCell<Vec<(&'a str, &'a str, Quantity)>>,
    /// All slices of the generation are there.
    complete: bool,
    /// The generation used, its slices found, and `resourceSliceCount`.
    generation: i64,
    published: usize,
    expected: i64,
    /// A counter set defined twice.
    invalid: Option<String>,
    /// The checks that read every device's consumption (pool validation, and
    /// groups under a scheduler without DRADeviceCompatibilityGroups), made
    /// when the search first touches the pool: most pools of a node are
    /// settled by their first devices, and walking every device's counters
    /// is most of the cost of trying a node.
    deferred: std::cell::OnceCell<Deferred>,
    partitionable: bool,
    /// 1.34's pools: complete by the node's slices alone, invalid only by a
    /// repeated device name, searched when incomplete, and an invalid one
    /// reached by the search is an error.
    pub legacy: bool,
    groups_gate_off: bool,
    pub targets_node: bool,
    pub has_binding: bool,
}

impl<'a> Pool<'a> {
    /// Every device of the pool's generation, on any node.
    pub fn all_devices(&self) -> &[PoolDevice<'a>] {
        self.all_devices.as_deref().unwrap_or(&self.devices)
    }

    /// Whether the search may take devices from the pool (1.34 takes them
    /// from an incomplete pool too).
    pub fn usable(&self) -> bool {
        (self.legacy || self.complete()) && self.invalid().is_none()
    }

    /// `usable` without the deferred checks: a pool this rejects is out
    /// (1.34's search reaches an invalid pool, and stops there).
    pub fn usable_eager(&self) -> bool {
        self.legacy || (self.complete && self.invalid.is_none())
    }

    /// Whether the pool is complete (a scheduler without compatibility
    /// groups also treats a pool with grouped devices as incomplete).
    pub fn complete(&self) -> bool {
        self.complete && !self.deferred().groups_incomplete
    }

    /// Why the scheduler's pool validation rejects the pool.
    pub fn invalid(&self) -> Option<&str> {
        self.invalid
            .as_deref()
            .or(self.deferred().invalid.as_deref())
    }

    /// Why the scheduler skips a pool that is not complete (`None` when it
    /// is): slices missing from its generation, or compatibility groups a
    /// scheduler without DRADeviceCompatibilityGroups cannot read.
    pub fn incomplete(&self) -> Option<String> {
        let devices = match self.devices.len() {
            1 => "1 device".to_owned(),
            n => format!("{n} devices"),
        };
        if !self.complete {
            let until = if (self.published as i64) < self.expected {
                " until the driver publishes the rest"
            } else {
                ""
            };
            return Some(format!(
                "resource pool {}/{} is incomplete (generation {}: {} slice{}, resourceSliceCount {}): the scheduler skips its {devices} on this node{until}",
                self.driver,
                self.name,
                self.generation,
                self.published,
                if self.published == 1 { "" } else { "s" },
                self.expected
            ));
        }
        self.deferred().groups_incomplete.then(|| {
            format!(
                "resource pool {}/{} is incomplete to this scheduler (its devices name compatibilityGroups and DRADeviceCompatibilityGroups is off): the scheduler skips its {devices} on this node",
                self.driver, self.name
            )
        })
    }

    fn deferred(&self) -> &Deferred {
        self.deferred.get_or_init(|| {
            let mut invalid = None;
            // Each name and the slice that published it first.
            let mut seen: foldhash::HashMap<&str, &str> = foldhash::HashMap::default();
            seen.reserve(self.devices.len());
            // Version skew: a scheduler without DRADeviceCompatibilityGroups
            // treats a pool with grouped devices as incomplete and skips it
            // whole (newest compatibility_groups.go; the device-level rule of
            // older drafts is superseded). Looked for in the same pass when
            // the pool's devices are all on this node.
            let mut groups_incomplete = false;
            let same_pass = self.groups_gate_off && self.all_devices.is_none();
            let counter_sets = self.partitionable.then_some(&self.counter_sets);
            for d in &self.devices {
                if let Some(first) = seen.insert(d.name, d.slice) {
                    let slices = if self.legacy {
                        String::new() // release-1.34 poolIsInvalid
                    } else if first == d.slice {
                        format!(", twice in slice {first}")
                    } else {
                        format!(", in slices {first} and {}", d.slice)
                    };
                    invalid.get_or_insert(format!("duplicate device name {}{slices}", d.name));
                }
                if self.legacy {
                    continue;
                }
                let (unknown, groups) = d.check_consumption(counter_sets);
                if let Some(why) = unknown {
                    invalid.get_or_insert(why);
                }
                groups_incomplete |= same_pass && groups;
            }
            // A device of the pool on another node that consumes an unknown
            // counter invalidates the pool here too (upstream's test
            // "partitionable-devices-validation-error-on-non-targeting-slice").
            if let (Some(all), Some(_)) = (&self.all_devices, counter_sets) {
                for d in all {
                    if let (Some(why), _) = d.check_consumption(counter_sets) {
                        invalid.get_or_insert(why);
                    }
                }
            }
            if self.groups_gate_off && !same_pass {
                groups_incomplete = self.all_devices().iter().any(PoolDevice::has_groups);
            }
            Deferred {
                invalid,
                groups_incomplete,
            }
        })
    }

    pub fn device_on_node(&self, i: usize) -> bool {
        self.devices.get(i).is_some_and(|d| d.on_node)
    }

    /// Counter left after allocated devices (may be negative).
    pub fn available(&self, set: &str, counter: &str) -> Quantity {
        let total = self
            .counter_sets
            .get(set)
            .and_then(|c| c.counter(counter))
            .unwrap_or_else(Quantity::zero);
        let used = self
            .charged
            .get(set)
            .and_then(|c| c.get(counter))
            .copied()
            .unwrap_or_else(Quantity::zero);
        total.checked_sub(&used).unwrap_or(total)
    }

    /// Every counter of the pool's counter sets (of one slice's, in 1.34)
    /// with what allocated devices left of it (may be negative).
    pub fn available_counters(
        &self,
        slice: Option<&'a str>,
    ) -> impl Iterator<Item = &(&'a str, &'a str, Quantity)> + '_ {
        let all = self.left.get_or_init(|| {
            let mut sets: Vec<_> = self.counter_sets.iter().collect();
            sets.sort_by_key(|(name, _)| **name);
            sets.into_iter()
                .flat_map(|(set, cs)| {
                    cs.counters()
                        .map(|(counter, _)| (*set, counter, self.available(set, counter)))
                })
                .collect()
        });
        all.iter().filter(move |(set, _, _)| {
            slice.is_none_or(|s| self.set_slices.get(set).is_some_and(|d| *d == s))
        })
    }

    pub fn charge_allocated(&mut self, all_index: usize) {
        let all = self.all_devices.as_deref().unwrap_or(&self.devices);
        let Some(d) = all.get(all_index) else {
            return;
        };
        for (set, counters, _) in d.consumes() {
            let charged = self.charged.entry(*set).or_default();
            for (c, q) in counters {
                let e = charged.entry(*c).or_insert_with(Quantity::zero);
                *e = e.checked_add(q).unwrap_or(*e);
            }
        }
    }
}

/// The slices of every pool, typed and sorted, and which pools can concern
/// a node: built once for explaining many nodes. A slice's devices are
/// decoded when a node's search first reads them.
pub struct PoolIndex<'a> {
    pools: BTreeMap<(&'a str, &'a str), Vec<dra::Slice<'a>>>,
    /// Pools with a slice bound to the node by `nodeName`.
    by_node: HashMap<&'a str, Vec<(&'a str, &'a str)>>,
    /// Pools whose slices select nodes otherwise (all nodes, selectors, per device).
    elsewhere: Vec<(&'a str, &'a str)>,
    /// Pools a counter slice puts on every node where that changes an
    /// answer (counter_pools.rs).
    counters_everywhere: Vec<(&'a str, &'a str)>,
    /// DeviceTaintRules: (driver, pool, device) selectors and the taint to add.
    taint_rules: Vec<TaintRule<'a>>,
}

/// The DeviceTaintRule a taint comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaintOrigin<'a> {
    pub name: &'a str,
    /// Its deviceSelector names no driver, pool or device (it is `{}` or
    /// omitted): the tracker puts the taint on every device of every driver
    /// (`resourceslice/tracker` applyPatches reads a nil selector as no
    /// restriction).
    pub selects_every_device: bool,
}

/// A DeviceTaintRule as the scheduler applies it to the device view.
struct TaintRule<'a> {
    name: &'a str,
    driver: Option<&'a str>,
    pool: Option<&'a str>,
    device: Option<&'a str>,
    /// 1.34's class and CEL selectors (dra::TaintCel).
    cel: dra::TaintCel<'a>,
    taint: TaintOf<'a>,
}

impl<'a> TaintRule<'a> {
    fn from_object(o: &'a Object, objects: &'a [Object]) -> Option<TaintRule<'a>> {
        let rule = dra::DeviceTaintRule::decode(o);
        let sel = rule.selector.as_ref();
        let t = rule.taint.as_ref()?;
        Some(TaintRule {
            name: rule.name,
            driver: sel.and_then(|s| s.driver),
            pool: sel.and_then(|s| s.pool),
            device: sel.and_then(|s| s.device),
            cel: dra::TaintCel::new(&rule, objects),
            taint: (t.key, t.value, t.effect),
        })
    }

    fn applies(&self, driver: &str, pool: &str, device: &str) -> bool {
        self.driver.is_none_or(|d| d == driver)
            && self.pool.is_none_or(|p| p == pool)
            && self.device.is_none_or(|d| d == device)
    }
}

impl<'a> PoolIndex<'a> {
    pub fn new(objects: &'a [Object]) -> Self {
        let slices = objects
            .iter()
            .filter(|o| o.kind == ObjectKind::ResourceSlice)
            .map(dra::Slice::decode);
        let mut pools = crate::slices::group_by_pool(slices, dra::Slice::pool_key);
        let mut by_node: HashMap<&'a str, Vec<(&'a str, &'a str)>> = HashMap::new();
        let mut elsewhere = Vec::new();
        let mut counters_everywhere = Vec::new();
        for (key, slices) in pools.iter_mut() {
            slices.sort_by(|a, b| a.name.cmp(b.name));
            if counter_pools::broken_counter_pool(slices) {
                counters_everywhere.push(*key);
            }
            let mut other = false;
            // A counter slice is indexed by its node selection like any
            // other: 1.34 and 1.37's newer implementations gather it so.
            for s in slices.iter() {
                match s.selection {
                    NodeSelection::Node(n) => {
                        let e = by_node.entry(n).or_default();
                        // Pools are visited once each: a repeat can only be
                        // this pool's, pushed last (a search of the node's
                        // list was quadratic in its pools: 50,000 took 60 s).
                        if e.last() != Some(key) {
                            e.push(*key);
                        }
                    }
                    _ => other = true,
                }
            }
            if other {
                elsewhere.push(*key);
            }
        }
        PoolIndex {
            pools,
            by_node,
            elsewhere,
            counters_everywhere,
            taint_rules: objects
                .iter()
                .filter(|o| o.kind == ObjectKind::DeviceTaintRule)
                .filter_map(|o| TaintRule::from_object(o, objects))
                .collect(),
        }
    }
}

impl PoolIndex<'_> {
    /// Whether a slice binds a pool to the node by `nodeName`.
    pub fn has_own_pools(&self, node: &str) -> bool {
        self.by_node.contains_key(node)
    }

    /// What of the inventory a node sees, as bits: for each slice not bound
    /// to a node by name, whether it targets the node (and, with per-device
    /// node selection, whether each device does). Nodes with the same bits
    /// gather the same devices, and nothing else `gather` builds depends on
    /// the node, so they share one answer. `None` when a slice names the
    /// node: its devices are its own.
    pub fn node_class(
        &self,
        node: &str,
        labels: Option<&Node>,
        rules: SliceRules,
    ) -> Option<Vec<bool>> {
        if self.by_node.contains_key(node) {
            return None;
        }
        self.elsewhere_bits(node, labels, rules)
    }

    /// [`node_class`](Self::node_class)'s bits, also for a node with pools
    /// of its own (which [`Shapes`] compares).
    pub fn elsewhere_bits(
        &self,
        node: &str,
        labels: Option<&Node>,
        rules: SliceRules,
    ) -> Option<Vec<bool>> {
        let mut bits = Vec::new();
        for key in &self.elsewhere {
            for s in self.pools.get(key).map(Vec::as_slice).unwrap_or_default() {
                bits.push(targets(s, node, labels, rules));
                if s.per_device_node_selection.is_some() {
                    for d in s.devices() {
                        bits.push(selects(d.selection, node, labels) == Some(true));
                    }
                }
            }
        }
        Some(bits)
    }
}

/// The pools of the node, sorted by driver and name, binding-condition
/// pools last (GatherPools and buildPool).
pub fn gather<'s, 'a: 's>(
    index: &'s PoolIndex<'a>,
    node: &str,
    labels: Option<&Node>,
    gates: &FeatureGates,
) -> Result<Vec<Pool<'s>>, String> {
    let rules = SliceRules::of(gates);
    let partitionable = rules.partitionable;
    let list_types = crate::cel::list_values_converted(gates);
    let mut keys: Vec<(&'a str, &'a str)> = index.by_node.get(node).cloned().unwrap_or_default();
    keys.extend(index.elsewhere.iter().copied());
    if partitionable && rules.counter_slices && !rules.counters_by_selection {
        keys.extend(index.counters_everywhere.iter().copied());
    }
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for (driver, name) in keys {
        let Some(all) = index.pools.get(&(driver, name)) else {
            continue;
        };
        let mut collected: Vec<&'s dra::Slice<'a>> = Vec::new();
        for s in all {
            if !relevant(s, node, labels, rules)? {
                continue;
            }
            match collected.first().map(|c| c.pool.generation) {
                Some(g) if s.pool.generation < g => continue,
                Some(g) if s.pool.generation > g => collected.clear(),
                _ => {}
            }
            collected.push(s);
        }
        let Some(first) = collected.first() else {
            continue;
        };
        let (gen, count) = (first.pool.generation, first.pool.resource_slice_count);
        let mut complete = collected.len() as i64 == count;
        // 1.34 knows only the slices for the node: the pool is complete when
        // they are as many as resourceSliceCount (release-1.34 GatherPools).
        let legacy = !rules.counter_slices;
        if !complete && !legacy {
            if all.iter().any(|s| s.pool.generation > gen) {
                continue; // superseded: as if the pool did not exist
            }
            complete = all.iter().filter(|s| s.pool.generation == gen).count() as i64 == count;
        }
        let same_gen: Vec<&'s dra::Slice<'a>> = if legacy {
            collected.clone()
        } else {
            all.iter().filter(|s| s.pool.generation == gen).collect()
        };
        let mut counter_sets = CounterSets::default();
        let mut invalid = None;
        let mut defined_in: HashMap<&'a str, &'a str> = HashMap::new();
        if partitionable {
            for s in &same_gen {
                for cs in &s.shared_counters {
                    // 1.34 validates no counter set (each slice has its own).
                    if counter_sets.insert(cs.name, cs).is_some() && !legacy {
                        let first = defined_in.get(cs.name).copied().unwrap_or(s.name);
                        invalid = Some(format!(
                            "counter set {} is defined twice, in slices {first} and {}",
                            cs.name, s.name
                        ));
                    }
                    defined_in.entry(cs.name).or_insert(s.name);
                }
            }
        }
        let mut devices = Vec::new();
        for s in &collected {
            let view = SliceView::new(s, node, labels, rules.counter_slices);
            devices.reserve(s.device_count());
            for d in s.devices() {
                devices.push(device_of(driver, d, &view, node, labels, list_types));
            }
        }
        // Usually every slice of the generation targets the node: then the
        // pool's devices are all its devices.
        let same_slices = collected.len() == same_gen.len()
            && collected
                .iter()
                .zip(&same_gen)
                .all(|(a, b)| std::ptr::eq(*a, *b))
            && (partitionable
                || same_gen
                    .iter()
                    .all(|s| s.per_device_node_selection.is_none()));
        let mut all_devices = Vec::new();
        for s in same_gen.iter().filter(|_| !same_slices) {
            if !partitionable && s.per_device_node_selection.is_some() {
                continue;
            }
            let view = SliceView::new(s, node, labels, rules.counter_slices);
            for d in s.devices() {
                all_devices.push(device_of(driver, d, &view, node, labels, list_types));
            }
        }
        if gates.taint_rules_applied() {
            for d in devices.iter_mut() {
                let matching: Vec<&TaintRule> = index
                    .taint_rules
                    .iter()
                    .filter(|r| r.applies(driver, name, d.name))
                    .filter(|r| r.cel.selects(gates, || d.cel().clone()))
                    .collect();
                for r in matching {
                    d.taints.push(r.taint);
                    d.taint_rules.push(Some(TaintOrigin {
                        name: r.name,
                        selects_every_device: r.driver.is_none()
                            && r.pool.is_none()
                            && r.device.is_none()
                            && !r.cel.applies_in(gates),
                    }));
                }
            }
        }
        let has_binding = devices.iter().any(|d| !d.binding_conditions.is_empty());
        let targets_node = devices.iter().any(|d| d.on_node);
        out.push(Pool {
            driver,
            name,
            devices,
            all_devices: (!same_slices).then_some(all_devices),
            counter_sets,
            charged: HashMap::new(),
            set_slices: defined_in,
            left: std::cell::OnceCell::new(),
            complete,
            generation: gen,
            published: same_gen.len(),
            expected: count,
            invalid,
            deferred: std::cell::OnceCell::new(),
            partitionable,
            legacy,
            groups_gate_off: !gates.enabled(Gate::DRADeviceCompatibilityGroups),
            targets_node,
            has_binding,
        });
    }
    // Pools with binding conditions come last (stable sort keeps driver/name order).
    out.sort_by_key(|p| p.has_binding);
    Ok(out)
}

#[cfg(test)]
mod tests;
