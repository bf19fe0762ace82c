//! matchAttribute and distinctAttribute (upstream: `constraint.go`), with
//! list attributes compared as sets when DRAListTypeAttributes is on.

use super::*;

impl<'a> Search<'a> {
    pub(super) fn attribute(&self, r: DevRef, name: &str) -> Option<crate::cel::Value> {
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

    /// The value a constraint compares for device `r` picked for `req`:
    /// the request's derived attribute of that name (DRADerivedAttributes,
    /// KEP-6080: looked up before the device's own attributes), as
    /// evaluated when the device passed the request's selectors, else the
    /// device's own attribute.
    pub(super) fn constraint_value(
        &self,
        req: &Req<'a>,
        r: DevRef,
        name: &str,
    ) -> Result<Option<crate::cel::Value>, Fatal> {
        let Some(i) = req.derived.iter().position(|d| d.name == name) else {
            return Ok(self.attribute(r, name));
        };
        match self.derived.get(&(r, req.key)) {
            Some(values) => Ok(values.get(i).cloned()),
            // Not through the search (explain's funnel): evaluated here.
            None => self.evaluate_derived(req, i, r).map(Some),
        }
    }

    /// The request's `i`th derived attribute on device `r`; an evaluation
    /// error, or a value no attribute can hold, aborts the allocation as a
    /// selector's error does.
    pub(super) fn evaluate_derived(
        &self,
        req: &Req<'a>,
        i: usize,
        r: DevRef,
    ) -> Result<crate::cel::Value, Fatal> {
        let d = &req.derived[i];
        let fail = |what: String| {
            let claim = claim_ref(self.plans[req.claim].obj);
            Fatal(format!(
                "claim {claim}, request {}: derived attribute {}: {what}",
                req.shown(),
                d.name
            ))
        };
        let program = d
            .program
            .as_ref()
            .map_err(|m| fail(format!("CEL compile error: {m}")))?;
        let on = || self.device_id(r);
        match program.evaluate(self.dev(r).cel()) {
            Ok(v) => match derived_value_error(&v) {
                None => Ok(v),
                Some(why) => Err(fail(format!("on device {}: {why}", on()))),
            },
            Err(e) => Err(fail(format!(
                "on device {}: CEL runtime error: {}",
                on(),
                e.0
            ))),
        }
    }

    /// Whether a claim's request (or subrequest) defines a derived
    /// attribute of this name.
    pub(super) fn derives(&self, claim: usize, name: &str) -> bool {
        self.plans[claim].slots.iter().any(|s| {
            let reqs: &[Req<'a>] = match s {
                Slot::Exact(r) => std::slice::from_ref(r),
                Slot::First(v) => v,
            };
            reqs.iter()
                .any(|r| r.derived.iter().any(|d| d.name == name))
        })
    }

    /// The planned request (or subrequest) of a claim by its name.
    fn planned(&self, claim: usize, name: &str) -> Option<&Req<'a>> {
        self.plans[claim].slots.iter().find_map(|s| match s {
            Slot::Exact(r) => (r.name == name).then_some(r),
            Slot::First(v) => v.iter().find(|r| r.name == name),
        })
    }

    pub(super) fn constraints_ok(
        &self,
        claim: usize,
        req: &Req<'a>,
        r: DevRef,
    ) -> Result<bool, Fatal> {
        for c in &self.plans[claim].constraints {
            let applies = c.requests.is_empty()
                || c.requests
                    .iter()
                    .any(|x| *x == req.parent || *x == req.name);
            if !applies {
                continue;
            }
            let Some(v) = self.constraint_value(req, r, &c.attribute)? else {
                return Ok(false);
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
                let w = match self.planned(claim, plan_req) {
                    Some(other) => self.constraint_value(other, p.dev, &c.attribute)?,
                    None => self.attribute(p.dev, &c.attribute),
                };
                let Some(w) = w else {
                    return Ok(false);
                };
                if let Some(common) = common.as_mut() {
                    let other = as_set(&w);
                    if c.distinct {
                        if intersect(&as_set(&v), &other).is_some() {
                            return Ok(false);
                        }
                    } else {
                        match intersect(common, &other) {
                            Some(both) => *common = both,
                            None => return Ok(false),
                        }
                    }
                    continue;
                }
                // Without the gate the constraint compares scalars only: a
                // list value (converted for CEL from 1.37 whatever the gate)
                // is an unknown type there, so no second device goes with it.
                if matches!(v, crate::cel::Value::List(_)) {
                    return Ok(false);
                }
                // 1.34's distinctAttributeConstraint compared the values'
                // pointers (release-1.34 experimental/constraint.go
                // matchesAttribute; fixed by kubernetes e5c5ce5): two
                // devices never clash, only a device taken twice does.
                let same = if c.distinct && self.gates.version < crate::gates::Version::V1_35 {
                    p.dev == r
                } else {
                    crate::cel::value::equals(&v, &w) == Some(true)
                };
                if c.distinct == same {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// Why a derived attribute's value is none an attribute can hold, as the
/// DRA CEL package converts it (valToDeviceAttribute): a bool, int, string
/// or semver, or a list of one of those kinds (its first element's).
fn derived_value_error(v: &crate::cel::Value) -> Option<String> {
    use crate::cel::Value as V;
    let kind = |v: &V| match v {
        V::Bool(_) => Some("bool"),
        V::Int(_) => Some("int"),
        V::String(_) => Some("string"),
        V::Semver(_) => Some("semver"),
        _ => None,
    };
    match v {
        V::List(items) => {
            let first = items.first()?;
            let Some(want) = kind(first) else {
                return Some(format!(
                    "unsupported list element type: {}",
                    first.type_name()
                ));
            };
            items.iter().enumerate().find_map(|(i, x)| {
                (kind(x) != Some(want)).then(|| {
                    format!(
                        "expected list element at index {i} to be {want}, got {}",
                        x.type_name()
                    )
                })
            })
        }
        other => kind(other)
            .is_none()
            .then(|| format!("unsupported CEL return type: {}", other.type_name())),
    }
}

/// Selectors in order: the first false stops; a CEL error is fatal, named
/// after its owner (`class gpu` or `claim ns/name`) and selector index.
/// Whether the device passes every selector; `owner` names them in the
/// error (built only then: this runs for every device tried), `device` the
/// device, which the 1.37 allocator's runtime error names too.
pub(super) fn all_match(
    programs: &[Selector],
    device: &Arc<crate::cel::Device>,
    gates: &FeatureGates,
    owner: impl FnOnce() -> String,
    device_id: impl FnOnce() -> String,
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
                let (owner, device) = (owner(), device_id());
                // The words of the release, the device, and what failed
                // whatever the device (errors are grouped by it).
                return Err(Fatal(format!(
                    "{}{DEVICE_MARK}{device}{DEVICE_MARK}{owner}: selector #{i}: CEL runtime error: {}",
                    runtime_error(gates, &owner, i, &device, &e.0),
                    e.0
                )));
            }
        }
    }
    Ok(true)
}

/// The allocator's words for a selector's runtime error. From 1.37
/// (dynamic-resource-allocation 1caef2e, allocator_*.go and cel/errors.go
/// EnhanceRuntimeError) they name the device and add a hint to a missing
/// key; before, neither.
fn runtime_error(gates: &FeatureGates, owner: &str, i: usize, device: &str, e: &str) -> String {
    if gates.version < crate::gates::Version::V1_37 {
        return format!("{owner}: selector #{i}: CEL runtime error: {e}");
    }
    let hint = if e.contains("no such key:") {
        crate::cel::NO_SUCH_KEY_HINT
    } else {
        ""
    };
    format!("{owner}: selector #{i} on device {device}: CEL runtime error: {e}{hint}")
}

/// An attribute as a set of values: a list's items, or the value alone.
pub(super) fn as_set(v: &crate::cel::Value) -> Vec<crate::cel::Value> {
    match v {
        crate::cel::Value::List(items) => items.to_vec(),
        other => vec![other.clone()],
    }
}

/// The values both sets hold; `None` when they share none.
pub(super) fn intersect(
    a: &[crate::cel::Value],
    b: &[crate::cel::Value],
) -> Option<Vec<crate::cel::Value>> {
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
