//! The per-node detail as text: each request's funnel, the devices picked.

use dra_core::allocate::{self, Outcome};
use dra_core::model::Object;

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
pub(super) fn node_detail(
    names: &str,
    node: &str,
    outcome: &Outcome,
    advice: &[dra_core::verdict::Advice],
) -> String {
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
                    out.push_str(&format!("  {}\n", indented(&r.text)));
                }
            }
            for f in funnels {
                out.push_str(&funnel_text(f, node));
            }
            for a in advice {
                out.push_str(&format!("  {}\n", a.text));
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
            } else if constraints.iter().any(|c| c.even_if_freed) {
                out.push_str("\n  Freeing the devices would not be enough:\n");
                for c in constraints.iter().filter(|c| c.even_if_freed) {
                    out.push_str(&format!("  - {}: {}\n", c.claim, c.message));
                }
            }
            for r in reasons
                .iter()
                .filter(|r| r.skips_pool() || r.kind == allocate::ReasonKind::CelCompile)
            {
                out.push_str(&format!("\n  {}\n", indented(&r.text)));
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

/// A reason of several lines (a CEL compile error and cel-go's snippet
/// under it) with its later lines under the first.
fn indented(text: &str) -> String {
    text.replace('\n', "\n  ")
}
