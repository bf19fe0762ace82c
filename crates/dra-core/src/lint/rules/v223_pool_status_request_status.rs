//! DRA-V223: a ResourcePoolStatusRequest status write the apiserver refuses.
use super::prelude::*;
use super::v221_pool_status_request_spec::{check_driver, check_resource_pool_name};
use crate::lint::status_parts::*;

declare_rule! {
    id: "DRA-V223", name: "invalid-pool-status-request-status", severity: Error, origin: Apiserver, releases: "1.36+",
    summary: "A ResourcePoolStatusRequest status write that is refused: counts missing or negative, pools or conditions invalid, or a status already written",
    docs: "Only with `lint --subresource status` (kube-controller-manager writes the status once). The handwritten `ValidateResourcePoolStatusRequestStatusUpdate` (1.36, 1.37) refuses any change once a status is stored (`status: Invalid value: field is immutable`) and otherwise checks the conditions with metav1's `ValidateConditions`; the type's standard declarative tags (k8s.io/api resource/v1alpha3, release-1.36 and v0.37.0-beta.0) add: `poolCount` required and not negative; at most 1000 `pools`, each with a required driver (a DNS subdomain in any case), a required pool name ('/'-separated DNS subdomains, at most 253 bytes), a required, non-zero, non-negative `generation` (Go's zero counts as unset), `resourceSliceCount` at least 1, device counts not negative, `nodeName` a DNS subdomain and `validationError` at most 256 bytes; at most 10 conditions. 1.36 also enforces the conditions' list-map key, so a repeated condition type is a Duplicate at the condition beside metav1's at its `type`; 1.37 marks that tag alpha (not enforced), and its apimachinery reports the repeat once, at the condition.",
    example: "status:\n  pools:\n  - {driver: gpu.example.com, poolName: node-1, generation: 0, totalDevices: -1}\n",
    check: Check::Status(&[ResourcePoolStatusRequest], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, old: Option<&Object>, out: &mut Sink<'_>) {
    let v = cx.gates.version;
    let status = get(&obj.root, "status").filter(|s| !s.is_null());
    let stored = old
        .and_then(|o| get(&o.root, "status"))
        .filter(|s| !s.is_null());
    if let Some(stored) = stored {
        if status.map(Node::to_json) != Some(stored.to_json()) {
            let span =
                entry(&obj.root, "status").map_or_else(|| missing_span(&obj.root), |e| e.key_span);
            out.report(obj, Invalid, "status", span, "field is immutable")
                .note("a request is complete once its status is written: delete it and create it again for new counts");
        }
        return;
    }
    let Some(status) = status.filter(|s| s.as_map().is_some()) else {
        return;
    };
    validate_conditions(v, obj, status, "status", out);
    match get(status, "poolCount").filter(|n| !n.is_null()) {
        None => {
            // At the value when it is null, else at `status:`.
            let span = match (entry(status, "poolCount"), entry(&obj.root, "status")) {
                (Some(e), _) => e.value.span,
                (None, Some(e)) => e.key_span,
                (None, None) => missing_span(status),
            };
            out.report(obj, Required, "status.poolCount", span, "Required value");
        }
        Some(n) => minimum(obj, n, 0, "status.poolCount".into(), out),
    }
    let pools = items(status, "pools");
    if pools.len() > 1000 {
        check_too_many(
            obj,
            status,
            "pools",
            format_args!("status.pools"),
            1000,
            "pools",
            out,
        );
    } else {
        for (i, pool) in pools.iter().enumerate() {
            check_pool(obj, pool, &format!("status.pools[{i}]"), out);
        }
    }
    let conditions = items(status, "conditions");
    if conditions.len() > 10 {
        check_too_many(
            obj,
            status,
            "conditions",
            format_args!("status.conditions"),
            10,
            "conditions",
            out,
        );
    } else if v == Version::V1_36 {
        // `+k8s:listType=map` with `listMapKey=type`, standard in 1.36:
        // validate.Unique, each later repeat at its index.
        let mut seen = std::collections::HashSet::new();
        for (i, c) in conditions.iter().enumerate() {
            if !seen.insert(get_str(c, "type").unwrap_or("")) {
                out.report(
                    obj,
                    Duplicate,
                    format!("status.conditions[{i}]"),
                    c.span,
                    "Duplicate value",
                );
            }
        }
    }
}

/// `Validate_PoolStatus`: the tags of each field, in declaration order.
fn check_pool(obj: &Object, pool: &Node, path: &str, out: &mut Sink<'_>) {
    // null decodes as Go's zero PoolStatus; another type does not decode.
    if !pool.is_null() && pool.as_map().is_none() {
        return;
    }
    check_driver(obj, pool, &format!("{path}.driver"), out);
    if let Some((name, span)) = string_field(pool, "poolName") {
        if name.is_empty() {
            out.report(
                obj,
                Required,
                format!("{path}.poolName"),
                span,
                "Required value",
            );
        } else {
            check_resource_pool_name(obj, name, span, &format!("{path}.poolName"), out);
        }
    }
    // An int64 with `+k8s:required`: Go's zero (unset, null or 0) is missing.
    let generation = get(pool, "generation").filter(|n| !n.is_null());
    match generation.map(|n| (n, n.as_i64())) {
        Some((n, Some(g))) if g != 0 => minimum(obj, n, 0, format!("{path}.generation"), out),
        Some((_, None)) => {}
        _ => {
            let span = generation.map_or_else(|| missing_span(pool), |n| n.span);
            out.report(
                obj,
                Required,
                format!("{path}.generation"),
                span,
                "Required value",
            );
        }
    }
    let optional = |key: &str| get(pool, key).filter(|n| !n.is_null());
    if let Some(n) = optional("resourceSliceCount") {
        minimum(obj, n, 1, format!("{path}.resourceSliceCount"), out);
    }
    for key in [
        "totalDevices",
        "allocatedDevices",
        "availableDevices",
        "unavailableDevices",
    ] {
        if let Some(n) = optional(key) {
            minimum(obj, n, 0, format!("{path}.{key}"), out);
        }
    }
    if let Some((n, name)) = optional("nodeName").and_then(|n| Some((n, n.as_str()?))) {
        for msg in crate::name_errors::long_name(name) {
            out.report(obj, Invalid, format!("{path}.nodeName"), n.span, msg);
        }
    }
    if let Some((n, text)) = optional("validationError").and_then(|n| Some((n, n.as_str()?))) {
        if text.len() > 256 {
            out.report(
                obj,
                TooLong,
                format!("{path}.validationError"),
                n.span,
                "may not be more than 256 bytes",
            );
        }
    }
}

/// `+k8s:minimum`: content's `MinError`.
fn minimum(obj: &Object, n: &Node, min: i64, path: String, out: &mut Sink<'_>) {
    if n.as_i64().is_some_and(|v| v < min) {
        out.report(
            obj,
            Invalid,
            path,
            n.span,
            format!("must be greater than or equal to {min}"),
        );
    }
}
