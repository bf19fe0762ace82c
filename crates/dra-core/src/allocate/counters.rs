//! Shared counters (DRAPartitionableDevices): what a device draws from its
//! pool's counter sets and whether they still have room, charged while the
//! search holds the device and given back when it lets go.

use super::*;

impl<'a> Search<'a> {
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
}
