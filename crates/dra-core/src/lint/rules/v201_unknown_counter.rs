//! DRA-V201: a consumed counter missing from its counter set.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V201", name: "unknown-counter", severity: Warning, origin: Linter, releases: "1.35+",
    summary: "A device consumes a counter that its counter set does not have",
    docs: "Each counter named in consumesCounters must exist in the named counter set of the pool; otherwise the device can never be allocated.",
    example: "sharedCounters: [{name: gpu-0, counters: {memory: {value: 80Gi}}}]\n# device:\nconsumesCounters: [{counterSet: gpu-0, counters: {mem: {value: 10Gi}}}]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    // In 1.34 the apiserver itself refuses these, per slice (DRA-V073).
    if cx.gates.version < Version::V1_35 {
        return;
    }
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
                let defined = entries(set, "counters");
                for k in entries(c, "counters") {
                    if !defined.iter().any(|e| e.key == k.key) {
                        let defined: Vec<&str> = defined.iter().map(|e| e.key.as_str()).collect();
                        out.report(
                            slice,
                            Warning,
                            format!(
                                "spec.devices[{i}].consumesCounters[{j}].counters[{}]",
                                k.key
                            ),
                            k.key_span,
                            format!("counter set {name:?} has no counter {:?}", k.key),
                        )
                        .note(format!("it defines: {}", defined.join(", ")));
                    }
                }
            }
        }
    }
}
