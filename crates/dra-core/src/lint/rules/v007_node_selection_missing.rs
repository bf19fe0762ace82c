//! DRA-V007: no node selection on a slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V007", name: "missing-node-selection", severity: Error, origin: Apiserver,
    summary: "None of nodeName, nodeSelector, allNodes, perDeviceNodeSelection is set",
    docs: "Every ResourceSlice must say where its devices are reachable: exactly one of `nodeName`, `nodeSelector`, `allNodes: true` or `perDeviceNodeSelection: true`. This applies to slices that only carry `sharedCounters` too.",
    example: "spec:\n  driver: gpu.example.com\n  pool: {name: node-1, resourceSliceCount: 1}\n  devices: [{name: gpu-0}]\n",
    check: Check::Object(SLICES, check),
}

pub(crate) const SELECTION: [&str; 4] = [
    "nodeName",
    "nodeSelector",
    "allNodes",
    "perDeviceNodeSelection",
];

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    if SELECTION.iter().all(|k| get(spec, k).is_none()) {
        out.report(obj, Required, "spec", missing_span(spec), "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required")
            .note("a slice of node-local devices sets `nodeName`; network-attached devices use `nodeSelector` or `allNodes: true`");
    }
}
