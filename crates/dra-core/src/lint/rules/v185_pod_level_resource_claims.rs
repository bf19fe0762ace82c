//! DRA-V185: claims listed in a pod's pod-level resources.
use super::prelude::*;

declare_rule! {
    id: "DRA-V185", name: "pod-level-resource-claims", severity: Error, origin: Apiserver,
    summary: "A pod lists claims in its pod-level spec.resources, where they cannot be set",
    docs: "Claims are consumed by containers: list them in `containers[].resources.claims`. While PodLevelResources is on (beta, on by default from 1.34) core validation's `validatePodResources` forbids `spec.resources.claims` whenever the list is given, even empty (`Claims != nil`; `claims: null` is no list). A Windows pod (`spec.os.name: windows`) may not set pod-level `resources` at all: the apiserver then reports only `spec.resources` (\"may not be set for a windows pod\", kubernetes#133046, in 1.34; read in galal-hussein/kubernetes@ec20661 ≈205k for 1.35 and the later 0723741 copy). With the gate off the whole pod-level `resources` is dropped.",
    example: "spec:\n  resources:\n    claims:\n    - name: gpu\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !gate_on(cx, Gate::PodLevelResources) {
        return;
    }
    let Some(spec) = obj.pod_spec() else { return };
    let Some(resources) = get(spec, "resources") else {
        return;
    };
    // Go decodes `claims: []` to a non-nil empty slice, `null` to nil.
    let Some(claims) = get(resources, "claims").filter(|c| c.as_seq().is_some()) else {
        return;
    };
    let base = obj.pod_spec_field();
    let windows = get(spec, "os").and_then(|os| get_str(os, "name")) == Some("windows");
    if windows {
        out.report(
            obj,
            Forbidden,
            format!("{base}.resources"),
            resources.span,
            "may not be set for a windows pod",
        )
        .note("pod-level resources are not supported on Windows; list the claim in the resources.claims of the containers that use it");
        return;
    }
    out.report(
        obj,
        Forbidden,
        format!("{base}.resources.claims"),
        claims.span,
        "claims may not be set for Resources at pod-level",
    )
    .note("list the claim in the resources.claims of the containers that use it");
}
