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

use crate::allocate::{
    ConstraintBlock, ErrorKind, Funnel, Outcome, Reason, ReasonKind, SearchCost,
};

/// What kind of defect keeps a node from holding the claims. Nodes are
/// grouped by kind and subject, so names in the words do not split a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum CauseKind {
    /// No usable pool publishes any device on the node.
    NoDevices,
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
    pub gate: crate::gates::Gate,
    /// Off by the release's default, not by a `--feature-gates` override.
    pub by_default: bool,
    pub release: crate::gates::Version,
}

/// What the scheduler of `gates` ignores in `objects`: DeviceTaintRules
/// while DRADeviceTaintRules is off (its default up to 1.36).
pub fn ignored(
    objects: &[crate::model::Object],
    gates: &crate::gates::FeatureGates,
) -> Vec<Ignored> {
    use crate::gates::Gate;
    if gates.enabled(Gate::DRADeviceTaintRules) {
        return Vec::new();
    }
    let by_default = Gate::DRADeviceTaintRules
        .spec(gates.version)
        .is_none_or(|s| !s.default);
    objects
        .iter()
        .filter(|o| o.kind == crate::model::ObjectKind::DeviceTaintRule)
        .map(|o| Ignored {
            kind: "DeviceTaintRule",
            name: o.name().unwrap_or_default().to_owned(),
            gate: Gate::DRADeviceTaintRules,
            by_default,
            release: gates.version,
        })
        .collect()
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
        let mut add = |b: Blocking, node: &str| {
            let key = (b.kind, b.subject.clone());
            match index.get(&key) {
                Some(&i) => causes[i].nodes.push(node.to_owned()),
                None => {
                    index.insert(key, causes.len());
                    causes.push(Cause {
                        kind: b.kind,
                        subject: b.subject,
                        reason: b.text,
                        nodes: vec![node.to_owned()],
                    });
                }
            }
        };
        let mut allocated = Vec::new();
        let mut undecided = 0;
        let mut fatal = None;
        let mut closest: Option<Closest> = None;
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
                        node,
                    );
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
                ),
                Outcome::Error {
                    kind,
                    error,
                    device,
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
                    // Distinct errors stay apart: grouped by their words.
                    add(
                        Blocking {
                            kind: CauseKind::Error,
                            subject: Some(error.clone()),
                            text: format!("error: {error}"),
                        },
                        node,
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
                    if tried && closest.as_ref().is_none_or(|c| short < c.missing_devices) {
                        closest = Some(Closest {
                            node: node.clone(),
                            missing_devices: short,
                            reason: why.text.clone(),
                        });
                    }
                    add(why, node);
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
        if self.bypass.is_some() {
            Fate::WillNotStart
        } else if self.fits() && self.evictions.iter().any(|e| e.at_once) {
            Fate::WillBeEvicted
        } else if self.fits() {
            Fate::Schedulable
        } else {
            Fate::Pending
        }
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
            "schedulable": self.fits(),
            "nodes": self.total,
            "allocated": self.allocated.len(),
            "allocatedOn": self.allocated,
            "fatalError": self.fatal.as_ref().map(|f| json!({
                "node": f.node, "kind": f.kind, "error": f.error, "device": f.device,
                "fix": self.hint, "search": f.search,
            })),
            "causes": self.causes.iter().map(|c| json!({
                "kind": c.kind, "subject": c.subject,
                "reason": c.reason, "nodes": c.nodes.len(), "example": c.nodes[0],
            })).collect::<Vec<_>>(),
            "closest": self.closest.as_ref().map(|c| json!({
                "node": c.node, "missingDevices": c.missing_devices, "reason": c.reason,
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
            "lastAttempt": self.last_attempt.as_ref().map(|(reason, message)| json!({
                "reason": reason, "message": message,
            })),
            "preFilter": self.pre_filter.as_ref().map(|s| json!({
                "message": s.message, "error": s.error, "kind": s.kind, "fix": self.hint,
            })),
            "evictions": self.evictions,
            "ignored": self.ignored.iter().map(|i| json!({
                "kind": i.kind, "name": i.name, "gate": i.gate.name(), "byDefault": i.by_default,
            })).collect::<Vec<_>>(),
        })
    }
}

/// A device the pod gets whose NoExecute taint it tolerates only for a
/// while: the device taint eviction controller evicts the pod once
/// `tolerationSeconds` have passed since the taint's `timeAdded`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Eviction {
    pub claim: String,
    /// `driver/pool/device`.
    pub device: String,
    /// `key=value:NoExecute`.
    pub taint: String,
    /// The DeviceTaintRule that puts the taint on, if not the slice.
    pub device_taint_rule: Option<String>,
    pub time_added: String,
    pub toleration_seconds: i64,
    /// The time has already passed: the pod is evicted as soon as it runs.
    pub at_once: bool,
}

/// The NoExecute taints of the devices in `claims` (one node's allocation)
/// that a toleration with `tolerationSeconds` admits, and whether that time
/// has run out at `now` (nanoseconds since the epoch; the caller reads the
/// clock). Taints without `timeAdded` are left out (no time to count from).
pub fn evictions(
    objects: &[crate::model::Object],
    gates: &crate::gates::FeatureGates,
    claims: &[crate::allocate::ClaimAllocation],
    now: i128,
) -> Vec<Eviction> {
    use crate::gates::Gate;
    use crate::model::ObjectKind;
    let rules: Vec<crate::dra::DeviceTaintRule> = if gates.enabled(Gate::DRADeviceTaintRules) {
        objects
            .iter()
            .filter(|o| o.kind == ObjectKind::DeviceTaintRule)
            .map(crate::dra::DeviceTaintRule::decode)
            .collect()
    } else {
        Vec::new()
    };
    let mut out = Vec::new();
    for c in claims {
        for r in &c.results {
            // The device's own taints, then the rules'.
            let mut taints: Vec<(&crate::tree::Node, Option<&str>)> = Vec::new();
            for s in objects
                .iter()
                .filter(|o| o.kind == ObjectKind::ResourceSlice)
                .map(crate::dra::Slice::decode)
                .filter(|s| s.driver == r.driver.as_str() && s.pool.name == r.pool.as_str())
            {
                for d in s.devices().iter().filter(|d| d.name == r.device.as_str()) {
                    taints.extend(d.taints.iter().map(|t| (t.node, None)));
                }
            }
            for rule in &rules {
                if rule.applies_to(&r.driver, &r.pool, &r.device) {
                    if let Some(t) = &rule.taint {
                        taints.push((t.node, Some(rule.name)));
                    }
                }
            }
            let tolerations: &[serde_json::Value] = r
                .tolerations
                .as_ref()
                .and_then(serde_json::Value::as_array)
                .map_or(&[], Vec::as_slice);
            for (t, rule) in taints {
                let field = |k: &str| {
                    t.get(k)
                        .and_then(crate::tree::Node::as_str)
                        .unwrap_or_default()
                };
                let (key, value, effect) = (field("key"), field("value"), field("effect"));
                if effect != "NoExecute" {
                    continue;
                }
                let Some(added) = t
                    .get("timeAdded")
                    .and_then(crate::tree::Node::as_str)
                    .and_then(|a| crate::cel::time::parse_timestamp(a).ok().map(|n| (a, n)))
                else {
                    continue;
                };
                // The tolerations that admit it; the longest time wins, none
                // set means forever (`v1.Toleration`'s semantics).
                let admitting: Vec<Option<i64>> = tolerations
                    .iter()
                    .filter(|tol| {
                        let s = |k: &str| tol[k].as_str().unwrap_or_default();
                        let op = if s("operator").is_empty() {
                            "Equal"
                        } else {
                            s("operator")
                        };
                        (s("effect").is_empty() || s("effect") == effect)
                            && match op {
                                "Exists" => s("key").is_empty() || s("key") == key,
                                _ => s("key") == key && s("value") == value,
                            }
                    })
                    .map(|tol| tol["tolerationSeconds"].as_i64())
                    .collect();
                if admitting.is_empty() || admitting.iter().any(Option::is_none) {
                    continue;
                }
                let seconds = admitting.iter().flatten().copied().max().unwrap_or(0);
                let until = added.1 + i128::from(seconds) * 1_000_000_000;
                out.push(Eviction {
                    claim: format!("{}/{}", c.namespace, c.name),
                    device: format!("{}/{}/{}", r.driver, r.pool, r.device),
                    taint: if value.is_empty() {
                        format!("{key}:{effect}")
                    } else {
                        format!("{key}={value}:{effect}")
                    },
                    device_taint_rule: rule.map(str::to_owned),
                    time_added: added.0.to_owned(),
                    toleration_seconds: seconds,
                    at_once: until <= now,
                });
            }
        }
    }
    out
}

/// The step of the funnel where a request dropped below what it needs.
pub fn blocking_step(f: &Funnel) -> Blocking {
    let n = f.needed;
    let req = &f.request;
    let subject = Some(format!("{}/{}", f.claim, f.request));
    let at = |kind: CauseKind, text: String| Blocking {
        kind,
        subject: subject.clone(),
        text,
    };
    if f.devices == 0 {
        return at(
            CauseKind::NoDevices,
            format!("request {req:?}: no devices on the node (no usable resource pool publishes any there)"),
        );
    }
    if f.all && f.free < n && f.untainted >= n {
        // All mode: every matching device, so any held one blocks it.
        let by = if f.held_by.is_empty() {
            String::new()
        } else {
            format!(", held by {}", f.held_by.join(", "))
        };
        return at(
            CauseKind::AllInUse,
            format!(
                "request {req:?} needs all {n} matching devices, {} are in use{by}",
                n - f.free
            ),
        );
    }
    let devices = if n == 1 {
        "no device passes".to_owned()
    } else {
        format!("fewer than {n} devices pass")
    };
    let or = |detail: &Option<String>, fallback: &str| match detail {
        Some(s) => format!("request {req:?}: {s}"),
        None => format!("request {req:?}: {fallback}"),
    };
    if f.devices < n && !f.all {
        // The node has too few devices whatever the selectors say.
        let are = if f.devices == 1 { "is" } else { "are" };
        at(
            CauseKind::TooFewDevices,
            format!(
                "request {req:?} needs {n} devices, only {} {are} on the node",
                f.devices
            ),
        )
    } else if f.pass_class < n {
        at(
            CauseKind::ClassSelectors,
            format!("request {req:?}: {devices} the class selectors"),
        )
    } else if f.pass_request < n {
        at(
            CauseKind::RequestSelectors,
            format!("request {req:?}: {devices} the request selectors"),
        )
    } else if f.untainted < n {
        at(
            CauseKind::Tainted,
            match f.taint_text() {
                Some(t) => format!("request {req:?}: matching devices are tainted, {t}"),
                None => format!("request {req:?}: matching devices are tainted"),
            },
        )
    } else if f.free < n {
        // Claims being deleted hold their devices until deallocated: that
        // is the state to name (their reservedFor is stale).
        if !f.held_by_deleting.is_empty() && f.held_by_deleting.len() == f.held_by.len() {
            let each: Vec<String> = f.held_by_deleting.iter().map(deleting_text).collect();
            return at(
                CauseKind::ClaimsDeleting,
                format!(
                    "request {req:?}: matching devices are allocated to claims being deleted ({}); they are freed once the claims are deallocated",
                    each.join("; ")
                ),
            );
        }
        let mut by = if f.held_by.is_empty() {
            String::new()
        } else if f.held_by_pods.is_empty() {
            format!(" (held by {})", f.held_by.join(", "))
        } else {
            format!(
                " (held by {}, in use by pod {})",
                f.held_by.join(", "),
                f.held_by_pods.join(", ")
            )
        };
        if !f.held_by_deleting.is_empty() {
            let each: Vec<String> = f.held_by_deleting.iter().map(deleting_text).collect();
            by.push_str(&format!("; being deleted: {}", each.join("; ")));
        }
        at(
            CauseKind::InUse,
            format!("request {req:?}: matching devices are allocated{by}"),
        )
    } else if f.counters_left < n {
        at(
            CauseKind::Counters,
            or(&f.shortfall, "shared counters are used up"),
        )
    } else if f.compatible < n {
        at(
            CauseKind::CompatibilityGroups,
            or(&f.group_conflict, "compatibility groups conflict"),
        )
    } else if f.capacity_left < n {
        at(
            CauseKind::Capacity,
            or(&f.capacity_shortfall, "consumable capacity is used up"),
        )
    } else if f.constrained < n {
        at(
            CauseKind::ConstraintAttribute,
            match &f.missing_attribute {
                Some(s) => format!("request {req:?}: a constraint's attribute is missing: {s}"),
                None => format!("request {req:?}: a constraint's attribute is missing"),
            },
        )
    } else {
        at(
            CauseKind::Combination,
            format!("request {req:?}: shared counters, capacity or constraints rule out every combination"),
        )
    }
}

/// A claim being deleted: since when, and what keeps it.
fn deleting_text(d: &crate::allocate::DeletingHolder) -> String {
    let kept = match d.finalizers.as_slice() {
        [] => String::new(),
        [one] => format!(", kept by finalizer {one}"),
        more => format!(", kept by finalizers {}", more.join(", ")),
    };
    format!("{} since {}{kept}", d.claim, d.since)
}

/// Why the claims do not fit on a node, in one line, with its kind.
pub fn blocking(
    reasons: &[Reason],
    funnels: &[Funnel],
    constraints: &[ConstraintBlock],
) -> Blocking {
    // A selector that does not compile is the cause, whatever it rules out.
    if let Some(r) = reasons.iter().find(|r| r.kind == ReasonKind::CelCompile) {
        return Blocking {
            kind: CauseKind::CelCompile,
            subject: r.subject.clone(),
            text: r.text.clone(),
        };
    }
    // A firstAvailable alternative that fails is no cause while another
    // alternative of the same request has enough devices.
    let alternative_enough = |f: &Funnel| {
        f.request.split_once('/').is_some_and(|(parent, _)| {
            let prefix = format!("{parent}/");
            funnels
                .iter()
                .any(|g| g.claim == f.claim && g.request.starts_with(&prefix) && g.enough())
        })
    };
    if let Some(f) = funnels
        .iter()
        .find(|f| !f.enough() && !alternative_enough(f))
    {
        // Devices an invalid or incomplete pool hides are the cause, not
        // "too few devices".
        let pool = reasons.iter().find(|r| r.skips_pool());
        if let Some(p) = pool.filter(|_| f.pass_class < f.needed) {
            return Blocking {
                kind: CauseKind::PoolSkipped,
                subject: p.subject.clone(),
                text: format!("request {:?}: {}", f.request, p.text),
            };
        }
        // A firstAvailable request fails only when every alternative does:
        // name why each one does, not only the first.
        if let Some((parent, _)) = f.request.split_once('/') {
            let prefix = format!("{parent}/");
            let alternatives: Vec<&Funnel> = funnels
                .iter()
                .filter(|g| g.claim == f.claim && g.request.starts_with(&prefix))
                .collect();
            if alternatives.len() > 1 {
                let each: Vec<String> =
                    alternatives.iter().map(|g| blocking_step(g).text).collect();
                return Blocking {
                    kind: CauseKind::Alternatives,
                    subject: Some(format!("{}/{parent}", f.claim)),
                    text: format!(
                        "request {parent:?}: none of its {} alternatives fits: {}",
                        alternatives.len(),
                        each.join("; ")
                    ),
                };
            }
        }
        return blocking_step(f);
    }
    if let Some(c) = constraints.first() {
        return Blocking {
            kind: CauseKind::Constraint,
            subject: Some(format!("{}: {}", c.claim, c.kind)),
            text: c.message.clone(),
        };
    }
    if !funnels.is_empty() {
        return Blocking {
            kind: CauseKind::Combination,
            subject: None,
            text: "every request has enough devices on its own, but shared counters, capacity or constraints rule out every combination".to_owned(),
        };
    }
    match reasons.first() {
        Some(r) => Blocking {
            kind: match r.kind {
                ReasonKind::ClaimElsewhere => CauseKind::ClaimElsewhere,
                ReasonKind::PoolInvalid | ReasonKind::PoolIncomplete => CauseKind::PoolSkipped,
                _ => CauseKind::Other,
            },
            subject: r.subject.clone(),
            text: r.text.clone(),
        },
        None => Blocking {
            kind: CauseKind::Other,
            subject: None,
            text: "no allocation".to_owned(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request whose matching devices are held by `holder` on a node.
    fn held(holder: &str) -> Outcome {
        let f = Funnel {
            claim: "default/train".into(),
            request: "gpu".into(),
            devices: 1,
            pass_class: 1,
            pass_request: 1,
            untainted: 1,
            free: 0,
            held_by: vec![holder.into()],
            needed: 1,
            ..Funnel::default()
        };
        Outcome::Unsatisfiable {
            reasons: Vec::new(),
            funnels: vec![f],
            constraints: Vec::new(),
        }
    }

    /// Issue 31, class 6: a holder's name in the words no longer splits the
    /// nodes into one line each; they group by the kind and the request.
    #[test]
    fn causes_group_by_kind_and_subject_not_by_words() {
        let per_node: Vec<(String, Outcome)> = ["a", "b", "c"]
            .iter()
            .map(|n| (format!("node-{n}"), held(&format!("default/job-{n}"))))
            .collect();
        let v = Verdict::build(&per_node, &[], 0, true);
        assert_eq!(v.causes.len(), 1, "{:?}", v.causes);
        let c = &v.causes[0];
        assert_eq!(c.kind, CauseKind::InUse);
        assert_eq!(c.subject.as_deref(), Some("default/train/gpu"));
        assert_eq!(c.nodes, ["node-a", "node-b", "node-c"]);
        assert_eq!(v.json()["causes"][0]["kind"], "inUse");
        assert_eq!(v.json()["causes"][0]["subject"], "default/train/gpu");
    }

    /// A filter timeout is told by its kind, not by its words: before 1.37
    /// it only rules the node out, from 1.37 it aborts the attempt.
    #[test]
    fn a_timeout_is_known_by_its_kind() {
        let timeout = Outcome::Error {
            kind: ErrorKind::Timeout,
            error: "any words".into(),
            device: None,
            search: None,
        };
        let per_node = vec![("node-a".to_owned(), timeout)];
        let before = Verdict::build(&per_node, &[], 0, false);
        assert!(before.fatal.is_none());
        assert_eq!(before.causes[0].kind, CauseKind::FilterTimeout);
        let after = Verdict::build(&per_node, &[], 0, true);
        assert_eq!(
            after.fatal.as_ref().map(|f| f.kind),
            Some(ErrorKind::Timeout)
        );
        assert_eq!(after.json()["fatalError"]["kind"], "timeout");
    }

    /// A pool the scheduler skips is the cause when it hides the devices a
    /// request needs: known by the reason's kind.
    #[test]
    fn a_skipped_pool_is_the_cause() {
        let f = Funnel {
            claim: "default/train".into(),
            request: "gpu".into(),
            needed: 2,
            ..Funnel::default()
        };
        let pool = Reason::new(
            ReasonKind::PoolIncomplete,
            Some("gpu.example.com/node-a".into()),
            "resource pool gpu.example.com/node-a is incomplete".into(),
        );
        let b = blocking(&[pool], &[f], &[]);
        assert_eq!(b.kind, CauseKind::PoolSkipped);
        assert_eq!(b.subject.as_deref(), Some("gpu.example.com/node-a"));
    }
}
