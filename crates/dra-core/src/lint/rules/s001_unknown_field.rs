//! DRA-S001: a field the API does not have.
use super::prelude::*;

declare_rule! {
    id: "DRA-S001", name: "unknown-field", severity: Error, origin: Decode,
    summary: "A field that resource.k8s.io/v1 does not define (in the target version)",
    docs: "kubectl's strict field validation (the default since 1.27) rejects unknown fields; with `--validate=false` the apiserver drops them silently, so a misspelled field simply has no effect. Fields added in a later Kubernetes version are unknown to earlier ones.",
    example: "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClass: gpu.example.com   # deviceClassName\n",
    check: Check::Loader,
    fix: &crate::fix::builders::ADD_EXACTLY,
}
