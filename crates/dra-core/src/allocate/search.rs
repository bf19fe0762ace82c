//! The search itself (upstream: `allocator.go`'s allocateOne and
//! allocateDevice): the state of one node's search, the devices tried in
//! order for each request, backtracking, and the step and time budgets.

use super::*;

pub(super) struct Search<'a> {
    pub(super) gates: &'a FeatureGates,
    pub(super) pools: Vec<Pool<'a>>,
    /// Shared with the allocator (a plan is copied only when a node's run
    /// renumbers its claims).
    pub(super) plans: Vec<Arc<ClaimPlan<'a>>>,
    /// Devices exclusively allocated before this cycle.
    pub(super) allocated: HashSet<DevRef>,
    /// Holders of allocated devices, for explanations.
    pub(super) holders: HashMap<DevRef, String>,
    /// The pods each holder claim is reserved for.
    pub(super) holder_pods: HashMap<String, Vec<String>>,
    /// Holder claims being deleted.
    pub(super) holder_deleting: HashMap<String, super::DeletingHolder>,
    /// Capacity consumed on shared devices before this cycle.
    pub(super) shared_used: HashMap<DevRef, BTreeMap<String, Quantity>>,
    pub(super) picks: Vec<Pick>,
    /// Devices picked in this cycle, with the claims they were picked for
    /// (upstream's `allocatingDevices`; admin-access picks included).
    pub(super) in_use_cycle: HashMap<DevRef, Vec<usize>>,
    /// The devices of each allocationMode All request (by `Req::key`),
    /// found by the up-front validation.
    pub(super) all_lists: HashMap<usize, Vec<DevRef>>,
    pub(super) variant: Variant,
    /// Counters consumed in this cycle, by bookkeeping key (`counter_key`),
    /// counter set and counter.
    pub(super) counters: HashMap<&'a str, HashMap<&'a str, HashMap<&'a str, Quantity>>>,
    /// The pool whose counter sets each key compares (`counter_owner`).
    pub(super) counter_owners: HashMap<&'a str, usize>,
    /// Keep a refused device's counter charge, as upstream does
    /// (counters.rs); off only to tell whether that decided the outcome.
    pub(super) keep_charges: bool,
    /// Devices whose charge was kept, and what refused them (first first).
    pub(super) retained: Vec<(DevRef, Retained)>,
    pub(super) capacity_cycle: HashMap<DevRef, BTreeMap<String, Quantity>>,
    /// Compatibility-group state per (pool, counter set): None = only no-group devices.
    pub(super) groups: HashMap<(usize, &'a str), Option<Vec<&'a str>>>,
    pub(super) selectable: HashMap<(DevRef, usize), bool>,
    /// A request's derived attribute values on a device that passed its
    /// selectors (by device and `Req::key`, in the request's order).
    pub(super) derived: HashMap<(DevRef, usize), Vec<crate::cel::Value>>,
    pub(super) steps: u64,
    pub(super) budget: u64,
    pub(super) what_if: WhatIf<'a>,
    /// The time budget: a clock (injected: the core reads none itself) and
    /// the latest time the search may run to.
    pub(super) deadline: Option<(fn() -> std::time::Instant, std::time::Instant)>,
    /// Steps spent per request (by `Req::key`), to say which made the search
    /// expensive when a budget runs out.
    pub(super) steps_by_request: Vec<u64>,
    /// The most devices a partial allocation held.
    pub(super) deepest: usize,
    /// Set when a budget ran out, with where it went.
    pub(super) exhausted: Option<SearchCost>,
    /// How many devices of the node the search chose among.
    pub(super) candidates: usize,
}

impl<'a> Search<'a> {
    pub(super) fn dev(&self, r: DevRef) -> &PoolDevice<'a> {
        &self.pools[r.pool].devices[r.index]
    }

    pub(super) fn device_id(&self, r: DevRef) -> String {
        let p = &self.pools[r.pool];
        format!("{}/{}/{}", p.driver, p.name, p.devices[r.index].name)
    }

    /// Class then request selectors (a CEL error is fatal), the answer
    /// remembered (and looked up) under request key `cache`, as upstream's
    /// `deviceMatchesRequest` is keyed by the request indices it is given.
    fn selectable_as(&mut self, r: DevRef, req: &Req<'a>, cache: usize) -> Result<bool, Fatal> {
        let key = (r, cache);
        if let Some(v) = self.selectable.get(&key) {
            return Ok(*v);
        }
        let d = self.dev(r);
        let mut ok = true;
        let binding_on = crate::binding::enabled(self.gates);
        if !d.binding_conditions.is_empty() && !binding_on {
            ok = false;
        }
        if ok {
            ok = all_match(
                &req.class_programs,
                d.cel(),
                self.gates,
                || format!("class {}", req.class.name().unwrap_or_default()),
                || self.device_id(r),
            )?;
        }
        if ok {
            let claim = self.plans[req.claim].obj;
            ok = all_match(
                &req.programs,
                d.cel(),
                self.gates,
                || format!("claim {}", claim_ref(claim)),
                || self.device_id(r),
            )?;
        }
        // KEP-6080: derived attributes are evaluated once per candidate
        // device, after the request's selectors; an error aborts.
        if ok && !req.derived.is_empty() {
            let values = (0..req.derived.len())
                .map(|i| self.evaluate_derived(req, i, r))
                .collect::<Result<Vec<_>, Fatal>>()?;
            self.derived.insert(key, values);
        }
        self.selectable.insert(key, ok);
        Ok(ok)
    }

    pub(super) fn tolerated(&self, r: DevRef, req: &Req<'a>) -> bool {
        if !self.gates.enabled(Gate::DRADeviceTaints) || self.what_if.ignore_taints {
            return true;
        }
        // 1.34 wants every taint tolerated (allTaintsTolerated); from 1.35
        // only NoSchedule and NoExecute keep a device (taintPreventsAllocation,
        // with the None effect of kubernetes 4e6e2ad).
        let every = self.gates.version < crate::gates::Version::V1_35;
        self.dev(r).taints.iter().all(|(k, v, effect)| {
            if !every && !matches!(*effect, "NoSchedule" | "NoExecute") {
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

    pub(super) fn claim_results(&self, claim: usize) -> usize {
        self.picks.iter().filter(|p| p.claim == claim).count()
    }

    /// Whether the device is in use: allocated before this cycle, or picked
    /// in it (for any claim; admin-access picks count too), as upstream's
    /// `deviceInUse`.
    pub(super) fn in_use(&self, r: DevRef) -> bool {
        self.allocated.contains(&r) || self.in_use_cycle.get(&r).is_some_and(|c| !c.is_empty())
    }

    /// Whether the device was picked in this cycle for the claim
    /// (`allocatingDeviceForClaim`).
    pub(super) fn picked_for_claim(&self, r: DevRef, claim: usize) -> bool {
        self.in_use_cycle
            .get(&r)
            .is_some_and(|c| c.contains(&claim))
    }

    /// Upstream's `isSelectable`: the binding-conditions gate, the class's
    /// and the request's selectors (a CEL error is fatal), and only then the
    /// device's own node selection.
    pub(super) fn is_selectable(&mut self, r: DevRef, req: &Req<'a>) -> Result<bool, Fatal> {
        self.is_selectable_as(r, req, req.key)
    }

    fn is_selectable_as(&mut self, r: DevRef, req: &Req<'a>, cache: usize) -> Result<bool, Fatal> {
        if !self.selectable_as(r, req, cache)? {
            return Ok(false);
        }
        Ok(self.pools[r.pool].device_on_node(r.index))
    }

    /// The checks of upstream's `allocateOne` loop before `allocateDevice`:
    /// in use, selectable, capacity.
    pub(super) fn candidate(&mut self, r: DevRef, req: &Req<'a>) -> Result<bool, Fatal> {
        // The pool passes the scheduler's validation (checked on first touch).
        let pool = &self.pools[r.pool];
        if pool.legacy {
            // release-1.34 allocateOne: "it's not safe to allocate from an
            // invalid pool", an error as soon as the search reaches it.
            if let Some(why) = pool.invalid() {
                return Err(Fatal(format!("pool {} is invalid: {why}", pool.name)));
            }
        } else if !pool.usable() {
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
    pub(super) fn allocate_device(
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
        // From here on a rejected device keeps its counters charged for the
        // rest of this node's search, as upstream's allocateDevice does (it
        // returns without deallocateCountersForDevice; counters.rs).
        if !self.tolerated(r, req) {
            self.refuse((counters, groups), Retained::Taint);
            return Ok(None);
        }
        if !self.constraints_ok(req.claim, req, r)? {
            self.refuse((counters, groups), Retained::Constraint);
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
                self.refuse((counters, groups), Retained::Capacity);
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

    pub(super) fn release(&mut self, token: Token<'a>) {
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
        // Upstream's rollback gives back the counters of an exclusive pick
        // only: a device that allows multiple allocations keeps them.
        if p.share.is_some() {
            self.refuse(token, Retained::SharedRollback);
        } else {
            self.release_charges(token);
        }
    }

    /// A device refused (or a shared pick rolled back) after its counters
    /// were charged: upstream keeps the charge; recorded for explanations.
    fn refuse(&mut self, (counters, groups): Token<'a>, why: Retained) {
        self.undo_groups(groups);
        let Some(c) = counters else { return };
        if self.keep_charges {
            if !self.retained.iter().any(|(d, _)| *d == c.dev) {
                self.retained.push((c.dev, why));
            }
        } else {
            self.undo_counters(&c);
        }
    }

    /// Gives back the counters and compatibility-group state a device took.
    pub(super) fn release_charges(&mut self, (counters, groups): Token<'a>) {
        if let Some(c) = counters {
            self.undo_counters(&c);
        }
        self.undo_groups(groups);
    }

    /// The devices the search walks, in pool, slice and device order: every
    /// device of the slices that target the node in pools it may allocate
    /// from (a device's own node selection is checked after its selectors).
    pub(super) fn search_candidates(&self) -> Vec<DevRef> {
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
    pub(super) fn candidates(&self) -> Vec<DevRef> {
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

    pub(super) fn step(&mut self) -> Result<(), Fatal> {
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
    pub(super) fn cost(&self, out_of_time: bool) -> SearchCost {
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
            impossible: self.impossible_constraint(),
        }
    }

    /// A constraint the node's devices cannot satisfy at all: fewer devices
    /// share any one value of a matchAttribute than its requests need, or
    /// fewer distinct values of a distinctAttribute exist. Counted over
    /// every device of the node (an upper bound), so it is never claimed
    /// wrongly.
    fn impossible_constraint(&self) -> Option<String> {
        let devices = self.candidates();
        for (ci, plan) in self.plans.iter().enumerate() {
            for c in &plan.constraints {
                // A derived attribute's value depends on the request.
                if self.derives(ci, &c.attribute) {
                    continue;
                }
                let needed: usize = plan
                    .slots
                    .iter()
                    .filter_map(|s| {
                        let (parent, n) = match s {
                            Slot::Exact(r) => (&r.parent, self.num_devices(r)),
                            Slot::First(v) => (
                                &v.first()?.parent,
                                v.iter().map(|r| self.num_devices(r)).min().unwrap_or(0),
                            ),
                        };
                        (c.requests.is_empty() || c.requests.contains(parent)).then_some(n)
                    })
                    .sum();
                let mut by_value: HashMap<String, usize> = HashMap::new();
                for &r in &devices {
                    if let Some(v) = self.attribute(r, &c.attribute) {
                        *by_value.entry(v.to_string()).or_default() += 1;
                    }
                }
                let claim = claim_ref(plan.obj);
                if c.distinct {
                    if by_value.len() < needed {
                        return Some(format!(
                            "claim {claim}: distinctAttribute {} has {} distinct value{} among the node's devices, {needed} devices are needed",
                            c.attribute,
                            by_value.len(),
                            if by_value.len() == 1 { "" } else { "s" }
                        ));
                    }
                } else {
                    let most = by_value.values().copied().max().unwrap_or(0);
                    if most < needed {
                        return Some(format!(
                            "claim {claim}: matchAttribute {}: at most {most} of the node's devices share a value, {needed} are needed",
                            c.attribute
                        ));
                    }
                }
            }
        }
        None
    }

    /// Counts a step for the request being searched.
    pub(super) fn charge(&mut self, req: &Req<'_>) {
        if self.steps_by_request.len() <= req.key {
            self.steps_by_request.resize(req.key + 1, 0);
        }
        self.steps_by_request[req.key] += 1;
        self.deepest = self.deepest.max(self.picks.len());
    }

    /// How many devices the request takes: its count, or for allocationMode
    /// All the devices found when the request was validated.
    pub(super) fn num_devices(&self, req: &Req<'a>) -> usize {
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
    pub(super) fn allocate_one(
        &mut self,
        at: At,
        start: usize,
        cands: &[DevRef],
    ) -> Result<bool, Halt> {
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
            // 1.34 and 1.35 go on to the next device without the
            // subrequest's index (allocateOne's `deviceIndices{claimIndex,
            // requestIndex, deviceIndex + 1}`): as the first subrequest,
            // whatever it asks. Fixed in 1.36 by e0e0199.
            let next = match at.sub {
                Some(_) if self.first_available_all_bug() => At {
                    sub: Some(0),
                    ..next
                },
                _ => next,
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
    pub(super) fn validate(&mut self) -> Result<(), Fatal> {
        for c in 0..self.plans.len() {
            let plan = Arc::clone(&self.plans[c]);
            let mut min_devices = 0usize;
            for slot in &plan.slots {
                match slot {
                    Slot::Exact(r) => {
                        min_devices = min_devices.saturating_add(self.validate_request(r, r.key)?)
                    }
                    Slot::First(subs) => {
                        let mut least = usize::MAX;
                        for (i, r) in subs.iter().enumerate() {
                            // 1.34 and 1.35 set the subrequest's index in the
                            // request key after validating it: subrequest i
                            // is validated under i-1's key, so an All one
                            // reads (and leaves) selector answers there.
                            let cache = match self.first_available_all_bug() {
                                true => subs[i.saturating_sub(1)].key,
                                false => r.key,
                            };
                            least = least.min(self.validate_request(r, cache)?);
                        }
                        min_devices = min_devices.saturating_add(least);
                    }
                }
            }
            let claim = claim_ref(plan.obj);
            if min_devices > MAX_RESULTS {
                return Err(Fatal(format!("claim {claim}: number of requested devices {min_devices} exceeds the claim limit of {MAX_RESULTS}")));
            }
            if !self.variant.supports_distinct(self.gates.version) {
                if let Some(i) = plan.constraints.iter().position(|k| k.distinct) {
                    return Err(Fatal(format!(
                        "claim {claim}, constraint #{i}: empty constraint (unsupported constraint type?)"
                    )));
                }
            }
        }
        Ok(())
    }

    /// Whether the release has the two faults of allocationMode All inside
    /// firstAvailable that kubernetes e0e0199 fixed in 1.36 (all three
    /// implementations of release-1.34 and release-1.35).
    fn first_available_all_bug(&self) -> bool {
        self.gates.version < crate::gates::Version::V1_36
    }

    /// Validates one request (upstream's `validateDeviceRequest`); an All
    /// request's selector answers are kept under request key `cache`.
    pub(super) fn validate_request(&mut self, req: &Req<'a>, cache: usize) -> Result<usize, Fatal> {
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
                if !self.is_selectable_as(r, req, cache)? {
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
pub(super) struct At {
    pub(super) claim: usize,
    pub(super) slot: usize,
    pub(super) sub: Option<usize>,
    pub(super) device: usize,
}

impl At {
    pub(super) fn claim(claim: usize) -> At {
        At::slot(claim, 0)
    }
    pub(super) fn slot(claim: usize, slot: usize) -> At {
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
pub(super) enum Halt {
    Fatal(Fatal),
    MaxSize,
}
