//! A dry run of kube-scheduler's structured allocator
//! (`k8s.io/dynamic-resource-allocation/structured`, experimental variant):
//! which devices a set of claims gets on one node, or why none, with the
//! same picks as the scheduler (spec/allocator.md). Pure: no clock, no I/O.
//! Pools are ordered by driver and pool name, slices by name, as the newest
//! upstream allocator does.
//!
//! Laid out like upstream's `structured/internal/experimental`: `allocator`
//! (entry points and the per-node solve), `pools/` (GatherPools and the
//! device view), `plan` (the claims' requests, validated as upstream does
//! first), `search` (allocateOne, allocateDevice), `constraint`
//! (matchAttribute, distinctAttribute), `counters` (shared counters),
//! `capacity` (consumable capacity), `compatibility_groups`, `result`
//! (allocation results and their config); ours besides: `alike` (nodes that
//! share one search), `funnel` and `explain` (why a request fails).

mod alike;
mod allocator;
mod capacity;
mod compatibility_groups;
mod constraint;
mod counters;
mod explain;
mod funnel;
mod plan;
mod pools;
mod result;
mod search;

pub use allocator::*;
use constraint::*;
use explain::{constraint_blocks, counter_blocks, describe, explain, shared_device_blocks};
pub use funnel::*;
use plan::*;
use result::*;
use search::*;
use std::collections::BTreeMap;

// The search hashes device references millions of times per fleet: foldhash
// (randomly seeded, like the default) is several times faster than SipHash.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::Arc;

use compact_str::CompactString;
use serde::Serialize;

use crate::cel::{Env, Program};
use crate::dra;
use crate::gates::{FeatureGates, Gate};
use crate::model::{Object, ObjectKind};
use crate::quantity::Quantity;
use crate::tree::Node;

pub use pools::{node_selector_matches, Consumption, DevRef, Pool, PoolDevice};

/// The device whose counters were charged.
type GroupUndo<'a> = Vec<((usize, &'a str), Option<Option<Vec<&'a str>>>)>;
/// What to undo when a tentatively picked device is released.
type Token<'a> = (Option<counters::CounterCharge<'a>>, GroupUndo<'a>);
use counters::Retained;

/// The claim limit of results (`AllocationResultsMaxSize`).
const MAX_RESULTS: usize = 32;

/// One allocated device, as `status.allocation.devices.results[]` holds it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DeviceResult {
    // Short names inline (no allocation): an answer is copied for every
    // node of a class of nodes alike.
    pub request: CompactString,
    pub driver: CompactString,
    pub pool: CompactString,
    pub device: CompactString,
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

/// `allocation.nodeSelector`: the one node of node-local devices (kept as
/// its name: an answer is copied for every node of a class of nodes alike,
/// and only its output spells the selector out), or the selector merged
/// from the devices' slices or read from a stored allocation.
#[derive(Clone, Debug, PartialEq)]
pub enum AllocationNodeSelector {
    Node(CompactString),
    Terms(serde_json::Value),
}

impl AllocationNodeSelector {
    /// The selector as the API writes it.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            AllocationNodeSelector::Node(node) => {
                serde_json::json!({"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node.as_str()]}]}]})
            }
            AllocationNodeSelector::Terms(v) => v.clone(),
        }
    }
}

impl Serialize for AllocationNodeSelector {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            AllocationNodeSelector::Terms(v) => v.serialize(s),
            node => node.to_json().serialize(s),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimAllocation {
    pub namespace: CompactString,
    pub name: CompactString,
    pub results: Vec<DeviceResult>,
    /// `allocation.nodeSelector`, when the devices are bound to nodes.
    pub node_selector: Option<AllocationNodeSelector>,
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

/// [`existing_allocation`] of a claim's own status, for tests elsewhere.
#[cfg(test)]
pub(crate) fn existing_for_tests(claim: &dra::Claim) -> ClaimAllocation {
    existing_allocation(claim, claim.allocation.as_ref().expect("allocated"))
}

/// A claim's allocation as its status records it.
fn existing_allocation(claim: &dra::Claim, allocation: &dra::Allocation) -> ClaimAllocation {
    let owned = |l: &Option<Vec<&str>>| {
        l.as_ref()
            .map(|l| l.iter().map(|x| (*x).to_owned()).collect())
    };
    let results = allocation
        .results
        .iter()
        .map(|r| DeviceResult {
            request: r.request.into(),
            driver: r.driver.unwrap_or_default().into(),
            pool: r.pool.unwrap_or_default().into(),
            device: r.device.unwrap_or_default().into(),
            admin_access: r.admin_access,
            tolerations: r.tolerations.map(Node::to_json),
            binding_conditions: owned(&r.binding_conditions),
            binding_failure_conditions: owned(&r.binding_failure_conditions),
            share_id: r.share_id.map(str::to_owned),
            consumed_capacity: r.consumed_capacity.as_ref().map(|m| {
                m.iter()
                    .map(|(name, value)| {
                        (
                            (*name).to_owned(),
                            value
                                .as_str()
                                .map_or_else(|| value.to_json().to_string(), str::to_owned),
                        )
                    })
                    .collect()
            }),
        })
        .collect();
    ClaimAllocation {
        namespace: claim.namespace.into(),
        name: claim.name.into(),
        results,
        node_selector: allocation
            .node_selector
            .map(|n| AllocationNodeSelector::Terms(n.to_json())),
        config: allocation.config.iter().map(Node::to_json).collect(),
        existing: true,
        reserved_for: claim
            .reserved_for
            .iter()
            .filter(|c| !c.name.is_empty())
            .map(|c| match c.resource.unwrap_or("pods") {
                "pods" => format!("{}/{}", claim.namespace, c.name),
                what => format!("{what} {}/{}", claim.namespace, c.name),
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
        reasons: Vec<Reason>,
        funnels: Vec<Funnel>,
        /// Set when every request has enough devices on its own.
        constraints: Vec<ConstraintBlock>,
    },
    Error {
        /// What failed: the search or time budget, a selector on a device,
        /// or another error of the allocator.
        kind: ErrorKind,
        error: String,
        /// The device a selector failed on (`driver/pool/device`), if any.
        device: Option<String>,
        /// What failed, the same on every node: for a selector, its error
        /// without the device the 1.37 allocator names in it. Errors are
        /// grouped by it across nodes.
        #[serde(skip)]
        subject: Option<String>,
        /// When the search ran out of budget: where the steps went.
        search: Option<SearchCost>,
    },
    /// Not tried: the whole command's search budget ran out first.
    Undecided {
        reason: String,
    },
}

/// Why a node cannot hold the claims, as data: the kind of defect, the
/// object it is about (a claim, a pool `driver/pool`, a request
/// `claim/request`, a class) and the words. Serialized as its words.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    pub kind: ReasonKind,
    pub subject: Option<String>,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ReasonKind {
    /// A claim allocated before admits other nodes only.
    ClaimElsewhere,
    /// An allocated claim's device binding failed or timed out: not
    /// available on any node (crate::binding).
    BindingNotReady,
    /// Upstream's "invalid resource pools were encountered".
    InvalidPools,
    /// One invalid pool of the node, whose devices the scheduler skips.
    PoolInvalid,
    /// One incomplete pool of the node, skipped the same way.
    PoolIncomplete,
    /// A request's funnel, in words.
    Funnel,
    /// A selector that does not compile.
    CelCompile,
    /// A constraint (or shared devices, or counters) rules out every
    /// combination.
    Constraint,
}

impl Reason {
    pub fn new(kind: ReasonKind, subject: Option<String>, text: String) -> Reason {
        Reason {
            kind,
            subject,
            text,
        }
    }

    /// A pool the scheduler skips (invalid or incomplete).
    pub fn skips_pool(&self) -> bool {
        matches!(
            self.kind,
            ReasonKind::PoolInvalid | ReasonKind::PoolIncomplete
        )
    }
}

impl Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// What an allocation error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    /// The search (or time) budget ran out: "timed out trying to allocate
    /// devices".
    Timeout,
    /// A selector failed on a device (a CEL runtime error).
    Selector,
    /// Any other error of the allocator (an invalid pool an All request
    /// needs, an unknown class, ...).
    Other,
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
    /// A constraint that no choice of the node's devices can satisfy,
    /// whatever the search tries: why the budget could not be enough.
    pub impossible: Option<String>,
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
    /// An allocated claim taken as deallocated (allocated again now), as
    /// PostFilter leaves a claim whose binding failed.
    deallocated: Option<&'a Object>,
}

/// The compile errors of the claims' class and request selectors, in
/// upstream's words ("class gpu: selector #0: CEL compile error: ...").
fn compile_errors(plans: &[Arc<ClaimPlan<'_>>]) -> Vec<Reason> {
    let mut out: Vec<Reason> = Vec::new();
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
                            if !out.iter().any(|r| r.text == line) {
                                out.push(Reason::new(
                                    ReasonKind::CelCompile,
                                    Some(owner.clone()),
                                    line,
                                ));
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

/// Separates a selector error's message from the device it failed on and
/// from what failed without the device, until the error leaves the search
/// (`error_outcome`): the message stays upstream's, the device and the
/// subject are fields of their own.
const DEVICE_MARK: char = '\u{1f}';

fn error_outcome(e: String) -> Outcome {
    let mut parts = e.splitn(3, DEVICE_MARK);
    let error = parts.next().unwrap_or_default().to_owned();
    match (parts.next(), parts.next()) {
        (Some(device), subject) => Outcome::Error {
            kind: ErrorKind::Selector,
            subject: Some(subject.map_or_else(|| error.clone(), str::to_owned)),
            error,
            device: Some(device.to_owned()),
            search: None,
        },
        _ => Outcome::Error {
            kind: ErrorKind::Other,
            subject: Some(error.clone()),
            error,
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
    /// Boxed, not a Vec: a Slot of one request stays small (clippy's
    /// large_enum_variant).
    capacity: Box<[(String, Quantity)]>,
    /// The request's derived attributes while DRADerivedAttributes is on
    /// (the scheduler ignores them while it is off).
    derived: Arc<Vec<Derived>>,
}

/// A derived attribute of a request: its name and compiled expression (or
/// the compiler's detail).
struct Derived {
    name: String,
    program: Selector,
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
    /// The claim decoded once, for what each node's run reads of it (its
    /// existing allocation, its config).
    claim: dra::Claim<'a>,
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
    n.scalar_text().and_then(|t| Quantity::parse_field(&t).ok())
}

fn claim_ref(o: &Object) -> String {
    format!(
        "{}/{}",
        o.namespace_or_default(),
        o.name().unwrap_or_default()
    )
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
        if let Some(why) = &self.impossible {
            msg.push_str(&format!("; no allocation exists: {why}"));
        }
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
/// the enabled ones. Each release's implementations support different
/// sets (`SupportedFeatures` in structured/internal/*/allocator_*.go of
/// release-1.34..1.36 and the 1.37 line). See docs/allocator.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Stable,
    Incubating,
    Experimental,
}

impl Variant {
    pub fn for_gates(gates: &FeatureGates) -> Variant {
        use crate::gates::Version;
        let on = |g| gates.enabled(g);
        // The features the scheduler passes. 1.34 passes binding conditions
        // and device status apart, so device status alone (on by default)
        // asks for the experimental implementation (fixed in 1.35 by
        // kubernetes b6f763e, "fix selection of incubating allocator").
        let binding = if gates.version < Version::V1_35 {
            on(Gate::DRADeviceBindingConditions) || on(Gate::DRAResourceClaimDeviceStatus)
        } else {
            on(Gate::DRADeviceBindingConditions) && on(Gate::DRAResourceClaimDeviceStatus)
        };
        let basic = on(Gate::DRAAdminAccess)
            || on(Gate::DRAPrioritizedList)
            || on(Gate::DRAPartitionableDevices)
            || on(Gate::DRADeviceTaints);
        let newer = binding || on(Gate::DRAConsumableCapacity);
        let lists = on(Gate::DRAListTypeAttributes);
        if gates.version < Version::V1_36 {
            // Stable supports nothing, incubating the four basic features,
            // experimental the rest (there are no list types before 1.36).
            match (basic, newer) {
                (false, false) => Variant::Stable,
                (_, false) => Variant::Incubating,
                _ => Variant::Experimental,
            }
        } else if lists {
            Variant::Experimental
        } else if newer {
            Variant::Incubating
        } else {
            Variant::Stable
        }
    }

    /// Whether the implementation knows distinctAttribute (the others
    /// refuse it as "empty constraint (unsupported constraint type?)"):
    /// experimental before 1.36, incubating and experimental from 1.36.
    pub fn supports_distinct(self, version: crate::gates::Version) -> bool {
        match self {
            Variant::Stable => false,
            Variant::Incubating => version >= crate::gates::Version::V1_36,
            Variant::Experimental => true,
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod derived_tests;

#[cfg(test)]
mod counter_tests;
#[cfg(test)]
mod first_available_tests;

#[cfg(test)]
mod release_tests;

#[cfg(test)]
mod test_support;
