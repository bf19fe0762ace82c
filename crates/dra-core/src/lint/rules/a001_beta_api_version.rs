//! DRA-A001: an older resource.k8s.io version.
use super::prelude::*;

declare_rule! {
    id: "DRA-A001", name: "deprecated-api-version", severity: Warning, origin: Decode,
    summary: "A resource.k8s.io beta or alpha version where v1 exists",
    docs: "resource.k8s.io/v1 is served from Kubernetes 1.34; v1beta1 and v1beta2 are deprecated and are removed in later releases, v1alpha3 is alpha. v1beta2 has the v1 shape; in v1beta1 device fields sit under `basic` and request fields directly in the request (v1 puts them under `exactly`). kubectl-dra checks beta objects after converting them to v1, so field paths in findings are v1 paths.",
    example: "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\n",
    check: Check::Loader,
}
