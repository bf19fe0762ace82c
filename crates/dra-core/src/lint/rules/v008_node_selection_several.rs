//! DRA-V008: more than one node selection on a slice.
use super::prelude::*;
use super::v007_node_selection_missing::{set_selections, SELECTION};

declare_rule! {
    id: "DRA-V008", name: "multiple-node-selections", severity: Error, origin: Apiserver,
    summary: "More than one of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is set",
    docs: "The four ways of saying where a slice's devices are available exclude each other.",
    example: "spec:\n  nodeName: node-1\n  allNodes: true\n",
    check: Check::Object(SLICES, check),
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    let set = set_selections(spec, &SELECTION);
    if set.len() > 1 {
        let names: Vec<&str> = set.iter().map(|e| e.key.as_str()).collect();
        let d = out.report(obj, Invalid, "spec", set[1].key_span, "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set");
        d.secondary(set[0].key_span, "first one here")
            .note(format!("{{{}}} are set", names.join(", ")));
    }
}
