//! DRA-V065: counter name not a DNS label.
use super::prelude::*;
use super::v060_too_many_counter_sets::counter_sets;

declare_rule! {
    id: "DRA-V065", name: "invalid-counter-name", severity: Error, origin: Apiserver,
    summary: "A counter name in a counter set is not a DNS label",
    docs: "Counter names are DNS labels (lower case, digits, '-'), unlike attribute and capacity names, which are C identifiers. The error is reported at the counters map.",
    example: "sharedCounters:\n- name: gpu-0\n  counters:\n    memory_size: {value: 80Gi}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, s) in counter_sets(cx, obj).iter().enumerate() {
        let counters = entries(s, "counters");
        if !items_validated(cx.gates.version, counters.len(), MAX_COUNTERS) {
            continue;
        }
        for c in counters {
            for msg in crate::name_errors::dns1123_label(&c.key) {
                out.report(
                    obj,
                    Invalid,
                    map_key_path(cx, format!("spec.sharedCounters[{i}].counters"), &c.key),
                    c.key_span,
                    msg,
                );
            }
        }
    }
}
