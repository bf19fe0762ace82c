//! DRA-V067: a device consuming from more than two counter sets.
use super::prelude::*;

declare_rule! {
    id: "DRA-V067", name: "too-many-counter-consumptions", severity: Error, origin: Apiserver, releases: "1.35+",
    summary: "A device has more than 2 consumesCounters entries (1.35+)",
    docs: "From 1.35 a device may consume from at most two counter sets.",
    example: "consumesCounters:\n- counterSet: a\n- counterSet: b\n- counterSet: c\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    // 1.34 has no such limit (only one on the counters a device consumes).
    if cx.gates.version < Version::V1_35 {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        check_too_many(
            obj,
            d,
            "consumesCounters",
            format_args!("spec.devices[{i}].consumesCounters"),
            MAX_CONSUMES_COUNTERS,
            "counter consumptions",
            out,
        );
    }
}

/// A device's consumesCounters entries, unless over the limit.
pub(crate) fn consumptions(v: Version, d: &Node) -> &[Node] {
    let c = items(d, "consumesCounters");
    if v >= Version::V1_35 && c.len() > MAX_CONSUMES_COUNTERS {
        &[]
    } else {
        c
    }
}
