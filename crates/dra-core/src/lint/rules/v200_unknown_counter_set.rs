//! DRA-V200: a device consuming a counter set its pool does not define.
use super::prelude::*;
use crate::dra;

declare_rule! {
    id: "DRA-V200", name: "unknown-counter-set", severity: Warning, origin: Linter, releases: "1.35+",
    summary: "A device consumes a counter set that no slice of its pool defines",
    docs: "Counter sets are looked up only within the device's own pool (same driver and pool name, newest generation). The apiserver accepts the slice, but the scheduler can never allocate the device. kubectl-dra treats the slices in the input as the whole pool.",
    example: "# pool node-1 defines gpu-0-counters, the device consumes gpu-9-counters\nconsumesCounters:\n- counterSet: gpu-9-counters\n",
    check: Check::Run(check),
}

/// The slices of one pool at its newest generation (from the typed model:
/// the one grouping, generations defaulted there).
pub(crate) struct Pool<'a, 't> {
    pub driver: &'a str,
    pub name: &'a str,
    pub slices: Vec<&'a Object>,
    /// Slices of older generations, ignored by consumers.
    pub stale: Vec<&'a Object>,
    /// Borrowed from the typed model (`'t` is the input's lifetime).
    typed: Vec<&'a dra::Slice<'t>>,
}

impl<'a, 't: 'a> Pool<'a, 't> {
    /// Counter set name -> (slice, counter-set index, node).
    pub fn counter_sets(&self) -> Vec<(&'a str, &'a Object, usize, &'a Node)> {
        let mut out = Vec::new();
        for s in &self.typed {
            for (i, cs) in s.shared_counters.iter().enumerate() {
                if let Some(n) = get_str(cs.node, "name") {
                    out.push((n, s.object, i, cs.node));
                }
            }
        }
        out
    }

    /// (slice, device index, device) for every device of the pool.
    pub fn devices(&self) -> Vec<(&'a Object, usize, &'a Node)> {
        let mut out = Vec::new();
        for s in &self.typed {
            for (i, d) in s.device_nodes().iter().enumerate() {
                out.push((s.object, i, d));
            }
        }
        out
    }
}

/// Groups the input's slices into pools (driver, pool name), sorted.
pub(crate) fn pools<'a, 't>(cx: &'a Ctx<'t>) -> Vec<Pool<'a, 't>> {
    cx.dra()
        .pools()
        .into_iter()
        .map(|((driver, name), all)| {
            let newest = all.iter().map(|s| s.pool.generation).max().unwrap_or(0);
            let (typed, stale): (Vec<&dra::Slice>, Vec<&dra::Slice>) =
                all.into_iter().partition(|s| s.pool.generation == newest);
            Pool {
                driver,
                name,
                slices: typed.iter().map(|s| s.object).collect(),
                stale: stale.iter().map(|s| s.object).collect(),
                typed,
            }
        })
        .collect()
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    // In 1.34 the apiserver itself refuses these, per slice (DRA-V073).
    if cx.gates.version < Version::V1_35 {
        return;
    }
    for pool in pools(cx) {
        let sets: Vec<&str> = pool.counter_sets().into_iter().map(|(n, ..)| n).collect();
        for (slice, i, d) in pool.devices() {
            for (j, c) in items(d, "consumesCounters").iter().enumerate() {
                let Some(n) = get(c, "counterSet") else {
                    continue;
                };
                let Some(name) = n.as_str() else { continue };
                if !sets.contains(&name) {
                    let d = out.report(
                        slice,
                        Warning,
                        format!("spec.devices[{i}].consumesCounters[{j}].counterSet"),
                        n.span,
                        format!(
                            "counter set {name:?} is not defined by any slice of pool {}/{}",
                            pool.driver, pool.name
                        ),
                    );
                    match crate::suggest::did_you_mean(name, sets.iter().copied()) {
                        Some(s) => d.note(format!("did you mean {s:?}?")),
                        None if sets.is_empty() => {
                            d.note("no slice of this pool in the input defines sharedCounters")
                        }
                        None => d.note(format!("the pool defines: {}", sets.join(", "))),
                    };
                    d.note("the scheduler can never allocate this device");
                }
            }
        }
    }
}
