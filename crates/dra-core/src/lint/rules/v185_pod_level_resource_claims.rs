//! DRA-V185: claims listed in a pod's pod-level resources.
use super::prelude::*;

declare_rule! {
    id: "DRA-V185", name: "pod-level-resource-claims", severity: Error, origin: Apiserver,
    summary: "A pod lists claims in its pod-level spec.resources, where they cannot be set",
    docs: "Claims are consumed by containers: list them in `containers[].resources.claims`. While PodLevelResources is on (beta, on by default from 1.34) `spec.resources.claims` is Forbidden (`validatePodResources` in `pkg/apis/core/validation`, kubernetes/kubernetes@000f260); with the gate off the whole pod-level `resources` is dropped.",
    example: "spec:\n  resources:\n    claims:\n    - name: gpu\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if !gate_on(cx, Gate::PodLevelResources) {
        return;
    }
    let Some(spec) = obj.pod_spec() else { return };
    let Some(claims) = get(spec, "resources").and_then(|r| get(r, "claims")) else {
        return;
    };
    if claims.as_seq().is_some_and(<[Node]>::is_empty) {
        return;
    }
    out.report(
        obj,
        Forbidden,
        format!("{}.resources.claims", obj.pod_spec_field()),
        claims.span,
        "claims cannot be set for Resources at pod-level",
    )
    .note("list the claim in the resources.claims of the containers that use it");
}
