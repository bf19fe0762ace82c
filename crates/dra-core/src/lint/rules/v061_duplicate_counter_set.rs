//! DRA-V061: counter set name repeated in a slice.
use super::prelude::*;
use super::v060_too_many_counter_sets::counter_sets;

declare_rule! {
    id: "DRA-V061", name: "duplicate-counter-set", severity: Error, origin: Apiserver,
    summary: "Two counter sets in one slice have the same name",
    docs: "Devices refer to counter sets by name within their pool.",
    example: "sharedCounters:\n- {name: gpu-0, counters: {...}}\n- {name: gpu-0, counters: {...}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let sets = counter_sets(cx, obj);
    for (i, name) in duplicates(
        sets.iter()
            .enumerate()
            .filter_map(|(i, s)| get_str_or_zero(s, "name").map(|n| (i, n))),
    ) {
        out.report(
            obj,
            Duplicate,
            duplicate_path(cx, format!("spec.sharedCounters[{i}]"), "name"),
            sets[i].span,
            format!("counter set {name:?} is defined twice"),
        );
    }
}
