//! DRA-V225: a ResourcePoolStatusRequest pool's partition or shareable
//! summary the apiserver refuses (1.37).
use super::prelude::*;
use crate::lint::status_parts::set;

declare_rule! {
    id: "DRA-V225", name: "invalid-pool-status-summary", severity: Error, origin: Apiserver, releases: "1.37+",
    summary: "A ResourcePoolStatusRequest pool's partitionSummary or shareableSummary is refused: too many entries, a repeated partition type, or a count or quantity missing or negative",
    docs: "Only with `lint --subresource status`, as DRA-V223. 1.37 adds two views to each pool of the status (k8s.io/api resource/v1alpha3 `PoolStatus`, kubernetes/api master of the 1.37 line, #140170), validated by their declarative tags: `partitionSummary` holds at most 32 entries (TooMany, and then no entry is checked), no two with the same `attribute` and `type` (Duplicate at the later one), each with a required `attribute`, `type`, `total` and `allocatable`, the counts not negative; `shareableSummary`, when set, requires `fullyAvailableDevices` and `partiallyAvailableDevices` (not negative) and holds at most 32 `capacity` entries, each with a required `name`, `total`, `consumed` and `available`. kubernetes' `declarative_validation_test.go` for the kind lists these errors. Earlier releases do not have the fields (DRA-S001).",
    example: "# kubectl dra lint --subresource status --kubernetes-version 1.37 --feature-gates DRAResourcePoolStatus=true\nstatus:\n  poolCount: 1\n  pools:\n  - driver: gpu.example.com\n    poolName: node-1\n    generation: 1\n    partitionSummary:\n    - {attribute: gpu.example.com/profile, type: Full, total: -1}\n",
    check: Check::Status(&[ResourcePoolStatusRequest], check),
}

const MAX_ENTRIES: usize = 32;

fn check(cx: &Ctx<'_>, obj: &Object, old: Option<&Object>, out: &mut Sink<'_>) {
    if cx.gates.version < Version::V1_37 {
        return;
    }
    // A stored status makes the write immutable (DRA-V223 reports that
    // alone: the handwritten check runs first and nothing else is new).
    if old.and_then(|o| set(&o.root, "status")).is_some() {
        return;
    }
    let Some(status) = set(&obj.root, "status").filter(|s| s.as_map().is_some()) else {
        return;
    };
    let pools = items(status, "pools");
    if pools.len() > 1000 {
        return;
    }
    for (i, pool) in pools.iter().enumerate() {
        if let Some(summary) = entry(pool, "partitionSummary") {
            let path = format!("status.pools[{i}].partitionSummary");
            partition_summary(obj, pool, &summary.value, &path, out);
        }
        if let Some(shareable) = set(pool, "shareableSummary") {
            let path = format!("status.pools[{i}].shareableSummary");
            shareable_summary(obj, shareable, &path, out);
        }
    }
}

/// `+k8s:maxItems=32` (short-circuits), `+k8s:unique=map` on (attribute,
/// type), and each `PartitionTypeStatus`'s tags.
fn partition_summary(obj: &Object, pool: &Node, list: &Node, path: &str, out: &mut Sink<'_>) {
    let entries = list.as_seq().unwrap_or_default();
    if entries.len() > MAX_ENTRIES {
        check_too_many(
            obj,
            pool,
            "partitionSummary",
            format_args!("{path}"),
            MAX_ENTRIES,
            "entries",
            out,
        );
        return;
    }
    let mut seen = std::collections::HashSet::new();
    for (j, e) in entries.iter().enumerate() {
        let key = (
            get_str(e, "attribute").unwrap_or(""),
            get_str(e, "type").unwrap_or(""),
        );
        if !seen.insert(key) {
            out.report(
                obj,
                Duplicate,
                format!("{path}[{j}]"),
                e.span,
                "Duplicate value",
            );
        }
    }
    for (j, e) in entries.iter().enumerate() {
        let at = format!("{path}[{j}]");
        required_string(obj, e, "attribute", &at, out);
        required_string(obj, e, "type", &at, out);
        required_count(obj, e, "total", &at, out);
        required_count(obj, e, "allocatable", &at, out);
    }
}

/// `ShareableSummaryStatus`'s tags.
fn shareable_summary(obj: &Object, summary: &Node, path: &str, out: &mut Sink<'_>) {
    if summary.as_map().is_none() {
        return;
    }
    required_count(obj, summary, "fullyAvailableDevices", path, out);
    required_count(obj, summary, "partiallyAvailableDevices", path, out);
    let capacity = items(summary, "capacity");
    if capacity.len() > MAX_ENTRIES {
        check_too_many(
            obj,
            summary,
            "capacity",
            format_args!("{path}.capacity"),
            MAX_ENTRIES,
            "entries",
            out,
        );
        return;
    }
    for (k, c) in capacity.iter().enumerate() {
        let at = format!("{path}.capacity[{k}]");
        required_string(obj, c, "name", &at, out);
        for key in ["total", "consumed", "available"] {
            if set(c, key).is_none() {
                required(obj, c, key, &at, out);
            }
        }
    }
}

/// `+k8s:required` on a string: unset, null and "" are missing.
fn required_string(obj: &Object, parent: &Node, key: &str, path: &str, out: &mut Sink<'_>) {
    if get_str(parent, key).unwrap_or("").is_empty() {
        required(obj, parent, key, path, out);
    }
}

/// `Required value` at `path.key`: at its null value, else at `parent`.
fn required(obj: &Object, parent: &Node, key: &str, path: &str, out: &mut Sink<'_>) {
    let span = entry(parent, key).map_or_else(|| missing_span(parent), |e| e.value.span);
    out.report(
        obj,
        Required,
        format!("{path}.{key}"),
        span,
        "Required value",
    );
}

/// `+k8s:required` and `+k8s:minimum=0` on an `*int32`: nil is missing,
/// a negative count is Invalid.
fn required_count(obj: &Object, parent: &Node, key: &str, path: &str, out: &mut Sink<'_>) {
    match set(parent, key) {
        None => required(obj, parent, key, path, out),
        Some(n) => {
            if n.as_i64().is_some_and(|v| v < 0) {
                out.report(
                    obj,
                    Invalid,
                    format!("{path}.{key}"),
                    n.span,
                    "must be greater than or equal to 0",
                );
            }
        }
    }
}
