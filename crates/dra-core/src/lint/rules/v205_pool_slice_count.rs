//! DRA-V205: resourceSliceCount does not match the slices seen.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V205", name: "pool-slice-count-mismatch", severity: Warning, origin: Linter,
    summary: "The number of slices of a pool differs from resourceSliceCount, or its slices disagree on it",
    docs: "The scheduler treats a pool with fewer slices than resourceSliceCount as incomplete: it may not allocate from it (for `allocationMode: All` it refuses). kubectl-dra counts the slices of the pool's newest generation in the input; on stored slices (with `creationTimestamp`, as `doctor` and snapshots read them) it also says since when the missing ones have been awaited.",
    example: "# two slices of pool node-1, each with resourceSliceCount: 3\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        let counts: Vec<(&Object, &Node, i64)> = pool
            .slices
            .iter()
            .filter_map(|s| {
                let n = s
                    .spec()
                    .and_then(|sp| get(sp, "pool"))
                    .and_then(|p| get(p, "resourceSliceCount"))?;
                Some((*s, n, n.as_i64()?))
            })
            .collect();
        let seen = pool.slices.len() as i64;
        let agree = counts.windows(2).all(|w| w[0].2 == w[1].2);
        for (s, n, c) in &counts {
            if !agree {
                out.report(
                    s,
                    Warning,
                    "spec.pool.resourceSliceCount",
                    n.span,
                    format!(
                        "slices of pool {}/{} disagree on resourceSliceCount",
                        pool.driver, pool.name
                    ),
                );
            } else if *c != seen && *c > 0 {
                let d = out.report(
                    s,
                    Warning,
                    "spec.pool.resourceSliceCount",
                    n.span,
                    format!(
                        "resourceSliceCount is {c}, but the input has {seen} slice{} of pool {}/{}",
                        if seen == 1 { "" } else { "s" },
                        pool.driver,
                        pool.name
                    ),
                );
                d.note("the scheduler treats an incomplete pool as unusable for some requests (allocationMode: All)");
                // On a cluster's state: since when the pool has waited for
                // its missing slices (a driver that stopped publishing).
                if let Some(since) = newest_created(&pool.slices).filter(|_| *c > seen) {
                    d.note(format!(
                        "its newest slice was created at {since}: the other {} never arrived since",
                        c - seen
                    ));
                }
            }
        }
    }
}

/// The latest `metadata.creationTimestamp` of the slices (RFC 3339 in UTC
/// orders as text), when they carry one (stored objects do).
fn newest_created<'a>(slices: &[&'a Object]) -> Option<&'a str> {
    slices
        .iter()
        .filter_map(|s| {
            get(&s.root, "metadata")
                .and_then(|m| get(m, "creationTimestamp"))
                .and_then(Node::as_str)
        })
        .max()
}
