//! DRA-V206: slices of one pool with different generations.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V206", name: "stale-pool-generation", severity: Warning, origin: Linter,
    summary: "Slices of one pool carry different generations; the older ones are ignored",
    docs: "Consumers only use the slices with the highest generation of a pool; slices of an older generation are leftovers that the driver should delete.",
    example: "# slice a: pool {name: node-1, generation: 1}; slice b: pool {name: node-1, generation: 2}\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        for s in &pool.stale {
            let Some(p) = s.spec().and_then(|sp| get(sp, "pool")) else {
                continue;
            };
            let span = entry(p, "generation").map_or(p.span, |e| e.value.span);
            out.report(s, Warning, "spec.pool.generation", span, format!("older generation than other slices of pool {}/{}: the scheduler ignores this slice", pool.driver, pool.name));
        }
    }
}
