//! The per-node detail as text: each request's funnel, the devices picked.

use dra_core::allocate::{self, Outcome};
use dra_core::model::Object;

/// A reason saying the scheduler skips a pool of the node (invalid or
/// incomplete).
fn is_skipped_pool(reason: &str) -> bool {
    reason.starts_with("resource pool ")
        && (reason.contains(" is invalid (") || reason.contains(" is incomplete"))
}

/// The step of the funnel where a request dropped below what it needs.
fn blocking_step(f: &allocate::Funnel) -> String {
    let n = f.needed;
    let req = &f.request;
    if f.devices == 0 {
        return format!(
            "request {req:?}: no devices on the node (no usable resource pool publishes any there)"
        );
    }
    if f.all && f.free < n && f.untainted >= n {
        // All mode: every matching device, so any held one blocks it.
        let by = if f.held_by.is_empty() {
            String::new()
        } else {
            format!(", held by {}", f.held_by.join(", "))
        };
        return format!(
            "request {req:?} needs all {n} matching devices, {} are in use{by}",
            n - f.free
        );
    }
    let devices = if n == 1 {
        "no device passes".to_owned()
    } else {
        format!("fewer than {n} devices pass")
    };
    if f.devices < n && !f.all {
        // The node has too few devices whatever the selectors say.
        let are = if f.devices == 1 { "is" } else { "are" };
        format!(
            "request {req:?} needs {n} devices, only {} {are} on the node",
            f.devices
        )
    } else if f.pass_class < n {
        format!("request {req:?}: {devices} the class selectors")
    } else if f.pass_request < n {
        format!("request {req:?}: {devices} the request selectors")
    } else if f.untainted < n {
        match f.taint_text() {
            Some(t) => format!("request {req:?}: matching devices are tainted, {t}"),
            None => format!("request {req:?}: matching devices are tainted"),
        }
    } else if f.free < n {
        let by = if f.held_by.is_empty() {
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
        format!("request {req:?}: matching devices are allocated{by}")
    } else if f.counters_left < n {
        match &f.shortfall {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: shared counters are used up"),
        }
    } else if f.compatible < n {
        match &f.group_conflict {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: compatibility groups conflict"),
        }
    } else if f.capacity_left < n {
        match &f.capacity_shortfall {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: consumable capacity is used up"),
        }
    } else if f.constrained < n {
        match &f.missing_attribute {
            Some(s) => format!("request {req:?}: a constraint's attribute is missing: {s}"),
            None => format!("request {req:?}: a constraint's attribute is missing"),
        }
    } else {
        format!(
            "request {req:?}: shared counters, capacity or constraints rule out every combination"
        )
    }
}

/// Why the claims do not fit on a node, in one line (to group nodes by).
pub(super) fn blocking_reason(
    reasons: &[String],
    funnels: &[allocate::Funnel],
    constraints: &[allocate::ConstraintBlock],
) -> String {
    // A selector that does not compile is the cause, whatever it rules out.
    if let Some(r) = reasons.iter().find(|r| r.contains(": CEL compile error: ")) {
        return r.clone();
    }
    // A firstAvailable alternative that fails is no cause while another
    // alternative of the same request has enough devices.
    let alternative_enough = |f: &allocate::Funnel| {
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
        let pool = reasons.iter().find(|r| is_skipped_pool(r));
        if let Some(p) = pool.filter(|_| f.pass_class < f.needed) {
            return format!("request {:?}: {p}", f.request);
        }
        // A firstAvailable request fails only when every alternative does:
        // name why each one does, not only the first.
        if let Some((parent, _)) = f.request.split_once('/') {
            let prefix = format!("{parent}/");
            let alternatives: Vec<&allocate::Funnel> = funnels
                .iter()
                .filter(|g| g.claim == f.claim && g.request.starts_with(&prefix))
                .collect();
            if alternatives.len() > 1 {
                let each: Vec<String> = alternatives.iter().map(|g| blocking_step(g)).collect();
                return format!(
                    "request {parent:?}: none of its {} alternatives fits: {}",
                    alternatives.len(),
                    each.join("; ")
                );
            }
        }
        return blocking_step(f);
    }
    if let Some(c) = constraints.first() {
        return c.message.clone();
    }
    if !funnels.is_empty() {
        return "every request has enough devices on its own, but shared counters, capacity or constraints rule out every combination".to_owned();
    }
    reasons
        .first()
        .cloned()
        .unwrap_or_else(|| "no allocation".to_owned())
}

/// The funnel of one request as text: the first steps always, the later ones
/// where they drop devices.
fn funnel_text(f: &allocate::Funnel, node: &str) -> String {
    let needed = if f.all {
        format!("all {} matching needed", f.needed)
    } else {
        format!("{} needed", f.needed)
    };
    let mut out = format!("\n  request {:?} of {} ({needed})\n", f.request, f.claim);
    let steps = f.steps();
    for (i, step) in steps.iter().enumerate() {
        let dropped = i > 0 && step.count < steps[i - 1].count;
        if i >= 5 && !dropped {
            continue;
        }
        let label = if i == 0 {
            format!("devices on {node}")
        } else {
            step.label.to_owned()
        };
        let note = match &step.note {
            Some(note) if dropped || step.note_always => format!("   ({note})"),
            _ => String::new(),
        };
        out.push_str(&format!("  {:>6}  {label}{note}\n", step.count));
    }
    if f.constrained < f.needed {
        out.push_str(&format!("  {:>6}  < {} needed\n", f.constrained, f.needed));
    }
    out
}

/// The claims' names, for messages: "team-a/train-0, team-a/train-1".
/// The claims as a verdict names them: all of a few, the first ones and a
/// count of many (a pod may have thousands; the verdict stays one line).
pub(super) fn claim_names(claims: &[&Object]) -> String {
    const SHOWN: usize = 8;
    let mut names = claims
        .iter()
        .take(SHOWN)
        .map(|o| {
            format!(
                "{}/{}",
                o.namespace_or_default(),
                o.name().unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    if claims.len() > SHOWN {
        names.push_str(&format!(" and {} more claims", claims.len() - SHOWN));
    }
    names
}

/// One node's detail: the verdict there, then the devices picked or each
/// request's funnel and the verified advice.
pub(super) fn node_detail(names: &str, node: &str, outcome: &Outcome, advice: &[String]) -> String {
    let mut out = String::new();
    match outcome {
        Outcome::Allocated { claims } => {
            out.push_str(&format!("{names}: allocated on {node}\n"));
            for c in claims {
                if c.existing {
                    let reserved = if c.reserved_for.is_empty() {
                        "reserved for no pod".to_owned()
                    } else {
                        format!("reserved for {}", c.reserved_for.join(", "))
                    };
                    out.push_str(&format!(
                        "  {}/{} was already allocated (status.allocation), {reserved}; its devices:\n",
                        c.namespace, c.name
                    ));
                }
                for r in &c.results {
                    out.push_str(&format!(
                        "  {}/{} request {:<12} -> {}/{}/{}",
                        c.namespace, c.name, r.request, r.driver, r.pool, r.device
                    ));
                    if let Some(cc) = &r.consumed_capacity {
                        let parts: Vec<String> =
                            cc.iter().map(|(k, v)| format!("{k}={v}")).collect();
                        out.push_str(&format!(" (shared, {})", parts.join(", ")));
                    }
                    out.push('\n');
                }
            }
        }
        Outcome::Unsatisfiable {
            reasons,
            funnels,
            constraints,
        } => {
            out.push_str(&format!("{names} cannot be allocated on {node}.\n"));
            // Reasons without a funnel (a claim allocated for another node).
            if funnels.is_empty() {
                for r in reasons {
                    out.push_str(&format!("  {r}\n"));
                }
            }
            for f in funnels {
                out.push_str(&funnel_text(f, node));
            }
            for a in advice {
                out.push_str(&format!("  {a}\n"));
            }
            if funnels.iter().all(allocate::Funnel::enough) && !funnels.is_empty() {
                out.push_str(
                    "\n  Every request has enough devices on its own, but not together:\n",
                );
                for c in constraints {
                    out.push_str(&format!("  - {}: {}\n", c.claim, c.message));
                }
                if constraints.is_empty() {
                    out.push_str("  - shared counters, capacity or constraints rule out every combination of them\n");
                }
            }
            for r in reasons
                .iter()
                .filter(|r| is_skipped_pool(r) || r.contains(": CEL compile error: "))
            {
                out.push_str(&format!("\n  {r}\n"));
            }
        }
        Outcome::Undecided { reason } => {
            out.push_str(&format!("{names}: {node} was not tried: {reason}\n"));
        }
        Outcome::Error { error, .. } => {
            out.push_str(&format!(
                "{names}: the scheduler fails on {node} with an error:\n  {error}\n"
            ));
        }
    }
    out
}
