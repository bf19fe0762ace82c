//! DRA-V105: an overhead with no amount, or a negative one.
use super::prelude::*;

declare_rule! {
    id: "DRA-V105", name: "node-allocatable-overhead-invalid", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "`overhead` of a `nodeAllocatableResources` entry has neither `perPod` nor `perContainer`, or a negative amount",
    docs: "A fixed overhead is charged once per pod (`perPod`) or per container (`perContainer`) that uses the device; at least one amount is needed and none may be negative.",
    example: "nodeAllocatableResources:\n  memory: {overhead: {}}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    for e in node_allocatable(cx, obj) {
        let Some(o) = entry(e.value, "overhead") else {
            continue;
        };
        let (pod, container) = (get(&o.value, "perPod"), get(&o.value, "perContainer"));
        if pod.is_none() && container.is_none() {
            out.report(
                obj,
                Invalid,
                format!("{}.overhead", e.path),
                o.key_span,
                "at least one of perPod or perContainer must be set",
            );
        }
        for (key, n) in [("perPod", pod), ("perContainer", container)] {
            let Some(n) = n else { continue };
            let text = n
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| n.to_json().to_string());
            if Quantity::parse_field(&text).is_ok_and(|q| q.is_negative()) {
                out.report(
                    obj,
                    Invalid,
                    format!("{}.overhead.{key}", e.path),
                    n.span,
                    "must be non-negative",
                );
            }
        }
    }
}
