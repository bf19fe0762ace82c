//! DRA-V104: a mapping multiplier that is not positive.
use super::prelude::*;

declare_rule! {
    id: "DRA-V104", name: "node-allocatable-multiplier-not-positive", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "`mapping.capacityMultiplier` or `mapping.deviceMultiplier` of a `nodeAllocatableResources` entry is zero or negative",
    docs: "Multipliers scale what a claim takes into node resources; zero or a negative factor is rejected.",
    example: "nodeAllocatableResources:\n  cpu: {mapping: {deviceMultiplier: \"0\"}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        let Some(mapping) = get(e.value, "mapping") else {
            continue;
        };
        for key in ["capacityMultiplier", "deviceMultiplier"] {
            let Some(n) = get(mapping, key) else { continue };
            let text = n
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| n.to_json().to_string());
            if let Ok(q) = Quantity::parse_field(&text) {
                if q.is_zero() || q.is_negative() {
                    out.report(
                        obj,
                        Invalid,
                        format!("{}.mapping.{key}", e.path),
                        n.span,
                        "must be positive",
                    );
                }
            }
        }
    }
}
