//! A dry run of kube-scheduler's structured allocator
//! (`k8s.io/dynamic-resource-allocation/structured`, experimental variant):
//! which devices a set of claims gets on one node, or why none, with the
//! same picks as the scheduler (spec/allocator.md). Pure: no clock, no I/O.
//! Pools are ordered by driver and pool name, slices by name, as the newest
//! upstream allocator does.

mod pools;

use std::collections::BTreeMap;

// The search hashes device references millions of times per fleet: foldhash
// (randomly seeded, like the default) is several times faster than SipHash.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::Arc;

use serde::Serialize;

use crate::cel::{Env, Program};
use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

pub use pools::{node_selector_matches, Consumption, DevRef, Pool, PoolDevice};

/// The device whose counters were charged.
type CounterUndo = DevRef;
type GroupUndo<'a> = Vec<((usize, &'a str), Option<Option<Vec<&'a str>>>)>;
/// What to undo when a tentatively picked device is released.
type Token<'a> = (Option<CounterUndo>, GroupUndo<'a>);

/// The claim limit of results (`AllocationResultsMaxSize`).
const MAX_RESULTS: usize = 32;

/// One allocated device, as `status.allocation.devices.results[]` holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceResult {
    pub request: String,
    pub driver: String,
    pub pool: String,
    pub device: String,
    #[serde(rename = "adminAccess", skip_serializing_if = "Option::is_none")]
    pub admin_access: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerations: Option<serde_json::Value>,
    #[serde(rename = "bindingConditions", skip_serializing_if = "Option::is_none")]
    pub binding_conditions: Option<Vec<String>>,
    #[serde(
        rename = "bindingFailureConditions",
        skip_serializing_if = "Option::is_none"
    )]
    pub binding_failure_conditions: Option<Vec<String>>,
    #[serde(rename = "shareID", skip_serializing_if = "Option::is_none")]
    pub share_id: Option<String>,
    #[serde(rename = "consumedCapacity", skip_serializing_if = "Option::is_none")]
    pub consumed_capacity: Option<BTreeMap<String, String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimAllocation {
    pub namespace: String,
    pub name: String,
    pub results: Vec<DeviceResult>,
    /// `allocation.nodeSelector`, when the devices are bound to nodes.
    pub node_selector: Option<serde_json::Value>,
    /// `allocation.devices.config`: the class and claim configurations
    /// handed to the drivers, in upstream's order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<serde_json::Value>,
    /// The claim was allocated before (its `status.allocation`), not now.
    #[serde(
        rename = "alreadyAllocated",
        skip_serializing_if = "std::ops::Not::not"
    )]
    pub existing: bool,
    /// For an existing allocation: `namespace/name` of the pods it is reserved for.
    #[serde(rename = "reservedFor", skip_serializing_if = "Vec::is_empty")]
    pub reserved_for: Vec<String>,
}

/// A claim's allocation as its status records it.
fn existing_allocation(o: &Object, allocation: &Node) -> ClaimAllocation {
    let results = allocation
        .get("devices")
        .and_then(|d| d.get("results"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let s = |k: &str| str_of(r, k).unwrap_or_default().to_owned();
            let strings = |k: &str| {
                r.get(k).and_then(Node::as_seq).map(|l| {
                    l.iter()
                        .filter_map(|x| x.as_str().map(str::to_owned))
                        .collect()
                })
            };
            DeviceResult {
                request: s("request"),
                driver: s("driver"),
                pool: s("pool"),
                device: s("device"),
                admin_access: r.get("adminAccess").and_then(Node::as_bool),
                tolerations: r.get("tolerations").map(Node::to_json),
                binding_conditions: strings("bindingConditions"),
                binding_failure_conditions: strings("bindingFailureConditions"),
                share_id: str_of(r, "shareID").map(str::to_owned),
                consumed_capacity: r.get("consumedCapacity").and_then(Node::as_map).map(|m| {
                    m.iter()
                        .map(|e| {
                            (
                                e.key.to_string(),
                                e.value
                                    .as_str()
                                    .map_or_else(|| e.value.to_json().to_string(), str::to_owned),
                            )
                        })
                        .collect()
                }),
            }
        })
        .collect();
    ClaimAllocation {
        namespace: o.namespace().unwrap_or("default").to_owned(),
        name: o.name().unwrap_or_default().to_owned(),
        results,
        node_selector: allocation.get("nodeSelector").map(Node::to_json),
        config: allocation
            .get("devices")
            .and_then(|d| d.get("config"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .map(Node::to_json)
            .collect(),
        existing: true,
        reserved_for: o
            .root
            .get("status")
            .and_then(|s| s.get("reservedFor"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(|r| {
                let name = str_of(r, "name")?;
                let what = str_of(r, "resource").unwrap_or("pods");
                let ns = o.namespace().unwrap_or("default");
                Some(if what == "pods" {
                    format!("{ns}/{name}")
                } else {
                    format!("{what} {ns}/{name}")
                })
            })
            .collect(),
    }
}

/// Why a request found no device, step by step (the explanation's funnel).
/// Each count is a subset of the one before, in the order the steps are listed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Funnel {
    pub claim: String,
    pub request: String,
    /// Devices on the node (in usable pools).
    pub devices: usize,
    #[serde(rename = "passClassSelectors")]
    pub pass_class: usize,
    #[serde(rename = "passRequestSelectors")]
    pub pass_request: usize,
    #[serde(rename = "notTainted")]
    pub untainted: usize,
    /// The taints (`key=value:Effect`) no toleration of the request covers.
    #[serde(rename = "untoleratedTaints")]
    pub taints: Vec<String>,
    /// The same taints with where each comes from.
    #[serde(rename = "taintSources")]
    pub taint_sources: Vec<TaintSource>,
    #[serde(rename = "notInUse")]
    pub free: usize,
    /// Claims that hold matching devices.
    #[serde(rename = "heldBy")]
    pub held_by: Vec<String>,
    /// The pods those claims are reserved for (`status.reservedFor`).
    #[serde(rename = "heldByPods")]
    pub held_by_pods: Vec<String>,
    /// Devices whose shared counters still have room for them.
    #[serde(rename = "countersLeft")]
    pub counters_left: usize,
    /// The first shortfall seen: counter set, counter, needed, left.
    #[serde(rename = "counterShortfall")]
    pub shortfall: Option<String>,
    /// The same shortfall as fields.
    #[serde(rename = "counterShortfallDetail")]
    pub shortfall_detail: Option<CounterShortfall>,
    /// Claims holding devices that draw on the short counter sets.
    #[serde(rename = "counterHolders")]
    pub counter_holders: Vec<String>,
    /// The same, device by device: which claim's device draws how much of
    /// which counter of the short set.
    #[serde(rename = "counterHolderDevices")]
    pub counter_holder_devices: Vec<CounterHolder>,
    /// Devices whose compatibility groups agree with the devices already allocated
    /// from the same counter set.
    #[serde(rename = "compatibleGroups")]
    pub compatible: usize,
    #[serde(rename = "groupConflict")]
    pub group_conflict: Option<String>,
    /// Devices with consumable capacity left for the request.
    #[serde(rename = "capacityLeft")]
    pub capacity_left: usize,
    #[serde(rename = "capacityShortfall")]
    pub capacity_shortfall: Option<String>,
    /// Devices that publish every attribute the claim's constraints on this
    /// request name (a device without it can never satisfy the constraint).
    #[serde(rename = "haveConstraintAttributes")]
    pub constrained: usize,
    #[serde(rename = "missingAttribute")]
    pub missing_attribute: Option<String>,
    pub needed: usize,
    /// allocationMode All: `needed` is every matching device.
    #[serde(rename = "allMatching")]
    pub all: bool,
}

/// An allocated device that draws on a counter set another device needs.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CounterHolder {
    pub claim: String,
    /// The device (name in its pool).
    pub device: String,
    #[serde(rename = "counterSet")]
    pub counter_set: String,
    /// Counter name to the amount the device consumes (`8Gi`).
    pub counters: BTreeMap<String, String>,
}

/// A device that needs more of a shared counter than is left.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct CounterShortfall {
    #[serde(rename = "counterSet")]
    pub counter_set: String,
    pub counter: String,
    /// Quantities as Kubernetes writes them (`8Gi`).
    pub needed: String,
    pub left: String,
    /// The device (name in its pool) that needs it.
    pub device: String,
}

/// An untolerated taint and where it comes from: a DeviceTaintRule, or the
/// device's own taints in its ResourceSlice.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct TaintSource {
    pub key: String,
    pub value: String,
    pub effect: String,
    #[serde(rename = "deviceTaintRule")]
    pub device_taint_rule: Option<String>,
    /// `driver/pool/device` of the first device seen with it.
    pub device: String,
}

/// One step of a [`Funnel`]: the devices left after it, and what it found
/// about those it dropped. Every rendering of the funnel reads this table.
#[derive(Clone, Debug, PartialEq)]
pub struct FunnelStep<'f> {
    pub label: &'static str,
    pub count: usize,
    /// Who holds the devices in use, which counter set is short, ...
    pub note: Option<std::borrow::Cow<'f, str>>,
    /// The note is worth showing even when the step dropped nothing (who
    /// holds matching devices explains a later shortfall too).
    pub note_always: bool,
}

impl Funnel {
    /// The untolerated taints in words, each with its origin.
    pub fn taint_text(&self) -> Option<String> {
        let parts: Vec<String> = self
            .taint_sources
            .iter()
            .map(|t| {
                let taint = if t.value.is_empty() {
                    format!("{}:{}", t.key, t.effect)
                } else {
                    format!("{}={}:{}", t.key, t.value, t.effect)
                };
                match &t.device_taint_rule {
                    Some(r) => format!("{taint} from DeviceTaintRule {r}"),
                    None => format!("{taint} on device {} (its ResourceSlice)", t.device),
                }
            })
            .collect();
        (!parts.is_empty()).then(|| format!("untolerated: {}", parts.join("; ")))
    }

    /// The steps, in order.
    pub fn steps(&self) -> [FunnelStep<'_>; 9] {
        use std::borrow::Cow;
        fn step<'f>(label: &'static str, count: usize, note: Option<&'f String>) -> FunnelStep<'f> {
            FunnelStep {
                label,
                count,
                note: note.map(|n| Cow::Borrowed(n.as_str())),
                note_always: false,
            }
        }
        let held_by = FunnelStep {
            note: (!self.held_by.is_empty())
                .then(|| Cow::Owned(format!("held by {}", self.held_by.join(", ")))),
            note_always: true,
            ..step("not in use", self.free, None)
        };
        [
            step("devices", self.devices, None),
            step("pass the class selectors", self.pass_class, None),
            step("pass the request selectors", self.pass_request, None),
            FunnelStep {
                note: self.taint_text().map(Cow::Owned),
                ..step("not tainted, or tolerated", self.untainted, None)
            },
            held_by,
            FunnelStep {
                // The shortfall, and which allocated device draws on the set.
                note: self.shortfall.as_ref().map(|short| {
                    let holders: Vec<String> = self
                        .counter_holder_devices
                        .iter()
                        .take(3)
                        .map(|h| {
                            let drawn: Vec<String> =
                                h.counters.iter().map(|(c, q)| format!("{c} {q}")).collect();
                            format!("{} (device {}: {})", h.claim, h.device, drawn.join(", "))
                        })
                        .collect();
                    match holders.as_slice() {
                        [] => Cow::Borrowed(short.as_str()),
                        _ => Cow::Owned(format!("{short}; drawn by {}", holders.join(", "))),
                    }
                }),
                ..step("with shared counters left", self.counters_left, None)
            },
            step(
                "with compatible groups",
                self.compatible,
                self.group_conflict.as_ref(),
            ),
            step(
                "with capacity left",
                self.capacity_left,
                self.capacity_shortfall.as_ref(),
            ),
            step(
                "with the constraints' attributes",
                self.constrained,
                self.missing_attribute.as_ref(),
            ),
        ]
    }

    /// Whether the request has enough devices on its own.
    pub fn enough(&self) -> bool {
        self.constrained >= self.needed
    }
}

/// A constraint that no choice of devices can satisfy, even though every
/// request it spans has enough devices on its own.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConstraintBlock {
    pub claim: String,
    /// `matchAttribute`, `distinctAttribute`, or `sharedDevices` (requests
    /// that draw on the same devices need more than there are).
    pub kind: &'static str,
    /// The constraint's attribute; empty for `sharedDevices`.
    pub attribute: String,
    pub requests: Vec<String>,
    pub message: String,
    /// `sharedDevices`: how many devices the requests need together, and
    /// how many distinct devices match them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needed: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub available: Option<usize>,
    /// `sharedCounters`: the counter the devices together need more of than
    /// is left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<CounterDemand>,
}

/// The least the devices a group of requests needs draw from one counter,
/// against what the counter set has left.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CounterDemand {
    pub pool: String,
    pub counter_set: String,
    pub counter: String,
    /// Quantities as Kubernetes writes them (`60Gi`).
    pub at_least: String,
    pub left: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Outcome {
    Allocated {
        claims: Vec<ClaimAllocation>,
    },
    Unsatisfiable {
        reasons: Vec<String>,
        funnels: Vec<Funnel>,
        /// Set when every request has enough devices on its own.
        constraints: Vec<ConstraintBlock>,
    },
    Error {
        error: String,
        /// The device a selector failed on (`driver/pool/device`), if any.
        device: Option<String>,
        /// When the search ran out of budget: where the steps went.
        search: Option<SearchCost>,
    },
    /// Not tried: the whole command's search budget ran out first.
    Undecided {
        reason: String,
    },
}

/// Where a search that ran out of budget spent it, as fields (the
/// error's text says the same in words).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchCost {
    /// `steps` (the search budget) or `time` (the time budget).
    pub limit: &'static str,
    /// The step budget, when that is what ran out.
    pub budget: Option<u64>,
    pub steps: u64,
    /// The request (`claim`'s `request` or `request/subrequest`) most steps
    /// went to, and how many.
    pub claim: Option<String>,
    pub request: Option<String>,
    pub request_steps: u64,
    /// The devices of the node the search chose among.
    pub candidates: usize,
    /// The most devices a partial allocation held, and how many were needed.
    pub best_partial: usize,
    pub needed: usize,
}

/// Steps the whole command may spend over all nodes (`on_nodes`): ten
/// nodes' worth of the scheduler's per-node budget. A node started before it
/// runs out finishes.
pub const COMMAND_BUDGET: u64 = 10 * DEFAULT_BUDGET;

thread_local! {
    /// Search steps taken on this thread, read around each node.
    static THREAD_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Everything the allocator reads.
pub struct Input<'a> {
    pub objects: &'a [Object],
    pub gates: &'a FeatureGates,
    /// Claims to allocate together, in pod order (`namespace/name`).
    pub claims: Vec<&'a Object>,
    pub node: &'a str,
}

/// A change to the inventory to try ("would it fit if..."), for the
/// explanation's advice.
#[derive(Clone, Copy, Default)]
struct WhatIf<'a> {
    /// An allocated claim taken as deleted.
    without: Option<&'a Object>,
    /// Every device taint tolerated.
    ignore_taints: bool,
}

/// `allocation.devices.config`, as upstream's Allocate fills it: for each
/// request (the chosen subrequest of a firstAvailable one), its class's
/// configs once per class, later requests of that class added to their
/// `requests`; then each claim config with no `requests`, and each one once
/// per request it names (by request, or by the chosen subrequest's full name).
fn allocation_config<'a>(plan: &ClaimPlan<'a>, results: &[DeviceResult]) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let chosen = |slot: &Slot<'_>| -> Option<String> {
        match slot {
            Slot::Exact(r) => Some(r.name.clone()),
            Slot::First(subs) => {
                let parent = subs.first()?.parent.clone();
                let prefix = format!("{parent}/");
                Some(
                    results
                        .iter()
                        .find(|r| r.request.starts_with(&prefix))
                        .map_or_else(|| subs[0].name.clone(), |r| r.request.clone()),
                )
            }
        }
    };
    let class_of = |slot: &Slot<'a>, name: &str| -> Option<&'a Object> {
        match slot {
            Slot::Exact(r) => Some(r.class),
            Slot::First(subs) => subs.iter().find(|r| r.name == name).map(|r| r.class),
        }
    };
    let mut config: Vec<Value> = Vec::new();
    let mut ranges: HashMap<&str, std::ops::Range<usize>> = HashMap::new();
    for slot in &plan.slots {
        let Some(name) = chosen(slot) else { continue };
        let Some(class) = class_of(slot, &name) else {
            continue;
        };
        let class_name = class.name().unwrap_or_default();
        if let Some(range) = ranges.get(class_name) {
            for c in &mut config[range.clone()] {
                if let Some(list) = c["requests"].as_array_mut() {
                    list.push(json!(name));
                }
            }
            continue;
        }
        let start = config.len();
        for c in class
            .spec()
            .and_then(|s| s.get("config"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let mut entry = json!({"source": "FromClass", "requests": [name]});
            if let Some(opaque) = c.get("opaque") {
                entry["opaque"] = opaque.to_json();
            }
            config.push(entry);
        }
        ranges.insert(class_name, start..config.len());
    }
    let requests: Vec<&Node> = plan
        .obj
        .spec()
        .and_then(|s| s.get("devices"))
        .and_then(|d| d.get("requests"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .collect();
    for c in plan
        .obj
        .spec()
        .and_then(|s| s.get("devices"))
        .and_then(|d| d.get("config"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let named: Vec<&str> = c
            .get("requests")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect();
        let mut entry = json!({"source": "FromClaim"});
        if !named.is_empty() {
            entry["requests"] = json!(named);
        }
        if let Some(opaque) = c.get("opaque") {
            entry["opaque"] = opaque.to_json();
        }
        if named.is_empty() {
            config.push(entry);
            continue;
        }
        for (r, slot) in requests.iter().zip(&plan.slots) {
            let request = str_of(r, "name").unwrap_or_default();
            let hit = named.contains(&request)
                || (matches!(slot, Slot::First(_))
                    && chosen(slot).is_some_and(|sub| named.contains(&sub.as_str())));
            if hit {
                config.push(entry.clone());
            }
        }
    }
    config
}

/// The allocation result's node selector, as upstream's `createNodeSelector`:
/// a device bound to a node by name restricts the allocation to that node;
/// otherwise the one-term selectors of the devices' slices (or of the devices,
/// with per-device node selection) are merged into one term, each
/// requirement once; devices available everywhere add nothing.
#[derive(Default)]
struct ResultNodeSelector {
    local: bool,
    fields: Vec<serde_json::Value>,
    expressions: Vec<serde_json::Value>,
}

impl ResultNodeSelector {
    fn add(&mut self, d: &PoolDevice<'_>) -> Result<(), Fatal> {
        if d.node_name.is_some() || d.binds_to_node {
            self.local = true;
        }
        if self.local {
            return Ok(());
        }
        let Some(selector) = d.node_selector.map(Node::to_json) else {
            return Ok(());
        };
        let terms = selector["nodeSelectorTerms"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        match terms.as_slice() {
            [] => {}
            [term] => {
                add_requirements(&term["matchFields"], &mut self.fields);
                add_requirements(&term["matchExpressions"], &mut self.expressions);
            }
            more => {
                return Err(Fatal(format!(
                    "unsupported ResourceSlice.NodeSelector with {} terms",
                    more.len()
                )))
            }
        }
        Ok(())
    }

    fn finish(self, node: &str) -> Option<serde_json::Value> {
        if self.local {
            return Some(
                serde_json::json!({"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}]}),
            );
        }
        if self.fields.is_empty() && self.expressions.is_empty() {
            return None;
        }
        let mut term = serde_json::Map::new();
        if !self.expressions.is_empty() {
            term.insert("matchExpressions".into(), self.expressions.into());
        }
        if !self.fields.is_empty() {
            term.insert("matchFields".into(), self.fields.into());
        }
        Some(serde_json::json!({ "nodeSelectorTerms": [term] }))
    }
}

/// Upstream's `addNewNodeSelectorRequirements`: a requirement is added
/// unless one with the same key, operator and set of values is there.
fn add_requirements(from: &serde_json::Value, to: &mut Vec<serde_json::Value>) {
    let values = |r: &serde_json::Value| -> std::collections::BTreeSet<String> {
        r["values"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    for r in from.as_array().into_iter().flatten() {
        let dup = to.iter().any(|e| {
            e["key"] == r["key"] && e["operator"] == r["operator"] && values(e) == values(r)
        });
        if !dup {
            to.push(r.clone());
        }
    }
}

/// The compile errors of the claims' class and request selectors, in
/// upstream's words ("class gpu: selector #0: CEL compile error: ...").
fn compile_errors(plans: &[Arc<ClaimPlan<'_>>]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for plan in plans {
        for slot in &plan.slots {
            let reqs: &[Req<'_>] = match slot {
                Slot::Exact(r) => std::slice::from_ref(r),
                Slot::First(subs) => subs,
            };
            for r in reqs {
                let class = format!("class {}", r.class.name().unwrap_or_default());
                let claim = format!("claim {}", claim_ref(plan.obj));
                for (owner, programs) in [(&class, &r.class_programs), (&claim, &r.programs)] {
                    for (i, p) in programs.iter().enumerate() {
                        if let Err(m) = p {
                            let line = format!("{owner}: selector #{i}: CEL compile error: {m}");
                            if !out.contains(&line) {
                                out.push(line);
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// A compiled CEL selector, or the message of its compile error.
type Selector = Result<Program, String>;

/// A fatal error: the scheduling attempt fails for the pod.
#[derive(Debug)]
struct Fatal(String);

/// Separates a selector error's message from the device it failed on, until
/// the error leaves the search (`error_outcome`): the message stays
/// upstream's, the device is a field of its own.
const DEVICE_MARK: char = '\u{1f}';

fn error_outcome(e: String) -> Outcome {
    match e.split_once(DEVICE_MARK) {
        Some((error, device)) => Outcome::Error {
            error: error.to_owned(),
            device: Some(device.to_owned()),
            search: None,
        },
        None => Outcome::Error {
            error: e,
            device: None,
            search: None,
        },
    }
}

#[derive(Clone)]
struct Req<'a> {
    /// Unique per request (and subrequest) of the cycle, for caches.
    key: usize,
    claim: usize,
    /// `gpu` or `gpu/sub` as reported.
    name: String,
    /// The name constraints refer to: the parent request.
    parent: String,
    class: &'a Object,
    class_programs: Arc<Vec<Selector>>,
    programs: Arc<Vec<Selector>>,
    all: bool,
    count: usize,
    admin: bool,
    tolerations: Vec<Toleration>,
    tolerations_json: Option<serde_json::Value>,
    capacity: Vec<(String, Quantity)>,
}

impl Req<'_> {
    /// The name upstream's messages give the request: a subrequest's own.
    fn shown(&self) -> &str {
        self.name.rsplit('/').next().unwrap_or(&self.name)
    }
}

#[derive(Clone, Debug)]
struct Toleration {
    key: String,
    operator: String,
    value: String,
    effect: String,
}

#[derive(Clone)]
enum Slot<'a> {
    Exact(Req<'a>),
    First(Vec<Req<'a>>),
}

#[derive(Clone)]
struct Constraint {
    requests: Vec<String>,
    attribute: String,
    distinct: bool,
}

#[derive(Clone)]
struct ClaimPlan<'a> {
    obj: &'a Object,
    slots: Vec<Slot<'a>>,
    constraints: Vec<Constraint>,
}

#[derive(Clone)]
struct Pick {
    claim: usize,
    request: String,
    dev: DevRef,
    admin: bool,
    tolerations: Option<serde_json::Value>,
    share: Option<BTreeMap<String, Quantity>>,
}

fn qty(n: &Node) -> Option<Quantity> {
    n.scalar_text().and_then(|t| Quantity::parse(&t).ok())
}

fn str_of<'n>(n: &'n Node, k: &str) -> Option<&'n str> {
    n.get(k).and_then(Node::as_str)
}

fn claim_ref(o: &Object) -> String {
    format!(
        "{}/{}",
        o.namespace().unwrap_or("default"),
        o.name().unwrap_or_default()
    )
}

struct Search<'a> {
    gates: &'a FeatureGates,
    pools: Vec<Pool<'a>>,
    /// Shared with the allocator (a plan is copied only when a node's run
    /// renumbers its claims).
    plans: Vec<Arc<ClaimPlan<'a>>>,
    /// Devices exclusively allocated before this cycle.
    allocated: HashSet<DevRef>,
    /// Holders of allocated devices, for explanations.
    holders: HashMap<DevRef, String>,
    /// The pods each holder claim is reserved for.
    holder_pods: HashMap<String, Vec<String>>,
    /// Capacity consumed on shared devices before this cycle.
    shared_used: HashMap<DevRef, BTreeMap<String, Quantity>>,
    picks: Vec<Pick>,
    /// Devices picked in this cycle, with the claims they were picked for
    /// (upstream's `allocatingDevices`; admin-access picks included).
    in_use_cycle: HashMap<DevRef, Vec<usize>>,
    /// The devices of each allocationMode All request (by `Req::key`),
    /// found by the up-front validation.
    all_lists: HashMap<usize, Vec<DevRef>>,
    variant: Variant,
    counters: HashMap<usize, HashMap<&'a str, HashMap<&'a str, Quantity>>>,
    capacity_cycle: HashMap<DevRef, BTreeMap<String, Quantity>>,
    /// Compatibility-group state per (pool, counter set): None = only no-group devices.
    groups: HashMap<(usize, &'a str), Option<Vec<&'a str>>>,
    selectable: HashMap<(DevRef, usize), bool>,
    steps: u64,
    budget: u64,
    what_if: WhatIf<'a>,
    /// The time budget: a clock (injected: the core reads none itself) and
    /// the latest time the search may run to.
    deadline: Option<(fn() -> std::time::Instant, std::time::Instant)>,
    /// Steps spent per request (by `Req::key`), to say which made the search
    /// expensive when a budget runs out.
    steps_by_request: Vec<u64>,
    /// The most devices a partial allocation held.
    deepest: usize,
    /// Set when a budget ran out, with where it went.
    exhausted: Option<SearchCost>,
    /// How many devices of the node the search chose among.
    candidates: usize,
}

impl<'a> Search<'a> {
    fn dev(&self, r: DevRef) -> &PoolDevice<'a> {
        &self.pools[r.pool].devices[r.index]
    }

    fn device_id(&self, r: DevRef) -> String {
        let p = &self.pools[r.pool];
        format!("{}/{}/{}", p.driver, p.name, p.devices[r.index].name)
    }

    /// Class then request selectors; a CEL error is fatal.
    fn selectable(&mut self, r: DevRef, req: &Req<'a>) -> Result<bool, Fatal> {
        let key = (r, req.key);
        if let Some(v) = self.selectable.get(&key) {
            return Ok(*v);
        }
        let d = self.dev(r);
        let mut ok = true;
        let binding_on = self.gates.enabled(Gate::DRADeviceBindingConditions)
            && self.gates.enabled(Gate::DRAResourceClaimDeviceStatus);
        if !d.binding_conditions.is_empty() && !binding_on {
            ok = false;
        }
        let on_device = |Fatal(e): Fatal| Fatal(format!("{e}{DEVICE_MARK}{}", self.device_id(r)));
        if ok {
            ok = all_match(&req.class_programs, d.cel(), || {
                format!("class {}", req.class.name().unwrap_or_default())
            })
            .map_err(on_device)?;
        }
        if ok {
            let claim = self.plans[req.claim].obj;
            ok = all_match(&req.programs, d.cel(), || {
                format!("claim {}", claim_ref(claim))
            })
            .map_err(on_device)?;
        }
        self.selectable.insert(key, ok);
        Ok(ok)
    }

    fn tolerated(&self, r: DevRef, req: &Req<'a>) -> bool {
        if !self.gates.enabled(Gate::DRADeviceTaints) || self.what_if.ignore_taints {
            return true;
        }
        self.dev(r).taints.iter().all(|(k, v, effect)| {
            if !matches!(effect.as_str(), "NoSchedule" | "NoExecute") {
                return true;
            }
            req.tolerations.iter().any(|t| {
                (t.effect.is_empty() || t.effect == *effect)
                    && match t.operator.as_str() {
                        "Exists" => t.key.is_empty() || t.key == *k,
                        _ => t.key == *k && t.value == *v,
                    }
            })
        })
    }

    /// The consumed amounts for a request on a device (§11), or None when the
    /// device cannot serve the request.
    fn consumption(&self, r: DevRef, req: &Req<'a>) -> Option<BTreeMap<String, Quantity>> {
        let d = self.dev(r);
        let driver = self.pools[r.pool].driver;
        // A name without a domain means the driver's (resolveCapacityName).
        let same = |requested: &str, published: &str| {
            requested == published
                || requested
                    .strip_prefix(driver)
                    .and_then(|s| s.strip_prefix('/'))
                    == Some(published)
                || published
                    .strip_prefix(driver)
                    .and_then(|s| s.strip_prefix('/'))
                    == Some(requested)
        };
        let mut out = BTreeMap::new();
        for (name, _) in &req.capacity {
            if !d.capacity().iter().any(|c| same(name, &c.name)) {
                return None;
            }
        }
        for c in d.capacity() {
            let requested = req
                .capacity
                .iter()
                .find(|(n, _)| same(n, &c.name))
                .map(|(_, q)| *q);
            let amount = match requested {
                Some(q) => c.round_up(q),
                None => c.default.unwrap_or(c.value),
            };
            if !c.allows(amount) {
                return None;
            }
            out.insert(c.name.clone(), amount);
        }
        Some(out)
    }

    fn capacity_fits(&self, r: DevRef, want: &BTreeMap<String, Quantity>) -> bool {
        let d = self.dev(r);
        for c in d.capacity() {
            let mut used = want.get(&c.name).copied().unwrap_or_else(Quantity::zero);
            for src in [self.shared_used.get(&r), self.capacity_cycle.get(&r)]
                .into_iter()
                .flatten()
            {
                if let Some(q) = src.get(&c.name) {
                    used = used.checked_add(q).unwrap_or(used);
                }
            }
            if used > c.value {
                return false;
            }
        }
        true
    }

    /// Counters consumed in this cycle (negative), per pool, set and counter.
    fn used(&self, pool: usize, set: &str, counter: &str) -> Quantity {
        self.counters
            .get(&pool)
            .and_then(|m| m.get(set))
            .and_then(|m| m.get(counter))
            .copied()
            .unwrap_or_else(Quantity::zero)
    }

    /// Charges the device's counters when they all have room; the device is
    /// the undo token. Checks before charging, so a shortfall changes nothing.
    fn counters_fit(&mut self, r: DevRef) -> Option<CounterUndo> {
        let pool = &self.pools[r.pool];
        let d = &pool.devices[r.index];
        let short = d.consumes().iter().any(|(set, counters, _)| {
            counters.iter().any(|(counter, q)| {
                let used = self.used(r.pool, set, counter);
                let after = used.checked_sub(q).unwrap_or(used);
                pool.available(set, counter)
                    .checked_add(&after)
                    .is_none_or(|left| left.is_negative())
            })
        });
        if short {
            return None;
        }
        for (set, counters, _) in d.consumes() {
            let m = self
                .counters
                .entry(r.pool)
                .or_default()
                .entry(*set)
                .or_default();
            for (counter, q) in counters {
                match m.get_mut(counter) {
                    Some(e) => *e = e.checked_sub(q).unwrap_or(*e),
                    None => {
                        let zero = Quantity::zero();
                        m.insert(*counter, zero.checked_sub(q).unwrap_or(zero));
                    }
                }
            }
        }
        Some(r)
    }

    fn undo_counters(&mut self, r: &CounterUndo) {
        let d = &self.pools[r.pool].devices[r.index];
        for (set, counters, _) in d.consumes() {
            let Some(m) = self.counters.get_mut(&r.pool).and_then(|m| m.get_mut(set)) else {
                continue;
            };
            for (counter, q) in counters {
                if let Some(e) = m.get_mut(counter) {
                    *e = e.checked_add(q).unwrap_or(*e);
                }
            }
        }
    }

    /// Compatibility groups (§10): returns the previous states to restore.
    fn groups_fit(&mut self, r: DevRef) -> Option<GroupUndo<'a>> {
        let consumes = self.pools[r.pool].devices[r.index].consumes();
        // Gate off: a device with groups is never allocated, one without
        // has nothing to track.
        if !self.gates.enabled(Gate::DRADeviceCompatibilityGroups) {
            return match consumes.iter().any(|(_, _, g)| g.is_some()) {
                true => None,
                false => Some(Vec::new()),
            };
        }
        let mut changes = Vec::new();
        for (set, _, groups) in consumes {
            let key = (r.pool, *set);
            let prev = self.groups.get(&key).cloned();
            let next = match (&prev, groups) {
                (None, g) => g.clone(),
                (Some(None), None) => None,
                (Some(None), Some(_)) | (Some(Some(_)), None) => return None,
                (Some(Some(run)), Some(g)) => {
                    let inter: Vec<&str> = run.iter().filter(|x| g.contains(x)).copied().collect();
                    if inter.is_empty() {
                        return None;
                    }
                    Some(inter)
                }
            };
            changes.push((key, prev));
            self.groups.insert(key, next);
        }
        Some(changes)
    }

    fn undo_groups(&mut self, changes: GroupUndo<'a>) {
        for (key, prev) in changes.into_iter().rev() {
            match prev {
                Some(p) => {
                    self.groups.insert(key, p);
                }
                None => {
                    self.groups.remove(&key);
                }
            }
        }
    }

    fn attribute(&self, r: DevRef, name: &str) -> Option<crate::cel::Value> {
        let d = self.dev(r);
        let (domain, id) = name.split_once('/')?;
        match &d.cel().attributes {
            crate::cel::Value::Domains(m) => match m.get_str(domain) {
                Some(crate::cel::Value::Map(inner)) => inner.get_str(id).cloned(),
                _ => None,
            },
            _ => None,
        }
    }

    fn constraints_ok(&self, claim: usize, req: &Req<'a>, r: DevRef) -> bool {
        for c in &self.plans[claim].constraints {
            let applies = c.requests.is_empty()
                || c.requests
                    .iter()
                    .any(|x| *x == req.parent || *x == req.name);
            if !applies {
                continue;
            }
            let Some(v) = self.attribute(r, &c.attribute) else {
                return false;
            };
            // With DRAListTypeAttributes the experimental allocator compares
            // attributes as sets (a scalar is a set of one): matchAttribute
            // keeps the intersection of all devices' sets non-empty,
            // distinctAttribute keeps them pairwise disjoint
            // (experimental/constraint.go, attributeAsSet).
            let sets = self.gates.enabled(Gate::DRAListTypeAttributes);
            let mut common: Option<Vec<crate::cel::Value>> = sets.then(|| as_set(&v));
            for p in self.picks.iter().filter(|p| p.claim == claim) {
                let plan_req = &p.request;
                let parent = plan_req.split('/').next().unwrap_or(plan_req);
                let other_applies = c.requests.is_empty()
                    || c.requests.iter().any(|x| x == parent || x == plan_req);
                if !other_applies {
                    continue;
                }
                let Some(w) = self.attribute(p.dev, &c.attribute) else {
                    return false;
                };
                if let Some(common) = common.as_mut() {
                    let other = as_set(&w);
                    if c.distinct {
                        if intersect(&as_set(&v), &other).is_some() {
                            return false;
                        }
                    } else {
                        match intersect(common, &other) {
                            Some(both) => *common = both,
                            None => return false,
                        }
                    }
                    continue;
                }
                let same = crate::cel::value::equals(&v, &w) == Some(true);
                if c.distinct == same {
                    return false;
                }
            }
        }
        true
    }

    fn claim_results(&self, claim: usize) -> usize {
        self.picks.iter().filter(|p| p.claim == claim).count()
    }

    /// Whether the device is in use: allocated before this cycle, or picked
    /// in it (for any claim; admin-access picks count too), as upstream's
    /// `deviceInUse`.
    fn in_use(&self, r: DevRef) -> bool {
        self.allocated.contains(&r) || self.in_use_cycle.get(&r).is_some_and(|c| !c.is_empty())
    }

    /// Whether the device was picked in this cycle for the claim
    /// (`allocatingDeviceForClaim`).
    fn picked_for_claim(&self, r: DevRef, claim: usize) -> bool {
        self.in_use_cycle
            .get(&r)
            .is_some_and(|c| c.contains(&claim))
    }

    /// Upstream's `isSelectable`: the binding-conditions gate, the class's
    /// and the request's selectors (a CEL error is fatal), and only then the
    /// device's own node selection.
    fn is_selectable(&mut self, r: DevRef, req: &Req<'a>) -> Result<bool, Fatal> {
        if !self.selectable(r, req)? {
            return Ok(false);
        }
        Ok(self.pools[r.pool].device_on_node(r.index))
    }

    /// Upstream's `CmpRequestOverCapacity` (DRAConsumableCapacity on): what
    /// the request consumes on the device, when what is left can serve it.
    /// An exclusive device asked for no amount serves its whole capacity:
    /// nothing to compute (this runs for every device tried).
    fn capacity_left(&self, r: DevRef, req: &Req<'a>) -> Option<BTreeMap<String, Quantity>> {
        if !self.dev(r).allow_multiple && req.capacity.is_empty() {
            return Some(BTreeMap::new());
        }
        self.consumption(r, req)
            .filter(|want| self.capacity_fits(r, want))
    }

    /// The checks of upstream's `allocateOne` loop before `allocateDevice`:
    /// in use, selectable, capacity.
    fn candidate(&mut self, r: DevRef, req: &Req<'a>) -> Result<bool, Fatal> {
        // The pool passes the scheduler's validation (checked on first touch).
        if !self.pools[r.pool].usable() {
            return Ok(false);
        }
        if req.admin && self.picked_for_claim(r, req.claim) {
            return Ok(false);
        }
        if !req.admin && self.in_use(r) {
            return Ok(false);
        }
        if !self.is_selectable(r, req)? {
            return Ok(false);
        }
        if self.gates.enabled(Gate::DRAConsumableCapacity) && self.capacity_left(r, req).is_none() {
            return Ok(false);
        }
        Ok(true)
    }

    /// Upstream's `allocateDevice`: availability, the partitionable-devices
    /// gate, counters, compatibility groups, taints, then constraints (with
    /// `must`, as for allocationMode All, a failed constraint is an error).
    /// On success the device is recorded and an undo token returned.
    fn allocate_device(
        &mut self,
        r: DevRef,
        req: &Req<'a>,
        must: bool,
    ) -> Result<Option<Token<'a>>, Fatal> {
        let shared = self.dev(r).allow_multiple && self.gates.enabled(Gate::DRAConsumableCapacity);
        if !shared && req.admin && self.picked_for_claim(r, req.claim) {
            return Ok(None);
        }
        if !req.admin && self.in_use(r) {
            return Ok(None);
        }
        if self.dev(r).consumes_counters() && !self.gates.enabled(Gate::DRAPartitionableDevices) {
            return Ok(None);
        }
        // A shared device already in use was charged on first use.
        let already_charged =
            shared && (self.shared_used.contains_key(&r) || self.capacity_cycle.contains_key(&r));
        let counters = if already_charged || !self.dev(r).consumes_counters() {
            None
        } else {
            match self.counters_fit(r) {
                Some(c) => Some(c),
                None => return Ok(None),
            }
        };
        let groups = match self.groups_fit(r) {
            Some(g) => g,
            None => {
                if let Some(c) = &counters {
                    self.undo_counters(c);
                }
                return Ok(None);
            }
        };
        if !self.tolerated(r, req) {
            self.release_charges((counters, groups));
            return Ok(None);
        }
        if !self.constraints_ok(req.claim, req, r) {
            self.release_charges((counters, groups));
            if must {
                let claim = claim_ref(self.plans[req.claim].obj);
                return Err(Fatal(format!(
                    "claim {claim}, request {}: cannot add device {} because a claim constraint would not be satisfied",
                    req.shown(),
                    self.device_id(r)
                )));
            }
            return Ok(None);
        }
        let mut share = None;
        if self.gates.enabled(Gate::DRAConsumableCapacity) {
            let Some(want) = self.capacity_left(r, req) else {
                self.release_charges((counters, groups));
                return Ok(None);
            };
            if shared {
                share = Some(want);
            }
        }
        if let Some(s) = &share {
            let e = self.capacity_cycle.entry(r).or_default();
            for (k, q) in s {
                let cur = e.get(k).copied().unwrap_or_else(Quantity::zero);
                e.insert(k.clone(), cur.checked_add(q).unwrap_or(cur));
            }
        } else {
            self.in_use_cycle.entry(r).or_default().push(req.claim);
        }
        self.picks.push(Pick {
            claim: req.claim,
            request: req.name.clone(),
            dev: r,
            admin: req.admin,
            tolerations: req.tolerations_json.clone(),
            share,
        });
        Ok(Some((counters, groups)))
    }

    fn release(&mut self, token: Token<'a>) {
        let Some(p) = self.picks.pop() else { return };
        if let Some(s) = &p.share {
            if let Some(e) = self.capacity_cycle.get_mut(&p.dev) {
                for (k, q) in s {
                    if let Some(cur) = e.get_mut(k) {
                        *cur = cur.checked_sub(q).unwrap_or(*cur);
                    }
                }
                let earlier_share = self
                    .picks
                    .iter()
                    .any(|o| o.dev == p.dev && o.share.is_some());
                if !earlier_share {
                    self.capacity_cycle.remove(&p.dev);
                }
            }
        } else if let Some(claims) = self.in_use_cycle.get_mut(&p.dev) {
            if let Some(i) = claims.iter().rposition(|c| *c == p.claim) {
                claims.remove(i);
            }
            if claims.is_empty() {
                self.in_use_cycle.remove(&p.dev);
            }
        }
        self.release_charges(token);
    }

    /// Gives back the counters and compatibility-group state a device took.
    fn release_charges(&mut self, (counters, groups): Token<'a>) {
        if let Some(c) = counters {
            self.undo_counters(&c);
        }
        self.undo_groups(groups);
    }

    /// The devices the search walks, in pool, slice and device order: every
    /// device of the slices that target the node in pools it may allocate
    /// from (a device's own node selection is checked after its selectors).
    fn search_candidates(&self) -> Vec<DevRef> {
        let mut out = Vec::new();
        for (pi, p) in self.pools.iter().enumerate() {
            if !p.usable_eager() {
                continue;
            }
            out.extend((0..p.devices.len()).map(|i| DevRef { pool: pi, index: i }));
        }
        out
    }

    /// The on-node devices of usable pools, for the explanation's funnel.
    fn candidates(&self) -> Vec<DevRef> {
        let mut out = Vec::new();
        for (pi, p) in self.pools.iter().enumerate() {
            if !p.usable_eager() {
                continue;
            }
            for i in 0..p.devices.len() {
                if p.devices[i].on_node {
                    out.push(DevRef { pool: pi, index: i });
                }
            }
        }
        out
    }

    fn step(&mut self) -> Result<(), Fatal> {
        self.steps += 1;
        THREAD_STEPS.with(|c| c.set(c.get() + 1));
        let out_of_time =
            self.steps.is_multiple_of(1024) && self.deadline.is_some_and(|(now, end)| now() >= end);
        if self.steps > self.budget || out_of_time {
            let cost = self.cost(out_of_time);
            let msg = cost.message();
            self.exhausted = Some(cost);
            return Err(Fatal(msg));
        }
        Ok(())
    }

    /// Where the steps went: the request that took most of them, and how
    /// far the search got.
    fn cost(&self, out_of_time: bool) -> SearchCost {
        let costly = self
            .steps_by_request
            .iter()
            .enumerate()
            .max_by_key(|(_, n)| **n)
            .filter(|(_, n)| **n > 0)
            .and_then(|(key, n)| {
                let req = all_requests(self).into_iter().find(|r| r.key == key)?;
                Some((req.name.clone(), claim_ref(self.plans[req.claim].obj), *n))
            });
        let needed: usize = self
            .plans
            .iter()
            .flat_map(|p| &p.slots)
            // allocationMode All: every device its validation found.
            .map(|s| match s {
                Slot::Exact(r) => self.num_devices(r),
                Slot::First(v) => v.iter().map(|r| self.num_devices(r)).min().unwrap_or(0),
            })
            .sum();
        SearchCost {
            limit: if out_of_time { "time" } else { "steps" },
            budget: (!out_of_time).then_some(self.budget),
            steps: self.steps,
            claim: costly.as_ref().map(|c| c.1.clone()),
            request: costly.as_ref().map(|c| c.0.clone()),
            request_steps: costly.as_ref().map_or(0, |c| c.2),
            candidates: self.candidates,
            best_partial: self.deepest,
            needed,
        }
    }

    /// Counts a step for the request being searched.
    fn charge(&mut self, req: &Req<'_>) {
        if self.steps_by_request.len() <= req.key {
            self.steps_by_request.resize(req.key + 1, 0);
        }
        self.steps_by_request[req.key] += 1;
        self.deepest = self.deepest.max(self.picks.len());
    }

    /// How many devices the request takes: its count, or for allocationMode
    /// All the devices found when the request was validated.
    fn num_devices(&self, req: &Req<'a>) -> usize {
        match req.all {
            true => self.all_lists.get(&req.key).map_or(0, Vec::len),
            false => req.count,
        }
    }

    /// Upstream's `allocateOne`: claim `at.claim`, slot `at.slot` (for a
    /// firstAvailable slot, subrequest `at.sub` once chosen), device
    /// `at.device` of it, then the rest. Within one request the next device
    /// is looked for after the previous one (`start`): combinations, never
    /// permutations.
    fn allocate_one(&mut self, at: At, start: usize, cands: &[DevRef]) -> Result<bool, Halt> {
        self.step()?;
        if at.claim == self.plans.len() {
            return Ok(true);
        }
        let plan = Arc::clone(&self.plans[at.claim]);
        if at.slot == plan.slots.len() {
            return match self.allocate_one(At::claim(at.claim + 1), 0, cands) {
                // Another choice in an earlier claim may make room.
                Err(Halt::MaxSize) => Ok(false),
                other => other,
            };
        }
        let req = match (&plan.slots[at.slot], at.sub) {
            (Slot::Exact(r), _) => r,
            (Slot::First(subs), Some(i)) => &subs[i],
            (Slot::First(subs), None) => {
                let mut all_too_many = true;
                for i in 0..subs.len() {
                    match self.allocate_one(At { sub: Some(i), ..at }, 0, cands) {
                        Err(Halt::MaxSize) => continue,
                        Err(e) => return Err(e),
                        Ok(true) => return Ok(true),
                        Ok(false) => all_too_many = false,
                    }
                }
                return match all_too_many {
                    true => Err(Halt::MaxSize),
                    false => Ok(false),
                };
            }
        };
        let needed = self.num_devices(req);
        if req.all && needed == 0 {
            return Ok(false);
        }
        if at.device >= needed {
            return self.allocate_one(At::slot(at.claim, at.slot + 1), 0, cands);
        }
        if self.claim_results(at.claim) + needed - at.device > MAX_RESULTS {
            return Err(Halt::MaxSize);
        }
        self.charge(req);
        let next = At {
            device: at.device + 1,
            ..at
        };
        if req.all {
            let r = self.all_lists[&req.key][at.device];
            let Some(token) = self.allocate_device(r, req, true)? else {
                return Ok(false);
            };
            let done = self.allocate_one(next, 0, cands);
            if !matches!(done, Ok(true)) {
                self.release(token);
            }
            return done;
        }
        // Devices identical but for their name give the same answer: once
        // one has failed in this slot, its twins are skipped (not for shared
        // devices, whose remaining capacity differs).
        let mut failed: Vec<(usize, u64)> = Vec::new();
        for (i, &r) in cands.iter().enumerate().skip(start) {
            let twin = !failed.is_empty()
                && !self.dev(r).allow_multiple
                && failed.contains(&(r.pool, self.dev(r).signature()));
            if twin || !self.candidate(r, req)? {
                continue;
            }
            let Some(token) = self.allocate_device(r, req, false)? else {
                continue;
            };
            let done = self.allocate_one(next, i + 1, cands);
            if let Ok(true) = done {
                return Ok(true);
            }
            self.release(token);
            done?;
            if !self.dev(r).allow_multiple {
                failed.push((r.pool, self.dev(r).signature()));
            }
        }
        Ok(false)
    }

    /// Upstream's up-front validation (`Allocate` before the search): every
    /// request and subrequest of every claim, in order. An All request over
    /// an incomplete or invalid pool is an error; its devices are selected
    /// now (a CEL error aborts); each claim's minimum device count is held
    /// to the result limit; the stable allocator knows no distinctAttribute.
    fn validate(&mut self) -> Result<(), Fatal> {
        for c in 0..self.plans.len() {
            let plan = Arc::clone(&self.plans[c]);
            let mut min_devices = 0usize;
            for slot in &plan.slots {
                match slot {
                    Slot::Exact(r) => {
                        min_devices = min_devices.saturating_add(self.validate_request(r)?)
                    }
                    Slot::First(subs) => {
                        let mut least = usize::MAX;
                        for r in subs {
                            least = least.min(self.validate_request(r)?);
                        }
                        min_devices = min_devices.saturating_add(least);
                    }
                }
            }
            let claim = claim_ref(plan.obj);
            if min_devices > MAX_RESULTS {
                return Err(Fatal(format!("claim {claim}: number of requested devices {min_devices} exceeds the claim limit of {MAX_RESULTS}")));
            }
            if self.variant == Variant::Stable {
                if let Some(i) = plan.constraints.iter().position(|k| k.distinct) {
                    return Err(Fatal(format!(
                        "claim {claim}, constraint #{i}: empty constraint (unsupported constraint type?)"
                    )));
                }
            }
        }
        Ok(())
    }

    fn validate_request(&mut self, req: &Req<'a>) -> Result<usize, Fatal> {
        if !req.all {
            return Ok(req.count);
        }
        let claim = claim_ref(self.plans[req.claim].obj);
        let mut list = Vec::new();
        for pi in 0..self.pools.len() {
            let p = &self.pools[pi];
            let state = if !p.complete() {
                Some("is currently being updated")
            } else if p.invalid().is_some() {
                Some("is currently invalid")
            } else {
                None
            };
            if let Some(state) = state {
                return Err(Fatal(format!(
                    "claim {claim}, request {}: asks for all devices, but resource pool {}/{} {state}",
                    req.shown(),
                    p.driver,
                    p.name
                )));
            }
            for i in 0..p.devices.len() {
                let r = DevRef { pool: pi, index: i };
                if !self.is_selectable(r, req)? {
                    continue;
                }
                if self.gates.enabled(Gate::DRAConsumableCapacity)
                    && self.capacity_left(r, req).is_none()
                {
                    continue;
                }
                list.push(r);
            }
        }
        let n = list.len();
        self.all_lists.insert(req.key, list);
        Ok(n)
    }
}

/// Where the search stands: claim, request slot, chosen subrequest (for a
/// firstAvailable slot) and device of that request.
#[derive(Clone, Copy)]
struct At {
    claim: usize,
    slot: usize,
    sub: Option<usize>,
    device: usize,
}

impl At {
    fn claim(claim: usize) -> At {
        At::slot(claim, 0)
    }
    fn slot(claim: usize, slot: usize) -> At {
        At {
            claim,
            slot,
            sub: None,
            device: 0,
        }
    }
}

/// Why the search stops: a fatal error, or upstream's
/// `errAllocationResultMaxSizeExceeded` (more results than a claim may
/// hold: back up further, try a smaller subrequest).
enum Halt {
    Fatal(Fatal),
    MaxSize,
}

impl SearchCost {
    /// The scheduler's words, then which request the steps went to and how
    /// far the search got.
    fn message(&self) -> String {
        let why = match self.budget {
            None => "the time budget ran out".to_owned(),
            Some(b) => format!("the search budget of {b} steps ran out"),
        };
        let mut msg = format!("timed out trying to allocate devices: {why}");
        if let (Some(req), Some(claim)) = (&self.request, &self.claim) {
            msg.push_str(&format!(
                "; request {req:?} of claim {claim} took {} of the {} steps",
                self.request_steps, self.steps
            ));
        }
        msg.push_str(&format!(
            "; the best partial allocation had {} of {} devices (the node has {} devices)",
            self.best_partial, self.needed, self.candidates
        ));
        msg
    }
}

impl From<Fatal> for Halt {
    fn from(f: Fatal) -> Halt {
        Halt::Fatal(f)
    }
}

/// Which upstream allocator implementation kube-scheduler picks
/// (`structured.NewAllocator`): the first whose supported features cover
/// the enabled ones. See docs/allocator.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Admin access, prioritized list, partitionable devices, device taints.
    Stable,
    /// Also consumable capacity, binding conditions and device status.
    Incubating,
    /// Also list-type attributes.
    Experimental,
}

impl Variant {
    pub fn for_gates(gates: &FeatureGates) -> Variant {
        if gates.enabled(Gate::DRAListTypeAttributes) {
            Variant::Experimental
        } else if gates.enabled(Gate::DRAConsumableCapacity)
            || (gates.enabled(Gate::DRADeviceBindingConditions)
                && gates.enabled(Gate::DRAResourceClaimDeviceStatus))
        {
            Variant::Incubating
        } else {
            Variant::Stable
        }
    }
}

/// Selectors in order: the first false stops; a CEL error is fatal, named
/// after its owner (`class gpu` or `claim ns/name`) and selector index.
/// Whether the device passes every selector; `owner` names them in the
/// error (built only then: this runs for every device tried).
fn all_match(
    programs: &[Selector],
    device: &Arc<crate::cel::Device>,
    owner: impl FnOnce() -> String,
) -> Result<bool, Fatal> {
    for (i, p) in programs.iter().enumerate() {
        let p = match p {
            Ok(p) => p,
            Err(message) => {
                return Err(Fatal(format!(
                    "{}: selector #{i}: CEL compile error: {message}",
                    owner()
                )))
            }
        };
        match p.matches(device) {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(e) => {
                return Err(Fatal(format!(
                    "{}: selector #{i}: CEL runtime error: {}",
                    owner(),
                    e.0
                )))
            }
        }
    }
    Ok(true)
}

/// Each selector compiled, or its compile error's message.
fn compile_all(exprs: &[String], env: &Env) -> Vec<Selector> {
    exprs
        .iter()
        .map(|e| Program::compile(e, env).map_err(|err| err.message))
        .collect()
}

fn selectors_of(n: &Node) -> Vec<String> {
    n.get("selectors")
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s.get("cel")?.get("expression")?.as_str().map(str::to_owned))
        .collect()
}

fn tolerations_of(n: &Node) -> (Vec<Toleration>, Option<serde_json::Value>) {
    let list = n
        .get("tolerations")
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let t = list
        .iter()
        .map(|t| Toleration {
            key: str_of(t, "key").unwrap_or_default().to_owned(),
            operator: str_of(t, "operator")
                .filter(|s| !s.is_empty())
                .unwrap_or("Equal")
                .to_owned(),
            value: str_of(t, "value").unwrap_or_default().to_owned(),
            effect: str_of(t, "effect").unwrap_or_default().to_owned(),
        })
        .collect();
    // The result holds the request's tolerations as stored: defaulted, so
    // an unset operator reads `Equal` (SetDefaults_DeviceToleration).
    let json = (!list.is_empty()).then(|| {
        serde_json::Value::Array(
            list.iter()
                .map(|t| {
                    let mut v = t.to_json();
                    if let Some(m) = v.as_object_mut() {
                        let unset = m
                            .get("operator")
                            .and_then(serde_json::Value::as_str)
                            .is_none_or(str::is_empty);
                        if unset {
                            m.insert("operator".into(), "Equal".into());
                        }
                    }
                    v
                })
                .collect(),
        )
    });
    (t, json)
}

/// `namespace/name` of the pods a claim is reserved for.
fn reserved_pods(claim: &Object) -> Vec<String> {
    let ns = claim.namespace().unwrap_or("default");
    claim
        .root
        .get("status")
        .and_then(|s| s.get("reservedFor"))
        .and_then(Node::as_seq)
        .unwrap_or_default()
        .iter()
        .filter(|r| {
            r.get("resource")
                .and_then(Node::as_str)
                .is_none_or(|x| x == "pods")
        })
        .filter_map(|r| r.get("name").and_then(Node::as_str))
        .map(|n| format!("{ns}/{n}"))
        .collect()
}

/// An attribute as a set of values: a list's items, or the value alone.
fn as_set(v: &crate::cel::Value) -> Vec<crate::cel::Value> {
    match v {
        crate::cel::Value::List(items) => items.to_vec(),
        other => vec![other.clone()],
    }
}

/// The values both sets hold; `None` when they share none.
fn intersect(a: &[crate::cel::Value], b: &[crate::cel::Value]) -> Option<Vec<crate::cel::Value>> {
    let both: Vec<crate::cel::Value> = a
        .iter()
        .filter(|x| {
            b.iter()
                .any(|y| crate::cel::value::equals(x, y) == Some(true))
        })
        .cloned()
        .collect();
    (!both.is_empty()).then_some(both)
}

/// Runs the allocator for the claims on the node.
pub fn allocate(input: &Input<'_>) -> Outcome {
    match run(input) {
        Ok(o) => o,
        Err(Fatal(e)) => error_outcome(e),
    }
}

/// The step budget of the search (the scheduler's filter timeout, in steps).
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// How long a search of one node may go on: a step budget, and optionally a
/// time budget with the clock to read (the core reads no clock itself).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub steps: u64,
    pub timeout: Option<(fn() -> std::time::Instant, std::time::Duration)>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: DEFAULT_BUDGET,
            timeout: None,
        }
    }
}

/// Allocates the same claims on many nodes: plans (compiled selectors) and
/// the pool index are built once.
pub struct Allocator<'a> {
    objects: &'a [Object],
    gates: &'a FeatureGates,
    plans: Result<Vec<Arc<ClaimPlan<'a>>>, String>,
    index: pools::PoolIndex<'a>,
    shared: Shared<'a>,
    limits: Limits,
}

/// What every node's run reads: node labels and claims with an allocation.
/// An allocation result of a claim already allocated in the cluster.
type HeldResult<'a> = (&'a Object, &'a Node);

struct Shared<'a> {
    labels: HashMap<&'a str, &'a Node>,
    /// The results of allocated claims by (driver, pool), in claim order:
    /// built once, so that trying each of many nodes only visits its pools.
    held: HashMap<(&'a str, &'a str), Vec<HeldResult<'a>>>,
}

impl<'a> Shared<'a> {
    fn new(objects: &'a [Object]) -> Self {
        Shared {
            labels: objects
                .iter()
                .filter(|o| o.kind == ObjectKind::Node)
                .filter_map(|o| Some((o.name()?, o.root.get("metadata")?.get("labels")?)))
                .collect(),
            held: {
                let mut held: HashMap<(&str, &str), Vec<HeldResult<'a>>> = HashMap::new();
                for o in objects
                    .iter()
                    .filter(|o| o.kind == ObjectKind::ResourceClaim)
                {
                    let results = o
                        .root
                        .get("status")
                        .and_then(|s| s.get("allocation"))
                        .and_then(|a| a.get("devices"))
                        .and_then(|d| d.get("results"))
                        .and_then(Node::as_seq)
                        .unwrap_or_default();
                    for r in results {
                        if let (Some(driver), Some(pool)) = (str_of(r, "driver"), str_of(r, "pool"))
                        {
                            held.entry((driver, pool)).or_default().push((o, r));
                        }
                    }
                }
                held
            },
        }
    }
}

impl<'a> Allocator<'a> {
    pub fn new(objects: &'a [Object], gates: &'a FeatureGates, claims: &[&'a Object]) -> Self {
        Allocator {
            objects,
            gates,
            plans: plan(objects, gates, claims)
                .map(|p| p.into_iter().map(Arc::new).collect())
                .map_err(|Fatal(e)| e),
            index: pools::PoolIndex::new(objects),
            shared: Shared::new(objects),
            limits: Limits::default(),
        }
    }

    /// The search budget of each node tried (steps, and optionally time).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The outcome on each node, in the order given. Nodes are independent
    /// (each run builds its own view of its pools), so they are tried on
    /// all cores.
    pub fn on_nodes<N: AsRef<str> + Sync>(&self, nodes: &[N]) -> Vec<Outcome> {
        self.on_nodes_within(nodes, COMMAND_BUDGET)
    }

    /// [`on_nodes`](Self::on_nodes) with a search budget for all nodes
    /// together: the nodes left when it runs out are `Undecided`.
    pub fn on_nodes_within<N: AsRef<str> + Sync>(&self, nodes: &[N], budget: u64) -> Vec<Outcome> {
        use rayon::prelude::*;
        use std::sync::atomic::{AtomicU64, Ordering};
        let spent = AtomicU64::new(0);
        nodes
            .par_iter()
            .map(|n| {
                if spent.load(Ordering::Relaxed) >= budget {
                    return Outcome::Undecided {
                        reason: format!(
                            "not tried: the search budget of {budget} steps for all nodes ran out"
                        ),
                    };
                }
                let before = THREAD_STEPS.with(std::cell::Cell::get);
                let o = self.on_node(n.as_ref());
                let used = THREAD_STEPS.with(std::cell::Cell::get) - before;
                spent.fetch_add(used, Ordering::Relaxed);
                o
            })
            .collect()
    }

    /// The outcome on one node.
    pub fn on_node(&self, node: &str) -> Outcome {
        self.on_node_if(node, WhatIf::default())
    }

    /// Whether the claims would fit on the node if `claim` (an allocated
    /// claim of the inventory) were deleted: its devices, counters and
    /// capacity freed.
    pub fn fits_without(&self, node: &str, claim: &Object) -> bool {
        let what_if = WhatIf {
            without: self.objects.iter().find(|o| std::ptr::eq(*o, claim)),
            ignore_taints: false,
        };
        matches!(self.on_node_if(node, what_if), Outcome::Allocated { .. })
    }

    /// Whether the claims would fit on the node if their requests tolerated
    /// every device taint.
    pub fn fits_tolerating_taints(&self, node: &str) -> bool {
        let what_if = WhatIf {
            without: None,
            ignore_taints: true,
        };
        matches!(self.on_node_if(node, what_if), Outcome::Allocated { .. })
    }

    fn on_node_if(&self, node: &str, what_if: WhatIf<'a>) -> Outcome {
        let plans = match &self.plans {
            Ok(p) => p.clone(),
            Err(e) => return error_outcome(e.clone()),
        };
        let _ = self.objects;
        // A claim allocated before is not allocated again: it keeps its
        // devices (which stay in use) and admits only the nodes its
        // allocation's node selector does, as the scheduler's filter checks.
        let labels = self.shared.labels.get(node).copied();
        let mut fixed: Vec<(usize, ClaimAllocation)> = Vec::new();
        let mut todo = Vec::new();
        for (i, p) in plans.into_iter().enumerate() {
            match p.obj.root.get("status").and_then(|s| s.get("allocation")) {
                Some(a) => {
                    if let Some(sel) = a.get("nodeSelector") {
                        if !pools::node_selector_matches(sel, node, labels) {
                            return Outcome::Unsatisfiable {
                                reasons: vec![format!(
                                    "claim {} is already allocated for another node: resourceclaim not available on the node",
                                    claim_ref(p.obj)
                                )],
                                funnels: Vec::new(),
                                constraints: Vec::new(),
                            };
                        }
                    }
                    fixed.push((i, existing_allocation(p.obj, a)));
                }
                None => {
                    // Requests name their claim by position among those allocated now.
                    let mut p = p;
                    let position = todo.len();
                    if position != i {
                        for slot in &mut Arc::make_mut(&mut p).slots {
                            match slot {
                                Slot::Exact(r) => r.claim = position,
                                Slot::First(rs) => rs.iter_mut().for_each(|r| r.claim = position),
                            }
                        }
                    }
                    todo.push(p);
                }
            }
        }
        let outcome = if todo.is_empty() {
            Outcome::Allocated { claims: Vec::new() }
        } else {
            match solve_node(
                &self.shared,
                self.gates,
                todo,
                &self.index,
                node,
                what_if,
                self.limits,
            ) {
                Ok(o) => o,
                Err(Fatal(e)) => error_outcome(e),
            }
        };
        match outcome {
            Outcome::Allocated { mut claims } => {
                for (i, c) in fixed {
                    claims.insert(i.min(claims.len()), c);
                }
                Outcome::Allocated { claims }
            }
            other => other,
        }
    }
}

fn run<'a>(input: &'a Input<'a>) -> Result<Outcome, Fatal> {
    let plans = plan(input.objects, input.gates, &input.claims)?
        .into_iter()
        .map(Arc::new)
        .collect();
    let index = pools::PoolIndex::new(input.objects);
    solve_node(
        &Shared::new(input.objects),
        input.gates,
        plans,
        &index,
        input.node,
        WhatIf::default(),
        Limits::default(),
    )
}

fn plan<'a>(
    objects: &'a [Object],
    gates: &'a FeatureGates,
    claims: &[&'a Object],
) -> Result<Vec<ClaimPlan<'a>>, Fatal> {
    // The scheduler evaluates with every field declared (stored expressions).
    let env = Env::stored();
    let classes: HashMap<&str, &Object> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceClass)
        .filter_map(|o| Some((o.name()?, o)))
        .collect();
    let mut class_programs: HashMap<String, Arc<Vec<Selector>>> = HashMap::new();
    let mut plans = Vec::new();
    let mut next_key = 0usize;
    for (ci, claim) in claims.iter().enumerate() {
        let cref = claim_ref(claim);
        let devices = claim.spec().and_then(|s| s.get("devices"));
        let mut slots = Vec::new();
        for r in devices
            .and_then(|d| d.get("requests"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            let name = str_of(r, "name").unwrap_or_default().to_owned();
            let mut make = |body: &'a Node, shown: String| -> Result<Req<'a>, Fatal> {
                // validateDeviceRequest, in its order; messages name a
                // subrequest by its own name.
                let own = shown.rsplit('/').next().unwrap_or(&shown).to_owned();
                let selectors = body
                    .get("selectors")
                    .and_then(Node::as_seq)
                    .unwrap_or_default();
                if let Some(i) = selectors.iter().position(|s| s.get("cel").is_none()) {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}, selector #{i}: CEL expression empty (unsupported selector type?)"
                    )));
                }
                let admin = body.get("adminAccess").and_then(Node::as_bool);
                if admin.is_some() && !gates.enabled(Gate::DRAAdminAccess) {
                    return Err(Fatal(format!("claim {cref}, request {own}: admin access is requested, but the feature is disabled")));
                }
                let class_name = str_of(body, "deviceClassName").unwrap_or_default();
                // An empty name is not looked up.
                if class_name.is_empty() {
                    return Err(Fatal(format!(
                        "claim {cref}, request {own}: missing device class name (unsupported request type?)"
                    )));
                }
                let class = *classes.get(class_name).ok_or_else(|| {
                    Fatal(format!(
                        "claim {cref}, request {own}: could not retrieve device class {class_name}"
                    ))
                })?;
                // The apiserver defaults a missing mode to ExactCount.
                let all = match str_of(body, "allocationMode") {
                    None | Some("ExactCount") => false,
                    Some("All") => true,
                    Some(other) => {
                        return Err(Fatal(format!(
                            "claim {cref}, request {own}: unsupported count mode {other}"
                        )))
                    }
                };
                // Compile errors surface when a device is first evaluated
                // (upstream compiles through its cache in selectorsMatch).
                let cp = match class_programs.get(class_name) {
                    Some(p) => p.clone(),
                    None => {
                        let sel = class.spec().map(selectors_of).unwrap_or_default();
                        let p = Arc::new(compile_all(&sel, &env));
                        class_programs.insert(class_name.to_owned(), p.clone());
                        p
                    }
                };
                let programs = Arc::new(compile_all(&selectors_of(body), &env));
                let count = body
                    .get("count")
                    .and_then(Node::as_i64)
                    .filter(|c| *c > 0)
                    .unwrap_or(1) as usize;
                let capacity: Vec<(String, Quantity)> = body
                    .get("capacity")
                    .and_then(|c| c.get("requests"))
                    .and_then(Node::as_map)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|e| Some((e.key.to_string(), qty(&e.value)?)))
                    .collect();
                // Upstream checks the field is set, and names a subrequest as such.
                if body.get("capacity").is_some() && !gates.enabled(Gate::DRAConsumableCapacity) {
                    let what = if shown.contains('/') {
                        "subrequest"
                    } else {
                        "request"
                    };
                    return Err(Fatal(format!("claim {cref}, {what} {own}: has capacity requests, but the DRAConsumableCapacity feature is disabled")));
                }
                let (tolerations, tolerations_json) = tolerations_of(body);
                next_key += 1;
                Ok(Req {
                    key: next_key,
                    claim: ci,
                    name: shown,
                    parent: String::new(),
                    class,
                    class_programs: cp,
                    programs,
                    all,
                    count,
                    admin: admin == Some(true),
                    tolerations,
                    tolerations_json,
                    capacity,
                })
            };
            if let Some(ex) = r.get("exactly") {
                let mut req = make(ex, name.clone())?;
                req.parent = name.clone();
                slots.push(Slot::Exact(req));
            } else if let Some(subs) = r.get("firstAvailable").and_then(Node::as_seq) {
                if !gates.enabled(Gate::DRAPrioritizedList) {
                    return Err(Fatal(format!("claim {cref}, request {name}: has subrequests, but the DRAPrioritizedList feature is disabled")));
                }
                let mut list = Vec::new();
                for s in subs {
                    let sub = str_of(s, "name").unwrap_or_default();
                    let mut req = make(s, format!("{name}/{sub}"))?;
                    req.parent = name.clone();
                    list.push(req);
                }
                slots.push(Slot::First(list));
            }
        }
        let constraint_list = devices
            .and_then(|d| d.get("constraints"))
            .and_then(Node::as_seq)
            .unwrap_or_default();
        if let Some(i) = constraint_list
            .iter()
            .position(|c| c.get("matchAttribute").is_none() && c.get("distinctAttribute").is_none())
        {
            return Err(Fatal(format!(
                "claim {cref}, constraint #{i}: empty constraint (unsupported constraint type?)"
            )));
        }
        let constraints = constraint_list
            .iter()
            .filter_map(|c| {
                let requests = c
                    .get("requests")
                    .and_then(Node::as_seq)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|r| r.as_str().map(str::to_owned))
                    .collect();
                if let Some(a) = str_of(c, "matchAttribute") {
                    Some(Constraint {
                        requests,
                        attribute: a.to_owned(),
                        distinct: false,
                    })
                } else {
                    str_of(c, "distinctAttribute").map(|a| Constraint {
                        requests,
                        attribute: a.to_owned(),
                        distinct: true,
                    })
                }
            })
            .collect();
        plans.push(ClaimPlan {
            obj: claim,
            slots,
            constraints,
        });
    }

    Ok(plans)
}

fn solve_node<'a>(
    shared: &Shared<'a>,
    gates: &'a FeatureGates,
    plans: Vec<Arc<ClaimPlan<'a>>>,
    index: &pools::PoolIndex<'a>,
    node: &str,
    what_if: WhatIf<'a>,
    limits: Limits,
) -> Result<Outcome, Fatal> {
    let node_labels = shared.labels.get(node).copied();
    let pools = pools::gather(index, node, node_labels, gates)
        .map_err(|e| Fatal(format!("gather pool information: {e}")))?;

    // The allocated state.
    let mut allocated = HashSet::new();
    let mut holders = HashMap::new();
    let mut holder_pods: HashMap<String, Vec<String>> = HashMap::new();
    let mut shared_used: HashMap<DevRef, BTreeMap<String, Quantity>> = HashMap::new();
    let allocating: Vec<*const Object> = plans.iter().map(|p| p.obj as *const Object).collect();
    let mut consumed_counters: Vec<(usize, usize)> = Vec::new();
    // A pool gathered twice (same driver and name) takes the first, as before.
    let mut seen_pools: Vec<(&str, &str)> = Vec::new();
    for first in 0..pools.len() {
        let key = (pools[first].driver, pools[first].name);
        if seen_pools.contains(&key) {
            continue;
        }
        seen_pools.push(key);
        for &(o, r) in shared.held.get(&key).map(Vec::as_slice).unwrap_or_default() {
            if allocating.contains(&(o as *const Object))
                || what_if.without.is_some_and(|w| std::ptr::eq(w, o))
            {
                continue;
            }
            let Some(device) = str_of(r, "device") else {
                continue;
            };
            if r.get("adminAccess").and_then(Node::as_bool) == Some(true) {
                continue;
            }
            let pi = first;
            let Some(di) = pools[pi]
                .all_devices()
                .iter()
                .position(|d| d.name == device)
            else {
                continue;
            };
            if r.get("shareID").is_some() {
                if let Some(idx) = pools[pi].devices.iter().position(|d| d.name == device) {
                    let e = shared_used
                        .entry(DevRef {
                            pool: pi,
                            index: idx,
                        })
                        .or_default();
                    for c in r
                        .get("consumedCapacity")
                        .and_then(Node::as_map)
                        .unwrap_or_default()
                    {
                        if let Some(q) = qty(&c.value) {
                            let cur = e
                                .get(c.key.as_str())
                                .copied()
                                .unwrap_or_else(Quantity::zero);
                            e.insert(c.key.to_string(), cur.checked_add(&q).unwrap_or(cur));
                        }
                    }
                }
                continue;
            }
            consumed_counters.push((pi, di));
            if let Some(idx) = pools[pi].devices.iter().position(|d| d.name == device) {
                let dr = DevRef {
                    pool: pi,
                    index: idx,
                };
                allocated.insert(dr);
                holders.insert(dr, claim_ref(o));
                holder_pods
                    .entry(claim_ref(o))
                    .or_insert_with(|| reserved_pods(o));
            }
        }
    }
    let mut pools = pools;
    for (pi, di) in consumed_counters {
        pools[pi].charge_allocated(di);
    }

    let mut search = Search {
        gates,
        pools,
        plans,
        allocated,
        holders,
        holder_pods,
        shared_used,
        picks: Vec::new(),
        in_use_cycle: HashMap::new(),
        all_lists: HashMap::new(),
        variant: Variant::for_gates(gates),
        counters: HashMap::new(),
        capacity_cycle: HashMap::new(),
        groups: HashMap::new(),
        selectable: HashMap::new(),
        steps: 0,
        budget: limits.steps,
        what_if,
        // An absurd timeout is no deadline, not an overflow.
        deadline: limits
            .timeout
            .and_then(|(now, timeout)| Some((now, now().checked_add(timeout)?))),
        steps_by_request: Vec::new(),
        deepest: 0,
        exhausted: None,
        candidates: 0,
    };
    // Seed compatibility groups with allocated devices.
    for r in search.allocated.clone() {
        let d = search.dev(r);
        for (set, _, groups) in d.consumes().to_vec() {
            let key = (r.pool, set);
            let next = match (search.groups.get(&key).cloned(), groups) {
                (None, g) => g,
                (Some(None), _) => None,
                (Some(Some(run)), Some(g)) => {
                    Some(run.into_iter().filter(|x| g.contains(x)).collect())
                }
                (Some(Some(_)), None) => None,
            };
            search.groups.insert(key, next);
        }
    }
    search.validate()?;
    let cands = search.candidates();
    let searched = search.search_candidates();
    search.candidates = searched.len();
    let found = match search.allocate_one(At::claim(0), 0, &searched) {
        Ok(found) => found,
        Err(Halt::MaxSize) => false,
        Err(Halt::Fatal(f)) => match search.exhausted.take() {
            Some(cost) => {
                return Ok(Outcome::Error {
                    error: f.0,
                    device: None,
                    search: Some(cost),
                })
            }
            None => return Err(f),
        },
    };
    if found {
        let mut claims = Vec::new();
        for (ci, plan) in search.plans.iter().enumerate() {
            let mut results = Vec::new();
            let mut node_selector = ResultNodeSelector::default();
            for p in search.picks.iter().filter(|p| p.claim == ci) {
                let pool = &search.pools[p.dev.pool];
                let d = &pool.devices[p.dev.index];
                node_selector.add(d)?;
                let binding = self_binding(d, gates);
                results.push(DeviceResult {
                    request: p.request.clone(),
                    driver: pool.driver.to_owned(),
                    pool: pool.name.to_owned(),
                    device: d.name.to_owned(),
                    admin_access: p.admin.then_some(true),
                    tolerations: p.tolerations.clone(),
                    binding_conditions: binding.0,
                    binding_failure_conditions: binding.1,
                    share_id: p
                        .share
                        .as_ref()
                        .map(|_| share_id(ci, results_len(&search, ci, p))),
                    consumed_capacity: p
                        .share
                        .as_ref()
                        .map(|s| s.iter().map(|(k, q)| (k.clone(), q.human())).collect()),
                });
            }
            let node_selector = node_selector.finish(node);
            let config = allocation_config(plan, &results);
            claims.push(ClaimAllocation {
                namespace: plan.obj.namespace().unwrap_or("default").to_owned(),
                name: plan.obj.name().unwrap_or_default().to_owned(),
                results,
                node_selector,
                config,
                existing: false,
                reserved_for: Vec::new(),
            });
        }
        return Ok(Outcome::Allocated { claims });
    }
    let mut reasons = Vec::new();
    // Upstream's Allocate: nothing fits and a pool of the node is invalid.
    // An error wrapping ErrFailedAllocationOnNode, which the scheduler's
    // Filter reports as the node being unschedulable, with this message.
    if search
        .pools
        .iter()
        .any(|p| p.invalid().is_some() && p.targets_node)
    {
        reasons.push("invalid resource pools were encountered".to_owned());
        // Which, and why: the scheduler skips their devices.
        for p in search.pools.iter().filter(|p| p.targets_node) {
            if let Some(why) = p.invalid() {
                reasons.push(format!(
                    "resource pool {}/{} is invalid ({why}): the scheduler skips its {} device{} on this node",
                    p.driver,
                    p.name,
                    p.devices.len(),
                    if p.devices.len() == 1 { "" } else { "s" }
                ));
            }
        }
    }
    let cands: Vec<DevRef> = cands
        .into_iter()
        .filter(|r| search.pools[r.pool].usable())
        .collect();
    let (funnels, left) = explain(&mut search, &cands);
    for f in &funnels {
        reasons.push(describe(f));
    }
    // A selector that does not compile matches nothing; the scheduler says
    // so only once it meets a device, so say it here.
    reasons.extend(compile_errors(&search.plans));
    let constraints = if funnels.iter().all(Funnel::enough) {
        let mut blocks = constraint_blocks(&search, &left);
        if blocks.is_empty() {
            blocks = shared_device_blocks(&search, &left);
        }
        if blocks.is_empty() {
            blocks = counter_blocks(&search, &left);
        }
        blocks
    } else {
        Vec::new()
    };
    for c in &constraints {
        reasons.push(format!("claim {}: {}", c.claim, c.message));
    }
    Ok(Outcome::Unsatisfiable {
        reasons,
        funnels,
        constraints,
    })
}

fn results_len(search: &Search<'_>, claim: usize, pick: &Pick) -> usize {
    search
        .picks
        .iter()
        .filter(|p| p.claim == claim)
        .position(|p| std::ptr::eq(p, pick))
        .unwrap_or(0)
}

/// A deterministic stand-in for the scheduler's random share ID (a UID).
fn share_id(claim: usize, index: usize) -> String {
    format!("00000000-0000-4000-8000-{:06x}{:06x}", claim, index)
}

fn self_binding(
    d: &PoolDevice<'_>,
    gates: &FeatureGates,
) -> (Option<Vec<String>>, Option<Vec<String>>) {
    let on = gates.enabled(Gate::DRADeviceBindingConditions)
        && gates.enabled(Gate::DRAResourceClaimDeviceStatus);
    if !on || d.binding_conditions.is_empty() {
        return (None, None);
    }
    (
        Some(d.binding_conditions.clone()),
        Some(d.binding_failure.clone()),
    )
}

/// Every request (and subrequest) of the cycle, in order.
fn all_requests<'a>(search: &Search<'a>) -> Vec<Req<'a>> {
    search
        .plans
        .iter()
        .flat_map(|p| {
            p.slots.iter().flat_map(|s| match s {
                Slot::Exact(r) => vec![r.clone()],
                Slot::First(v) => v.clone(),
            })
        })
        .collect()
}

/// The funnel of each request, measured on its own (other requests of the
/// cycle take nothing); also the devices left at its end, per request.
fn explain(search: &mut Search<'_>, cands: &[DevRef]) -> (Vec<Funnel>, Vec<Vec<DevRef>>) {
    let mut out = Vec::new();
    let mut left = Vec::new();
    for req in all_requests(search) {
        let mut f = Funnel {
            claim: claim_ref(search.plans[req.claim].obj),
            request: req.name.clone(),
            devices: cands.len(),
            // All: every device the request's validation found on the node
            // (at least one).
            needed: search.num_devices(&req).max(1),
            all: req.all,
            ..Funnel::default()
        };
        let attributes: Vec<String> = search.plans[req.claim]
            .constraints
            .iter()
            .filter(|c| {
                c.requests.is_empty()
                    || c.requests
                        .iter()
                        .any(|x| *x == req.parent || *x == req.name)
            })
            .map(|c| c.attribute.clone())
            .collect();
        let mut holders: Vec<String> = Vec::new();
        let mut kept = Vec::new();
        for &r in cands {
            let passes = |programs: &[Selector]| {
                programs.iter().all(|p| {
                    p.as_ref()
                        .is_ok_and(|p| p.matches(search.dev(r).cel()) == Ok(true))
                })
            };
            if !passes(&req.class_programs) {
                continue;
            }
            f.pass_class += 1;
            if !passes(&req.programs) {
                continue;
            }
            f.pass_request += 1;
            if !search.tolerated(r, &req) {
                let dev = search.dev(r);
                for (i, (k, v, effect)) in dev.taints.iter().enumerate() {
                    let t = match v.is_empty() {
                        true => format!("{k}:{effect}"),
                        false => format!("{k}={v}:{effect}"),
                    };
                    if matches!(effect.as_str(), "NoSchedule" | "NoExecute")
                        && !f.taints.contains(&t)
                    {
                        f.taints.push(t);
                        f.taint_sources.push(TaintSource {
                            key: k.clone(),
                            value: v.clone(),
                            effect: effect.clone(),
                            device_taint_rule: dev.taint_rules.get(i).cloned().flatten(),
                            device: format!(
                                "{}/{}/{}",
                                search.pools[r.pool].driver, search.pools[r.pool].name, dev.name
                            ),
                        });
                    }
                }
                continue;
            }
            f.untainted += 1;
            let shared = search.dev(r).allow_multiple;
            if !req.admin && !shared && search.allocated.contains(&r) {
                if let Some(h) = search.holders.get(&r) {
                    if !holders.contains(h) {
                        holders.push(h.clone());
                    }
                }
                continue;
            }
            f.free += 1;
            // Counters: admin access and a shared device already charged take none.
            let charged = shared && search.shared_used.contains_key(&r);
            if !req.admin && !charged {
                if let Some(short) = counter_shortfall(search, r) {
                    let set = short.counter_set.clone();
                    if f.shortfall.is_none() {
                        f.shortfall = Some(format!(
                            "counter set {}: {} needs {}, {} left (device {})",
                            short.counter_set,
                            short.counter,
                            short.needed,
                            short.left,
                            short.device
                        ));
                        f.shortfall_detail = Some(short);
                    }
                    for h in counter_holders(search, r.pool, &set) {
                        if !f.counter_holders.contains(&h.claim) {
                            f.counter_holders.push(h.claim.clone());
                        }
                        if !f.counter_holder_devices.contains(&h) {
                            f.counter_holder_devices.push(h);
                        }
                    }
                    continue;
                }
            }
            f.counters_left += 1;
            match search.groups_fit(r) {
                Some(undo) => search.undo_groups(undo),
                None => {
                    f.group_conflict
                        .get_or_insert_with(|| group_conflict(search, r));
                    continue;
                }
            }
            f.compatible += 1;
            if let Some(short) = capacity_shortfall(search, r, &req) {
                f.capacity_shortfall.get_or_insert(short);
                continue;
            }
            f.capacity_left += 1;
            if let Some(a) = attributes.iter().find(|a| search.attribute(r, a).is_none()) {
                f.missing_attribute.get_or_insert_with(|| {
                    format!("device {} publishes no {a}", search.dev(r).name)
                });
                continue;
            }
            f.constrained += 1;
            kept.push(r);
        }
        f.held_by_pods = holders
            .iter()
            .flat_map(|h| search.holder_pods.get(h).into_iter().flatten())
            .cloned()
            .collect();
        f.held_by = holders;
        out.push(f);
        left.push(kept);
    }
    (out, left)
}

/// The claims holding devices of the pool that draw on the counter set.
fn counter_holders(search: &Search<'_>, pool: usize, set: &str) -> Vec<CounterHolder> {
    let mut held: Vec<(DevRef, &String)> = search
        .holders
        .iter()
        .filter(|(r, _)| r.pool == pool)
        .filter(|(r, _)| search.dev(**r).consumes().iter().any(|(s, _, _)| *s == set))
        .map(|(r, h)| (*r, h))
        .collect();
    held.sort_by_key(|(r, _)| r.index);
    held.into_iter()
        .map(|(r, claim)| {
            let d = search.dev(r);
            let counters = d
                .consumes()
                .iter()
                .filter(|(s, _, _)| *s == set)
                .flat_map(|(_, counters, _)| counters.iter())
                .map(|(name, q)| (name.to_string(), q.human()))
                .collect();
            CounterHolder {
                claim: claim.clone(),
                device: d.name.to_owned(),
                counter_set: set.to_owned(),
                counters,
            }
        })
        .collect()
}

/// The first counter the device cannot get: its set, and what to say.
fn counter_shortfall(search: &Search<'_>, r: DevRef) -> Option<CounterShortfall> {
    let d = search.dev(r);
    let pool = &search.pools[r.pool];
    for (set, counters, _) in d.consumes() {
        for (counter, need) in counters {
            let left = pool.available(set, counter);
            if left < *need {
                return Some(CounterShortfall {
                    counter_set: set.to_string(),
                    counter: counter.to_string(),
                    needed: need.human(),
                    left: left.human(),
                    device: d.name.to_owned(),
                });
            }
        }
    }
    None
}

fn group_conflict(search: &Search<'_>, r: DevRef) -> String {
    let d = search.dev(r);
    if !search.gates.enabled(Gate::DRADeviceCompatibilityGroups) {
        return format!(
            "device {} declares compatibilityGroups, which a scheduler with DRADeviceCompatibilityGroups off never allocates",
            d.name
        );
    }
    let show = |g: &Option<Vec<&str>>| match g {
        Some(v) => format!("[{}]", v.join(", ")),
        None => "no groups".to_owned(),
    };
    for (set, _, groups) in d.consumes() {
        if let Some(held) = search.groups.get(&(r.pool, *set)) {
            let fits = match (held, groups) {
                (None, None) => true,
                (Some(h), Some(g)) => h.iter().any(|x| g.contains(x)),
                _ => false,
            };
            if !fits {
                return format!(
                    "counter set {set}: device {} has {}, devices in use have {}",
                    d.name,
                    show(groups),
                    show(held)
                );
            }
        }
    }
    format!("device {}: compatibility groups conflict", d.name)
}

fn capacity_shortfall<'a>(search: &Search<'a>, r: DevRef, req: &Req<'a>) -> Option<String> {
    let d = search.dev(r);
    if !search.gates.enabled(Gate::DRAConsumableCapacity) {
        return (!req.capacity.is_empty())
            .then(|| "capacity requests need DRAConsumableCapacity, which is off".to_owned());
    }
    if req.admin {
        return None;
    }
    let Some(want) = search.consumption(r, req) else {
        return Some(format!(
            "device {} lacks a requested capacity or its requestPolicy refuses the amount",
            d.name
        ));
    };
    for c in d.capacity() {
        let mut used = Quantity::zero();
        for src in [search.shared_used.get(&r)].into_iter().flatten() {
            if let Some(q) = src.get(&c.name) {
                used = used.checked_add(q).unwrap_or(used);
            }
        }
        let need = want.get(&c.name).copied().unwrap_or_else(Quantity::zero);
        let total = used.checked_add(&need).unwrap_or(used);
        if total > c.value {
            let free = c.value.checked_sub(&used).unwrap_or_else(Quantity::zero);
            return Some(format!(
                "device {}: capacity {} needs {}, {} left",
                d.name,
                c.name,
                need.human(),
                free.human()
            ));
        }
    }
    None
}

/// A request's alternatives (one, or a firstAvailable list): the devices
/// left at the end of each funnel and how many it needs.
type Alternatives<'s> = Vec<(&'s [DevRef], usize)>;

/// The constraints that no choice of the devices left at the end of each
/// funnel can satisfy. Only a necessary condition: when none is found, the
/// requests may still conflict through counters or capacity taken together.
fn constraint_blocks(search: &Search<'_>, left: &[Vec<DevRef>]) -> Vec<ConstraintBlock> {
    let reqs = all_requests(search);
    let mut out = Vec::new();
    for (ci, plan) in search.plans.iter().enumerate() {
        for c in &plan.constraints {
            // Per slot (request) the constraint spans: for each of its
            // alternatives, the devices left and how many it needs.
            let mut slots: Vec<(String, Alternatives<'_>)> = Vec::new();
            for (i, req) in reqs.iter().enumerate() {
                if req.claim != ci {
                    continue;
                }
                let applies = c.requests.is_empty()
                    || c.requests
                        .iter()
                        .any(|x| *x == req.parent || *x == req.name);
                if !applies {
                    continue;
                }
                let need = if req.all {
                    left[i].len().max(1)
                } else {
                    req.count
                };
                match slots.iter_mut().find(|(p, _)| *p == req.parent) {
                    Some((_, alts)) => alts.push((&left[i], need)),
                    None => slots.push((req.parent.clone(), vec![(&left[i], need)])),
                }
            }
            if slots.is_empty() {
                continue;
            }
            let value = |r: DevRef| search.attribute(r, &c.attribute).map(|v| v.to_string());
            let message = if c.distinct {
                // Every device picked for these requests needs its own value.
                let mut values: Vec<String> = Vec::new();
                let mut wanted = 0;
                for (_, alts) in &slots {
                    let (devs, need) = alts
                        .iter()
                        .min_by_key(|(_, n)| *n)
                        .copied()
                        .unwrap_or((&[], 0));
                    wanted += need;
                    for &r in devs {
                        if let Some(v) = value(r) {
                            if !values.contains(&v) {
                                values.push(v);
                            }
                        }
                    }
                }
                (values.len() < wanted).then(|| {
                    format!(
                        "distinctAttribute {}: {wanted} devices need different values, but the devices left carry only {} ({})",
                        c.attribute,
                        values.len(),
                        values.join(", ")
                    )
                })
            } else {
                // One value must be carried by enough devices of every request.
                let mut candidates: Vec<String> = Vec::new();
                for (_, alts) in &slots {
                    for (devs, _) in alts {
                        for &r in devs.iter() {
                            if let Some(v) = value(r) {
                                if !candidates.contains(&v) {
                                    candidates.push(v);
                                }
                            }
                        }
                    }
                }
                let fits = |v: &String| {
                    slots.iter().all(|(_, alts)| {
                        alts.iter().any(|(devs, need)| {
                            devs.iter()
                                .filter(|&&r| value(r).as_ref() == Some(v))
                                .count()
                                >= *need
                        })
                    })
                };
                (!candidates.iter().any(fits)).then(|| {
                    let per: Vec<String> = slots
                        .iter()
                        .map(|(name, alts)| {
                            let mut counts: Vec<(String, usize)> = Vec::new();
                            for (devs, _) in alts {
                                for &r in devs.iter() {
                                    if let Some(v) = value(r) {
                                        match counts.iter_mut().find(|(x, _)| *x == v) {
                                            Some((_, n)) => *n += 1,
                                            None => counts.push((v, 1)),
                                        }
                                    }
                                }
                            }
                            let shown: Vec<String> =
                                counts.iter().map(|(v, n)| format!("{v} x{n}")).collect();
                            format!("{name:?} has {}", if shown.is_empty() { "none".to_owned() } else { shown.join(", ") })
                        })
                        .collect();
                    format!(
                        "matchAttribute {}: no single value is carried by enough devices of every request ({})",
                        c.attribute,
                        per.join("; ")
                    )
                })
            };
            if let Some(message) = message {
                out.push(ConstraintBlock {
                    claim: claim_ref(plan.obj),
                    kind: if c.distinct {
                        "distinctAttribute"
                    } else {
                        "matchAttribute"
                    },
                    attribute: c.attribute.clone(),
                    requests: slots.iter().map(|(n, _)| n.clone()).collect(),
                    message,
                    needed: None,
                    available: None,
                    counter: None,
                });
            }
        }
    }
    out
}

/// Requests that each have enough devices on their own but draw on the same
/// ones: the smallest group of them that needs more devices together than
/// match any of them (Hall's condition). Only requests whose devices serve
/// one request each are counted (no admin access, no device that allows
/// multiple allocations), and only plain requests (not firstAvailable
/// alternatives), so a group found is certain to be short.
fn shared_device_blocks(search: &Search<'_>, left: &[Vec<DevRef>]) -> Vec<ConstraintBlock> {
    /// Subsets are tried up to this many requests (2^n groups).
    const MAX_REQUESTS: usize = 12;
    let reqs = all_requests(search);
    let exact: Vec<usize> = plain_requests(search, left)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    if exact.len() < 2 || exact.len() > MAX_REQUESTS {
        return Vec::new();
    }
    let need = |i: usize| {
        if reqs[i].all {
            left[i].len()
        } else {
            reqs[i].count
        }
    };
    let mut masks: Vec<u32> = (1u32..(1 << exact.len()))
        .filter(|m| m.count_ones() >= 2)
        .collect();
    masks.sort_by_key(|m| m.count_ones());
    for m in masks {
        let members: Vec<usize> = (0..exact.len())
            .filter(|b| m & (1 << b) != 0)
            .map(|b| exact[b])
            .collect();
        let needed: usize = members.iter().map(|&i| need(i)).sum();
        let mut union: Vec<DevRef> = members
            .iter()
            .flat_map(|&i| left[i].iter().copied())
            .collect();
        union.sort_by_key(|d| (d.pool, d.index));
        union.dedup();
        if needed <= union.len() {
            continue;
        }
        let claims: Vec<usize> = members.iter().map(|&i| reqs[i].claim).collect();
        let one_claim = claims.iter().all(|c| *c == claims[0]);
        let named = |i: usize| -> String {
            let r = &reqs[i];
            if one_claim {
                format!("request {:?}", r.name)
            } else {
                format!(
                    "request {:?} of claim {}",
                    r.name,
                    claim_ref(search.plans[r.claim].obj)
                )
            }
        };
        let mut parts: Vec<String> = members
            .iter()
            .map(|&i| format!("{} needs {}", named(i), need(i)))
            .collect();
        let last = parts.pop().unwrap_or_default();
        return vec![ConstraintBlock {
            claim: claim_ref(search.plans[claims[0]].obj),
            kind: "sharedDevices",
            attribute: String::new(),
            requests: members
                .iter()
                .map(|&i| match one_claim {
                    true => reqs[i].name.clone(),
                    false => format!(
                        "{}/{}",
                        claim_ref(search.plans[reqs[i].claim].obj),
                        reqs[i].name
                    ),
                })
                .collect(),
            message: format!(
                "{} and {last} of the same devices: {needed} together, but only {} match{} them",
                parts.join(", "),
                union.len(),
                if union.len() == 1 { "es" } else { "" },
            ),
            needed: Some(needed),
            available: Some(union.len()),
            counter: None,
        }];
    }
    Vec::new()
}

/// Plain requests (no admin access, no firstAvailable alternatives, no
/// device that allows multiple allocations) and the devices left to each.
fn plain_requests<'a>(search: &Search<'a>, left: &[Vec<DevRef>]) -> Vec<(usize, Req<'a>)> {
    all_requests(search)
        .into_iter()
        .enumerate()
        .filter(|(i, r)| {
            let plain = search.plans[r.claim]
                .slots
                .iter()
                .any(|s| matches!(s, Slot::Exact(x) if x.key == r.key));
            plain && !r.admin && !left[*i].iter().any(|&d| search.dev(d).allow_multiple)
        })
        .collect()
}

/// Requests whose devices all draw on one counter set, more than it has
/// left: any `count` devices of a request draw at least the sum of the
/// `count` smallest consumptions among its devices (a device that does not
/// consume the counter counts 0), and requests add up, as no device is
/// picked twice. A counter whose least total exceeds what is left rules
/// out every combination.
fn counter_blocks(search: &Search<'_>, left: &[Vec<DevRef>]) -> Vec<ConstraintBlock> {
    let reqs = plain_requests(search, left);
    // (pool, set, counter) every consumption the requests' devices name.
    let mut keys: Vec<(usize, &str, &str)> = Vec::new();
    for (i, _) in &reqs {
        for &d in &left[*i] {
            for (set, counters, _) in search.dev(d).consumes() {
                for (counter, _) in counters {
                    let k = (d.pool, *set, *counter);
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
            }
        }
    }
    let draw = |d: DevRef, (pool, set, counter): (usize, &str, &str)| -> Quantity {
        if d.pool != pool {
            return Quantity::zero();
        }
        search
            .dev(d)
            .consumes()
            .iter()
            .filter(|(s, _, _)| *s == set)
            .flat_map(|(_, cs, _)| cs.iter())
            .filter(|(c, _)| *c == counter)
            .fold(Quantity::zero(), |acc, (_, q)| {
                acc.checked_add(q).unwrap_or(acc)
            })
    };
    for key in keys {
        let mut total = Quantity::zero();
        let mut parts = Vec::new();
        for (i, r) in &reqs {
            let need = if r.all { left[*i].len() } else { r.count };
            let mut draws: Vec<Quantity> = left[*i].iter().map(|&d| draw(d, key)).collect();
            draws.sort();
            let least = draws
                .iter()
                .take(need)
                .fold(Quantity::zero(), |acc, q| acc.checked_add(q).unwrap_or(acc));
            if !least.is_zero() {
                parts.push((r, need, least));
                total = total.checked_add(&least).unwrap_or(total);
            }
        }
        let (pool, set, counter) = key;
        let have = search.pools[pool].available(set, counter);
        if parts.is_empty() || total <= have {
            continue;
        }
        let p = &search.pools[pool];
        let claims: Vec<usize> = parts.iter().map(|(r, _, _)| r.claim).collect();
        let named: Vec<String> = parts
            .iter()
            .map(|(r, need, least)| {
                format!(
                    "request {:?} needs {need} device{} drawing at least {}",
                    r.name,
                    if *need == 1 { "" } else { "s" },
                    least.human()
                )
            })
            .collect();
        return vec![ConstraintBlock {
            claim: claim_ref(search.plans[claims[0]].obj),
            kind: "sharedCounters",
            attribute: String::new(),
            requests: parts.iter().map(|(r, _, _)| r.name.clone()).collect(),
            message: format!(
                "counter set {set} of pool {}/{} has {} of {counter} left, but {}{}",
                p.driver,
                p.name,
                have.human(),
                named.join(" and "),
                if parts.len() > 1 {
                    format!(" ({} together)", total.human())
                } else {
                    String::new()
                }
            ),
            needed: None,
            available: None,
            counter: Some(CounterDemand {
                pool: format!("{}/{}", p.driver, p.name),
                counter_set: set.to_owned(),
                counter: counter.to_owned(),
                at_least: total.human(),
                left: have.human(),
            }),
        }];
    }
    Vec::new()
}

/// The funnel in one line: counts in order (notes shown always right after
/// their count), the number needed, then the other steps' notes.
fn describe(f: &Funnel) -> String {
    let steps = f.steps();
    let mut s = format!("claim {}, request {}: ", f.claim, f.request);
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!("{} {}", step.count, step.label));
        if i == 0 {
            s.push_str(" on the node");
        }
        if let (true, Some(note)) = (step.note_always, &step.note) {
            s.push_str(&format!(" ({note})"));
        }
    }
    s.push_str(&format!("; {} needed", f.needed));
    for step in steps.iter().filter(|step| !step.note_always) {
        if let Some(note) = &step.note {
            s.push_str(&format!(" ({note})"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Allocator, Limits, Outcome};
    use crate::gates::{FeatureGates, Version};
    use crate::lint::{load_objects, SourceFile};

    /// structured.NewAllocator (allocator.go): the first implementation
    /// whose supported features cover the enabled ones.
    #[test]
    fn the_variant_is_the_one_new_allocator_picks() {
        use super::Variant;
        let v: Version = "1.37".parse().unwrap();
        let with = |on: &[&str], off: &[&str]| {
            let mut g = FeatureGates::defaults(v);
            for n in on {
                g.set(n, true).unwrap();
            }
            for n in off {
                g.set(n, false).unwrap();
            }
            Variant::for_gates(&g)
        };
        let all_off = [
            "DRAConsumableCapacity",
            "DRADeviceBindingConditions",
            "DRAListTypeAttributes",
        ];
        assert_eq!(with(&[], &all_off), Variant::Stable);
        assert_eq!(
            with(&["DRAConsumableCapacity"], &all_off[1..]),
            Variant::Incubating
        );
        assert_eq!(
            with(
                &["DRADeviceBindingConditions", "DRAResourceClaimDeviceStatus"],
                &["DRAConsumableCapacity", "DRAListTypeAttributes"]
            ),
            Variant::Incubating
        );
        assert_eq!(with(&["DRAListTypeAttributes"], &[]), Variant::Experimental);
    }

    fn hopeless() -> Vec<crate::model::Object> {
        let text = crate::fleet::hopeless_case();
        load_objects(
            &[SourceFile {
                name: "w.yaml".into(),
                text,
            }],
            Default::default(),
        )
        .0
    }

    fn error_with(limits: Limits) -> String {
        cost_with(limits).0
    }

    fn cost_with(limits: Limits) -> (String, super::SearchCost) {
        let objects = hopeless();
        let gates = FeatureGates::defaults(Version::LATEST);
        let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
        match Allocator::new(&objects, &gates, &claims)
            .with_limits(limits)
            .on_node("node-w")
        {
            Outcome::Error {
                error,
                search: Some(cost),
                ..
            } => (error, cost),
            other => panic!("expected the budget to run out: {other:?}"),
        }
    }

    /// The same facts as fields, for JSON: which request took the steps,
    /// the node's device count, how far the search got.
    #[test]
    fn budgets_are_reported_as_fields() {
        let (error, cost) = cost_with(Limits {
            steps: 10_000,
            timeout: None,
        });
        assert_eq!(cost.limit, "steps");
        assert_eq!(cost.budget, Some(10_000));
        assert_eq!(cost.steps, 10_001);
        assert_eq!(cost.claim.as_deref(), Some("default/w"));
        assert_eq!(cost.request.as_deref(), Some("r"));
        assert!(cost.request_steps > 9_000 && cost.request_steps <= cost.steps);
        assert_eq!((cost.best_partial, cost.needed), (7, 8));
        assert!(cost.candidates >= 8, "{cost:?}");
        assert_eq!(error, cost.message());
        let (_, time) = cost_with(Limits {
            steps: u64::MAX,
            timeout: Some((std::time::Instant::now, std::time::Duration::ZERO)),
        });
        assert_eq!((time.limit, time.budget), ("time", None));
    }

    /// Either budget ends the search with the scheduler's words, the request
    /// the steps went to, and how far the search got.
    #[test]
    fn budgets_name_the_costly_request_and_the_progress() {
        let steps = error_with(Limits {
            steps: 10_000,
            timeout: None,
        });
        assert!(
            steps.starts_with(
                "timed out trying to allocate devices: the search budget of 10000 steps ran out"
            ),
            "{steps}"
        );
        assert!(
            steps.contains("request \"r\" of claim default/w took"),
            "{steps}"
        );
        assert!(
            steps.contains("the best partial allocation had 7 of 8 devices"),
            "{steps}"
        );
        // A time budget already spent stops the search at its first check.
        let time = error_with(Limits {
            steps: u64::MAX,
            timeout: Some((std::time::Instant::now, std::time::Duration::ZERO)),
        });
        assert!(
            time.starts_with("timed out trying to allocate devices: the time budget ran out"),
            "{time}"
        );
    }
    /// The command's budget across nodes: once spent, the nodes left are
    /// Undecided, not searched (each node here spends its whole budget).
    #[test]
    fn the_command_budget_leaves_nodes_undecided() {
        let objects = hopeless();
        let gates = FeatureGates::defaults(Version::LATEST);
        let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
        let a = Allocator::new(&objects, &gates, &claims).with_limits(Limits {
            steps: 1_000,
            timeout: None,
        });
        let nodes = vec!["node-w"; 12];
        let outcomes = a.on_nodes_within(&nodes, 2_500);
        let undecided = outcomes
            .iter()
            .filter(|o| matches!(o, Outcome::Undecided { .. }))
            .count();
        // 1,000 steps a node: at most three, plus one per other thread
        // started before the sum was seen, are tried.
        assert!(
            undecided >= 12 - 3 - rayon::current_num_threads(),
            "{undecided}"
        );
        assert!(undecided < 12);
    }
    /// DRAListTypeAttributes: matchAttribute needs a value all devices'
    /// lists share; distinctAttribute needs the lists pairwise disjoint
    /// (experimental/constraint.go, attributeAsSet).
    #[test]
    fn list_attributes_compare_as_sets() {
        let inventory = |a: &str, b: &str, kind: &str| {
            format!(
                "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec: {{}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {{name: s}}\nspec:\n  driver: d.example.com\n  nodeName: node-1\n  pool: {{name: node-1, resourceSliceCount: 1}}\n  devices:\n  - {{name: a, attributes: {{numa: {{ints: {a}}}}}}}\n  - {{name: b, attributes: {{numa: {{ints: {b}}}}}}}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {{name: w, namespace: default}}\nspec:\n  devices:\n    requests:\n    - {{name: r, exactly: {{deviceClassName: c, count: 2}}}}\n    constraints:\n    - {{{kind}: d.example.com/numa}}\n"
            )
        };
        let fits = |a: &str, b: &str, kind: &str| {
            let objects = load_objects(
                &[SourceFile {
                    name: "l.yaml".into(),
                    text: inventory(a, b, kind),
                }],
                Default::default(),
            )
            .0;
            let mut gates = FeatureGates::defaults(Version::LATEST);
            gates.set("DRAListTypeAttributes", true).unwrap();
            let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
            // (`n` would be a boolean in YAML 1.1: the node is node-1.)
            let o = Allocator::new(&objects, &gates, &claims).on_node("node-1");
            matches!(o, Outcome::Allocated { .. })
        };
        assert!(fits("[0, 1]", "[1, 2]", "matchAttribute"));
        assert!(!fits("[0]", "[2]", "matchAttribute"));
        assert!(!fits("[0, 1]", "[1, 2]", "distinctAttribute"));
        assert!(fits("[0]", "[2, 3]", "distinctAttribute"));
    }
    /// nodeaffinity.NewNodeSelector's refusals, as GatherPools meets them:
    /// the allocation stops with an error on every node, also one the
    /// broken slice does not target.
    #[test]
    fn unparsable_node_selectors_stop_the_allocation() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/fixtures/explain-bad-selector.yaml"
        ))
        .unwrap();
        let objects = load_objects(
            &[SourceFile {
                name: "s.yaml".into(),
                text,
            }],
            Default::default(),
        )
        .0;
        let gates = FeatureGates::defaults(Version::LATEST);
        let claims: Vec<_> = objects.iter().filter(|o| o.name() == Some("w")).collect();
        match Allocator::new(&objects, &gates, &claims).on_node("node-1") {
            Outcome::Error { error, .. } => assert!(
                error.starts_with("gather pool information: failed to perform node selection for slice bad-selector"),
                "{error}"
            ),
            other => panic!("{other:?}"),
        }
        let parse = |yaml: &str| {
            let n: crate::tree::Node = serde_json::from_str(yaml).unwrap();
            super::pools::node_selector_error(&n)
        };
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"In","values":[]}]}]}"#).is_some());
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]}]}"#).is_some());
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Gt","values":["x"]}]}]}"#).is_some());
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Near","values":["1"]}]}]}"#).is_some());
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchExpressions":[{"key":"a","operator":"Gt","values":["3"]}]}]}"#).is_none());
        assert!(parse(r#"{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n"]}]}]}"#).is_none());
        assert!(
            parse(r#"{"nodeSelectorTerms":[{}]}"#).is_none(),
            "an empty term is skipped"
        );
    }
}
