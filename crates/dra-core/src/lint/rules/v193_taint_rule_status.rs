//! DRA-V193: a DeviceTaintRule status write with invalid conditions.
use super::prelude::*;
use crate::lint::status_parts::*;

declare_rule! {
    id: "DRA-V193", name: "invalid-taint-rule-status", severity: Error, origin: Apiserver, releases: "1.35+",
    summary: "A DeviceTaintRule status write has invalid or more than 8 conditions",
    docs: "Only with `lint --subresource status` (the eviction controller writes the rule's status). `ValidateDeviceTaintRuleStatusUpdate` (from 1.35, when DeviceTaintRule gained a status: C35 galal-hussein@ec20661): metav1's `ValidateConditions` (type a qualified name and not repeated, status True/False/Unknown, lastTransitionTime and reason set, reason at most 1024 bytes, message at most 32 KiB), then at most 8 conditions. In 1.37 apimachinery (v0.37.0-beta.0) reports an empty type or status as Required (earlier: the type fails the label-name check, Invalid, and the status is NotSupported) and a repeated type as a Duplicate at the condition itself (earlier: at its `type`). In 1.34 a DeviceTaintRule has no status.",
    example: "status:\n  conditions:\n  - {type: EvictionInProgress, status: \"yes\", reason: Started, lastTransitionTime: \"2026-01-01T00:00:00Z\"}\n",
    check: Check::Status(&[DeviceTaintRule], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, _: Option<&Object>, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_35 {
        return;
    }
    let Some(status) = set(&obj.root, "status") else {
        return;
    };
    check_conditions(cx.gates.version, obj, status, "status", out);
}
