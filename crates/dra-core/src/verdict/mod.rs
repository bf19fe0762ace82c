//! The verdict across nodes, as kube-scheduler reaches it, and its causes as
//! typed data: what `explain` says, in words (rendered by the CLI) and in
//! JSON ([`Verdict::json`]), is derived from this, never recognised by its
//! wording.
//!
//! An error on any node (a CEL runtime error, an invalid pool an All request
//! needs, ...) makes the DynamicResources filter return an error status, and
//! the scheduling framework then aborts the attempt for every node
//! (`findNodesThatPassFilters`): the pod stays pending even where the
//! claims would fit. Otherwise the claims fit where any node allocates them.

use serde::Serialize;
use serde_json::{json, Value};

use crate::allocate::{ErrorKind, Funnel, Outcome, SearchCost};

/// What kind of defect keeps a node from holding the claims. Nodes are
/// grouped by kind and subject, so names in the words do not split a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CauseKind {
    /// No usable pool publishes any device on the node.
    NoDevices,
    /// The node has devices, but none of the request's class (another
    /// driver's only, say): the class's slice for the node may be missing.
    NoClassDevices,
    /// Fewer devices on the node than the request needs.
    TooFewDevices,
    ClassSelectors,
    RequestSelectors,
    Tainted,
    /// Matching devices are allocated to other claims.
    InUse,
    /// An All request: some matching device is in use.
    AllInUse,
    /// Matching devices are held by claims being deleted (kept by
    /// finalizers until deallocated).
    ClaimsDeleting,
    Counters,
    CompatibilityGroups,
    Capacity,
    ConstraintAttribute,
    /// Enough devices for each request, but no combination of them.
    Combination,
    /// Every firstAvailable alternative fails.
    Alternatives,
    /// An invalid or incomplete pool hides the devices.
    PoolSkipped,
    CelCompile,
    /// A claim allocated before admits other nodes only.
    ClaimElsewhere,
    /// An allocated claim's device binding failed or timed out.
    BindingNotReady,
    /// A constraint (matchAttribute, distinctAttribute, shared devices,
    /// counters) rules out every combination.
    Constraint,
    /// The allocator fails with an error on the node.
    Error,
    /// A filter timeout, unschedulable for this node only (before 1.36).
    FilterTimeout,
    /// Not tried: the command's search budget ran out.
    NotTried,
    /// The pod's own constraints (node selector, affinity, taints) exclude
    /// the node.
    PodExcluded,
    /// The pod asks for an extended resource that no DeviceClass backs and
    /// the node does not advertise (kube-scheduler's "Insufficient NAME").
    InsufficientResource,
    Other,
}

/// Nodes that fail for the same kind of reason about the same object.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    pub kind: CauseKind,
    /// The object the cause is about: a request (`ns/claim/request`), a
    /// pool (`driver/pool`), a claim, a class.
    pub subject: Option<String>,
    /// The words for the first node of the group.
    pub reason: String,
    pub nodes: Vec<String>,
    /// What the words name, as fields, for the first node of the group: the
    /// request's funnel counts, holders, taints and their sources, claims
    /// being deleted, counter and capacity shortfalls (issue 31, class 7).
    pub facts: Option<Value>,
    /// When selectors keep every device of these nodes out: the selector
    /// term that does, and what the devices hold there instead.
    pub selector_miss: Option<crate::selector_miss::SelectorMiss>,
}

/// The error that aborts the attempt: the first node it happens on.
#[derive(Clone, Debug, PartialEq)]
pub struct Fatal {
    pub node: String,
    pub kind: ErrorKind,
    pub error: String,
    /// The device a selector failed on.
    pub device: Option<String>,
    /// When the search ran out of budget: where the steps went.
    pub search: Option<SearchCost>,
}

/// The unsatisfiable node missing the fewest devices.
#[derive(Clone, Debug, PartialEq)]
pub struct Closest {
    pub node: String,
    pub missing_devices: usize,
    /// What blocks it there: the defect to name for the pod (the most
    /// common cause is often only that other nodes lack the driver).
    pub kind: CauseKind,
    pub reason: String,
}

/// One line of why the claims do not fit on a node, as data.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocking {
    pub kind: CauseKind,
    pub subject: Option<String>,
    pub text: String,
}

#[derive(Clone, Debug, Default)]
pub struct Verdict {
    /// Nodes the pod may use and the allocator tried, plus those excluded.
    pub total: usize,
    pub allocated: Vec<String>,
    pub fatal: Option<Fatal>,
    /// How to fix the fatal error (or the PreFilter stop), when known.
    pub hint: Option<String>,
    /// Sorted by node count, most first.
    pub causes: Vec<Cause>,
    pub closest: Option<Closest>,
    /// Nodes without a Node object, where the pod's node constraints were not checked.
    pub unchecked: usize,
    /// Nodes not tried: the command's search budget ran out first.
    pub undecided: usize,
    /// The pod's claims allocated before, each with the tried nodes its
    /// allocation admits.
    pub allocated_claims: Vec<(String, Vec<String>)>,
    /// When requests find no device on any node: devices of their classes
    /// that no node can use, and why.
    pub stranded: Vec<String>,
    /// Nodes the pod's own constraints exclude where the claims would be
    /// allocated, with the constraint.
    pub fits_where_excluded: Vec<(String, String)>,
    /// Set when the scheduler's PreFilter stops the pod before any node is tried.
    pub pre_filter: Option<crate::prefilter::Stop>,
    /// Set when the pod was created with spec.nodeName and claims nothing
    /// will allocate.
    pub bypass: Option<crate::prefilter::Bypass>,
    /// The pod's scheduling gates (`spec.schedulingGates`): while it has any,
    /// the scheduler does not try it at all (its SchedulingGates PreEnqueue
    /// plugin; PodScheduled False, reason SchedulingGated). The rest of the
    /// verdict is what the scheduler decides once they are removed.
    pub gated: Vec<String>,
    /// The pod's scheduler when it is not kube-scheduler's default profile
    /// (`spec.schedulerName`): the verdict is what kube-scheduler would
    /// decide; whether that scheduler decides alike is its own affair.
    pub scheduler: Option<String>,
    /// Set when the pod is bound and the kubelet reports that it cannot
    /// prepare its devices (its latest `FailedPrepareDynamicResources`).
    pub not_prepared: Option<crate::prepare::PrepareFailure>,
    /// The scheduler's own last word on the pod (PodScheduled False): (reason, message).
    pub last_attempt: Option<(String, String)>,
    /// Objects of the inventory the release's scheduler ignores (a gate
    /// off): they change nothing, and the answer says so.
    pub ignored: Vec<Ignored>,
    /// The verdict is about a pod (`explain pod`), not claims alone: its
    /// fate is said in the operator's words.
    pub pod: bool,
    /// Devices the pod would get on the node it goes to whose NoExecute
    /// taint it tolerates only for a while.
    pub evictions: Vec<Eviction>,
    /// Devices of that allocation whose binding kube-scheduler waits for
    /// (binding conditions not all True yet).
    pub binding_waits: Vec<crate::binding::BindingWait>,
    /// Faults of the release's scheduler that the claims meet: the answer
    /// is that scheduler's, and says so.
    pub release_faults: Vec<ReleaseFault>,
}

/// What happens to the pod, in the operator's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Fate {
    /// The scheduler can place it: its claims are allocated on a node.
    Schedulable,
    /// It stays Pending: no node, a PreFilter stop, or an error that
    /// aborts every attempt.
    Pending,
    /// It was bound with spec.nodeName and its claims are never allocated:
    /// it will not start (ContainerCreating).
    WillNotStart,
    /// It is scheduled, but a device's NoExecute taint is tolerated for a
    /// time that has already run out: it is evicted as soon as it runs.
    WillBeEvicted,
}

/// An object kube-scheduler does not apply, and the gate that decides it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ignored {
    pub kind: &'static str,
    pub name: String,
    /// The field ignored, when the object itself is read.
    pub field: Option<&'static str>,
    pub gate: crate::gates::Gate,
    /// Off by the release's default, not by a `--feature-gates` override.
    pub by_default: bool,
    pub release: crate::gates::Version,
}

/// What the scheduler of `gates` ignores in `objects`: DeviceTaintRules
/// while their gate is off (DRADeviceTaints in 1.34, DRADeviceTaintRules
/// from 1.35: off by default up to 1.36), and the taints slices publish on
/// their devices while DRADeviceTaints is off (its default up to 1.35; the
/// allocator's `DeviceTaints` feature).
pub fn ignored(
    objects: &[crate::model::Object],
    gates: &crate::gates::FeatureGates,
) -> Vec<Ignored> {
    use crate::gates::Gate;
    use crate::model::ObjectKind;
    let off_by_default = |gate: Gate| gate.spec(gates.version).is_none_or(|s| !s.default);
    let mut out = Vec::new();
    if !gates.taint_rules_applied() {
        let gate = gates.taint_rules_gate();
        out.extend(
            objects
                .iter()
                .filter(|o| o.kind == ObjectKind::DeviceTaintRule)
                .map(|o| Ignored {
                    kind: "DeviceTaintRule",
                    name: o.name().unwrap_or_default().to_owned(),
                    field: None,
                    gate,
                    by_default: off_by_default(gate),
                    release: gates.version,
                }),
        );
    }
    if !gates.enabled(Gate::DRADeviceTaints) {
        let tainted = |o: &&crate::model::Object| {
            o.spec()
                .and_then(|s| s.get("devices"))
                .and_then(|d| d.as_seq())
                .is_some_and(|devices| {
                    devices.iter().any(|d| {
                        d.get("taints")
                            .and_then(|t| t.as_seq())
                            .is_some_and(|t| !t.is_empty())
                    })
                })
        };
        out.extend(
            objects
                .iter()
                .filter(|o| o.kind == ObjectKind::ResourceSlice)
                .filter(tainted)
                .map(|o| Ignored {
                    kind: "ResourceSlice",
                    name: o.name().unwrap_or_default().to_owned(),
                    field: Some("spec.devices[].taints"),
                    gate: Gate::DRADeviceTaints,
                    by_default: off_by_default(Gate::DRADeviceTaints),
                    release: gates.version,
                }),
        );
    }
    out
}

/// The facts of the request a cause is about (`ns/claim/request`), as JSON
/// fields; empty lists and unset values are left out.
fn facts_of(funnels: &[Funnel], subject: Option<&str>) -> Option<Value> {
    let f = funnels
        .iter()
        .find(|f| Some(format!("{}/{}", f.claim, f.request).as_str()) == subject)?;
    let mut v = json!({
        "claim": f.claim, "request": f.request, "needed": f.needed,
        "devicesOnNode": f.devices, "passClass": f.pass_class,
        "passRequest": f.pass_request, "untainted": f.untainted, "notInUse": f.free,
    });
    let mut put = |k: &str, x: Value| {
        let empty = x.is_null() || x.as_array().is_some_and(Vec::is_empty);
        if !empty {
            v[k] = x;
        }
    };
    put("heldBy", json!(f.held_by));
    put("heldByPods", json!(f.held_by_pods));
    put("heldByDeleting", json!(f.held_by_deleting));
    put("taintSources", json!(f.taint_sources));
    put("counterShortfall", json!(f.shortfall));
    put("capacityShortfall", json!(f.capacity_shortfall));
    put("missingAttribute", json!(f.missing_attribute));
    Some(v)
}

/// Devices a node lacks: per request, what it needs minus what survives
/// the whole funnel.
pub fn shortfall(funnels: &[Funnel]) -> usize {
    funnels
        .iter()
        .map(|f| {
            f.needed
                .saturating_sub(f.steps().last().map_or(0, |s| s.count))
        })
        .sum()
}

/// How far a node's devices get through the funnels: per request, the
/// steps passed with enough devices. Of two nodes equally short, the one
/// whose devices get further (blocked by counters, not by the class) is the
/// closer.
fn progress(funnels: &[Funnel]) -> usize {
    funnels
        .iter()
        .map(|f| f.steps().iter().take_while(|s| s.count >= f.needed).count())
        .sum()
}

impl Verdict {
    /// `timeout_fatal`: whether the release's scheduler treats a filter
    /// timeout as an error for the attempt (from 1.36 Filter returns
    /// `statusError("node N: timed out ...")`) or, as before, as this node
    /// being unschedulable (`statusUnschedulable`).
    pub fn build(
        per_node: &[(String, Outcome)],
        excluded: &[(String, String)],
        unchecked: usize,
        timeout_fatal: bool,
    ) -> Verdict {
        let mut causes: Vec<Cause> = Vec::new();
        // Grouped by kind and subject; the index keeps it linear in nodes.
        let mut index: std::collections::HashMap<(CauseKind, Option<String>), usize> =
            std::collections::HashMap::new();
        let mut add = |b: Blocking, node: &str, facts: Option<Value>| {
            let key = (b.kind, b.subject.clone());
            match index.get(&key) {
                Some(&i) => {
                    let c = &mut causes[i];
                    c.nodes.push(node.to_owned());
                    // The node's own device count does not speak for a group
                    // of nodes with other counts: their common words stay.
                    if c.kind == CauseKind::NoClassDevices && c.reason != b.text {
                        if let Some(at) = c.reason.find(" (none of the node") {
                            c.reason.truncate(at);
                        }
                    }
                }
                None => {
                    index.insert(key, causes.len());
                    causes.push(Cause {
                        kind: b.kind,
                        subject: b.subject,
                        reason: b.text,
                        nodes: vec![node.to_owned()],
                        facts,
                        selector_miss: None,
                    });
                }
            }
        };
        let mut allocated = Vec::new();
        let mut undecided = 0;
        let mut fatal = None;
        let mut closest: Option<Closest> = None;
        let mut closest_progress = 0;
        for (node, o) in per_node {
            match o {
                Outcome::Allocated { .. } => allocated.push(node.clone()),
                Outcome::Undecided { .. } => {
                    undecided += 1;
                    add(
                        Blocking {
                            kind: CauseKind::NotTried,
                            subject: None,
                            text: "not tried: the search budget for all nodes ran out first (use --node to try one)".into(),
                        },
                        node, None);
                }
                Outcome::Error {
                    kind: ErrorKind::Timeout,
                    error,
                    ..
                } if !timeout_fatal => add(
                    Blocking {
                        kind: CauseKind::FilterTimeout,
                        subject: None,
                        text: error.clone(),
                    },
                    node,
                    None,
                ),
                Outcome::Error {
                    kind,
                    error,
                    device,
                    subject,
                    search,
                } => {
                    if fatal.is_none() {
                        fatal = Some(Fatal {
                            node: node.clone(),
                            kind: *kind,
                            error: error.clone(),
                            device: device.clone(),
                            search: search.clone(),
                        });
                    }
                    // Distinct errors stay apart: grouped by what failed
                    // (the same selector error on another device is one).
                    add(
                        Blocking {
                            kind: CauseKind::Error,
                            subject: Some(subject.clone().unwrap_or_else(|| error.clone())),
                            text: format!("error: {error}"),
                        },
                        node,
                        None,
                    );
                }
                Outcome::Unsatisfiable {
                    reasons,
                    funnels,
                    constraints,
                } => {
                    let why = blocking(reasons, funnels, constraints);
                    let short = shortfall(funnels);
                    // A node ruled out before any device was sought (a claim
                    // allocated for another node) is not close.
                    let tried = !funnels.is_empty() || !constraints.is_empty();
                    let progress = progress(funnels);
                    let closer = closest.as_ref().is_none_or(|c| {
                        short < c.missing_devices
                            || (short == c.missing_devices && progress > closest_progress)
                    });
                    if tried && closer {
                        closest_progress = progress;
                        closest = Some(Closest {
                            node: node.clone(),
                            missing_devices: short,
                            kind: why.kind,
                            reason: why.text.clone(),
                        });
                    }
                    let facts = facts_of(funnels, why.subject.as_deref());
                    add(why, node, facts);
                }
            }
        }
        for (node, reason) in excluded {
            add(
                Blocking {
                    kind: CauseKind::PodExcluded,
                    subject: Some(reason.clone()),
                    text: format!("the pod cannot run there: {reason}"),
                },
                node,
                None,
            );
        }
        causes.sort_by_key(|c| std::cmp::Reverse(c.nodes.len()));
        Verdict {
            total: per_node.len() + excluded.len(),
            allocated,
            fatal,
            causes,
            closest,
            unchecked,
            undecided,
            ..Verdict::default()
        }
    }

    /// What happens to the pod.
    pub fn fate(&self) -> Fate {
        if self.bypass.is_some() || self.not_prepared.is_some() {
            Fate::WillNotStart
        } else if !self.gated.is_empty() {
            Fate::Pending
        } else if self.fits() && self.evictions.iter().any(|e| e.at_once) {
            Fate::WillBeEvicted
        } else if self.fits() {
            Fate::Schedulable
        } else {
            Fate::Pending
        }
    }

    /// Whether the scheduler would place it now: its devices fit somewhere
    /// and no scheduling gate holds it back.
    pub fn schedulable(&self) -> bool {
        self.fits() && self.gated.is_empty()
    }

    /// Whether the pod gets its devices somewhere.
    pub fn fits(&self) -> bool {
        self.pre_filter.is_none()
            && self.bypass.is_none()
            && self.fatal.is_none()
            && !self.allocated.is_empty()
    }

    /// The same facts as JSON fields.
    pub fn json(&self) -> Value {
        json!({
            "fate": self.fate(),
            "schedulable": self.schedulable(),
            "schedulingGates": self.gated,
            "schedulerName": self.scheduler,
            "nodes": self.total,
            "allocated": self.allocated.len(),
            "allocatedOn": self.allocated,
            "fatalError": self.fatal.as_ref().map(|f| json!({
                "node": f.node, "kind": f.kind, "error": f.error, "device": f.device,
                "fix": self.hint, "search": f.search,
            })),
            "causes": self.causes.iter().map(|c| {
                let mut v = json!({
                    "kind": c.kind, "subject": c.subject,
                    "reason": c.reason, "nodes": c.nodes.len(), "example": c.nodes[0],
                });
                if let Some(f) = &c.facts {
                    v["facts"] = f.clone();
                }
                if let Some(m) = &c.selector_miss {
                    v["selectorMiss"] = json!(m);
                }
                v
            }).collect::<Vec<_>>(),
            "closest": self.closest.as_ref().map(|c| json!({
                "node": c.node, "missingDevices": c.missing_devices, "kind": c.kind,
                "reason": c.reason,
            })),
            "allocatedClaims": self.allocated_claims.iter().map(|(claim, nodes)| json!({
                "claim": claim, "admits": nodes,
            })).collect::<Vec<_>>(),
            "stranded": self.stranded,
            "fitsWhereExcluded": self.fits_where_excluded.iter().map(|(node, why)| json!({
                "node": node, "reason": why,
            })).collect::<Vec<_>>(),
            "uncheckedNodes": self.unchecked,
            "undecidedNodes": self.undecided,
            "bypassed": self.bypass.as_ref().map(|b| json!({
                "nodeName": b.node, "unallocated": b.unallocated,
            })),
            "notPrepared": self.not_prepared.as_ref().map(|f| json!({
                "node": f.node,
                "driverNotRegistered": match &f.failure {
                    crate::prepare::Failure::DriverNotRegistered { driver } => Some(driver),
                    crate::prepare::Failure::Other => None,
                },
                "message": f.message, "count": f.count, "lastSeen": f.last_seen,
            })),
            "lastAttempt": self.last_attempt.as_ref().map(|(reason, message)| json!({
                "reason": reason, "message": message,
            })),
            "preFilter": self.pre_filter.as_ref().map(|s| json!({
                "message": s.message, "error": s.error, "kind": s.kind, "fix": self.hint,
                "stage": if s.kind.pre_enqueue() { "PreEnqueue" } else { "PreFilter" },
            })),
            "evictions": self.evictions,
            "bindingWaits": self.binding_waits,
            "releaseFaults": self.release_faults.iter().map(|f| json!({
                "kind": f.kind, "claim": f.claim, "request": f.request,
                "release": f.release.to_string(), "fixedIn": f.fixed_in.to_string(),
                "fix": f.fix, "message": f.text(),
            })).collect::<Vec<_>>(),
            "ignored": self.ignored.iter().map(|i| {
                let mut v = json!({
                    "kind": i.kind, "name": i.name, "gate": i.gate.name(), "byDefault": i.by_default,
                });
                if let Some(field) = i.field {
                    v["field"] = json!(field);
                }
                v
            }).collect::<Vec<_>>(),
        })
    }
}

mod advice;
mod blocking;
mod eviction;
mod release_faults;
#[cfg(test)]
mod tests;

pub use advice::{advise, Advice, AdviceKind};
pub use blocking::{blocking, blocking_step};
pub use eviction::{evictions, Eviction};
pub use release_faults::{release_faults, FaultKind, ReleaseFault};
