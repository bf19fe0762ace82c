//! DRA-V064: too many counters in a counter set.
use super::prelude::*;
use super::v060_too_many_counter_sets::counter_sets;

declare_rule! {
    id: "DRA-V064", name: "too-many-counters", severity: Error, origin: Apiserver, releases: "1.35+",
    summary: "A counter set has more than 32 counters",
    docs: "From 1.35 each counter set holds at most 32 counters. (1.34 limits the total over the slice's counter sets instead: DRA-V060.)",
    example: "sharedCounters:\n- name: gpu-0\n  counters: {... 33 counters ...}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_35 {
        return;
    }
    for (i, s) in counter_sets(cx, obj).iter().enumerate() {
        let n = entries(s, "counters").len();
        if n > MAX_COUNTERS {
            let span = entry(s, "counters").map_or(s.span, |e| e.key_span);
            out.report(
                obj,
                TooMany,
                format!("spec.sharedCounters[{i}].counters"),
                span,
                format!("must have at most {MAX_COUNTERS} items"),
            )
            .label_text(format!("{n} counters here"));
        }
    }
}
