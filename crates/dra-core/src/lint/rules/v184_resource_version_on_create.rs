//! DRA-V184: metadata.resourceVersion set on an object to create.
use super::prelude::*;

declare_rule! {
    id: "DRA-V184", name: "resource-version-on-create", severity: Error, origin: Apiserver,
    summary: "metadata.resourceVersion is set: creating the object fails",
    docs: "The storage layer refuses to create an object that carries a resourceVersion (`resourceVersion should not be set on objects to be created`, storage.ErrResourceVersionSetOnCreate), and on an update it is a precondition that an old copy fails. It usually comes from saving `kubectl get -o yaml` output: remove it, together with `uid`, `creationTimestamp` and `managedFields`.",
    example: "metadata:\n  name: gpu-claim\n  resourceVersion: \"48211\"\n",
    check: Check::Object(&[ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, Workload, Namespace, ServiceAccount, Role, ClusterRole, RoleBinding, ClusterRoleBinding], check),
    fix: &crate::fix::builders::SERVER_FIELDS,
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(meta) = get(&obj.root, "metadata") else {
        return;
    };
    let Some(e) = entry(meta, "resourceVersion") else {
        return;
    };
    if e.value.as_str().is_some_and(|v| !v.is_empty()) {
        out.report(
            obj,
            Invalid,
            "metadata.resourceVersion",
            e.key_span,
            "resourceVersion should not be set on objects to be created",
        )
        .note("copied from `kubectl get -o yaml`? remove resourceVersion (and uid, creationTimestamp, managedFields)");
    }
}
