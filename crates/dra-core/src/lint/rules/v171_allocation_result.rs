//! DRA-V171: a claim's allocation written through the status is invalid or changed.
use super::prelude::*;
use crate::lint::status_parts::*;

declare_rule! {
    id: "DRA-V171", name: "invalid-allocation-result", severity: Error, origin: Apiserver,
    summary: "A status write sets an invalid allocation, or changes an allocation already stored",
    docs: "Only with `lint --subresource status` (a status write, as the scheduler or a controller makes it). `validateResourceClaimStatusUpdate`: a stored allocation may not change at all (`status.allocation` Invalid: field is immutable); a new one is validated as `validateAllocationResult` does. Each result names a request of the claim (`req` or `req/subrequest`), a driver, a pool and a device (DNS label); at most 32 results and 64 config entries (from 1.35 an over-long list is only TooMany, in 1.34 its entries are checked too); a `shareID` is a normalized lower-case UUID; binding conditions as on devices (at most 4 of each, label names, no repeats, no overlap, both or neither). Config entries need a `source` (`FromClass` or `FromClaim`), request references, and an `opaque` driver with JSON-object parameters of at most 10 KiB. The node selector is validated as core validation does. Only 1.37 validates a result's `tolerations` (`validateDeviceToleration`) and `skipNodeOperations` (C37 kubernetes@009801d `validateDeviceRequestAllocationResult` ≈31k; C34-C36 do not).",
    example: "status:\n  allocation:\n    devices:\n      results:\n      - {request: gpus, driver: gpu.example.com, pool: node-1, device: gpu-0}   # no request \"gpus\"\n",
    check: Check::Status(&[ResourceClaim], check),
}

fn check(cx: &Ctx<'_>, obj: &Object, old: Option<&Object>, out: &mut Sink<'_>) {
    let Some(alloc) = allocation(obj) else { return };
    let path = "status.allocation";
    if let Some(before) = old.and_then(allocation) {
        if crate::stored::comparable(alloc) != crate::stored::comparable(before) {
            out.report(obj, Invalid, path, alloc.span, "field is immutable")
                .note("a stored allocation cannot change: deallocate (remove it) first");
        }
        return;
    }
    let v = cx.gates.version;
    let names = request_names_of(cx, obj, old);
    let Some(devices) = set(alloc, "devices") else {
        check_node_selector(cx.gates.version, obj, alloc, out);
        return;
    };
    let results = items(devices, "results");
    check_too_many(
        obj,
        devices,
        "results",
        format_args!("{path}.devices.results"),
        MAX_RESULTS,
        "results",
        out,
    );
    if items_validated(v, results.len(), MAX_RESULTS) {
        for (i, r) in results.iter().enumerate() {
            check_result(
                cx,
                obj,
                r,
                &format!("{path}.devices.results[{i}]"),
                &names,
                out,
            );
        }
    }
    let config = items(devices, "config");
    check_too_many(
        obj,
        devices,
        "config",
        format_args!("{path}.devices.config"),
        MAX_ALLOCATION_CONFIG,
        "config entries",
        out,
    );
    if items_validated(v, config.len(), MAX_ALLOCATION_CONFIG) {
        for (i, c) in config.iter().enumerate() {
            check_config(
                cx,
                obj,
                c,
                &format!("{path}.devices.config[{i}]"),
                &names,
                out,
            );
        }
    }
    check_node_selector(cx.gates.version, obj, alloc, out);
}

fn check_result(
    cx: &Ctx<'_>,
    obj: &Object,
    r: &Node,
    path: &str,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    // validateRequestNameRef on Go's value: an unset request is "", which
    // is no DNS label and names no request (Invalid twice, not Required).
    let request = get(r, "request");
    if let Some(name) = string_or_zero(request) {
        let span = request.map_or_else(|| missing_span(r), |n| n.span);
        super::v157_constraint_request_reference::check_request_name_ref(
            obj,
            name,
            span,
            format!("{path}.request"),
            names,
            out,
        );
    }
    check_driver_name(obj, r, "driver", &format!("{path}.driver"), out);
    check_pool_name(obj, r, "pool", &format!("{path}.pool"), out);
    check_dns_label(obj, r, "device", &format!("{path}.device"), out);
    check_binding_conditions(cx, obj, r, path, out);
    if let Some(id) = set(r, "shareID") {
        check_uid(obj, id, format!("{path}.shareID"), out);
    }
    if cx.gates.version >= Version::V1_37 {
        for (j, t) in items(r, "tolerations").iter().enumerate() {
            check_toleration(obj, t, &format!("{path}.tolerations[{j}]"), out);
        }
        super::v018_skip_node_operations_values::check_operations(obj, r, path, out);
    }
}

/// `validateDeviceBindingParameters`.
fn check_binding_conditions(cx: &Ctx<'_>, obj: &Object, r: &Node, path: &str, out: &mut Sink<'_>) {
    const MAX: usize = 4;
    let ok = items(r, "bindingConditions");
    let failed = items(r, "bindingFailureConditions");
    for (key, list) in [
        ("bindingConditions", ok),
        ("bindingFailureConditions", failed),
    ] {
        check_too_many(
            obj,
            r,
            key,
            format_args!("{path}.{key}"),
            MAX,
            "conditions",
            out,
        );
        if items_validated(cx.gates.version, list.len(), MAX) {
            for (i, c) in list.iter().enumerate() {
                check_label_name(cx.gates.version, obj, c, format!("{path}.{key}[{i}]"), out);
            }
        }
        for (i, s) in duplicates(
            list.iter()
                .enumerate()
                .filter_map(|(i, c)| c.as_str().map(|s| (i, s))),
        ) {
            out.report(
                obj,
                Duplicate,
                format!("{path}.{key}[{i}]"),
                list[i].span,
                format!("{s:?} is listed twice"),
            );
        }
    }
    for (i, c) in failed.iter().enumerate() {
        if c.as_str()
            .is_some_and(|s| ok.iter().any(|o| o.as_str() == Some(s)))
        {
            out.report(
                obj,
                Invalid,
                format!("{path}.bindingFailureConditions[{i}]"),
                c.span,
                "bindingFailureConditions must not overlap with bindingConditions",
            );
        }
    }
    if ok.is_empty() && !failed.is_empty() {
        out.report(
            obj,
            Invalid,
            format!("{path}.bindingConditions"),
            r.span,
            "bindingConditions are required to use bindingFailureConditions",
        );
    }
    if failed.is_empty() && !ok.is_empty() {
        out.report(
            obj,
            Invalid,
            format!("{path}.bindingFailureConditions"),
            r.span,
            "bindingFailureConditions are required to use bindingConditions",
        );
    }
}

/// `validateDeviceToleration` (1.37); a missing operator is defaulted to Equal.
fn check_toleration(obj: &Object, t: &Node, path: &str, out: &mut Sink<'_>) {
    if let Some(k) = get(t, "key").filter(|k| k.as_str().is_some_and(|s| !s.is_empty())) {
        check_label_name(Version::V1_37, obj, k, format!("{path}.key"), out);
    }
    let value = get(t, "value");
    let value_str = value.and_then(Node::as_str).unwrap_or("");
    let vspan = value.map_or_else(|| missing_span(t), |v| v.span);
    match get_str(t, "operator").unwrap_or("Equal") {
        "Exists" if !value_str.is_empty() => {
            out.report(
                obj,
                Invalid,
                format!("{path}.value"),
                vspan,
                "must be empty for operator `Exists`",
            );
        }
        "Exists" => {}
        "Equal" => {
            // Only 1.37 validates result tolerations.
            for msg in crate::name_errors::label_value(Version::V1_37, value_str) {
                out.report(obj, Invalid, format!("{path}.value"), vspan, msg);
            }
        }
        op => {
            let span = get(t, "operator").map_or(t.span, |n| n.span);
            out.report(
                obj,
                NotSupported,
                format!("{path}.operator"),
                span,
                format!("unsupported value {op:?}: supported values: \"Equal\", \"Exists\""),
            );
        }
    }
    if let Some(e) = get(t, "effect") {
        let effect = e.as_str().unwrap_or("");
        if !matches!(effect, "" | "NoSchedule" | "NoExecute" | "None") {
            out.report(obj, NotSupported, format!("{path}.effect"), e.span, format!("unsupported value {effect:?}: supported values: \"NoExecute\", \"NoSchedule\", \"None\""));
        }
    }
}

/// `validateDeviceAllocationConfiguration`.
fn check_config(
    cx: &Ctx<'_>,
    obj: &Object,
    c: &Node,
    path: &str,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    match get(c, "source") {
        None => out
            .report(
                obj,
                Required,
                format!("{path}.source"),
                missing_span(c),
                "a source is required",
            )
            .note("FromClass or FromClaim"),
        Some(n) => match n.as_str().unwrap_or("") {
            "FromClass" | "FromClaim" => return check_config_body(cx, obj, c, path, names, out),
            "" => out.report(
                obj,
                Required,
                format!("{path}.source"),
                n.span,
                "a source is required",
            ),
            s => out.report(
                obj,
                NotSupported,
                format!("{path}.source"),
                n.span,
                format!("unsupported value {s:?}: supported values: \"FromClaim\", \"FromClass\""),
            ),
        },
    };
    check_config_body(cx, obj, c, path, names, out);
}

fn check_config_body(
    cx: &Ctx<'_>,
    obj: &Object,
    c: &Node,
    path: &str,
    names: &[(String, Vec<String>)],
    out: &mut Sink<'_>,
) {
    super::v166_config_request_reference::check_request_list(cx, obj, c, path, names, out);
    let Some(opaque) = set(c, "opaque") else {
        out.report(
            obj,
            Required,
            format!("{path}.opaque"),
            missing_span(c),
            "opaque configuration is required",
        );
        return;
    };
    check_driver_name(obj, opaque, "driver", &format!("{path}.opaque.driver"), out);
    match get(opaque, "parameters") {
        Some(p) => check_raw_object(obj, p, format!("{path}.opaque.parameters"), out),
        None => {
            out.report(
                obj,
                Required,
                format!("{path}.opaque.parameters"),
                missing_span(opaque),
                "parameters are required",
            );
        }
    }
}

/// `corevalidation.ValidateNodeSelector` of the allocation's node selector.
fn check_node_selector(version: Version, obj: &Object, alloc: &Node, out: &mut Sink<'_>) {
    super::v014_node_selector::check_selector(version, obj, alloc, "status.allocation", out);
}
