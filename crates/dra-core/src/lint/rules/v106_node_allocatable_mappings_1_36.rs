//! DRA-V106: a 1.36 `nodeAllocatableResourceMappings` entry the apiserver refuses.
use super::prelude::*;

declare_rule! {
    id: "DRA-V106", name: "invalid-node-allocatable-mapping", severity: Error, origin: Apiserver, releases: "1.36",
    summary: "A `nodeAllocatableResourceMappings` entry (Kubernetes 1.36, DRANodeAllocatableResources) names no node resource, sets neither field, or has a bad multiplier or capacity key",
    docs: "Kubernetes 1.36 maps a node resource name to `{allocationMultiplier, capacityKey}` (`validateNodeAllocatableResourceMappings`, omeryahud/kubernetes@a125bd3 ≈43k): the key must be a node allocatable resource (no domain, or `kubernetes.io/`), Invalid at `[key]`; an entry needs at least one of the fields (Invalid at `[key]`); `allocationMultiplier` must be positive; `capacityKey` must not be empty (Invalid) and must name a capacity of the device (NotFound). 1.37 renamed and reshaped the field (`nodeAllocatableResources`, DRA-V100 to V105).",
    example: "nodeAllocatableResourceMappings:\n  nvidia.com/gpu: {capacityKey: memory}\n",
    check: Check::Object(SLICES, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    if cx.gates.version != Version::V1_36 || !gate_on(cx, Gate::DRANodeAllocatableResources) {
        return;
    }
    for (i, d) in devices(cx.gates.version, obj) {
        let capacities: Vec<&str> = entries(d, "capacity")
            .iter()
            .map(|e| e.key.as_str())
            .collect();
        for e in entries(d, "nodeAllocatableResourceMappings") {
            let key_path = format!(
                "spec.devices[{i}].nodeAllocatableResourceMappings[{}]",
                e.key
            );
            // v1helper.IsNativeResource: no domain, or the kubernetes.io one.
            if e.key.contains('/') && !e.key.contains("kubernetes.io/") {
                out.report(
                    obj,
                    Invalid,
                    key_path.clone(),
                    e.key_span,
                    format!("{:?}: must be a node allocatable resource name", e.key),
                );
            }
            let multiplier = get(&e.value, "allocationMultiplier");
            let capacity_key = get(&e.value, "capacityKey");
            if multiplier.is_none() && capacity_key.is_none() {
                out.report(
                    obj,
                    Invalid,
                    key_path,
                    e.key_span,
                    "at least one of allocationMultiplier or capacityKey must be set",
                );
                continue;
            }
            if let Some(n) = multiplier {
                let text = n
                    .as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| n.to_json().to_string());
                if Quantity::parse_field(&text).is_ok_and(|q| q.is_zero() || q.is_negative()) {
                    out.report(
                        obj,
                        Invalid,
                        format!("{key_path}.allocationMultiplier"),
                        n.span,
                        "must be positive",
                    );
                }
            }
            if let Some(n) = capacity_key {
                match n.as_str() {
                    Some("") => {
                        out.report(
                            obj,
                            Invalid,
                            format!("{key_path}.capacityKey"),
                            n.span,
                            "capacityKey must not be an empty string",
                        );
                    }
                    Some(k) if !capacities.contains(&k) => {
                        out.report(
                            obj,
                            NotFound,
                            format!("{key_path}.capacityKey"),
                            n.span,
                            format!("the device has no capacity {k:?}"),
                        );
                    }
                    _ => {}
                }
            }
        }
    }
}
