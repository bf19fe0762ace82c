//! DRA-V202: a device consuming more than its counter set holds.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::quantity_of;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V202", name: "consumption-exceeds-counter", severity: Warning, origin: Linter,
    summary: "A device's consumption of a counter exceeds the counter set's total",
    docs: "A device that needs more of a counter than the whole counter set holds can never be allocated, even on an idle node.",
    example: "sharedCounters: [{name: gpu-0, counters: {memory: {value: 8Gi}}}]\n# device:\nconsumesCounters: [{counterSet: gpu-0, counters: {memory: {value: 16Gi}}}]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        let sets = pool.counter_sets();
        for (slice, i, d) in pool.devices() {
            for (j, c) in items(d, "consumesCounters").iter().enumerate() {
                let Some(name) = get_str(c, "counterSet") else {
                    continue;
                };
                let Some((_, _, _, set)) = sets.iter().find(|(n, ..)| *n == name) else {
                    continue;
                };
                for k in entries(c, "counters") {
                    let Some(total) = entries(set, "counters")
                        .iter()
                        .find(|e| e.key == k.key)
                        .and_then(|e| get(&e.value, "value"))
                        .and_then(quantity_of)
                    else {
                        continue;
                    };
                    let Some(used) = get(&k.value, "value").and_then(quantity_of) else {
                        continue;
                    };
                    if used > total {
                        out.report(slice, Warning, format!("spec.devices[{i}].consumesCounters[{j}].counters[{}]", k.key), k.key_span, format!("consumes {used} of {:?}, but counter set {name:?} holds only {total}", k.key))
                            .note("this device can never be allocated");
                    }
                }
            }
        }
    }
}
