//! DRA-E004: a document that is not a Kubernetes object.
use super::prelude::*;

declare_rule! {
    id: "DRA-E004", name: "not-an-object", severity: Error, origin: Input,
    summary: "A YAML document is not a Kubernetes object (no apiVersion/kind, or not a mapping)",
    docs: "Every document must be a mapping with string `apiVersion` and `kind`. A bare scalar or list, or a mapping without them, is rejected by kubectl.",
    example: "- just\n- a list\n",
    check: Check::Loader,
}
