//! DRA-H003: an allocated claim that no pod uses: its devices leak.
use super::prelude::*;

declare_rule! {
    id: "DRA-H003", name: "claim-reserved-for-nobody", severity: Warning, origin: Linter,
    summary: "An allocated claim reserved for no pod, or for pods that do not exist",
    docs: "The resourceclaim controller deallocates a claim once no pod has it reserved; one that stays allocated with an empty `reservedFor`, or reserved for pods that are gone, holds its devices from every other pod (a leak): the controller is not running, or a finalizer holds it. Check kube-controller-manager, then delete the claim. Checked on a cluster's state (an input with Nodes: `kubectl dra doctor`, a snapshot); pods only when it holds Pods; a claim being deleted is left out.",
    example: "status:\n  allocation: {...}\n  reservedFor: []\n",
    check: Check::Object(&[ResourceClaim], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !cluster_state(cx) {
        return;
    }
    let claim = crate::dra::Claim::decode(obj);
    let Some(allocation) = &claim.allocation else {
        return;
    };
    let deleting = get(&obj.root, "metadata")
        .and_then(|m| get(m, "deletionTimestamp"))
        .is_some();
    if deleting {
        return;
    }
    if claim.reserved_for.is_empty() {
        let at = get(&obj.root, "status")
            .and_then(|s| entry(s, "allocation"))
            .map_or(allocation.node.span, |e| e.key_span);
        out.report(
            obj,
            Warning,
            "status.reservedFor",
            at,
            "allocated but reserved for no pod: its devices are held from every other pod until it is deallocated".to_owned(),
        );
        return;
    }
    if !has(cx, Workload, true) {
        return;
    }
    let gone: Vec<&str> = claim
        .reserved_for
        .iter()
        .filter(|c| c.resource == Some("pods"))
        .filter(|c| !pod_exists(cx, claim.namespace, c.name))
        .map(|c| c.name)
        .collect();
    if !gone.is_empty() && gone.len() == claim.reserved_for.len() {
        let at = claim.reserved_for[0].node.span;
        out.report(
            obj,
            NotFound,
            "status.reservedFor",
            at,
            format!(
                "reserved only for pods that do not exist ({}): its devices are held from every other pod",
                gone.join(", ")
            ),
        );
    }
}
