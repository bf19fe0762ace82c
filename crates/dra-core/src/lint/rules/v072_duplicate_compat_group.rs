//! DRA-V072: a compatibility group repeated.
use super::prelude::*;
use super::v067_too_many_consumes_counters::consumptions;

declare_rule! {
    id: "DRA-V072", name: "duplicate-compatibility-group", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A consumesCounters entry names the same compatibility group twice",
    docs: "Compatibility group names must be unique within a counter consumption.",
    example: "compatibilityGroups: [mig, mig]\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for (i, d) in devices(cx.gates.version, obj) {
        for (j, c) in consumptions(cx.gates.version, d).iter().enumerate() {
            let groups = items(c, "compatibilityGroups");
            if !items_validated(cx.gates.version, groups.len(), MAX_COMPAT_GROUPS) {
                continue;
            }
            for (k, g) in duplicates(
                groups
                    .iter()
                    .enumerate()
                    .filter_map(|(k, n)| n.as_str().map(|s| (k, s))),
            ) {
                out.report(
                    obj,
                    Duplicate,
                    format!("spec.devices[{i}].consumesCounters[{j}].compatibilityGroups[{k}]"),
                    groups[k].span,
                    format!("group {g:?} is listed twice"),
                );
            }
        }
    }
}
