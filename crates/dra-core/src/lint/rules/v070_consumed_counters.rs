//! DRA-V070: consumed counters empty, too many or badly named.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V070", name: "invalid-consumed-counters", severity: Error, origin: Apiserver,
    summary: "A consumesCounters entry has no counters, more than 32, or a counter name that is not a DNS label",
    docs: "Each consumption names at least one counter of the counter set and how much of it the device uses. From 1.35 an entry holds at most 32 counters (TooMany, its names then unchecked); 1.34 bounds only the total over the device's entries.",
    example: "consumesCounters:\n- counterSet: gpu-0\n  counters: {}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, c) in consumptions(cx.gates.version, d).iter().enumerate() {
            let path = format!("spec.devices[{i}].consumesCounters[{j}].counters");
            let span = entry(c, "counters").map_or(c.span, |e| e.key_span);
            let counters = entries(c, "counters");
            if counters.is_empty() {
                if get(c, "counters").is_none_or(|n| n.as_map().is_some()) {
                    out.report(
                        obj,
                        Required,
                        path,
                        span,
                        "at least one counter is required",
                    );
                }
            } else if counters.len() > MAX_COUNTERS && !paths_1_34(cx) {
                // From 1.35 (C35 validateDeviceCounterConsumption ≈43k); 1.34
                // bounds only the device's total (DRA-V072).
                out.report(
                    obj,
                    TooMany,
                    path,
                    span,
                    format!("must have at most {MAX_COUNTERS} items"),
                )
                .label_text(format!("{} counters here", counters.len()));
            } else {
                for k in counters {
                    for msg in crate::name_errors::dns1123_label(&k.key) {
                        out.report(
                            obj,
                            Invalid,
                            map_key_path(cx, path.clone(), &k.key),
                            k.key_span,
                            msg,
                        );
                    }
                }
            }
        }
    }
}
