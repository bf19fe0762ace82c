//! What would make the claims fit on a node, at the defect's source, each
//! piece checked against the inventory before it is given (issue 31, class
//! 5): a holder is freed and the claims allocated again; taints are
//! tolerated and the claims allocated again; a requestPolicy cap is only
//! advised when the device has that much left.

use serde::Serialize;

use crate::allocate::{Allocator, DeletingHolder, Funnel, TaintSource};
use crate::model::{Object, ObjectKind};

/// What the advice changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum AdviceKind {
    /// Delete an allocated claim that holds the devices.
    DeleteHolder,
    /// A holder is being deleted already: what keeps it (its finalizers).
    AwaitDeallocation,
    /// A DeviceTaintRule with an empty selector taints everything.
    NarrowTaintRule,
    /// DeviceTaintRules put the taints on.
    DeleteTaintRule,
    /// The driver publishes the taints in its ResourceSlice.
    DriverClearsTaint,
    /// A requestPolicy caps one allocation below the amount asked.
    RequestWithinPolicy,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    pub kind: AdviceKind,
    /// The object to change (`ns/claim`, a rule, `driver/pool/device`).
    pub subject: String,
    pub text: String,
    /// How it was checked.
    pub check: &'static str,
}

/// The finalizer kube-controller-manager's resourceclaim controller puts on
/// every allocated claim and removes once it is deallocated.
const DELETE_PROTECTION: &str = "resource.kubernetes.io/delete-protection";

/// The advice for `node`, first what frees devices, then taints, then
/// capacity; empty when no single change is known to work.
pub fn advise(
    allocator: &Allocator<'_>,
    objects: &[Object],
    node: &str,
    funnels: &[Funnel],
) -> Vec<Advice> {
    let mut out = holders(allocator, objects, node, funnels);
    if out.is_empty() {
        out = taints(allocator, node, funnels);
    }
    if out.is_empty() {
        out = capacity_caps(node, funnels);
    }
    out
}

fn holders(
    allocator: &Allocator<'_>,
    objects: &[Object],
    node: &str,
    funnels: &[Funnel],
) -> Vec<Advice> {
    let mut names: Vec<&str> = Vec::new();
    for h in funnels
        .iter()
        .flat_map(|f| f.held_by.iter().chain(&f.counter_holders))
    {
        if !names.contains(&h.as_str()) {
            names.push(h);
        }
    }
    let deleting: Vec<&DeletingHolder> = funnels.iter().flat_map(|f| &f.held_by_deleting).collect();
    for h in names.iter().take(3) {
        let Some(claim) = objects.iter().find(|o| {
            o.kind == ObjectKind::ResourceClaim
                && o.name()
                    .is_some_and(|n| *h == format!("{}/{n}", o.namespace_or_default()))
        }) else {
            continue;
        };
        if !allocator.fits_without(node, claim) {
            continue;
        }
        let check = "allocated again with the claim's devices, counters and capacity freed";
        let text = match deleting.iter().find(|d| d.claim == *h) {
            Some(d) => awaiting(node, d),
            None => {
                format!("It fits on {node} if {h} is deleted (DRA devices are never preempted).")
            }
        };
        let kind = if deleting.iter().any(|d| d.claim == *h) {
            AdviceKind::AwaitDeallocation
        } else {
            AdviceKind::DeleteHolder
        };
        return vec![Advice {
            kind,
            subject: (*h).to_owned(),
            text,
            check,
        }];
    }
    Vec::new()
}

/// A holder deleted already: deleting it again changes nothing; what keeps
/// it is a finalizer, and who removes it.
fn awaiting(node: &str, d: &DeletingHolder) -> String {
    let who = if d.finalizers.iter().all(|f| f == DELETE_PROTECTION) {
        format!(
            "kube-controller-manager's resourceclaim controller deallocates it and removes {DELETE_PROTECTION} once no pod in its status.reservedFor exists; if those pods are gone, check that controller (kube-controller-manager's logs)"
        )
    } else {
        let others: Vec<&str> = d
            .finalizers
            .iter()
            .map(String::as_str)
            .filter(|f| *f != DELETE_PROTECTION)
            .collect();
        format!(
            "finalizer {} is removed by the controller that added it; check that it runs",
            others.join(", ")
        )
    };
    format!(
        "It fits on {node} once {} is deallocated: it is being deleted (since {}), so deleting it again changes nothing; {who}.",
        d.claim, d.since
    )
}

fn taints(allocator: &Allocator<'_>, node: &str, funnels: &[Funnel]) -> Vec<Advice> {
    let sources: Vec<&TaintSource> = funnels.iter().flat_map(|f| &f.taint_sources).collect();
    if sources.is_empty() || !allocator.fits_tolerating_taints(node) {
        return Vec::new();
    }
    let check = "allocated again with every device taint tolerated";
    let mut out = Vec::new();
    // Taints that DeviceTaintRules put on: the rule is the source, so the
    // advice is about the rule, not tolerating what it marks (a toleration
    // would also keep NoExecute from evicting).
    let mut rules: Vec<&str> = Vec::new();
    for r in sources
        .iter()
        .filter_map(|t| t.device_taint_rule.as_deref())
    {
        if !rules.contains(&r) {
            rules.push(r);
        }
    }
    if let Some(everything) = sources
        .iter()
        .find(|t| t.rule_selects_every_device)
        .and_then(|t| t.device_taint_rule.as_deref())
    {
        out.push(Advice {
            kind: AdviceKind::NarrowTaintRule,
            subject: everything.to_owned(),
            text: format!(
                "It fits on {node} without DeviceTaintRule {everything}: it has an empty deviceSelector, so it taints every device of every driver; give it a deviceSelector naming the devices it is meant for (driver, pool, device), or delete it."
            ),
            check,
        });
    } else if !rules.is_empty() {
        let noun = if rules.len() == 1 {
            "DeviceTaintRule"
        } else {
            "DeviceTaintRules"
        };
        let list = rules.join(", ");
        out.push(Advice {
            kind: AdviceKind::DeleteTaintRule,
            subject: list.clone(),
            text: format!("It fits on {node} without {noun} {list}: delete it once its devices are back in service."),
            check,
        });
    }
    // Taints the driver publishes on its devices mark a state of the device
    // (maintenance, a fault): tolerating them would put the pod on it.
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for t in sources.iter().filter(|t| t.device_taint_rule.is_none()) {
        if seen.contains(&(t.key.as_str(), t.device.as_str())) {
            continue;
        }
        seen.push((&t.key, &t.device));
        let driver = t.device.split('/').next().unwrap_or_default();
        let value = if t.value.is_empty() {
            String::new()
        } else {
            format!("={}", t.value)
        };
        out.push(Advice {
            kind: AdviceKind::DriverClearsTaint,
            subject: t.device.clone(),
            text: format!(
                "It fits on {node} once driver {driver} clears {}{value}:{} from {} (its ResourceSlice publishes it: the driver's mark of the device's state); tolerate it only if the workload may run on a device in that state.",
                t.key, t.effect, t.device
            ),
            check,
        });
    }
    out
}

fn capacity_caps(node: &str, funnels: &[Funnel]) -> Vec<Advice> {
    funnels
        .iter()
        .filter(|f| f.capacity_left < f.needed)
        .filter_map(|f| {
            let cap = f.capacity_cap.as_ref().filter(|c| c.max_is_free)?;
            Some(Advice {
                kind: AdviceKind::RequestWithinPolicy,
                subject: format!("{}/{}", f.claim, f.request),
                text: format!(
                    "On {node}, request {:?} asks {} of {}, but device {}'s requestPolicy gives one allocation at most {}: ask for {} or less (several requests, each within it, for more).",
                    f.request, cap.asked, cap.capacity, cap.device, cap.max, cap.max
                ),
                check: "the device has that amount left on the node",
            })
        })
        .take(3)
        .collect()
}
