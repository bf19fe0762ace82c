//! Field checks the status-write rules share (DRA-V171..V173, DRA-V193):
//! `validateResourceClaimStatusUpdate` and `ValidateDeviceTaintRuleStatusUpdate`
//! of pkg/apis/resource/validation, and apimachinery's `ValidateConditions`.
//! Read in the four release copies (validation-releases.md: C34
//! fabiendupont@291372b ≈17k, C35 galal-hussein@ec20661, C36
//! omeryahud@a125bd3, C37 kubernetes@009801d ≈26k).
use super::rules::prelude::*;

/// `ResourceClaimReservedForMaxSize`.
pub(crate) const MAX_RESERVED_FOR: usize = 256;
/// `AllocationResultsMaxSize`.
pub(crate) const MAX_RESULTS: usize = 32;
/// `2 * DeviceConfigMaxSize` (class and claim configuration).
pub(crate) const MAX_ALLOCATION_CONFIG: usize = 64;
/// `AllocatedDeviceStatusMaxConditions`, `DeviceTaintRuleStatusMaxConditions`.
pub(crate) const MAX_CONDITIONS: usize = 8;
/// `AllocatedDeviceStatusDataMaxLength`, `OpaqueParametersMaxLength`.
pub(crate) const MAX_RAW_BYTES: usize = 10 * 1024;
/// `NetworkDeviceDataInterfaceNameMaxLength`.
pub(crate) const MAX_INTERFACE_NAME: usize = 256;
/// `NetworkDeviceDataHardwareAddressMaxLength`.
pub(crate) const MAX_HARDWARE_ADDRESS: usize = 128;
/// `NetworkDeviceDataMaxIPs`.
pub(crate) const MAX_IPS: usize = 16;

/// A field's value unless it is absent or null (Go's nil).
pub(crate) fn set<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    get(node, key).filter(|n| !n.is_null())
}

/// The written status's allocation.
pub(crate) fn allocation(obj: &Object) -> Option<&Node> {
    set(&obj.root, "status").and_then(|s| set(s, "allocation"))
}

/// The request names the status refers to: the stored claim's spec (the
/// status strategy keeps it), or the written one when nothing is stored.
pub(crate) fn request_names_of(
    cx: &Ctx<'_>,
    obj: &Object,
    old: Option<&Object>,
) -> Vec<(String, Vec<String>)> {
    request_names(cx.gates.version, old.unwrap_or(obj))
}

/// Driver, pool and device as `structured.MakeDeviceID` joins them, with
/// the share ID of a consumable-capacity allocation.
pub(crate) fn device_id(n: &Node) -> (String, Option<String>) {
    let s = |k| get_str(n, k).unwrap_or("");
    (
        format!("{}/{}/{}", s("driver"), s("pool"), s("device")),
        get_str(n, "shareID").map(str::to_owned),
    )
}

/// `validateUID`: google/uuid's parse, then the normalized form only
/// (36 characters, lower case).
pub(crate) fn check_uid(obj: &Object, n: &Node, path: String, out: &mut Sink<'_>) {
    let Some(s) = n.as_str() else { return };
    let ok = s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_digit() || ('a'..='f').contains(&c),
        });
    if !ok {
        out.report(
            obj,
            Invalid,
            path,
            n.span,
            format!("{s:?}: uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters"),
        );
    }
}

/// `ValidateLabelName` (label-key syntax; an empty name is Invalid too).
pub(crate) fn check_label_name(
    version: Version,
    obj: &Object,
    n: &Node,
    path: String,
    out: &mut Sink<'_>,
) {
    let Some(s) = n.as_str() else { return };
    for msg in crate::name_errors::label_key(version, s) {
        out.report(obj, Invalid, path.clone(), n.span, msg);
    }
}

/// metav1's `ValidateConditions`.
///
/// apimachinery 1.37 (v0.37.0-beta.0, "align imperative and declarative
/// validation") reports a repeated type at the entry, not its `type`, and
/// an empty type or status as Required, not as a bad label name or an
/// unsupported value.
pub(crate) fn validate_conditions(
    version: Version,
    obj: &Object,
    owner: &Node,
    path: &str,
    out: &mut Sink<'_>,
) {
    let list = items(owner, "conditions");
    let mut seen = std::collections::HashSet::new();
    for (i, c) in list.iter().enumerate() {
        let p = format!("{path}.conditions[{i}]");
        let ty = get_str(c, "type").unwrap_or("");
        if !seen.insert(ty) {
            let at = if version >= Version::V1_37 {
                p.clone()
            } else {
                format!("{p}.type")
            };
            out.report(
                obj,
                Duplicate,
                at,
                c.span,
                format!("condition type {ty:?} is listed twice"),
            );
        }
        check_condition(version, obj, c, &p, out);
    }
}

/// metav1's `ValidateConditions`, then the list's bound (DeviceTaintRule's
/// and ResourceClaim's eight).
pub(crate) fn check_conditions(
    version: Version,
    obj: &Object,
    owner: &Node,
    path: &str,
    out: &mut Sink<'_>,
) {
    validate_conditions(version, obj, owner, path, out);
    let list = items(owner, "conditions");
    if list.len() > MAX_CONDITIONS {
        check_too_many(
            obj,
            owner,
            "conditions",
            format_args!("{path}.conditions"),
            MAX_CONDITIONS,
            "conditions",
            out,
        );
    }
}

/// metav1's `ValidateCondition`.
fn check_condition(version: Version, obj: &Object, c: &Node, p: &str, out: &mut Sink<'_>) {
    let at = |k: &str| get(c, k).map_or_else(|| missing_span(c), |n| n.span);
    let ty = get_str(c, "type").unwrap_or("");
    let v137 = version >= Version::V1_37;
    if ty.is_empty() && v137 {
        out.report(
            obj,
            Required,
            format!("{p}.type"),
            at("type"),
            "is required",
        );
    } else {
        for msg in crate::name_errors::label_key(version, ty) {
            out.report(obj, Invalid, format!("{p}.type"), at("type"), msg);
        }
    }
    let status = get_str(c, "status").unwrap_or("");
    if status.is_empty() && v137 {
        out.report(
            obj,
            Required,
            format!("{p}.status"),
            at("status"),
            "must be set",
        );
    } else if !matches!(status, "True" | "False" | "Unknown") {
        out.report(
            obj,
            NotSupported,
            format!("{p}.status"),
            at("status"),
            format!(
                "unsupported value {status:?}: supported values: \"False\", \"True\", \"Unknown\""
            ),
        );
    }
    if get(c, "observedGeneration")
        .and_then(Node::as_i64)
        .is_some_and(|g| g < 0)
    {
        out.report(
            obj,
            Invalid,
            format!("{p}.observedGeneration"),
            at("observedGeneration"),
            "must be greater than or equal to zero",
        );
    }
    if get(c, "lastTransitionTime").is_none_or(|t| t.is_null() || t.as_str() == Some("")) {
        out.report(
            obj,
            Required,
            format!("{p}.lastTransitionTime"),
            at("lastTransitionTime"),
            "must be set",
        );
    }
    match get_str(c, "reason").unwrap_or("") {
        "" => {
            out.report(
                obj,
                Required,
                format!("{p}.reason"),
                at("reason"),
                "must be set",
            );
        }
        reason => {
            for msg in crate::name_errors::condition_reason(reason) {
                out.report(obj, Invalid, format!("{p}.reason"), at("reason"), msg);
            }
            if reason.len() > 1024 {
                out.report(
                    obj,
                    TooLong,
                    format!("{p}.reason"),
                    at("reason"),
                    "may not be more than 1024 bytes",
                );
            }
        }
    }
    if get_str(c, "message").is_some_and(|m| m.len() > 32 * 1024) {
        out.report(
            obj,
            TooLong,
            format!("{p}.message"),
            at("message"),
            "may not be more than 32768 bytes",
        );
    }
}

/// `validateRawExtension` of a new value: required, at most `max` bytes of
/// JSON, a JSON object.
pub(crate) fn check_raw_object(obj: &Object, n: &Node, path: String, out: &mut Sink<'_>) {
    if n.is_null() {
        out.report(obj, Required, path, n.span, "required");
    } else if n.to_json().to_string().len() > MAX_RAW_BYTES {
        out.report(
            obj,
            TooLong,
            path,
            n.span,
            format!("may not be more than {MAX_RAW_BYTES} bytes as JSON"),
        );
    } else if n.as_map().is_none() {
        out.report(obj, Invalid, path, n.span, "must be a valid JSON object");
    }
}

/// `validation.IsValidInterfaceAddress`: an address and prefix length in
/// CIDR form, written canonically (as Go's `net.IP.String` prints it; an
/// IPv4-mapped IPv6 address is written as IPv4).
pub(crate) fn interface_address_problem(s: &str) -> Option<String> {
    use std::net::IpAddr;
    let bad = || {
        Some(
            "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)".to_owned(),
        )
    };
    let Some((ip, prefix)) = s.split_once('/') else {
        return bad();
    };
    let Ok(ip) = ip.parse::<IpAddr>() else {
        return bad();
    };
    if prefix.is_empty() || prefix.len() > 3 || !prefix.bytes().all(|b| b.is_ascii_digit()) {
        return bad();
    }
    let Ok(bits) = prefix.parse::<i64>() else {
        return bad();
    };
    let mut bits = bits;
    let canonical_ip = match ip {
        IpAddr::V4(v4) => {
            if bits > 32 {
                return bad();
            }
            v4.to_string()
        }
        IpAddr::V6(v6) => {
            if bits > 128 {
                return bad();
            }
            // Go prints a mapped address as IPv4 and takes 96 from a
            // prefix longer than 32 bits (even below 96: then negative).
            match v6.to_ipv4_mapped() {
                Some(v4) => {
                    if bits > 32 {
                        bits -= 96;
                    }
                    v4.to_string()
                }
                None => v6.to_string(),
            }
        }
    };
    let canonical = format!("{canonical_ip}/{bits}");
    (canonical != s).then(|| format!("must be in canonical form ({canonical:?})"))
}
