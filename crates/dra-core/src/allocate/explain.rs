//! Why a claim does not fit on a node, beyond the search itself: each
//! request's funnel measured on its own, and the proofs that requests with
//! enough devices each cannot be served together (constraints, devices two
//! requests draw on, counters that run out only together).

use super::*;

/// Per request, the devices left at the end of its funnel, and those that
/// pass its selectors and taints whoever holds them.
pub(super) struct Left {
    pub(super) end: Vec<Vec<DevRef>>,
    pub(super) untainted: Vec<Vec<DevRef>>,
}

/// The funnel of each request, measured on its own (other requests of the
/// cycle take nothing); also the devices left, per request.
pub(super) fn explain(search: &mut Search<'_>, cands: &[DevRef]) -> (Vec<Funnel>, Left) {
    let mut out = Vec::new();
    let mut left = Vec::new();
    let mut untainted_all = Vec::new();
    for req in all_requests(search) {
        let mut f = Funnel {
            claim: claim_ref(search.plans[req.claim].obj),
            request: req.name.clone(),
            devices: cands.len(),
            // All: every device the request's validation found on the node
            // (at least one).
            needed: search.num_devices(&req).max(1),
            all: req.all,
            ..Funnel::default()
        };
        let attributes: Vec<String> = search.plans[req.claim]
            .constraints
            .iter()
            .filter(|c| {
                c.requests.is_empty()
                    || c.requests
                        .iter()
                        .any(|x| *x == req.parent || *x == req.name)
            })
            .map(|c| c.attribute.clone())
            .collect();
        let mut holders: Vec<String> = Vec::new();
        let mut kept = Vec::new();
        let mut untainted = Vec::new();
        for &r in cands {
            let passes = |programs: &[Selector]| {
                programs.iter().all(|p| {
                    p.as_ref()
                        .is_ok_and(|p| p.matches(search.dev(r).cel()) == Ok(true))
                })
            };
            if !passes(&req.class_programs) {
                continue;
            }
            f.pass_class += 1;
            if !passes(&req.programs) {
                continue;
            }
            f.pass_request += 1;
            if !search.tolerated(r, &req) {
                let dev = search.dev(r);
                for (i, (k, v, effect)) in dev.taints.iter().enumerate() {
                    let t = match v.is_empty() {
                        true => format!("{k}:{effect}"),
                        false => format!("{k}={v}:{effect}"),
                    };
                    if matches!(*effect, "NoSchedule" | "NoExecute") && !f.taints.contains(&t) {
                        let origin = dev.taint_rules.get(i).copied().flatten();
                        f.taints.push(t);
                        f.taint_sources.push(TaintSource {
                            key: (*k).to_owned(),
                            value: (*v).to_owned(),
                            effect: (*effect).to_owned(),
                            device_taint_rule: origin.map(|o| o.name.to_owned()),
                            rule_selects_every_device: origin
                                .is_some_and(|o| o.selects_every_device),
                            device: format!(
                                "{}/{}/{}",
                                search.pools[r.pool].driver, search.pools[r.pool].name, dev.name
                            ),
                        });
                    }
                }
                continue;
            }
            f.untainted += 1;
            untainted.push(r);
            let shared = search.dev(r).allow_multiple;
            if !req.admin && !shared && search.allocated.contains(&r) {
                if let Some(h) = search.holders.get(&r) {
                    if !holders.contains(h) {
                        holders.push(h.clone());
                    }
                }
                continue;
            }
            f.free += 1;
            // Counters: admin access and a shared device already charged take none.
            let charged = shared && search.shared_used.contains_key(&r);
            if !req.admin && !charged {
                if let Some(short) = counter_shortfall(search, r) {
                    let set = short.counter_set.clone();
                    if f.shortfall.is_none() {
                        f.shortfall = Some(if short.needed == "0" {
                            // Upstream compares every counter of the pool.
                            format!(
                                "counter set {}: {} is over-committed by allocated devices ({} left), which blocks every device of the pool (device {})",
                                short.counter_set, short.counter, short.left, short.device
                            )
                        } else {
                            format!(
                                "counter set {}: {} needs {}, {} left (device {})",
                                short.counter_set,
                                short.counter,
                                short.needed,
                                short.left,
                                short.device
                            )
                        });
                        f.shortfall_detail = Some(short);
                    }
                    for h in counter_holders(search, r.pool, &set) {
                        if !f.counter_holders.contains(&h.claim) {
                            f.counter_holders.push(h.claim.clone());
                        }
                        if !f.counter_holder_devices.contains(&h) {
                            f.counter_holder_devices.push(h);
                        }
                    }
                    continue;
                }
            }
            f.counters_left += 1;
            match search.groups_fit(r) {
                Some(undo) => search.undo_groups(undo),
                None => {
                    f.group_conflict
                        .get_or_insert_with(|| group_conflict(search, r));
                    continue;
                }
            }
            f.compatible += 1;
            if let Some(short) = capacity_shortfall(search, r, &req) {
                if f.capacity_shortfall.is_none() {
                    f.capacity_cap = search.policy_cap(r, &req);
                }
                f.capacity_shortfall.get_or_insert(short);
                continue;
            }
            f.capacity_left += 1;
            // A derived attribute that fails to evaluate is the search's
            // error, not a missing attribute.
            if let Some(a) = attributes
                .iter()
                .find(|a| matches!(search.constraint_value(&req, r, a), Ok(None)))
            {
                f.missing_attribute.get_or_insert_with(|| {
                    format!("device {} publishes no {a}", search.dev(r).name)
                });
                continue;
            }
            f.constrained += 1;
            kept.push(r);
        }
        f.held_by_deleting = holders
            .iter()
            .filter_map(|h| search.holder_deleting.get(h))
            .cloned()
            .collect();
        f.held_by_pods = holders
            .iter()
            .filter(|h| !search.holder_deleting.contains_key(*h))
            .flat_map(|h| search.holder_pods.get(h).into_iter().flatten())
            .cloned()
            .collect();
        f.held_by = holders;
        out.push(f);
        left.push(kept);
        untainted_all.push(untainted);
    }
    (
        out,
        Left {
            end: left,
            untainted: untainted_all,
        },
    )
}

/// The claims holding devices of the pool that draw on the counter set.
pub(super) fn counter_holders(search: &Search<'_>, pool: usize, set: &str) -> Vec<CounterHolder> {
    let mut held: Vec<(DevRef, &String)> = search
        .holders
        .iter()
        .filter(|(r, _)| r.pool == pool)
        .filter(|(r, _)| search.dev(**r).consumes().iter().any(|(s, _, _)| *s == set))
        .map(|(r, h)| (*r, h))
        .collect();
    held.sort_by_key(|(r, _)| r.index);
    held.into_iter()
        .map(|(r, claim)| {
            let d = search.dev(r);
            let counters = d
                .consumes()
                .iter()
                .filter(|(s, _, _)| *s == set)
                .flat_map(|(_, counters, _)| counters.iter())
                .map(|(name, q)| (name.to_string(), q.human()))
                .collect();
            CounterHolder {
                claim: claim.clone(),
                device: d.name.to_owned(),
                counter_set: set.to_owned(),
                counters,
            }
        })
        .collect()
}

/// The first counter the device cannot get, by the search's rule
/// (counters.rs): every counter under the device's bookkeeping key is
/// compared, so one the device does not consume but that allocated devices
/// over-committed blocks it too (`needed` is then 0).
pub(super) fn counter_shortfall(search: &Search<'_>, r: DevRef) -> Option<CounterShortfall> {
    let d = search.dev(r);
    let key = search.counter_key(r);
    let owner = search.counter_owners.get(key).copied().unwrap_or(r.pool);
    search.pools[owner]
        .available_counters(search.counter_slice(r))
        .map(|(set, counter, left)| (set, counter, left, d.draws(set, counter)))
        .find(|(_, _, left, need)| need > left)
        .map(|(set, counter, left, need)| CounterShortfall {
            counter_set: set.to_string(),
            counter: counter.to_string(),
            needed: need.human(),
            left: left.human(),
            device: d.name.to_owned(),
        })
}

pub(super) fn group_conflict(search: &Search<'_>, r: DevRef) -> String {
    let d = search.dev(r);
    if !search.gates.enabled(Gate::DRADeviceCompatibilityGroups) {
        return format!(
            "device {} declares compatibilityGroups, which a scheduler with DRADeviceCompatibilityGroups off never allocates",
            d.name
        );
    }
    let show = |g: &Option<Vec<&str>>| match g {
        Some(v) => format!("[{}]", v.join(", ")),
        None => "no groups".to_owned(),
    };
    for (set, _, groups) in d.consumes() {
        if let Some(held) = search.groups.get(&(r.pool, *set)) {
            let fits = match (held, groups) {
                (None, None) => true,
                (Some(h), Some(g)) => h.iter().any(|x| g.contains(x)),
                _ => false,
            };
            if !fits {
                return format!(
                    "counter set {set}: device {} has {}, devices in use have {}",
                    d.name,
                    show(groups),
                    show(held)
                );
            }
        }
    }
    format!("device {}: compatibility groups conflict", d.name)
}

pub(super) fn capacity_shortfall<'a>(
    search: &Search<'a>,
    r: DevRef,
    req: &Req<'a>,
) -> Option<String> {
    let d = search.dev(r);
    if !search.gates.enabled(Gate::DRAConsumableCapacity) {
        return (!req.capacity.is_empty())
            .then(|| "capacity requests need DRAConsumableCapacity, which is off".to_owned());
    }
    if req.admin {
        return None;
    }
    let Some(want) = search.consumption(r, req) else {
        return Some(search.consumption_refusal(r, req));
    };
    for c in d.capacity() {
        let mut used = Quantity::zero();
        for src in [search.shared_used.get(&r)].into_iter().flatten() {
            if let Some(q) = src.get(&c.name) {
                used = used.checked_add(q).unwrap_or(used);
            }
        }
        let need = want.get(&c.name).copied().unwrap_or_else(Quantity::zero);
        let total = used.checked_add(&need).unwrap_or(used);
        if total > c.value {
            let free = c.value.checked_sub(&used).unwrap_or_else(Quantity::zero);
            return Some(format!(
                "device {}: capacity {} needs {}, {} left",
                d.name,
                c.name,
                need.human(),
                free.human()
            ));
        }
    }
    None
}

/// A request's alternatives (one, or a firstAvailable list): the devices
/// left at the end of each funnel and how many it needs.
pub(super) type Alternatives<'s> = Vec<(&'s [DevRef], usize)>;

/// The constraints that no choice of the devices left at the end of each
/// funnel can satisfy. Only a necessary condition: when none is found, the
/// requests may still conflict through counters or capacity taken together.
pub(super) fn constraint_blocks(search: &Search<'_>, left: &[Vec<DevRef>]) -> Vec<ConstraintBlock> {
    let reqs = all_requests(search);
    let mut out = Vec::new();
    for (ci, plan) in search.plans.iter().enumerate() {
        for c in &plan.constraints {
            // A derived attribute's value depends on the request: no block
            // is claimed for it (this is only a necessary condition).
            if search.derives(ci, &c.attribute) {
                continue;
            }
            // Per slot (request) the constraint spans: for each of its
            // alternatives, the devices left and how many it needs.
            let mut slots: Vec<(String, Alternatives<'_>)> = Vec::new();
            for (i, req) in reqs.iter().enumerate() {
                if req.claim != ci {
                    continue;
                }
                let applies = c.requests.is_empty()
                    || c.requests
                        .iter()
                        .any(|x| *x == req.parent || *x == req.name);
                if !applies {
                    continue;
                }
                let need = if req.all {
                    left[i].len().max(1)
                } else {
                    req.count
                };
                match slots.iter_mut().find(|(p, _)| *p == req.parent) {
                    Some((_, alts)) => alts.push((&left[i], need)),
                    None => slots.push((req.parent.clone(), vec![(&left[i], need)])),
                }
            }
            if slots.is_empty() {
                continue;
            }
            let value = |r: DevRef| search.attribute(r, &c.attribute).map(|v| v.to_string());
            let message = if c.distinct {
                // Every device picked for these requests needs its own value.
                let mut values: Vec<String> = Vec::new();
                let mut wanted = 0;
                for (_, alts) in &slots {
                    let (devs, need) = alts
                        .iter()
                        .min_by_key(|(_, n)| *n)
                        .copied()
                        .unwrap_or((&[], 0));
                    wanted += need;
                    for &r in devs {
                        if let Some(v) = value(r) {
                            if !values.contains(&v) {
                                values.push(v);
                            }
                        }
                    }
                }
                (values.len() < wanted).then(|| {
                    format!(
                        "distinctAttribute {}: {wanted} devices need different values, but the devices left carry only {} ({})",
                        c.attribute,
                        values.len(),
                        values.join(", ")
                    )
                })
            } else {
                // One value must be carried by enough devices of every request.
                let mut candidates: Vec<String> = Vec::new();
                for (_, alts) in &slots {
                    for (devs, _) in alts {
                        for &r in devs.iter() {
                            if let Some(v) = value(r) {
                                if !candidates.contains(&v) {
                                    candidates.push(v);
                                }
                            }
                        }
                    }
                }
                let fits = |v: &String| {
                    slots.iter().all(|(_, alts)| {
                        alts.iter().any(|(devs, need)| {
                            devs.iter()
                                .filter(|&&r| value(r).as_ref() == Some(v))
                                .count()
                                >= *need
                        })
                    })
                };
                (!candidates.iter().any(fits)).then(|| {
                    let per: Vec<String> = slots
                        .iter()
                        .map(|(name, alts)| {
                            let mut counts: Vec<(String, usize)> = Vec::new();
                            for (devs, _) in alts {
                                for &r in devs.iter() {
                                    if let Some(v) = value(r) {
                                        match counts.iter_mut().find(|(x, _)| *x == v) {
                                            Some((_, n)) => *n += 1,
                                            None => counts.push((v, 1)),
                                        }
                                    }
                                }
                            }
                            let shown: Vec<String> =
                                counts.iter().map(|(v, n)| format!("{v} x{n}")).collect();
                            format!("{name:?} has {}", if shown.is_empty() { "none".to_owned() } else { shown.join(", ") })
                        })
                        .collect();
                    format!(
                        "matchAttribute {}: no single value is carried by enough devices of every request ({})",
                        c.attribute,
                        per.join("; ")
                    )
                })
            };
            if let Some(message) = message {
                out.push(ConstraintBlock {
                    claim: claim_ref(plan.obj),
                    kind: if c.distinct {
                        "distinctAttribute"
                    } else {
                        "matchAttribute"
                    },
                    attribute: c.attribute.clone(),
                    requests: slots.iter().map(|(n, _)| n.clone()).collect(),
                    message,
                    needed: None,
                    available: None,
                    counter: None,
                    exclusive_devices: Vec::new(),
                    even_if_freed: false,
                });
            }
        }
    }
    out
}

/// Requests that each have enough devices on their own but draw on the same
/// ones: the smallest group of them that needs more devices together than
/// match any of them (Hall's condition). Only requests whose devices serve
/// one request each are counted (no admin access, no device that allows
/// multiple allocations), and only plain requests (not firstAvailable
/// alternatives), so a group found is certain to be short.
///
/// With `even_if_freed`, `left` holds the devices before the in-use step:
/// a group short then is short whoever holds the devices.
pub(super) fn shared_device_blocks(
    search: &Search<'_>,
    left: &[Vec<DevRef>],
    even_if_freed: bool,
) -> Vec<ConstraintBlock> {
    /// Subsets are tried up to this many requests (2^n groups).
    const MAX_REQUESTS: usize = 12;
    let reqs = all_requests(search);
    let exact: Vec<usize> = plain_requests(search, left)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    if exact.len() < 2 || exact.len() > MAX_REQUESTS {
        return Vec::new();
    }
    let need = |i: usize| {
        if reqs[i].all {
            left[i].len()
        } else {
            reqs[i].count
        }
    };
    let mut masks: Vec<u32> = (1u32..(1 << exact.len()))
        .filter(|m| m.count_ones() >= 2)
        .collect();
    masks.sort_by_key(|m| m.count_ones());
    for m in masks {
        let members: Vec<usize> = (0..exact.len())
            .filter(|b| m & (1 << b) != 0)
            .map(|b| exact[b])
            .collect();
        let needed: usize = members.iter().map(|&i| need(i)).sum();
        let mut union: Vec<DevRef> = members
            .iter()
            .flat_map(|&i| left[i].iter().copied())
            .collect();
        union.sort_by_key(|d| (d.pool, d.index));
        union.dedup();
        if needed <= union.len() {
            continue;
        }
        let claims: Vec<usize> = members.iter().map(|&i| reqs[i].claim).collect();
        let one_claim = claims.iter().all(|c| *c == claims[0]);
        let named = |i: usize| -> String {
            let r = &reqs[i];
            if one_claim {
                format!("request {:?}", r.name)
            } else {
                format!(
                    "request {:?} of claim {}",
                    r.name,
                    claim_ref(search.plans[r.claim].obj)
                )
            }
        };
        let mut parts: Vec<String> = members
            .iter()
            .map(|&i| format!("{} needs {}", named(i), need(i)))
            .collect();
        let last = parts.pop().unwrap_or_default();
        return vec![ConstraintBlock {
            claim: claim_ref(search.plans[claims[0]].obj),
            kind: "sharedDevices",
            attribute: String::new(),
            requests: members
                .iter()
                .map(|&i| match one_claim {
                    true => reqs[i].name.clone(),
                    false => format!(
                        "{}/{}",
                        claim_ref(search.plans[reqs[i].claim].obj),
                        reqs[i].name
                    ),
                })
                .collect(),
            message: format!(
                "{} and {last} of the same devices: {needed} together, but only {} match{} them{}; a device serves one request only, as {} {} not publish allowMultipleAllocations: true{}",
                parts.join(", "),
                union.len(),
                if union.len() == 1 { "es" } else { "" },
                if even_if_freed {
                    " on the node, even with every holder gone"
                } else {
                    ""
                },
                device_list(search, &union),
                if union.len() == 1 { "does" } else { "do" },
                // An extended-resource claim's requests are the scheduler's,
                // one per container: the pod cannot merge them.
                if one_claim && !is_extended_resource_claim(search.plans[claims[0]].obj) {
                    " (containers that share a device reference one request)"
                } else {
                    ""
                },
            ),
            needed: Some(needed),
            available: Some(union.len()),
            counter: None,
            exclusive_devices: union
                .iter()
                .take(DEVICES_NAMED)
                .map(|&d| device_name(search, d))
                .collect(),
            even_if_freed,
        }];
    }
    Vec::new()
}

/// The claim kube-scheduler makes for a pod's extended resources.
fn is_extended_resource_claim(claim: &Object) -> bool {
    claim
        .root
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("resource.kubernetes.io/extended-resource-claim"))
        .and_then(Node::as_str)
        == Some("true")
}

/// How many devices a sharedDevices block names.
const DEVICES_NAMED: usize = 4;

fn device_name(search: &Search<'_>, d: DevRef) -> String {
    let p = &search.pools[d.pool];
    format!("{}/{}/{}", p.driver, p.name, search.dev(d).name)
}

/// "device gpu-0", "devices gpu-0 and gpu-1", "devices gpu-0, ... and 6 more".
fn device_list(search: &Search<'_>, devices: &[DevRef]) -> String {
    let names: Vec<&str> = devices
        .iter()
        .take(DEVICES_NAMED)
        .map(|&d| search.dev(d).name)
        .collect();
    match (devices.len(), names.as_slice()) {
        (1, [one]) => format!("device {one}"),
        (n, shown) if n > shown.len() => {
            format!("devices {} and {} more", shown.join(", "), n - shown.len())
        }
        (_, [init @ .., last]) => format!("devices {} and {last}", init.join(", ")),
        _ => "no device".to_owned(),
    }
}

/// Plain requests (no admin access, no firstAvailable alternatives, no
/// device that allows multiple allocations) and the devices left to each.
pub(super) fn plain_requests<'a>(
    search: &Search<'a>,
    left: &[Vec<DevRef>],
) -> Vec<(usize, Req<'a>)> {
    all_requests(search)
        .into_iter()
        .enumerate()
        .filter(|(i, r)| {
            let plain = search.plans[r.claim]
                .slots
                .iter()
                .any(|s| matches!(s, Slot::Exact(x) if x.key == r.key));
            plain && !r.admin && !left[*i].iter().any(|&d| search.dev(d).allow_multiple)
        })
        .collect()
}

/// Requests whose devices all draw on one counter set, more than it has
/// left: any `count` devices of a request draw at least the sum of the
/// `count` smallest consumptions among its devices (a device that does not
/// consume the counter counts 0), and requests add up, as no device is
/// picked twice. A counter whose least total exceeds what is left rules
/// out every combination.
pub(super) fn counter_blocks(search: &Search<'_>, left: &[Vec<DevRef>]) -> Vec<ConstraintBlock> {
    let reqs = plain_requests(search, left);
    // (pool, set, counter) every consumption the requests' devices name.
    let mut keys: Vec<(usize, &str, &str)> = Vec::new();
    for (i, _) in &reqs {
        for &d in &left[*i] {
            for (set, counters, _) in search.dev(d).consumes() {
                for (counter, _) in counters {
                    let k = (d.pool, *set, *counter);
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
            }
        }
    }
    let draw = |d: DevRef, (pool, set, counter): (usize, &str, &str)| -> Quantity {
        if d.pool != pool {
            return Quantity::zero();
        }
        search.dev(d).draws(set, counter)
    };
    for key in keys {
        let mut total = Quantity::zero();
        let mut parts = Vec::new();
        for (i, r) in &reqs {
            let need = if r.all { left[*i].len() } else { r.count };
            let mut draws: Vec<Quantity> = left[*i].iter().map(|&d| draw(d, key)).collect();
            draws.sort();
            let least = draws
                .iter()
                .take(need)
                .fold(Quantity::zero(), |acc, q| acc.checked_add(q).unwrap_or(acc));
            if !least.is_zero() {
                parts.push((r, need, least));
                total = total.checked_add(&least).unwrap_or(total);
            }
        }
        let (pool, set, counter) = key;
        let have = search.pools[pool].available(set, counter);
        if parts.is_empty() || total <= have {
            continue;
        }
        let p = &search.pools[pool];
        let claims: Vec<usize> = parts.iter().map(|(r, _, _)| r.claim).collect();
        let named: Vec<String> = parts
            .iter()
            .map(|(r, need, least)| {
                format!(
                    "request {:?} needs {need} device{} drawing at least {}",
                    r.name,
                    if *need == 1 { "" } else { "s" },
                    least.human()
                )
            })
            .collect();
        return vec![ConstraintBlock {
            claim: claim_ref(search.plans[claims[0]].obj),
            kind: "sharedCounters",
            attribute: String::new(),
            requests: parts.iter().map(|(r, _, _)| r.name.clone()).collect(),
            message: format!(
                "counter set {set} of pool {}/{} has {} of {counter} left, but {}{}",
                p.driver,
                p.name,
                have.human(),
                named.join(" and "),
                if parts.len() > 1 {
                    format!(" ({} together)", total.human())
                } else {
                    String::new()
                }
            ),
            needed: None,
            available: None,
            counter: Some(CounterDemand {
                pool: format!("{}/{}", p.driver, p.name),
                counter_set: set.to_owned(),
                counter: counter.to_owned(),
                at_least: total.human(),
                left: have.human(),
            }),
            exclusive_devices: Vec::new(),
            even_if_freed: false,
        }];
    }
    Vec::new()
}

/// The funnel in one line: counts in order (notes shown always right after
/// their count), the number needed, then the other steps' notes.
pub(super) fn describe(f: &Funnel) -> String {
    let steps = f.steps();
    let mut s = format!("claim {}, request {}: ", f.claim, f.request);
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&format!("{} {}", step.count, step.label));
        if i == 0 {
            s.push_str(" on the node");
        }
        if let (true, Some(note)) = (step.note_always, &step.note) {
            s.push_str(&format!(" ({note})"));
        }
    }
    s.push_str(&format!("; {} needed", f.needed));
    for step in steps.iter().filter(|step| !step.note_always) {
        if let Some(note) = &step.note {
            s.push_str(&format!(" ({note})"));
        }
    }
    s
}
