//! Shared counters (DRAPartitionableDevices): what a device draws from its
//! pool's counter sets and whether they still have room, charged while the
//! search holds the device and given back when it lets go.
//!
//! This follows upstream's `checkAvailableCounters` where it differs from
//! the plain rule ("a device fits when the counters it consumes have
//! room"; spec/allocator.md section 9 asks for the source's behaviour):
//! - the bookkeeping is keyed by the pool's *name* from 1.35 (two drivers'
//!   pools with one name share it, and the first pool whose device is
//!   checked supplies the counter sets), by the slice's name in 1.34, whose
//!   counter sets lived in the slice of their devices;
//! - after charging a device, *every* counter of every counter set of that
//!   key is compared, so one counter set over-committed by allocated
//!   devices blocks every device of the pool;
//! - `allocateDevice` charges the counters before it checks taints,
//!   constraints and capacity, and does not give them back when one of
//!   those rejects the device, nor when it rolls back a device that allows
//!   multiple allocations (see `Search::allocate_device` and `release`).
//!
//! Not modelled: upstream caches the available counters on the allocator,
//! across the nodes of one scheduling cycle, so two nodes whose pools share
//! a name would share them too; here each node computes its own.

use super::*;

/// The counters a device consumes, charged under its key, as the undo token.
pub(super) struct CounterCharge<'a> {
    key: &'a str,
    pub(super) dev: DevRef,
}

/// What refused a device whose counter charge upstream keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Retained {
    Taint,
    Constraint,
    Capacity,
    /// A pick of a device that allows multiple allocations, rolled back.
    SharedRollback,
}

impl Retained {
    pub(super) fn words(self) -> &'static str {
        match self {
            Retained::Taint => "an untolerated taint refused it",
            Retained::Constraint => "a constraint refused it",
            Retained::Capacity => "its capacity refused the request",
            Retained::SharedRollback => "the search took it back (it allows multiple allocations)",
        }
    }
}

impl<'a> Search<'a> {
    /// The key of the device's counter bookkeeping (see the module docs).
    pub(super) fn counter_key(&self, r: DevRef) -> &'a str {
        let pool = &self.pools[r.pool];
        if self.gates.version >= crate::gates::Version::V1_35 {
            pool.name
        } else {
            pool.devices[r.index].slice
        }
    }

    /// In 1.34, the device's slice: the key compares only the counter sets
    /// that slice defines; from 1.35 `None` (every set of the pool).
    pub(super) fn counter_slice(&self, r: DevRef) -> Option<&'a str> {
        (self.gates.version < crate::gates::Version::V1_35)
            .then(|| self.pools[r.pool].devices[r.index].slice)
    }

    /// The pool whose counter sets the key compares: the first one checked
    /// under that key in this search (in 1.34, the device's own).
    fn counter_owner(&mut self, key: &'a str, pool: usize) -> usize {
        if self.gates.version < crate::gates::Version::V1_35 {
            return pool;
        }
        *self.counter_owners.entry(key).or_insert(pool)
    }

    /// Counters consumed in this cycle under the key, per set and counter.
    fn used(&self, key: &str, set: &str, counter: &str) -> Quantity {
        self.counters
            .get(key)
            .and_then(|m| m.get(set))
            .and_then(|m| m.get(counter))
            .copied()
            .unwrap_or_else(Quantity::zero)
    }

    /// Charges the device's counters, then checks that every counter under
    /// its key still has room; on a shortfall the charge is taken back and
    /// `None` returned, else the charge is the undo token.
    pub(super) fn counters_fit(&mut self, r: DevRef) -> Option<CounterCharge<'a>> {
        let key = self.counter_key(r);
        let owner = self.counter_owner(key, r.pool);
        let charge = CounterCharge { key, dev: r };
        self.charge_counters(&charge, true);
        let short = self.pools[owner]
            .available_counters(self.counter_slice(r))
            .any(|(set, counter, left)| self.used(key, set, counter) > *left);
        if short {
            self.charge_counters(&charge, false);
            return None;
        }
        Some(charge)
    }

    pub(super) fn undo_counters(&mut self, c: &CounterCharge<'a>) {
        self.charge_counters(c, false);
    }

    /// Adds (or takes back) the device's consumption under the key.
    fn charge_counters(&mut self, c: &CounterCharge<'a>, add: bool) {
        let d = &self.pools[c.dev.pool].devices[c.dev.index];
        for (set, counters, _) in d.consumes() {
            let m = self
                .counters
                .entry(c.key)
                .or_default()
                .entry(*set)
                .or_default();
            for (counter, q) in counters {
                let e = m.entry(*counter).or_insert_with(Quantity::zero);
                let next = if add {
                    e.checked_add(q)
                } else {
                    e.checked_sub(q)
                };
                *e = next.unwrap_or(*e);
            }
        }
    }
}

impl<'a> Search<'a> {
    /// Seeds the compatibility-group state with the allocated devices.
    pub(super) fn seed_groups(&mut self) {
        let allocated: Vec<DevRef> = self.allocated.iter().copied().collect();
        for r in allocated {
            for (set, _, groups) in self.dev(r).consumes().to_vec() {
                let key = (r.pool, set);
                let next = match (self.groups.get(&key).cloned(), groups) {
                    (None, g) => g,
                    (Some(None), _) => None,
                    (Some(Some(run)), Some(g)) => {
                        Some(run.into_iter().filter(|x| g.contains(x)).collect())
                    }
                    (Some(Some(_)), None) => None,
                };
                self.groups.insert(key, next);
            }
        }
    }

    /// Forgets this cycle's picks and charges, to search again.
    fn reset_cycle(&mut self) {
        self.picks.clear();
        self.in_use_cycle.clear();
        self.counters.clear();
        self.counter_owners.clear();
        self.capacity_cycle.clear();
        self.groups.clear();
        self.seed_groups();
        self.deepest = 0;
    }

    /// When nothing fits: whether upstream's kept charges decided it, told
    /// by searching again with each refused device's counters given back.
    /// If that search fits, the kept charge is the defect to name.
    pub(super) fn retained_block(&mut self, cands: &[DevRef]) -> Option<ConstraintBlock> {
        let retained = std::mem::take(&mut self.retained);
        let &(first, why) = retained.first()?;
        self.reset_cycle();
        self.keep_charges = false;
        let found = self.allocate_one(At::claim(0), 0, cands);
        let plain: Vec<String> = self.picks.iter().map(|p| self.device_id(p.dev)).collect();
        self.keep_charges = true;
        self.reset_cycle();
        self.exhausted = None;
        if !matches!(found, Ok(true)) {
            return None;
        }
        let pool = &self.pools[first.pool];
        let d = &pool.devices[first.index];
        let (set, counter, kept) = d
            .consumes()
            .iter()
            .flat_map(|(set, cs, _)| cs.iter().map(move |(c, q)| (*set, *c, *q)))
            .next()?;
        let more = match retained.len() {
            1 => String::new(),
            n => format!(
                " (and {} more device{})",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        };
        let claim = claim_ref(self.plans[0].obj);
        Some(ConstraintBlock {
            claim,
            kind: "retainedCounters",
            attribute: String::new(),
            requests: Vec::new(),
            message: format!(
                "kube-scheduler's allocator charges a device's shared counters before it checks taints, constraints and capacity, and keeps the charge when they refuse the device: {} kept {} of {counter} in counter set {set}{more} after {}, so no combination fits; with the charge given back the claims would get {} (a request selector that leaves the device out avoids the charge: selectors are checked first)",
                self.device_id(first),
                kept.human(),
                why.words(),
                plain.join(", ")
            ),
            needed: None,
            available: None,
            counter: Some(CounterDemand {
                pool: format!("{}/{}", pool.driver, pool.name),
                counter_set: set.to_owned(),
                counter: counter.to_owned(),
                at_least: kept.human(),
                left: pool.available(set, counter).human(),
            }),
            exclusive_devices: Vec::new(),
            even_if_freed: false,
        })
    }
}
