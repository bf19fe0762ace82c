//! DRA-V069: consumed counterSet missing or not a DNS label.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V069", name: "invalid-consumed-counter-set", severity: Error, origin: Apiserver,
    summary: "A consumesCounters entry has no counterSet, or it is not a DNS label",
    docs: "counterSet names the counter set (in a slice of the same pool) that the device draws from. Kubernetes 1.34 only requires it; from 1.35 it must be a DNS label.",
    example: "consumesCounters:\n- counters: {memory: {value: 10Gi}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, c) in consumptions(cx.gates.version, d).iter().enumerate() {
            // 1.34's validateDeviceCounterConsumption only requires the
            // name (C34 ≈40.5k); the DNS-label check comes with 1.35 (C35 ≈43k).
            if paths_1_34(cx) {
                if get(c, "counterSet")
                    .and_then(Node::as_str)
                    .is_none_or(str::is_empty)
                {
                    out.report(
                        obj,
                        Required,
                        format!("spec.devices[{i}].consumesCounters[{j}].counterSet"),
                        get(c, "counterSet").map_or_else(|| missing_span(c), |n| n.span),
                        "counter set name is required",
                    );
                }
                continue;
            }
            check_required_dns_label(
                obj,
                c,
                "counterSet",
                &format!("spec.devices[{i}].consumesCounters[{j}].counterSet"),
                "counter set name",
                out,
            );
        }
    }
}
