//! DRA-V062: counter set name missing or not a DNS label.
use super::prelude::*;
use super::v060_too_many_counter_sets::counter_sets;

declare_rule! {
    id: "DRA-V062", name: "invalid-counter-set-name", severity: Error, origin: Apiserver,
    summary: "A counter set has no name, or its name is not a DNS label",
    docs: "Counter set names are DNS labels.",
    example: "sharedCounters:\n- {name: GPU_0, counters: {...}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, s) in counter_sets(cx, obj).iter().enumerate() {
        check_required_dns_label(
            obj,
            s,
            "name",
            &format!("spec.sharedCounters[{i}].name"),
            "counter set name",
            out,
        );
    }
}
