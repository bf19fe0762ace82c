//! Consumable capacity (DRAConsumableCapacity): what a request takes of a
//! device's capacities under their request policies, and whether what the
//! device has left serves it (upstream's consumable capacity and
//! `CmpRequestOverCapacity`).

use super::*;

/// A capacity with its request policy.
#[derive(Clone, Debug)]
pub struct Capacity {
    pub name: String,
    pub value: Quantity,
    pub default: Option<Quantity>,
    pub valid_values: Vec<Quantity>,
    pub range: Option<(Quantity, Option<Quantity>, Option<Quantity>)>,
}

fn from_milli(m: i128) -> Quantity {
    Quantity::parse(&format!("{m}m")).unwrap_or_else(|_| Quantity::zero())
}

/// The units of a validRange's step arithmetic. consumable_capacity.go
/// (kubernetes/dynamic-resource-allocation 3d03671, roundUpRange and
/// violateValidRange) reads request, min and step with Quantity.Value():
/// whole units, rounded up. The copies that know DRAFractionalCapacityRange
/// read milli-units instead when the gate is on and the range is
/// fractional (`useMilli`: a fractional min, max or step, all within
/// int64 milli-units, a step of at least 1m).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    Whole,
    Milli,
}

impl Units {
    fn read(self, q: &Quantity) -> i64 {
        let v = match self {
            Units::Whole => q.value(),
            Units::Milli => q.milli_value(),
        };
        // Past int64, big.Int's Int64(): the low 64 bits, signed.
        i64::try_from(v).unwrap_or_else(|_| {
            let low = (v.unsigned_abs() as u64) as i64;
            if v < 0 {
                low.wrapping_neg()
            } else {
                low
            }
        })
    }
}

impl Capacity {
    /// The units this capacity's range is computed in.
    pub fn units(&self, fractional_gate: bool) -> Units {
        let Some((min, max, step)) = &self.range else {
            return Units::Whole;
        };
        let parts = || {
            [Some(min), max.as_ref(), step.as_ref()]
                .into_iter()
                .flatten()
        };
        let fractional = parts().any(Quantity::is_fractional);
        let fits = parts().all(|q| !q.finer_than_milli() && i64::try_from(q.milli_value()).is_ok());
        let step_ok = step.is_none_or(|s| s.milli_value() >= 1);
        if fractional_gate && fractional && fits && step_ok {
            Units::Milli
        } else {
            Units::Whole
        }
    }

    /// A requested amount rounded up as the request policy says: to min,
    /// then to min plus a whole number of steps (roundUpRange, in int64 as
    /// Go computes it), or to the first valid value not below it.
    pub fn round_up(&self, q: Quantity, units: Units) -> Quantity {
        if let Some((min, _, step)) = &self.range {
            if q < *min {
                return *min;
            }
            if let Some(step) = step {
                let (r, m, s) = (units.read(&q), units.read(min), units.read(step));
                // Go would divide by zero; no stored slice has such a step.
                if s == 0 {
                    return q;
                }
                let added = r.wrapping_sub(m);
                let mut n = added.wrapping_div(s);
                if added.wrapping_rem(s) != 0 {
                    n = n.wrapping_add(1);
                }
                let val = m.wrapping_add(s.wrapping_mul(n));
                return match units {
                    Units::Whole => Quantity::from_int(val),
                    Units::Milli => from_milli(i128::from(val)),
                };
            }
            return q;
        }
        if !self.valid_values.is_empty() {
            return self
                .valid_values
                .iter()
                .find(|v| **v >= q)
                .copied()
                .unwrap_or(q);
        }
        q
    }

    /// Why the policy refuses consuming `a`, with its numbers; `None` when it allows it.
    pub fn refusal(&self, a: Quantity, units: Units) -> Option<String> {
        if self.allows(a, units) {
            return None;
        }
        let h = |q: &Quantity| q.human();
        let a_h = h(&a);
        if let Some((min, max, step)) = &self.range {
            if a < *min {
                return Some(format!("{a_h} is below its validRange min {}", h(min)));
            }
            if let Some(m) = max.filter(|m| a > *m) {
                return Some(format!(
                    "{a_h} is above its validRange max {} (at most {} per allocation)",
                    h(&m),
                    h(&m)
                ));
            }
            if let Some(step) = step {
                return Some(format!(
                    "{a_h} is not {} plus a whole number of steps of {}",
                    h(min),
                    h(step)
                ));
            }
        }
        if !self.valid_values.is_empty() {
            let vals: Vec<String> = self.valid_values.iter().map(Quantity::human).collect();
            return Some(format!(
                "{a_h} is none of its validValues [{}]",
                vals.join(", ")
            ));
        }
        Some(format!("{a_h} is not allowed"))
    }

    /// The most one allocation may consume under the policy, when the
    /// policy (not the capacity itself) sets it.
    pub fn policy_max(&self) -> Option<Quantity> {
        match &self.range {
            Some((_, max, _)) => *max,
            None => self.valid_values.iter().max().copied(),
        }
    }

    /// Whether the policy allows consuming `a` (violatesPolicy: the
    /// default, else the range's max and step, else the valid values).
    pub fn allows(&self, a: Quantity, units: Units) -> bool {
        if self.default == Some(a) {
            return true;
        }
        if let Some((min, max, step)) = &self.range {
            if a < *min || max.is_some_and(|m| a > m) {
                return false;
            }
            if let Some(step) = step {
                let s = units.read(step);
                return s != 0 && units.read(&a).wrapping_sub(units.read(min)).wrapping_rem(s) == 0;
            }
            return true;
        }
        if !self.valid_values.is_empty() {
            return self.valid_values.contains(&a);
        }
        true
    }
}

/// Why a device cannot serve a request's capacity, as data (worded only
/// when an explanation asks: the search meets refusals on every device it
/// tries).
enum Refusal<'c> {
    /// A requested capacity the device does not publish.
    Unpublished(String),
    /// An amount the capacity's requestPolicy refuses.
    Refused {
        capacity: &'c Capacity,
        requested: Option<Quantity>,
        amount: Quantity,
    },
}

impl<'a> Search<'a> {
    /// The consumed amounts for a request on a device (§11), or None when the
    /// device cannot serve the request.
    pub(super) fn consumption(
        &self,
        r: DevRef,
        req: &Req<'a>,
    ) -> Option<BTreeMap<String, Quantity>> {
        self.consumption_or_refusal(r, req).ok()
    }

    fn consumption_or_refusal(
        &self,
        r: DevRef,
        req: &Req<'a>,
    ) -> Result<BTreeMap<String, Quantity>, Refusal<'_>> {
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
                return Err(Refusal::Unpublished(name.clone()));
            }
        }
        let fractional = self.gates.enabled(Gate::DRAFractionalCapacityRange);
        for c in d.capacity() {
            let units = c.units(fractional);
            let requested = req
                .capacity
                .iter()
                .find(|(n, _)| same(n, &c.name))
                .map(|(_, q)| *q);
            let amount = match requested {
                Some(q) => c.round_up(q, units),
                None => c.default.unwrap_or(c.value),
            };
            if !c.allows(amount, units) {
                return Err(Refusal::Refused {
                    capacity: c,
                    requested,
                    amount,
                });
            }
            out.insert(c.name.clone(), amount);
        }
        Ok(out)
    }

    /// Why `consumption` refuses the device, with the numbers: a requested
    /// capacity it does not publish, or an amount its requestPolicy refuses.
    pub(super) fn consumption_refusal(&self, r: DevRef, req: &Req<'a>) -> String {
        let d = self.dev(r);
        match self.consumption_or_refusal(r, req) {
            Err(Refusal::Unpublished(name)) => {
                let has: Vec<&str> = d.capacity().iter().map(|c| c.name.as_str()).collect();
                let has = if has.is_empty() {
                    "none".to_owned()
                } else {
                    has.join(", ")
                };
                format!(
                    "device {} publishes no capacity {name} (it has {has})",
                    d.name
                )
            }
            Err(Refusal::Refused {
                capacity,
                requested,
                amount,
            }) => {
                let asked = match requested {
                    Some(q) if q != amount => {
                        format!("{} asked, rounded up to {}", q.human(), amount.human())
                    }
                    Some(q) => format!("{} asked", q.human()),
                    None => format!("{} by default", amount.human()),
                };
                let units = capacity.units(self.gates.enabled(Gate::DRAFractionalCapacityRange));
                let why = capacity.refusal(amount, units).unwrap_or_default();
                format!(
                    "device {}, capacity {}: {asked}; its requestPolicy refuses it: {why}",
                    d.name, capacity.name
                )
            }
            Ok(_) => format!("device {} cannot serve the requested capacity", d.name),
        }
    }

    /// The policy cap that refuses the request on the device, with whether
    /// the device has the capped amount left.
    pub(super) fn policy_cap(&self, r: DevRef, req: &Req<'a>) -> Option<CapacityCap> {
        let Err(Refusal::Refused {
            capacity, amount, ..
        }) = self.consumption_or_refusal(r, req)
        else {
            return None;
        };
        let max = capacity.policy_max().filter(|m| amount > *m)?;
        let used = self
            .shared_used
            .get(&r)
            .and_then(|u| u.get(&capacity.name))
            .copied()
            .unwrap_or_else(Quantity::zero);
        let max_is_free = used.checked_add(&max).is_some_and(|t| t <= capacity.value)
            && capacity.allows(
                max,
                capacity.units(self.gates.enabled(Gate::DRAFractionalCapacityRange)),
            );
        Some(CapacityCap {
            device: self.dev(r).name.to_owned(),
            capacity: capacity.name.clone(),
            asked: amount.human(),
            max: max.human(),
            max_is_free,
        })
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

#[cfg(test)]
mod tests;
