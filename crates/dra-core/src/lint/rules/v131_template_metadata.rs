//! DRA-V131: invalid labels or annotations in a template's claim metadata.
use super::prelude::*;

declare_rule! {
    id: "DRA-V131", name: "invalid-template-metadata", severity: Error, origin: Apiserver,
    summary: "ResourceClaimTemplate spec.metadata sets a field other than labels and annotations, or has invalid label keys/values or annotation keys, or annotations over 256 KiB",
    docs: "The template's metadata is copied into every claim generated from it, so it follows the usual label and annotation rules. `ValidateTemplateObjectMeta` allows only labels and annotations: any other ObjectMeta field set to a non-zero value (name, namespace, uid, finalizers, ...) is Forbidden (\"cannot be set\"), at the Go field's name with a lower-case first letter (so `uid` is reported as `uID`).",
    example: "spec:\n  metadata:\n    labels: {\"bad key\": x}\n",
    check: Check::Object(&[ResourceClaimTemplate], check),
}

/// ObjectMeta's fields in Go order, with the name `validateFieldAllowList`
/// reports (the Go field name, first letter lower-cased).
const NOT_ALLOWED: &[(&str, &str)] = &[
    ("name", "name"),
    ("generateName", "generateName"),
    ("namespace", "namespace"),
    ("selfLink", "selfLink"),
    ("uid", "uID"),
    ("resourceVersion", "resourceVersion"),
    ("generation", "generation"),
    ("creationTimestamp", "creationTimestamp"),
    ("deletionTimestamp", "deletionTimestamp"),
    ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
    ("ownerReferences", "ownerReferences"),
    ("finalizers", "finalizers"),
    ("managedFields", "managedFields"),
];

/// Whether a decoded value differs from the Go zero value.
fn non_zero(n: &Node) -> bool {
    match &n.value {
        crate::tree::Value::Null => false,
        crate::tree::Value::Str(s) => !s.is_empty(),
        crate::tree::Value::Int(i) => *i != 0,
        crate::tree::Value::Bool(b) => *b,
        // Lists and maps decode to non-nil values, `[]` included, which
        // reflect.DeepEqual does not take for the zero value.
        _ => true,
    }
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(meta) = obj.spec().and_then(|s| get(s, "metadata")) else {
        return;
    };
    for (key, reported) in NOT_ALLOWED {
        if let Some(e) = entry(meta, key).filter(|e| non_zero(&e.value)) {
            out.report(
                obj,
                Forbidden,
                format!("spec.metadata.{reported}"),
                e.key_span,
                format!("cannot be set: a claim template's metadata may only hold labels and annotations ({key})"),
            );
        }
    }
    // ValidateTemplateObjectMeta checks labels and annotations as every
    // object's metadata is checked (DRA-V186), at spec.metadata.
    let v = cx.gates.version;
    super::v186_object_metadata::labels(v, obj, meta, "spec.metadata", out);
    super::v186_object_metadata::annotations(v, obj, meta, "spec.metadata", out);
}
