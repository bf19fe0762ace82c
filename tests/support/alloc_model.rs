//! Generated inventories and claims for checking the allocator, shared by
//! the cargo-fuzz target `allocate` and the proptest `tests/alloc_props.rs`.
//!
//! From arbitrary bytes it builds one node's slice (devices with a model, a
//! NUMA attribute, optional taints, counter consumption of one counter set),
//! a DeviceClass and up to three claims, then checks what the allocator says:
//! an allocation must satisfy every rule it was asked to (selectors, distinct
//! devices, counters, matchAttribute, taints, exact counts), the explanation
//! of a failure must be a consistent funnel, and for the exact-count shapes a
//! brute-force search must agree on whether any allocation exists.
#![allow(dead_code)]

use arbitrary::{Arbitrary, Unstructured};
use serde_json::{json, Value};

#[derive(Arbitrary, Debug, Clone)]
pub struct Dev {
    pub model: u8,
    pub numa: u8,
    pub tainted: bool,
    /// Units of the shared counter this device consumes (0: none).
    pub consumes: u8,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct Req {
    pub count: u8,
    /// `allocationMode: All` instead of a count.
    pub all: bool,
    /// `device.attributes["x.example.com"].model == k`.
    pub model: Option<u8>,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct ClaimSpec {
    pub requests: Vec<Req>,
    /// matchAttribute numa over all its requests.
    pub same_numa: bool,
}

#[derive(Arbitrary, Debug, Clone)]
pub struct Case {
    pub devices: Vec<Dev>,
    /// The counter set's total (when any device consumes it).
    pub counter_total: u8,
    pub claims: Vec<ClaimSpec>,
    /// Index of a device a claim of another pod already holds.
    pub held: Option<u8>,
}

pub const DRIVER: &str = "x.example.com";
pub const NODE: &str = "n1";

impl Case {
    /// Keeps the case small enough for brute force and for the search budget.
    pub fn normalise(mut self) -> Case {
        self.devices.truncate(7);
        for d in &mut self.devices {
            d.model %= 3;
            d.numa %= 2;
            d.consumes %= 4;
        }
        self.counter_total %= 12;
        self.claims.truncate(3);
        for c in &mut self.claims {
            c.requests.truncate(3);
            for r in &mut c.requests {
                r.count = r.count % 3 + 1;
                r.model = r.model.map(|m| m % 3);
            }
        }
        self.claims.retain(|c| !c.requests.is_empty());
        if let Some(h) = self.held {
            self.held = (!self.devices.is_empty()).then(|| h % self.devices.len() as u8);
        }
        self
    }

    pub fn from_bytes(data: &[u8]) -> Option<Case> {
        let c = Case::arbitrary(&mut Unstructured::new(data))
            .ok()?
            .normalise();
        (!c.devices.is_empty() && !c.claims.is_empty()).then_some(c)
    }

    fn uses_counters(&self) -> bool {
        self.devices.iter().any(|d| d.consumes > 0)
    }

    /// The objects, as the API would hold them.
    pub fn objects(&self) -> Vec<Value> {
        // Counter sets live in a slice of their own (the apiserver rejects a
        // slice with both counter sets and devices).
        let slice_count = if self.uses_counters() { 2 } else { 1 };
        let slice_spec = json!({
            "driver": DRIVER, "nodeName": NODE,
            "pool": {"name": NODE, "generation": 1, "resourceSliceCount": slice_count},
            "devices": self.devices.iter().enumerate().map(|(i, d)| {
                let mut dev = json!({"name": format!("d{i}"), "attributes": {"model": {"int": d.model}, "numa": {"int": d.numa}}});
                if d.tainted {
                    dev["taints"] = json!([{"key": "broken", "effect": "NoSchedule"}]);
                }
                if d.consumes > 0 {
                    dev["consumesCounters"] = json!([{"counterSet": "set", "counters": {"units": {"value": d.consumes.to_string()}}}]);
                }
                dev
            }).collect::<Vec<_>>(),
        });
        let mut out = vec![
            json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s"}, "spec": slice_spec}),
            json!({"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass", "metadata": {"name": "x"},
                   "spec": {"selectors": [{"cel": {"expression": format!("device.driver == \"{DRIVER}\"")}}]}}),
        ];
        if self.uses_counters() {
            out.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "s-counters"},
                "spec": {"driver": DRIVER, "nodeName": NODE,
                         "pool": {"name": NODE, "generation": 1, "resourceSliceCount": slice_count},
                         "sharedCounters": [{"name": "set", "counters": {"units": {"value": self.counter_total.to_string()}}}]}}));
        }
        for (i, c) in self.claims.iter().enumerate() {
            let requests: Vec<Value> = c.requests.iter().enumerate().map(|(j, r)| {
                let mut exactly = json!({"deviceClassName": "x"});
                if r.all {
                    exactly["allocationMode"] = json!("All");
                } else {
                    exactly["count"] = json!(r.count);
                }
                if let Some(m) = r.model {
                    exactly["selectors"] = json!([{"cel": {"expression": format!("device.attributes[\"{DRIVER}\"].model == {m}")}}]);
                }
                json!({"name": format!("r{j}"), "exactly": exactly})
            }).collect();
            let mut devices = json!({"requests": requests});
            if c.same_numa {
                devices["constraints"] = json!([{"matchAttribute": format!("{DRIVER}/numa")}]);
            }
            out.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": {"name": format!("c{i}"), "namespace": "default"}, "spec": {"devices": devices}}));
        }
        if let Some(h) = self.held {
            out.push(json!({"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": {"name": "other", "namespace": "default"},
                "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "x"}}]}},
                "status": {"allocation": {"devices": {"results": [{"request": "r", "driver": DRIVER, "pool": NODE, "device": format!("d{h}")}]}}}}));
        }
        out
    }

    /// Whether device `i` may serve request `r` at all (selectors, taint, not held).
    fn eligible(&self, i: usize, r: &Req) -> bool {
        let d = &self.devices[i];
        !d.tainted && r.model.is_none_or(|m| m == d.model) && self.held != Some(i as u8)
    }

    /// Exhaustive search over device choices for exact-count cases.
    pub fn brute_force_feasible(&self) -> Option<bool> {
        if self.claims.iter().any(|c| c.requests.iter().any(|r| r.all)) {
            return None;
        }
        let held_units = self
            .held
            .map_or(0, |h| u32::from(self.devices[h as usize].consumes));
        let slots: Vec<(usize, &Req)> = self
            .claims
            .iter()
            .enumerate()
            .flat_map(|(ci, c)| {
                c.requests
                    .iter()
                    .flat_map(move |r| std::iter::repeat_n((ci, r), r.count as usize))
            })
            .collect();
        let mut used = vec![false; self.devices.len()];
        let mut numa: Vec<Option<u8>> = vec![None; self.claims.len()];
        fn go(
            case: &Case,
            slots: &[(usize, &Req)],
            k: usize,
            used: &mut Vec<bool>,
            numa: &mut Vec<Option<u8>>,
            units: u32,
            last: Option<usize>,
        ) -> bool {
            if k == slots.len() {
                return true;
            }
            let (ci, r) = slots[k];
            // Devices of one request in increasing order: no duplicate sets.
            let same_request = k > 0 && std::ptr::eq(slots[k - 1].1, r) && slots[k - 1].0 == ci;
            let start = if same_request {
                last.map_or(0, |l| l + 1)
            } else {
                0
            };
            for i in start..case.devices.len() {
                if used[i] || !case.eligible(i, r) {
                    continue;
                }
                let d = &case.devices[i];
                let u = units + u32::from(d.consumes);
                // Only a device that consumes counters is checked against them
                // (a held device may already have overdrawn the set).
                if d.consumes > 0 && u > u32::from(case.counter_total) {
                    continue;
                }
                let saved = numa[ci];
                if case.claims[ci].same_numa {
                    if saved.is_some_and(|n| n != d.numa) {
                        continue;
                    }
                    numa[ci] = Some(d.numa);
                }
                used[i] = true;
                if go(case, slots, k + 1, used, numa, u, Some(i)) {
                    return true;
                }
                used[i] = false;
                numa[ci] = saved;
            }
            false
        }
        Some(go(self, &slots, 0, &mut used, &mut numa, held_units, None))
    }
}

/// Runs the allocator on the case and checks everything it says. Returns
/// a description of the first broken rule.
pub fn check(case: &Case) -> Result<(), String> {
    use dra_core::allocate::{Allocator, Outcome};
    let text: String = case
        .objects()
        .iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join("\n---\n");
    let objects = dra_core::model::parse_file(0, &text, dra_core::yaml::Limits::default()).objects;
    let gates = dra_core::gates::FeatureGates::defaults(dra_core::gates::Version::V1_37);
    let claims: Vec<&dra_core::model::Object> = objects
        .iter()
        .filter(|o| {
            o.kind == dra_core::model::ObjectKind::ResourceClaim && o.name() != Some("other")
        })
        .collect();
    let outcome = Allocator::new(&objects, &gates, &claims).on_node(NODE);
    let brute = case.brute_force_feasible();
    match &outcome {
        Outcome::Allocated { claims: allocs } => {
            if brute == Some(false) {
                return Err(format!("allocated, but no allocation exists: {allocs:?}"));
            }
            let mut taken = vec![false; case.devices.len()];
            let held_units = case
                .held
                .map_or(0, |h| u32::from(case.devices[h as usize].consumes));
            let mut units = 0;
            for (ci, a) in allocs.iter().enumerate() {
                let spec = &case.claims[ci];
                let mut numa = None;
                for (j, r) in spec.requests.iter().enumerate() {
                    let mine: Vec<usize> = a
                        .results
                        .iter()
                        .filter(|x| x.request == format!("r{j}"))
                        .map(|x| {
                            x.device
                                .trim_start_matches('d')
                                .parse::<usize>()
                                .map_err(|e| format!("{e}: {}", x.device))
                        })
                        .collect::<Result<_, _>>()?;
                    if !r.all && mine.len() != r.count as usize {
                        return Err(format!(
                            "claim c{ci} request r{j}: {} devices for count {}",
                            mine.len(),
                            r.count
                        ));
                    }
                    if r.all {
                        let want = (0..case.devices.len())
                            .filter(|&i| {
                                r.model.is_none_or(|m| m == case.devices[i].model)
                                    && !case.devices[i].tainted
                            })
                            .count();
                        if mine.len() != want || mine.is_empty() {
                            return Err(format!(
                                "claim c{ci} request r{j}: All got {} of {want}",
                                mine.len()
                            ));
                        }
                    }
                    for &i in &mine {
                        let d = case
                            .devices
                            .get(i)
                            .ok_or("result names a device that does not exist")?;
                        if !case.eligible(i, r) {
                            return Err(format!("claim c{ci} request r{j}: d{i} does not qualify ({d:?}, held {:?})", case.held));
                        }
                        if std::mem::replace(&mut taken[i], true) {
                            return Err(format!("d{i} allocated twice"));
                        }
                        units += u32::from(d.consumes);
                        if spec.same_numa {
                            if numa.is_some_and(|n| n != d.numa) {
                                return Err(format!("claim c{ci}: matchAttribute numa broken"));
                            }
                            numa = Some(d.numa);
                        }
                    }
                }
            }
            if units > 0 && held_units + units > u32::from(case.counter_total) {
                return Err(format!(
                    "counters overdrawn: {held_units} held + {units} of {}",
                    case.counter_total
                ));
            }
        }
        Outcome::Unsatisfiable {
            reasons,
            funnels,
            constraints,
        } => {
            // kube-scheduler keeps the counter charge of a device a taint
            // refuses (allocateDevice), so it may find nothing where an
            // allocation exists; then that, and only that, is the cause
            // named (docs/allocator.md, "Per release").
            let kept_charge = constraints.iter().any(|c| c.kind == "retainedCounters");
            if brute == Some(true) && !kept_charge {
                return Err(format!(
                    "unsatisfiable, but an allocation exists: {reasons:?}"
                ));
            }
            if kept_charge && brute == Some(false) {
                return Err(format!(
                    "a kept charge named, but no allocation exists: {reasons:?}"
                ));
            }
            for f in funnels {
                let steps = f.steps();
                if steps.windows(2).any(|w| w[0].count < w[1].count) {
                    return Err(format!("funnel not monotone: {f:?}"));
                }
            }
            if reasons.is_empty() {
                return Err("unsatisfiable without a reason".into());
            }
        }
        Outcome::Undecided { reason } => {
            return Err(format!("one node is never undecided: {reason}"));
        }
        Outcome::Error { error, .. } => {
            // Only the search budget may end a search of these small cases,
            // but for `All`, which the scheduler fails with an error when a
            // constraint rules out one of "all" (all-mode-constraint-violation).
            let all_mode = case.claims.iter().any(|c| c.requests.iter().any(|r| r.all));
            let expected =
                error.contains("timed out") || (all_mode && error.contains("cannot add device"));
            if !expected {
                return Err(format!("unexpected error: {error}"));
            }
        }
    }
    Ok(())
}
