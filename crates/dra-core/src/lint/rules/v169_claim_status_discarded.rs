//! DRA-V169: a ResourceClaim written with a status.
use super::prelude::*;

declare_rule! {
    id: "DRA-V169", name: "claim-status-discarded", severity: Warning, origin: Decode,
    summary: "A ResourceClaim's status is discarded when the claim is written",
    docs: "kube-apiserver resets a ResourceClaim's status on create (strategy PrepareForCreate) and keeps the stored one on update: only the scheduler and drivers write it, through the status subresource. An allocation or device status in a manifest is silently dropped; the claim is allocated by the scheduler as if it were not there. This usually means a claim exported from a cluster (`kubectl get -o yaml`) is being re-applied: remove the status.",
    example: "kind: ResourceClaim\nstatus:\n  allocation:\n    devices:\n      results: [{request: gpu, driver: gpu.example.com, pool: p, device: gpu-0}]\n",
    check: Check::Object(&[ResourceClaim], check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    // strategy.go PrepareForCreate: claim.Status = ResourceClaimStatus{}.
    report_status_discarded(
        obj,
        "the apiserver discards a claim's status when the claim is created or updated",
        "the scheduler and drivers write it through the status subresource",
        out,
    );
}
