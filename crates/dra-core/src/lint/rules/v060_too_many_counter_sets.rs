//! DRA-V060: too many counter sets in a slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V060", name: "too-many-counter-sets", severity: Error, origin: Apiserver,
    summary: "A slice has more than 8 counter sets (32 in 1.34)",
    docs: "Shared counter sets (DRAPartitionableDevices) are limited per slice; spread them over several slices of the pool.",
    example: "sharedCounters: [... 9 counter sets ...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if let Some(spec) = obj.spec() {
        check_too_many(
            obj,
            spec,
            "sharedCounters",
            format_args!("spec.sharedCounters"),
            max_counter_sets(cx.gates.version),
            "counter sets",
            out,
        );
    }
}

/// The counter sets the apiserver validates one by one.
pub(crate) fn counter_sets<'a>(cx: &Ctx<'_>, obj: &'a Object) -> &'a [Node] {
    let sets = obj
        .spec()
        .map(|s| items(s, "sharedCounters"))
        .unwrap_or_default();
    if sets.len() > max_counter_sets(cx.gates.version) {
        &[]
    } else {
        sets
    }
}
