//! Why the claims do not fit on one node, in one line, with its kind.

use super::{Blocking, CauseKind};
use crate::allocate::{ConstraintBlock, Funnel, Reason, ReasonKind};

/// The step of the funnel where a request dropped below what it needs.
pub fn blocking_step(f: &Funnel) -> Blocking {
    let n = f.needed;
    let req = &f.request;
    let subject = Some(format!("{}/{}", f.claim, f.request));
    let at = |kind: CauseKind, text: String| Blocking {
        kind,
        subject: subject.clone(),
        text,
    };
    if f.devices == 0 {
        return at(
            CauseKind::NoDevices,
            format!("request {req:?}: no devices on the node (no usable resource pool publishes any there)"),
        );
    }
    if f.all && f.free < n && f.untainted >= n {
        // All mode: every matching device, so any held one blocks it.
        let by = if f.held_by.is_empty() {
            String::new()
        } else {
            format!(", held by {}", f.held_by.join(", "))
        };
        return at(
            CauseKind::AllInUse,
            format!(
                "request {req:?} needs all {n} matching devices, {} are in use{by}",
                n - f.free
            ),
        );
    }
    let devices = if n == 1 {
        "no device passes".to_owned()
    } else {
        format!("fewer than {n} devices pass")
    };
    let or = |detail: &Option<String>, fallback: &str| match detail {
        Some(s) => format!("request {req:?}: {s}"),
        None => format!("request {req:?}: {fallback}"),
    };
    if f.pass_class == 0 {
        // Devices of other classes only (another driver's, say): the defect
        // is that none of the class is here, not how many there are.
        let are = if f.devices == 1 {
            "the node's device fails".to_owned()
        } else {
            format!("none of the node's {} devices passes", f.devices)
        };
        return at(
            CauseKind::NoClassDevices,
            format!(
                "request {req:?}: no device of its class on the node ({are} the class selectors)"
            ),
        );
    }
    if f.devices < n && !f.all && f.pass_class == f.devices {
        // Every device on the node is of the class, and too few.
        let are = if f.devices == 1 { "is" } else { "are" };
        at(
            CauseKind::TooFewDevices,
            format!(
                "request {req:?} needs {n} devices, only {} {are} on the node",
                f.devices
            ),
        )
    } else if f.pass_class < n {
        at(
            CauseKind::ClassSelectors,
            format!("request {req:?}: {devices} the class selectors"),
        )
    } else if f.pass_request < n {
        at(
            CauseKind::RequestSelectors,
            format!("request {req:?}: {devices} the request selectors"),
        )
    } else if f.untainted < n {
        at(
            CauseKind::Tainted,
            match f.taint_text() {
                Some(t) => format!("request {req:?}: matching devices are tainted, {t}"),
                None => format!("request {req:?}: matching devices are tainted"),
            },
        )
    } else if f.free < n {
        // Claims being deleted hold their devices until deallocated: that
        // is the state to name (their reservedFor is stale).
        if !f.held_by_deleting.is_empty() && f.held_by_deleting.len() == f.held_by.len() {
            let each: Vec<String> = f.held_by_deleting.iter().map(deleting_text).collect();
            return at(
                CauseKind::ClaimsDeleting,
                format!(
                    "request {req:?}: matching devices are allocated to claims being deleted ({}); they are freed once the claims are deallocated",
                    each.join("; ")
                ),
            );
        }
        let mut by = if f.held_by.is_empty() {
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
        if !f.held_by_deleting.is_empty() {
            let each: Vec<String> = f.held_by_deleting.iter().map(deleting_text).collect();
            by.push_str(&format!("; being deleted: {}", each.join("; ")));
        }
        at(
            CauseKind::InUse,
            format!("request {req:?}: matching devices are allocated{by}"),
        )
    } else if f.counters_left < n {
        at(
            CauseKind::Counters,
            or(&f.shortfall, "shared counters are used up"),
        )
    } else if f.compatible < n {
        at(
            CauseKind::CompatibilityGroups,
            or(&f.group_conflict, "compatibility groups conflict"),
        )
    } else if f.capacity_left < n {
        at(
            CauseKind::Capacity,
            or(&f.capacity_shortfall, "consumable capacity is used up"),
        )
    } else if f.constrained < n {
        at(
            CauseKind::ConstraintAttribute,
            match &f.missing_attribute {
                Some(s) => format!("request {req:?}: a constraint's attribute is missing: {s}"),
                None => format!("request {req:?}: a constraint's attribute is missing"),
            },
        )
    } else {
        at(
            CauseKind::Combination,
            format!("request {req:?}: shared counters, capacity or constraints rule out every combination"),
        )
    }
}

/// A claim being deleted: since when, and what keeps it.
fn deleting_text(d: &crate::allocate::DeletingHolder) -> String {
    let kept = match d.finalizers.as_slice() {
        [] => String::new(),
        [one] => format!(", kept by finalizer {one}"),
        more => format!(", kept by finalizers {}", more.join(", ")),
    };
    format!("{} since {}{kept}", d.claim, d.since)
}

/// Why the claims do not fit on a node, in one line, with its kind.
pub fn blocking(
    reasons: &[Reason],
    funnels: &[Funnel],
    constraints: &[ConstraintBlock],
) -> Blocking {
    // A selector that does not compile is the cause, whatever it rules out.
    if let Some(r) = reasons.iter().find(|r| r.kind == ReasonKind::CelCompile) {
        return Blocking {
            kind: CauseKind::CelCompile,
            subject: r.subject.clone(),
            text: r.text.clone(),
        };
    }
    // A firstAvailable alternative that fails is no cause while another
    // alternative of the same request has enough devices.
    let alternative_enough = |f: &Funnel| {
        f.request.split_once('/').is_some_and(|(parent, _)| {
            let prefix = format!("{parent}/");
            funnels
                .iter()
                .any(|g| g.claim == f.claim && g.request.starts_with(&prefix) && g.enough())
        })
    };
    // Requests that need more devices together than the node has, holders
    // or not: the holders named in the funnel are not what to fix.
    if let Some(c) = constraints.iter().find(|c| c.even_if_freed) {
        return Blocking {
            kind: CauseKind::Constraint,
            subject: Some(format!("{}: {}", c.claim, c.kind)),
            text: c.message.clone(),
        };
    }
    if let Some(f) = funnels
        .iter()
        .find(|f| !f.enough() && !alternative_enough(f))
    {
        // Devices an invalid or incomplete pool hides are the cause, not
        // "too few devices".
        let pool = reasons.iter().find(|r| r.skips_pool());
        if let Some(p) = pool.filter(|_| f.pass_class < f.needed) {
            return Blocking {
                kind: CauseKind::PoolSkipped,
                subject: p.subject.clone(),
                text: format!("request {:?}: {}", f.request, p.text),
            };
        }
        // A firstAvailable request fails only when every alternative does:
        // name why each one does, not only the first.
        if let Some((parent, _)) = f.request.split_once('/') {
            let prefix = format!("{parent}/");
            let alternatives: Vec<&Funnel> = funnels
                .iter()
                .filter(|g| g.claim == f.claim && g.request.starts_with(&prefix))
                .collect();
            if alternatives.len() > 1 {
                let each: Vec<String> =
                    alternatives.iter().map(|g| blocking_step(g).text).collect();
                return Blocking {
                    kind: CauseKind::Alternatives,
                    subject: Some(format!("{}/{parent}", f.claim)),
                    text: format!(
                        "request {parent:?}: none of its {} alternatives fits: {}",
                        alternatives.len(),
                        each.join("; ")
                    ),
                };
            }
        }
        return blocking_step(f);
    }
    if let Some(c) = constraints.first() {
        return Blocking {
            kind: CauseKind::Constraint,
            subject: Some(format!("{}: {}", c.claim, c.kind)),
            text: c.message.clone(),
        };
    }
    if !funnels.is_empty() {
        return Blocking {
            kind: CauseKind::Combination,
            subject: None,
            text: "every request has enough devices on its own, but shared counters, capacity or constraints rule out every combination".to_owned(),
        };
    }
    match reasons.first() {
        Some(r) => Blocking {
            kind: match r.kind {
                ReasonKind::ClaimElsewhere => CauseKind::ClaimElsewhere,
                ReasonKind::BindingNotReady => CauseKind::BindingNotReady,
                ReasonKind::PoolInvalid | ReasonKind::PoolIncomplete => CauseKind::PoolSkipped,
                _ => CauseKind::Other,
            },
            subject: r.subject.clone(),
            text: r.text.clone(),
        },
        None => Blocking {
            kind: CauseKind::Other,
            subject: None,
            text: "no allocation".to_owned(),
        },
    }
}
