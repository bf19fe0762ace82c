//! DRA-V063: a counter set without counters.
use super::prelude::*;
use super::v060_too_many_counter_sets::counter_sets;

declare_rule! {
    id: "DRA-V063", name: "empty-counter-set", severity: Error, origin: Apiserver,
    summary: "A counter set defines no counters",
    docs: "A counter set exists to share amounts (memory, compute slices) between partitions; it needs at least one counter.",
    example: "sharedCounters:\n- name: gpu-0\n  counters: {}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, s) in counter_sets(cx, obj).iter().enumerate() {
        if entries(s, "counters").is_empty()
            && get(s, "counters").is_none_or(|c| c.as_map().is_some())
        {
            let span = entry(s, "counters").map_or(s.span, |e| e.key_span);
            out.report(
                obj,
                Required,
                format!("spec.sharedCounters[{i}].counters"),
                span,
                "at least one counter is required",
            );
        }
    }
}
