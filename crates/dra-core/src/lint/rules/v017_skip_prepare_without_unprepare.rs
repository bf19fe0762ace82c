//! DRA-V017: skipping prepare without skipping unprepare.
use super::prelude::*;

declare_rule! {
    id: "DRA-V017", name: "skip-prepare-without-unprepare", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "skipNodeOperations has NodePrepareResources without NodeUnprepareResources or '*'",
    docs: "A driver that skips NodePrepareResources must also skip NodeUnprepareResources (or list '*'): the kubelet would otherwise unprepare what it never prepared. Alpha in 1.37 (DRAOptionalNodeOperations).",
    example: "spec:\n  skipNodeOperations: [NodePrepareResources]\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(e) = obj.spec().and_then(|s| entry(s, "skipNodeOperations")) else {
        return;
    };
    let ops: Vec<&str> = e
        .value
        .as_seq()
        .unwrap_or_default()
        .iter()
        .filter_map(Node::as_str)
        .collect();
    if ops.contains(&"NodePrepareResources")
        && !ops.contains(&"NodeUnprepareResources")
        && !ops.contains(&"*")
    {
        out.report(
            obj,
            Invalid,
            "spec.skipNodeOperations",
            e.key_span,
            "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped",
        );
    }
}
