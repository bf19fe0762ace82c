//! DRA-V203: the same counter set defined in two slices of a pool.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V203", name: "duplicate-counter-set-in-pool", severity: Warning, origin: Linter,
    summary: "The same counter set name is defined in two slices of one pool",
    docs: "Counter set names must be unique within a pool; the apiserver only checks within one slice, and the scheduler treats such a pool as invalid.",
    example: "# two slices of pool node-1 both define sharedCounters [{name: gpu-0, ...}]\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        let sets = pool.counter_sets();
        for (k, (name, slice, i, node)) in sets.iter().enumerate() {
            if let Some((_, first, ..)) = sets[..k]
                .iter()
                .find(|(n, s, ..)| n == name && !std::ptr::eq(*s, *slice))
            {
                out.report(
                    slice,
                    Warning,
                    format!("spec.sharedCounters[{i}]"),
                    node.span,
                    format!(
                        "counter set {name:?} is also defined in {}",
                        first.reference
                    ),
                );
            }
        }
    }
}
