//! The allocator's entry points: one node, many nodes (nodes alike share
//! one search), what-if runs for advice, and the per-node solve that builds
//! the search from the node's pools and the claims allocated before.

use super::*;

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
    pub(super) objects: &'a [Object],
    pub(super) gates: &'a FeatureGates,
    pub(super) plans: Result<Vec<Arc<ClaimPlan<'a>>>, String>,
    pub(super) cluster: Arc<Cluster<'a>>,
    pub(super) limits: Limits,
    /// The time (nanoseconds since the epoch) binding timeouts are judged
    /// at; `None`: none is.
    pub(super) now: Option<i128>,
    /// Searches run by [`on_nodes`](Self::on_nodes) (nodes alike share one).
    pub(super) searches: std::sync::atomic::AtomicUsize,
    /// Per claim (by plan index): its allocation admits no node of the
    /// cluster. Judged once, not on each of the nodes tried.
    orphaned: Vec<std::sync::OnceLock<bool>>,
}

/// What every run over the same inventory reads, whatever the claims: the
/// pool index, node labels, the devices allocated claims hold, and (built
/// when many nodes are tried) the shapes of node-local pools. Build it once
/// to explain many claims over one inventory ([`Allocator::over`]).
pub struct Cluster<'a> {
    pub(super) objects: &'a [Object],
    pub(super) index: pools::PoolIndex<'a>,
    pub(super) shared: Shared<'a>,
    pub(super) shapes: std::sync::OnceLock<pools::Shapes<'a>>,
}

impl<'a> Cluster<'a> {
    pub fn new(objects: &'a [Object]) -> Self {
        Cluster {
            objects,
            index: pools::PoolIndex::new(objects),
            shared: Shared::new(objects),
            shapes: std::sync::OnceLock::new(),
        }
    }

    /// The objects the inventory was built from.
    pub fn objects(&self) -> &'a [Object] {
        self.objects
    }

    /// The node-local pools' shapes, built on first use.
    pub fn shapes(&self) -> &pools::Shapes<'a> {
        self.shapes
            .get_or_init(|| pools::Shapes::new(&self.index, &|k| self.shared.held.contains_key(k)))
    }
}

/// An allocation result of a claim already allocated in the cluster, with
/// the pods the claim is reserved for (`namespace/name`, shared by the
/// claim's results: read once, not on every node that meets the device).
pub(super) type HeldResult<'a> = (&'a Object, dra::AllocationResult<'a>, Arc<[String]>);

/// What every node's run reads: node labels and claims with an allocation.
pub(super) struct Shared<'a> {
    pub(super) labels: HashMap<&'a str, &'a Node>,
    /// The results of allocated claims by (driver, pool), in claim order:
    /// built once, so that trying each of many nodes only visits its pools.
    pub(super) held: HashMap<(&'a str, &'a str), Vec<HeldResult<'a>>>,
}

impl<'a> Shared<'a> {
    pub(super) fn new(objects: &'a [Object]) -> Self {
        Shared {
            labels: crate::model::node_labels(objects)
                .filter_map(|(name, labels)| Some((name, labels?)))
                .collect(),
            held: {
                let mut held: HashMap<(&str, &str), Vec<HeldResult<'a>>> = HashMap::new();
                for o in objects
                    .iter()
                    .filter(|o| o.kind == ObjectKind::ResourceClaim)
                {
                    let claim = dra::Claim::decode(o);
                    let reserved: Arc<[String]> = claim.reserved_pods().into();
                    let Some(allocation) = claim.allocation else {
                        continue;
                    };
                    for r in allocation.results {
                        if let (Some(driver), Some(pool)) = (r.driver, r.pool) {
                            let entry = (o, r, Arc::clone(&reserved));
                            held.entry((driver, pool)).or_default().push(entry);
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
        Self::over(Arc::new(Cluster::new(objects)), gates, claims)
    }

    /// An allocator for these claims over an inventory built before.
    pub fn over(cluster: Arc<Cluster<'a>>, gates: &'a FeatureGates, claims: &[&'a Object]) -> Self {
        let objects = cluster.objects;
        let plans: Result<Vec<_>, String> = plan(objects, gates, claims)
            .map(|p| p.into_iter().map(Arc::new).collect())
            .map_err(|Fatal(e)| e);
        let orphaned = (0..plans.as_ref().map_or(0, Vec::len))
            .map(|_| std::sync::OnceLock::new())
            .collect();
        Allocator {
            objects,
            gates,
            plans,
            cluster,
            limits: Limits::default(),
            now: None,
            searches: Default::default(),
            orphaned,
        }
    }

    /// The search budget of each node tried (steps, and optionally time).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// What the attempt after PostFilter deallocates a claim whose binding
    /// failed or timed out would do on the node, in words to append.
    fn after_deallocation(
        &self,
        node: &str,
        what_if: WhatIf<'a>,
        claim: &'a Object,
        why: Option<&crate::binding::NotReady>,
    ) -> String {
        let again = WhatIf {
            deallocated: Some(claim),
            ..what_if
        };
        let Outcome::Allocated { claims } = self.on_node_if(node, again) else {
            return "; the next attempt finds no fit for it on this node".to_owned();
        };
        let name = claim_ref(claim);
        let devices: Vec<String> = claims
            .iter()
            .filter(|c| format!("{}/{}", c.namespace, c.name) == name)
            .flat_map(|c| &c.results)
            .map(|r| format!("{}/{}/{}", r.driver, r.pool, r.device))
            .collect();
        let same = match why {
            Some(crate::binding::NotReady::Failed { device, .. }) => devices.contains(device),
            _ => false,
        };
        format!(
            "; the next attempt would allocate it {} on this node{}",
            devices.join(", "),
            if same {
                " again, the device that failed: the failure goes with the deallocated status, and only a taint from its driver keeps the scheduler off it"
            } else {
                ""
            }
        )
    }

    /// An allocation whose node selector admits no node of the cluster (its
    /// node is gone) and that no pod has reserved: every node fails Filter
    /// for it ("resourceclaim not available on the node"), so PostFilter
    /// deallocates it after the attempt (dynamicresources.go PostFilter:
    /// an unavailable claim with an empty reservedFor) and the next attempt
    /// allocates it afresh. In words to append; empty otherwise (a node
    /// it admits may still take the pod, and then PostFilter never runs).
    fn stale_allocation(
        &self,
        index: usize,
        sel: &Node,
        claim: &crate::dra::Claim<'_>,
        obj: &'a Object,
        node: &str,
        what_if: WhatIf<'a>,
    ) -> String {
        if !claim.reserved_for.is_empty() || what_if.deallocated.is_some() {
            return String::new();
        }
        let orphaned = self.orphaned.get(index).is_some_and(|o| {
            *o.get_or_init(|| {
                let labels = &self.cluster.shared.labels;
                let mut nodes = self
                    .objects
                    .iter()
                    .filter(|o| o.kind == crate::model::ObjectKind::Node)
                    .filter_map(Object::name)
                    .peekable();
                // No Node in the inventory: nothing tells the node is gone.
                nodes.peek().is_some()
                    && !nodes.any(|n| pools::node_selector_matches(sel, n, labels.get(n).copied()))
            })
        });
        if !orphaned {
            return String::new();
        }
        format!(
            "; its allocation admits no node of the cluster and no pod has it reserved, so kube-scheduler deallocates it after the attempt (PostFilter){}",
            self.after_deallocation(node, what_if, obj, None)
        )
    }

    /// Judge device binding timeouts at `now` (nanoseconds since the
    /// epoch; the caller reads the clock).
    pub fn at_time(mut self, now: i128) -> Self {
        self.now = Some(now);
        self
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
            ..WhatIf::default()
        };
        matches!(self.on_node_if(node, what_if), Outcome::Allocated { .. })
    }

    /// Whether the claims would fit on the node if their requests tolerated
    /// every device taint.
    pub fn fits_tolerating_taints(&self, node: &str) -> bool {
        let what_if = WhatIf {
            ignore_taints: true,
            ..WhatIf::default()
        };
        matches!(self.on_node_if(node, what_if), Outcome::Allocated { .. })
    }

    pub(super) fn on_node_if(&self, node: &str, what_if: WhatIf<'a>) -> Outcome {
        let plans = match &self.plans {
            Ok(p) => p.clone(),
            Err(e) => return error_outcome(e.clone()),
        };
        let _ = self.objects;
        // A claim allocated before is not allocated again: it keeps its
        // devices (which stay in use) and admits only the nodes its
        // allocation's node selector does, as the scheduler's filter checks.
        let labels = self.cluster.shared.labels.get(node).copied();
        let mut fixed: Vec<(usize, ClaimAllocation)> = Vec::new();
        let mut todo = Vec::new();
        for (i, p) in plans.into_iter().enumerate() {
            let claim = &p.claim;
            let deallocated = what_if.deallocated.is_some_and(|d| std::ptr::eq(d, p.obj));
            match claim.allocation.as_ref().filter(|_| !deallocated) {
                Some(a) => {
                    if let Some(sel) = a.node_selector {
                        if !pools::node_selector_matches(sel, node, labels) {
                            let next = self.stale_allocation(i, sel, claim, p.obj, node, what_if);
                            return Outcome::Unsatisfiable {
                                reasons: vec![Reason::new(
                                    ReasonKind::ClaimElsewhere,
                                    Some(claim_ref(p.obj)),
                                    format!(
                                        "claim {} is already allocated for another node: resourceclaim not available on the node{next}",
                                        claim_ref(p.obj)
                                    ),
                                )],
                                funnels: Vec::new(),
                                constraints: Vec::new(),
                            };
                        }
                    }
                    // Filter: a claim whose device binding failed or timed
                    // out is not available on this node either.
                    if let Some(why) = crate::binding::not_ready(claim, self.gates, self.now) {
                        let next = self.after_deallocation(node, what_if, p.obj, Some(&why));
                        return Outcome::Unsatisfiable {
                            reasons: vec![Reason::new(
                                ReasonKind::BindingNotReady,
                                Some(claim_ref(p.obj)),
                                format!("{}{next}", why.describe(&claim_ref(p.obj))),
                            )],
                            funnels: Vec::new(),
                            constraints: Vec::new(),
                        };
                    }
                    fixed.push((i, existing_allocation(claim, a)));
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
                &self.cluster.shared,
                self.gates,
                todo,
                &self.cluster.index,
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

pub(super) fn run<'a>(input: &'a Input<'a>) -> Result<Outcome, Fatal> {
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

pub(super) fn solve_node<'a>(
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
    let mut holder_deleting: HashMap<String, DeletingHolder> = HashMap::new();
    let mut shared_used: HashMap<DevRef, BTreeMap<String, Quantity>> = HashMap::new();
    let allocating: Vec<*const Object> = plans.iter().map(|p| p.obj as *const Object).collect();
    let mut consumed_counters: Vec<(usize, usize)> = Vec::new();
    let mut shared_counted: HashSet<(usize, usize)> = HashSet::new();
    // A pool gathered twice (same driver and name) takes the first, as before.
    let mut seen_pools: HashSet<(&str, &str)> = HashSet::new();
    for first in 0..pools.len() {
        let key = (pools[first].driver, pools[first].name);
        if !seen_pools.insert(key) {
            continue;
        }
        for (o, r, reserved) in shared.held.get(&key).map(Vec::as_slice).unwrap_or_default() {
            let o: &Object = o;
            if allocating.contains(&(o as *const Object))
                || what_if.without.is_some_and(|w| std::ptr::eq(w, o))
            {
                continue;
            }
            let Some(device) = r.device else {
                continue;
            };
            if r.admin_access == Some(true) {
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
            if r.shared {
                // A shared device draws on its counters once, however many
                // shares it has: from 1.36 (dynamic-resource-allocation
                // 89c46e8, picked to release-1.36 as 3caec45) the allocator
                // counts it as allocated when rebuilding counters
                // (internal.IsDeviceAllocated); before, shares were missed.
                if gates.version >= crate::gates::Version::V1_36 && shared_counted.insert((pi, di))
                {
                    consumed_counters.push((pi, di));
                }
                if let Some(idx) = pools[pi].devices.iter().position(|d| d.name == device) {
                    let e = shared_used
                        .entry(DevRef {
                            pool: pi,
                            index: idx,
                        })
                        .or_default();
                    for (name, value) in r.consumed_capacity.iter().flatten() {
                        if let Some(q) = qty(value) {
                            let cur = e.get(*name).copied().unwrap_or_else(Quantity::zero);
                            e.insert((*name).to_owned(), cur.checked_add(&q).unwrap_or(cur));
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
                    .or_insert_with(|| reserved.to_vec());
                if let Some(d) = deleting(o) {
                    holder_deleting.entry(claim_ref(o)).or_insert(d);
                }
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
        holder_deleting,
        shared_used,
        picks: Vec::new(),
        in_use_cycle: HashMap::new(),
        all_lists: HashMap::new(),
        variant: Variant::for_gates(gates),
        counters: HashMap::new(),
        counter_owners: HashMap::new(),
        keep_charges: true,
        retained: Vec::new(),
        capacity_cycle: HashMap::new(),
        groups: HashMap::new(),
        selectable: HashMap::new(),
        derived: HashMap::new(),
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
    search.seed_groups();
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
                    kind: ErrorKind::Timeout,
                    subject: Some(f.0.clone()),
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
                    request: p.request.as_str().into(),
                    driver: pool.driver.into(),
                    pool: pool.name.into(),
                    device: d.name.into(),
                    admin_access: p.admin.then_some(true),
                    // Copied into the result from 1.35 (kubernetes 417cb7d,
                    // "fix toleration of NoExecute"); 1.34 writes none.
                    tolerations: p
                        .tolerations
                        .clone()
                        .filter(|_| gates.version >= crate::gates::Version::V1_35),
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
            let config = allocation_config(plan, &results, gates);
            claims.push(ClaimAllocation {
                namespace: plan.obj.namespace_or_default().into(),
                name: plan.obj.name().unwrap_or_default().into(),
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
        .any(|p| p.invalid().is_some() && p.targets_node && !p.legacy)
    {
        reasons.push(Reason::new(
            ReasonKind::InvalidPools,
            None,
            "invalid resource pools were encountered".to_owned(),
        ));
        // Which, and why: the scheduler skips their devices.
        for p in search.pools.iter().filter(|p| p.targets_node) {
            if let Some(why) = p.invalid() {
                reasons.push(Reason::new(
                    ReasonKind::PoolInvalid,
                    Some(format!("{}/{}", p.driver, p.name)),
                    format!(
                        "resource pool {}/{} is invalid ({why}): the scheduler skips its {} device{} on this node",
                        p.driver,
                        p.name,
                        p.devices.len(),
                        if p.devices.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
    }
    // upstream's allocateOne: "We don't allocate devices from invalid or
    // incomplete pools"; a valid pool that is incomplete is skipped silently.
    for p in search.pools.iter().filter(|p| p.targets_node && !p.legacy) {
        if p.invalid().is_none() {
            if let Some(text) = p.incomplete() {
                reasons.push(Reason::new(
                    ReasonKind::PoolIncomplete,
                    Some(format!("{}/{}", p.driver, p.name)),
                    text,
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
        reasons.push(Reason::new(
            ReasonKind::Funnel,
            Some(format!("{}/{}", f.claim, f.request)),
            describe(f),
        ));
    }
    // A selector that does not compile matches nothing; the scheduler says
    // so only once it meets a device, so say it here.
    reasons.extend(compile_errors(&search.plans));
    let retained = search.retained_block(&searched);
    let constraints = if let Some(block) = retained {
        vec![block]
    } else if funnels.iter().all(Funnel::enough) {
        let mut blocks = constraint_blocks(&search, &left.end);
        if blocks.is_empty() {
            blocks = shared_device_blocks(&search, &left.end, false);
        }
        if blocks.is_empty() {
            blocks = counter_blocks(&search, &left.end);
        }
        blocks
    } else if funnels.iter().any(|f| !f.held_by.is_empty()) {
        // Requests short of devices others hold may be short whoever holds
        // them: then freeing the holders would not help, and that is the
        // defect to name.
        shared_device_blocks(&search, &left.untainted, true)
    } else {
        Vec::new()
    };
    for c in &constraints {
        reasons.push(Reason::new(
            ReasonKind::Constraint,
            Some(c.claim.clone()),
            format!("claim {}: {}", c.claim, c.message),
        ));
    }
    Ok(Outcome::Unsatisfiable {
        reasons,
        funnels,
        constraints,
    })
}

pub(super) fn results_len(search: &Search<'_>, claim: usize, pick: &Pick) -> usize {
    search
        .picks
        .iter()
        .filter(|p| p.claim == claim)
        .position(|p| std::ptr::eq(p, pick))
        .unwrap_or(0)
}

/// A deterministic stand-in for the scheduler's random share ID (a UID).
pub(super) fn share_id(claim: usize, index: usize) -> String {
    format!("00000000-0000-4000-8000-{:06x}{:06x}", claim, index)
}

pub(super) fn self_binding(
    d: &PoolDevice<'_>,
    gates: &FeatureGates,
) -> (Option<Vec<String>>, Option<Vec<String>>) {
    let on = crate::binding::enabled(gates);
    if !on || d.binding_conditions.is_empty() {
        return (None, None);
    }
    (
        Some(owned(d.binding_conditions)),
        Some(owned(d.binding_failure)),
    )
}

fn owned(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// Every request (and subrequest) of the cycle, in order.
pub(super) fn all_requests<'a>(search: &Search<'a>) -> Vec<Req<'a>> {
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

/// A claim with a deletionTimestamp: since when, and the finalizers that
/// keep it.
fn deleting(o: &Object) -> Option<DeletingHolder> {
    let meta = o.root.get("metadata")?;
    let since = meta.get("deletionTimestamp")?;
    Some(DeletingHolder {
        claim: claim_ref(o),
        since: since.as_str().unwrap_or_default().to_owned(),
        finalizers: meta
            .get("finalizers")
            .and_then(Node::as_seq)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .map(str::to_owned)
            .collect(),
    })
}
