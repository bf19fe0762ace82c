//! DRA-V018: unknown or repeated skipNodeOperations entries.
use super::prelude::*;

declare_rule! {
    id: "DRA-V018", name: "invalid-skip-node-operation", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "skipNodeOperations has a value other than NodePrepareResources, NodeUnprepareResources, '*', or a duplicate",
    docs: "Only the kubelet's two node operations, or '*' for both, can be skipped. Alpha in 1.37 (DRAOptionalNodeOperations).",
    example: "spec:\n  skipNodeOperations: [Prepare]\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    check_operations(obj, spec, "spec", out);
}

/// `validateSkipNodeOperations` of `owner.skipNodeOperations` (a slice's
/// spec here, an allocation result in DRA-V171).
pub(crate) fn check_operations(obj: &Object, owner: &Node, path: &str, out: &mut Sink<'_>) {
    let ops = items(owner, "skipNodeOperations");
    for (i, op) in ops.iter().enumerate() {
        let Some(s) = op.as_str() else { continue };
        if !matches!(s, "NodePrepareResources" | "NodeUnprepareResources" | "*") {
            out.report(obj, NotSupported, format!("{path}.skipNodeOperations[{i}]"), op.span, format!("unsupported value {s:?}: supported values: \"*\", \"NodePrepareResources\", \"NodeUnprepareResources\""));
        }
    }
    for (i, s) in duplicates(
        ops.iter()
            .enumerate()
            .filter_map(|(i, o)| o.as_str().map(|s| (i, s))),
    ) {
        out.report(
            obj,
            Duplicate,
            format!("{path}.skipNodeOperations[{i}]"),
            ops[i].span,
            format!("duplicate value {s:?}"),
        );
    }
}
