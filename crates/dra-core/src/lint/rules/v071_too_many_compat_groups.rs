//! DRA-V071: more than two compatibility groups.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V071", name: "too-many-compatibility-groups", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A consumesCounters entry lists more than 2 compatibility groups",
    docs: "Compatibility groups (DRADeviceCompatibilityGroups, alpha in 1.37) say which partitions of a shared device may be allocated together, e.g. MIG vs vGPU. Each counter consumption may name at most 2 unique groups.",
    example: "consumesCounters:\n- counterSet: gpu-0-memory\n  compatibilityGroups: [mig, vgpu, mps]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, c) in consumptions(cx.gates.version, d).iter().enumerate() {
            let Some(e) = entry(c, "compatibilityGroups") else {
                continue;
            };
            let Some(groups) = e.value.as_seq() else {
                continue;
            };
            if groups.len() > MAX_COMPAT_GROUPS {
                let names: Vec<&str> = groups.iter().filter_map(Node::as_str).collect();
                out.report(
                    obj,
                    TooMany,
                    format!("spec.devices[{i}].consumesCounters[{j}].compatibilityGroups"),
                    groups[0].span,
                    format!(
                        "at most {MAX_COMPAT_GROUPS} compatibility groups per counter consumption"
                    ),
                )
                .label_text(format!(
                    "{} groups here: {}",
                    groups.len(),
                    names.join(", ")
                ))
                .note("the apiserver rejects this slice; keep at most 2 unique names");
            }
        }
    }
}
