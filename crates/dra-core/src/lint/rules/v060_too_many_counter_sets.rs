//! DRA-V060: too many counter sets in a slice.
use super::prelude::*;

declare_rule! {
    id: "DRA-V060", name: "too-many-counter-sets", severity: Error, origin: Apiserver, releases: "1.34+ (limit differs in 1.34)",
    summary: "A slice has more than 8 counter sets (1.35+), or more than 32 counters across its counter sets (1.34)",
    docs: "Shared counter sets (DRAPartitionableDevices) are limited per slice; spread them over several slices of the pool. From 1.35 a slice holds at most 8 counter sets (TooMany at spec.sharedCounters). 1.34 limits instead the total number of counters across all counter sets of the slice to 32 (ResourceSliceMaxSharedCounters: Invalid at spec.sharedCounters) and not the number of sets.",
    example: "sharedCounters: [... 9 counter sets ...]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_35 {
        let Some(spec) = obj.spec() else { return };
        let total: usize = items(spec, "sharedCounters")
            .iter()
            .map(|s| entries(s, "counters").len())
            .sum();
        if total > MAX_COUNTERS {
            let span = entry(spec, "sharedCounters").map_or(spec.span, |e| e.key_span);
            out.report(
                obj,
                Invalid,
                "spec.sharedCounters",
                span,
                format!("the total number of shared counters must not exceed {MAX_COUNTERS} ({total} here)"),
            );
        }
        return;
    }
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
    if !items_validated(
        cx.gates.version,
        sets.len(),
        max_counter_sets(cx.gates.version),
    ) {
        &[]
    } else {
        sets
    }
}
