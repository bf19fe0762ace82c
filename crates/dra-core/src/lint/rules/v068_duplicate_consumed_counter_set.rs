//! DRA-V068: the same counter set consumed twice by a device.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V068", name: "duplicate-counter-consumption", severity: Error, origin: Apiserver,
    summary: "A device lists the same counterSet in two consumesCounters entries",
    docs: "Put all counters of one counter set in one entry.",
    example: "consumesCounters:\n- counterSet: gpu-0\n- counterSet: gpu-0\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        let c = consumptions(cx.gates.version, d);
        for (j, name) in duplicates(
            c.iter()
                .enumerate()
                .filter_map(|(j, e)| get_str_or_zero(e, "counterSet").map(|n| (j, n))),
        ) {
            out.report(
                obj,
                Duplicate,
                duplicate_path(
                    cx,
                    format!("spec.devices[{i}].consumesCounters[{j}]"),
                    "counterSet",
                ),
                c[j].span,
                format!("counter set {name:?} is consumed twice"),
            );
        }
    }
}
