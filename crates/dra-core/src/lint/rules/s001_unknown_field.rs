//! DRA-S001: a field the API does not have.
use super::prelude::*;

declare_rule! {
    id: "DRA-S001", name: "unknown-field", severity: Error, origin: Decode,
    summary: "A field the object's type does not define (in the target version): a DRA kind, the metadata of any kind, a whole built-in Pod or workload",
    docs: "kubectl asks for strict field validation (`--validate=strict`, its default since 1.27): the apiserver refuses an object with fields its type does not have, naming every one of them (400 Bad Request), before it validates anything. lint reads manifests the same way: an object with an unknown field gets its DRA-S001 findings and nothing else (no validation error, no dropped field), and a value that does not decode (DRA-S002) comes first and alone, as the decoder returns it before its strict errors. With `--validate=false` the apiserver drops such fields silently, so a misspelled field simply has no effect. Fields added in a later Kubernetes version are unknown to earlier ones. A Pod, PodTemplate, ReplicationController, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job or CronJob is decoded whole, with the fields kubernetes/api's Go types have at the target release; of a custom workload (a JobSet) only the metadata and the claim entries.",
    example: "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClass: gpu.example.com   # deviceClassName\n",
    check: Check::Loader,
    fix: &crate::fix::builders::ADD_EXACTLY,
}
