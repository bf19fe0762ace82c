//! DRA-V207: devices with and without compatibility groups on one counter set.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V207", name: "mixed-compatibility-groups", severity: Warning, origin: Linter,
    summary: "Some devices on a counter set declare compatibilityGroups and others do not",
    docs: "A device with groups is never allocated together with a sibling without groups on the same counter set. Usually every partition of a shared device should declare its groups.",
    example: "# mig-0 consumes gpu-0 with compatibilityGroups [mig]; vgpu-0 consumes gpu-0 without groups\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        let mut uses: Vec<(&str, bool, &Object, usize, usize, &Node)> = Vec::new();
        for (slice, i, d) in pool.devices() {
            for (j, c) in items(d, "consumesCounters").iter().enumerate() {
                if let Some(set) = get_str(c, "counterSet") {
                    uses.push((
                        set,
                        !items(c, "compatibilityGroups").is_empty(),
                        slice,
                        i,
                        j,
                        c,
                    ));
                }
            }
        }
        let grouped_sets: std::collections::HashSet<&str> =
            uses.iter().filter(|u| u.1).map(|u| u.0).collect();
        for (set, grouped, slice, i, j, c) in &uses {
            if !grouped && grouped_sets.contains(set) {
                out.report(slice, Warning, format!("spec.devices[{i}].consumesCounters[{j}]"), c.span, format!("no compatibilityGroups, while other devices on counter set {set:?} declare some"))
                    .note("this device is never allocated together with the grouped ones");
            }
        }
    }
}
