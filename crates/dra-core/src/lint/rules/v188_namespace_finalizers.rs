//! DRA-V188: a Namespace's spec.finalizers.
use super::prelude::*;
use super::v186_object_metadata::{qualified_finalizer, standard_finalizer};

declare_rule! {
    id: "DRA-V188", name: "invalid-namespace-finalizer", severity: Error, origin: Apiserver,
    summary: "A Namespace's spec.finalizers entry is not a qualified name, or has no domain and is not a standard finalizer",
    docs: "`ValidateNamespace` (pkg/apis/core/validation, the same in 1.34-1.37) checks each entry of `spec.finalizers` with `validateFinalizerName`: a qualified name (`example.com/name`), and one without a domain must be `kubernetes`, `orphan` or `foregroundDeletion`. Both errors are reported at `spec.finalizers`, without an index, as the apiserver does. (The namespace strategy adds `kubernetes` on create; that one is valid.)",
    example: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: gpu-jobs\nspec:\n  finalizers: [cleanup]\n",
    check: Check::Object(&[Namespace], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    const PATH: &str = "spec.finalizers";
    let Some(spec) = get(&obj.root, "spec") else {
        return;
    };
    for n in items(spec, "finalizers") {
        if let Some(f) = n.as_str() {
            qualified_finalizer(cx.gates.version, obj, n, f, PATH, out);
            standard_finalizer(obj, n, f, PATH, out);
        }
    }
}
