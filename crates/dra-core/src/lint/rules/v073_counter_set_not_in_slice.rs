//! DRA-V073: in 1.34, a consumed counter set or counter the slice lacks.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V073", name: "counter-not-in-slice", severity: Error, origin: Apiserver, releases: "1.34",
    summary: "Kubernetes 1.34: a device consumes a counter set, or a counter, that its own slice's sharedCounters do not define",
    docs: "In Kubernetes 1.34 a slice publishes its counter sets and the devices that consume them together, and the apiserver checks each consumesCounters entry against that slice: a counterSet that is not one of its sharedCounters is Invalid at `counterSet` (\"must reference a counterSet defined in the ResourceSlice sharedCounters\"), also when it is empty; a counter the set does not define is Invalid at `counters` (\"must reference a counter defined in the ResourceSlice sharedCounters\"). From 1.35 counter sets live in slices of their own and are looked up in the pool (DRA-V200, DRA-V201).",
    example: "# --kubernetes-version 1.34\nsharedCounters: [{name: gpu-0, counters: {memory: {value: 80Gi}}}]\ndevices:\n- name: mig-1\n  consumesCounters: [{counterSet: gpu-1, counters: {memory: {value: 10Gi}}}]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version >= Version::V1_35 {
        return;
    }
    let Some(spec) = obj.spec() else { return };
    let sets = items(spec, "sharedCounters");
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, c) in consumptions(cx.gates.version, d).iter().enumerate() {
            let path = format!("spec.devices[{i}].consumesCounters[{j}]");
            let name = get(c, "counterSet").and_then(Node::as_str).unwrap_or("");
            let Some(set) = sets.iter().find(|s| get_str(s, "name") == Some(name)) else {
                let span = get(c, "counterSet").map_or(c.span, |n| n.span);
                out.report(
                    obj,
                    Invalid,
                    format!("{path}.counterSet"),
                    span,
                    format!("{name:?}: must reference a counterSet defined in the ResourceSlice sharedCounters"),
                );
                continue;
            };
            let defined = entries(set, "counters");
            for k in entries(c, "counters") {
                if !defined.iter().any(|e| e.key == k.key) {
                    out.report(
                        obj,
                        Invalid,
                        format!("{path}.counters"),
                        k.key_span,
                        format!("{:?}: must reference a counter defined in the ResourceSlice sharedCounters", k.key),
                    );
                }
            }
        }
    }
}
