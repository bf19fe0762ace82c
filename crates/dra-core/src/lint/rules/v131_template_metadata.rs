//! DRA-V131: invalid labels or annotations in a template's claim metadata.
use super::prelude::*;

declare_rule! {
    id: "DRA-V131", name: "invalid-template-metadata", severity: Error, origin: Apiserver,
    summary: "ResourceClaimTemplate spec.metadata has invalid label keys/values or annotation keys",
    docs: "The template's metadata is copied into every claim generated from it, so it follows the usual label and annotation rules.",
    example: "spec:\n  metadata:\n    labels: {\"bad key\": x}\n",
    check: Check::Object(&[ResourceClaimTemplate], check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(meta) = obj.spec().and_then(|s| get(s, "metadata")) else {
        return;
    };
    for l in entries(meta, "labels") {
        if !is_label_key(&l.key) {
            out.report(
                obj,
                Invalid,
                "spec.metadata.labels",
                l.key_span,
                format!("{:?} is not a valid label key", l.key),
            );
        }
        if l.value.as_str().is_some_and(|v| !is_label_value(v)) {
            out.report(
                obj,
                Invalid,
                "spec.metadata.labels",
                l.value.span,
                "not a valid label value",
            );
        }
    }
    for a in entries(meta, "annotations") {
        if !is_label_key(&a.key.to_ascii_lowercase()) {
            out.report(
                obj,
                Invalid,
                "spec.metadata.annotations",
                a.key_span,
                format!("{:?} is not a valid annotation key", a.key),
            );
        }
    }
}
