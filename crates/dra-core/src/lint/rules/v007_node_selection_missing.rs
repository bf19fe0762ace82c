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

/// The node selections of `node` (a slice's spec, or a device) among
/// `keys` that count as set, as validateResourceSliceSpec and validateDevice
/// count them: a non-empty `nodeName` (an empty one is Invalid instead,
/// DRA-V009/V053), any `nodeSelector`, and `allNodes` or
/// `perDeviceNodeSelection` only when true (false is Invalid, DRA-V011,
/// V012, V053). A null is unset (a nil pointer).
pub(crate) fn set_selections<'n>(node: &'n Node, keys: &[&str]) -> Vec<&'n crate::tree::Entry> {
    keys.iter()
        .filter_map(|k| entry(node, k))
        .filter(|e| match e.key.as_str() {
            "nodeName" => e.value.as_str().is_some_and(|s| !s.is_empty()),
            "allNodes" | "perDeviceNodeSelection" => e.value.as_bool() == Some(true),
            _ => !e.value.is_null(),
        })
        .collect()
}

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let Some(spec) = obj.spec() else { return };
    if set_selections(spec, &SELECTION).is_empty() {
        out.report(obj, Required, "spec", missing_span(spec), "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required")
            .note("a slice of node-local devices sets `nodeName`; network-attached devices use `nodeSelector` or `allNodes: true`");
    }
}
