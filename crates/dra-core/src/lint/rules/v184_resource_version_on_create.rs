//! DRA-V184: metadata.resourceVersion set on an object to create, or a
//! resourceVersion or uid that does not match the stored object updated.
use super::prelude::*;

declare_rule! {
    id: "DRA-V184", name: "resource-version-on-create", severity: Error, origin: Apiserver,
    summary: "metadata.resourceVersion is set: creating the object fails; or an update names another resourceVersion or uid than the stored object's",
    docs: "The storage layer refuses to create an object that carries a resourceVersion (`resourceVersion should not be set on objects to be created`, storage.ErrResourceVersionSetOnCreate), and on an update it is a precondition that an old copy fails. It usually comes from saving `kubectl get -o yaml` output: remove it, together with `uid`, `creationTimestamp` and `managedFields`. When the object exists (`--stored`, `--cluster`), `kubectl apply` is an update: a resourceVersion other than the stored one fails the optimistic lock (409 Conflict: `the object has been modified; please apply your changes to the latest version and try again`, registry Store.Update), and a uid other than the stored one is refused by ValidateObjectMetaUpdate (`metadata.uid: field is immutable`); the same values as the stored object's are accepted.",
    example: "metadata:\n  name: gpu-claim\n  resourceVersion: \"48211\"\n",
    check: Check::Object(&[ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, Workload, Namespace, ServiceAccount, Role, ClusterRole, RoleBinding, ClusterRoleBinding], check),
    fix: &crate::fix::builders::SERVER_FIELDS,
}

/// A metadata string, `None` when unset or empty.
fn text<'n>(meta: &'n Node, key: &str) -> Option<&'n str> {
    get(meta, key)
        .and_then(Node::as_str)
        .filter(|v| !v.is_empty())
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(meta) = get(&obj.root, "metadata") else {
        return;
    };
    let Some(old) = cx.stored.get(obj) else {
        let Some(e) = entry(meta, "resourceVersion") else {
            return;
        };
        if text(meta, "resourceVersion").is_some() {
            out.report(
                obj,
                Invalid,
                "metadata.resourceVersion",
                e.key_span,
                "resourceVersion should not be set on objects to be created",
            )
            .note("copied from `kubectl get -o yaml`? remove resourceVersion (and uid, creationTimestamp, managedFields)");
        }
        return;
    };
    // An update: both values are compared with the stored object's, which
    // `kubectl get -o yaml` output always has (without them, no verdict).
    let Some(old_meta) = get(&old.root, "metadata") else {
        return;
    };
    if let (Some(e), Some(new), Some(was)) = (
        entry(meta, "resourceVersion"),
        text(meta, "resourceVersion"),
        text(old_meta, "resourceVersion"),
    ) {
        if new != was {
            out.report(
                obj,
                Invalid,
                "metadata.resourceVersion",
                e.key_span,
                "the object has been modified; please apply your changes to the latest version and try again",
            )
            .note(format!("resourceVersion {new:?} is a precondition of the update, and the stored object is at {was:?} (409 Conflict): remove it from the file"));
        }
    }
    if let (Some(e), Some(new), Some(was)) =
        (entry(meta, "uid"), text(meta, "uid"), text(old_meta, "uid"))
    {
        if new != was {
            out.report(obj, Invalid, "metadata.uid", e.key_span, "field is immutable")
                .note(format!("the stored object's uid is {was:?}: the file was saved from another object of this name (remove uid)"));
        }
    }
}
