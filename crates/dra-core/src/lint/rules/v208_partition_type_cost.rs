//! DRA-V208: one partition type with different costs.
use super::prelude::*;
use super::v200_unknown_counter_set::pools;

declare_rule! {
    id: "DRA-V208", name: "partition-type-cost-mismatch", severity: Warning, origin: Linter,
    summary: "Devices with the same partitionTypeAttribute value consume different counter amounts",
    docs: "The API documents that a partition type has one cost; devices of the same type with different consumption confuse capacity planning and autoscalers.",
    example: "# mig-1g-0 and mig-1g-1 both have profile=1g but consume 10Gi and 12Gi\n",
    check: Check::Run(check),
}

fn check(cx: &Ctx<'_>, out: &mut Sink<'_>) {
    for pool in pools(cx) {
        let mut seen: Vec<(String, String)> = Vec::new();
        for (slice, i, d) in pool.devices() {
            let Some(attr) = slice
                .spec()
                .and_then(|s| get_str(s, "partitionTypeAttribute"))
            else {
                continue;
            };
            let id = attr.rsplit('/').next().unwrap_or(attr);
            let value = entries(d, "attributes")
                .iter()
                .find(|a| a.key == attr || a.key == id)
                .and_then(|a| get_str(&a.value, "string"));
            let Some(value) = value else { continue };
            let cost: Vec<String> = items(d, "consumesCounters")
                .iter()
                .flat_map(|c| {
                    entries(c, "counters").iter().map(|k| {
                        format!(
                            "{}={}",
                            k.key,
                            get(&k.value, "value")
                                .and_then(Node::scalar_text)
                                .unwrap_or_default()
                        )
                    })
                })
                .collect();
            let cost = cost.join(",");
            match seen.iter().find(|(v, _)| v == value) {
                Some((_, c)) if *c != cost => {
                    let span = entry(d, "consumesCounters").map_or(d.span, |e| e.key_span);
                    out.report(
                        slice,
                        Warning,
                        format!("spec.devices[{i}].consumesCounters"),
                        span,
                        format!("partition type {value:?} consumes {cost}, elsewhere {c}"),
                    );
                }
                Some(_) => {}
                None => seen.push((value.to_owned(), cost)),
            }
        }
    }
}
