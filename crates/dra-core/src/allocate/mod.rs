//! A dry run of kube-scheduler's structured allocator
//! (`k8s.io/dynamic-resource-allocation/structured`, experimental variant):
//! which devices a set of claims gets on one node, or why none, with the
//! same picks as the scheduler (spec/allocator.md). Pure: no clock, no I/O.
//! Pools are ordered by driver and pool name, slices by name, as the newest
//! upstream allocator does.

mod explain;
mod funnel;
mod plan;
mod pools;
mod result;

use explain::{constraint_blocks, counter_blocks, describe, explain, shared_device_blocks};
pub use funnel::*;
use plan::*;
use result::*;
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
        // Nodes that see the same devices get the same answer: each class
        // is searched once, by its first node, and costs the budget once.
        let classes: Vec<Option<Vec<bool>>> = nodes
            .par_iter()
            .map(|n| self.node_class(n.as_ref()))
            .collect();
        let mut first: HashMap<&[bool], usize> = HashMap::new();
        let searched_by: Vec<usize> = classes
            .iter()
            .enumerate()
            .map(|(i, c)| match c {
                Some(c) => *first.entry(c.as_slice()).or_insert(i),
                None => i,
            })
            .collect();
        let spent = AtomicU64::new(0);
        let mut outcomes: Vec<Option<Outcome>> = nodes
            .par_iter()
            .enumerate()
            .map(|(i, n)| {
                if searched_by[i] != i {
                    return None;
                }
                if spent.load(Ordering::Relaxed) >= budget {
                    return Some(Outcome::Undecided {
                        reason: format!(
                            "not tried: the search budget of {budget} steps for all nodes ran out"
                        ),
                    });
                }
                let before = THREAD_STEPS.with(std::cell::Cell::get);
                let o = self.on_node(n.as_ref());
                let used = THREAD_STEPS.with(std::cell::Cell::get) - before;
                spent.fetch_add(used, Ordering::Relaxed);
                Some(o)
            })
            .collect();
        for i in 0..outcomes.len() {
            if searched_by[i] != i {
                outcomes[i] = outcomes[searched_by[i]].clone();
            }
        }
        outcomes.into_iter().flatten().collect()
    }

    /// Which nodes are alike for these claims: the same devices
    /// ([`pools::PoolIndex::node_class`]) and the same answer from the node
    /// selector of each claim allocated before. `None`: a node of its own.
    fn node_class(&self, node: &str) -> Option<Vec<bool>> {
        let labels = self.shared.labels.get(node).copied();
        let partitionable = self.gates.enabled(Gate::DRAPartitionableDevices);
        let mut bits = self.index.node_class(node, labels, partitionable)?;
        for p in self.plans.as_deref().unwrap_or_default() {
            if let Some(sel) = p
                .obj
                .root
                .get("status")
                .and_then(|s| s.get("allocation"))
                .and_then(|a| a.get("nodeSelector"))
            {
                bits.push(pools::node_selector_matches(sel, node, labels));
            }
        }
        Some(bits)
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

#[cfg(test)]
mod tests;
