//! Shared counters, consumable capacity and compatibility groups: what a
//! device draws and whether it still fits (upstream: the allocator's counter
//! and capacity bookkeeping, `consumablecapacity`, compatibility groups).

use super::*;

impl<'a> Search<'a> {
    /// The consumed amounts for a request on a device (§11), or None when the
    /// device cannot serve the request.
    pub(super) fn consumption(
        &self,
        r: DevRef,
        req: &Req<'a>,
    ) -> Option<BTreeMap<String, Quantity>> {
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

    pub(super) fn capacity_fits(&self, r: DevRef, want: &BTreeMap<String, Quantity>) -> bool {
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
    pub(super) fn used(&self, pool: usize, set: &str, counter: &str) -> Quantity {
        self.counters
            .get(&pool)
            .and_then(|m| m.get(set))
            .and_then(|m| m.get(counter))
            .copied()
            .unwrap_or_else(Quantity::zero)
    }

    /// Charges the device's counters when they all have room; the device is
    /// the undo token. Checks before charging, so a shortfall changes nothing.
    pub(super) fn counters_fit(&mut self, r: DevRef) -> Option<CounterUndo> {
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

    pub(super) fn undo_counters(&mut self, r: &CounterUndo) {
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
    pub(super) fn groups_fit(&mut self, r: DevRef) -> Option<GroupUndo<'a>> {
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

    pub(super) fn undo_groups(&mut self, changes: GroupUndo<'a>) {
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

    /// Upstream's `CmpRequestOverCapacity` (DRAConsumableCapacity on): what
    /// the request consumes on the device, when what is left can serve it.
    /// An exclusive device asked for no amount serves its whole capacity:
    /// nothing to compute (this runs for every device tried).
    pub(super) fn capacity_left(
        &self,
        r: DevRef,
        req: &Req<'a>,
    ) -> Option<BTreeMap<String, Quantity>> {
        if !self.dev(r).allow_multiple && req.capacity.is_empty() {
            return Some(BTreeMap::new());
        }
        self.consumption(r, req)
            .filter(|want| self.capacity_fits(r, want))
    }
}
