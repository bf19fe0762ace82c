//! DRA-V222: a ResourcePoolStatusRequest written with a status.
use super::prelude::*;

declare_rule! {
    id: "DRA-V222", name: "pool-status-request-status-discarded", severity: Warning, origin: Decode, releases: "1.36+",
    summary: "A ResourcePoolStatusRequest's status is discarded when the request is written",
    docs: "kube-apiserver resets a ResourcePoolStatusRequest's status on create (strategy `PrepareForCreate`; `status` is among its reset fields) and keeps the stored one on update: only kube-controller-manager writes it, once, through the status subresource, after which the whole request is immutable. A status in a manifest (a request exported with `kubectl get -o yaml`) is dropped, and the controller computes the counts afresh. To get new counts, delete the request and create it again.",
    example: "kind: ResourcePoolStatusRequest\nstatus:\n  poolCount: 1\n",
    check: Check::Object(&[ResourcePoolStatusRequest], check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    report_status_discarded(
        obj,
        "the apiserver discards a ResourcePoolStatusRequest's status when the request is created or updated",
        "kube-controller-manager writes it through the status subresource",
        out,
    );
}
