//! DRA-V015: shared counters and devices in one slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V015", name: "counters-and-devices-in-one-slice", severity: Error, origin: Apiserver, releases: "1.35+",
    summary: "A ResourceSlice sets both sharedCounters and devices (1.35+)",
    docs: "From Kubernetes 1.35, counter sets must be published in a slice of their own, separate from the devices that consume them; both slices belong to the same pool and count towards its resourceSliceCount. In 1.34 a slice holds both, and its devices may consume only the counter sets of that slice (DRA-V073).",
    example: "spec:\n  sharedCounters: [{name: gpu-0, counters: {memory: {value: 80Gi}}}]\n  devices: [{name: gpu-0}]\n",
    check: Check::Object(SLICES, check),
    fix: &crate::fix::builders::SPLIT_COUNTERS,
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_35 {
        return;
    }
    let Some(spec) = obj.spec() else { return };
    let (Some(counters), Some(devs)) = (entry(spec, "sharedCounters"), entry(spec, "devices"))
    else {
        return;
    };
    // `spec.SharedCounters != nil && spec.Devices != nil`: an explicit empty
    // list is not nil once decoded.
    if !counters.value.is_null() && !devs.value.is_null() {
        let pool = get(spec, "pool")
            .and_then(|p| get_str(p, "name"))
            .unwrap_or("the pool");
        out.report(obj, Invalid, "spec", counters.key_span, "only one of `sharedCounters` or `devices` is allowed")
            .label_text("counter sets here ...")
            .secondary(devs.key_span, "... and devices here")
            .note(format!("publish the counter sets in their own slice of pool {pool} (resourceSliceCount counts both)"));
    }
}
