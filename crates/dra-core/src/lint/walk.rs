//! Shared ways into DRA objects for the rules: the devices of a slice, the
//! requests of a claim, with their apiserver field paths. From 1.35 lists
//! over their maximum size yield no items, as the apiserver short-circuits
//! them (`items_validated`).

use crate::gates::{Gate, Version};
use crate::model::{Object, ObjectKind};
use crate::tree::{Entry, Node, Span, Value};

pub const MAX_DEVICES: usize = 128;
pub const MAX_DEVICES_ADVANCED: usize = 64;
pub const MAX_REQUESTS: usize = 32;
pub const MAX_SUBREQUESTS: usize = 8;
pub const MAX_SELECTORS: usize = 32;
pub const MAX_CONSTRAINTS: usize = 32;
pub const MAX_CONFIGS: usize = 32;
pub const MAX_ATTRS_AND_CAPS: usize = 32;
pub const MAX_ATTRIBUTE_VALUES: usize = 48;
pub const MAX_COUNTERS: usize = 32;
pub const MAX_CONSUMES_COUNTERS: usize = 2;
pub const MAX_COMPAT_GROUPS: usize = 2;
pub const MAX_TOLERATIONS: usize = 16;
pub const MAX_BINDING_CONDITIONS: usize = 4;
pub const MAX_VALID_VALUES: usize = 10;
pub const MAX_STRING_ATTR: usize = 64;
pub const CEL_MAX_LEN: usize = 10240;
pub const OPAQUE_MAX_LEN: usize = 10240;

/// Counter sets per slice; 1.34 has no such limit (it limits the counters).
pub fn max_counter_sets(v: Version) -> usize {
    if v >= Version::V1_35 {
        8
    } else {
        usize::MAX
    }
}

pub fn max_taints(v: Version) -> usize {
    if v >= Version::V1_35 {
        16
    } else {
        4
    }
}

/// A mapping entry whose value is not null (null reads as unset in Go).
pub fn entry<'a>(node: &'a Node, key: &str) -> Option<&'a Entry> {
    node.entry(key).filter(|e| !e.value.is_null())
}

pub fn get<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
    entry(node, key).map(|e| &e.value)
}

pub fn get_str<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    get(node, key).and_then(Node::as_str)
}

/// A string field as Go decodes it: unset or null is "" (the key of an
/// unnamed entry in `validateSet`), another type `None`.
pub fn get_str_or_zero<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    match get(node, key) {
        None => Some(""),
        Some(v) if v.is_null() => Some(""),
        Some(v) => v.as_str(),
    }
}

/// A list field's items; empty when unset or not a list.
pub fn items<'a>(node: &'a Node, key: &str) -> &'a [Node] {
    get(node, key).and_then(Node::as_seq).unwrap_or_default()
}

/// A map field's entries; empty when unset or not a map.
pub fn entries<'a>(node: &'a Node, key: &str) -> &'a [Entry] {
    get(node, key).and_then(Node::as_map).unwrap_or_default()
}

/// Where to point for a field that is missing: the parent's key, or the node.
pub fn missing_span(node: &Node) -> Span {
    match &node.value {
        Value::Map(es) if !es.is_empty() => es[0].key_span,
        _ => node.span,
    }
}

/// Whether a string field is unset: absent, null or empty.
pub fn is_unset_str(node: &Node, key: &str) -> bool {
    match get(node, key) {
        None => true,
        Some(n) => n.as_str() == Some(""),
    }
}

/// The device-count limit that applies to a slice in this version.
pub fn device_limit(v: Version, devices: &[Node]) -> usize {
    if v < Version::V1_35 {
        return MAX_DEVICES;
    }
    let advanced = devices.iter().any(|d| {
        !items(d, "taints").is_empty()
            || !items(d, "consumesCounters").is_empty()
            || (v >= Version::V1_36
                && entries(d, "attributes").iter().any(|a| {
                    ["ints", "bools", "strings", "versions"]
                        .iter()
                        .any(|k| get(&a.value, k).is_some())
                }))
    });
    if advanced {
        MAX_DEVICES_ADVANCED
    } else {
        MAX_DEVICES
    }
}

/// The devices of a slice that the apiserver validates one by one.
pub fn devices(v: Version, obj: &Object) -> impl Iterator<Item = (usize, &Node)> {
    let list = obj.spec().map(|s| items(s, "devices")).unwrap_or_default();
    // From 1.35 an over-long list is only TooMany; 1.34's validateSlice
    // still validated every item.
    let list = if !items_validated(v, list.len(), device_limit(v, list)) {
        &[][..]
    } else {
        list
    };
    list.iter().enumerate()
}

/// The device claim of a ResourceClaim or ResourceClaimTemplate and the
/// field path that leads to it.
pub fn device_claim(obj: &Object) -> Option<(&Node, &'static str)> {
    match obj.kind {
        ObjectKind::ResourceClaim => obj
            .spec()
            .and_then(|s| get(s, "devices"))
            .map(|d| (d, "spec.devices")),
        ObjectKind::ResourceClaimTemplate => obj
            .spec()
            .and_then(|s| get(s, "spec"))
            .and_then(|s| get(s, "devices"))
            .map(|d| (d, "spec.spec.devices")),
        _ => None,
    }
}

/// Whether the apiserver of `v` validates the items of a list of `len`
/// items whose limit is `max`: from 1.35 `validateSlice` and `validateSet`
/// stop at TooMany ("maxSize check short-circuits for DOS protection");
/// 1.34's validated every item, then reported TooMany.
pub fn items_validated(v: Version, len: usize, max: usize) -> bool {
    len <= max || v < Version::V1_35
}

/// The requests of a claim (from 1.35 none when there are more than the
/// limit).
pub fn requests(v: Version, obj: &Object) -> Vec<(usize, &Node, String)> {
    let Some((dc, prefix)) = device_claim(obj) else {
        return Vec::new();
    };
    let reqs = items(dc, "requests");
    if !items_validated(v, reqs.len(), MAX_REQUESTS) {
        return Vec::new();
    }
    reqs.iter()
        .enumerate()
        .map(|(i, r)| (i, r, format!("{prefix}.requests[{i}]")))
        .collect()
}

/// `exactly` or one `firstAvailable` entry: where device-selection fields live.
pub struct RequestBody<'a> {
    pub node: &'a Node,
    pub path: String,
    /// The request's index.
    pub request: usize,
    /// Set for a `firstAvailable` entry.
    pub subrequest: Option<usize>,
}

pub fn request_bodies(v: Version, obj: &Object) -> Vec<RequestBody<'_>> {
    let mut out = Vec::new();
    for (i, r, path) in requests(v, obj) {
        // From 1.35 a request with both is Invalid and neither branch is
        // validated (C35 validateDeviceRequest's switch); 1.34 validated both.
        if v >= Version::V1_35
            && get(r, "exactly").is_some()
            && !items(r, "firstAvailable").is_empty()
        {
            continue;
        }
        if let Some(ex) = get(r, "exactly") {
            out.push(RequestBody {
                node: ex,
                path: format!("{path}.exactly"),
                request: i,
                subrequest: None,
            });
        }
        let subs = items(r, "firstAvailable");
        if items_validated(v, subs.len(), MAX_SUBREQUESTS) {
            for (k, s) in subs.iter().enumerate() {
                out.push(RequestBody {
                    node: s,
                    path: format!("{path}.firstAvailable[{k}]"),
                    request: i,
                    subrequest: Some(k),
                });
            }
        }
    }
    out
}

/// Every CEL selector expression of an object: (expression node, field path).
pub fn cel_selectors(v: Version, obj: &Object) -> Vec<(&Node, String)> {
    let mut out = Vec::new();
    match obj.kind {
        ObjectKind::DeviceClass => {
            if let Some(spec) = obj.spec() {
                collect_selectors(v, spec, "spec", &mut out);
            }
        }
        ObjectKind::ResourceClaim | ObjectKind::ResourceClaimTemplate => {
            for body in request_bodies(v, obj) {
                collect_selectors(v, body.node, &body.path, &mut out);
            }
        }
        _ => {}
    }
    out
}

fn collect_selectors<'a>(
    v: Version,
    owner: &'a Node,
    base: &str,
    out: &mut Vec<(&'a Node, String)>,
) {
    let sels = items(owner, "selectors");
    if !items_validated(v, sels.len(), MAX_SELECTORS) {
        return;
    }
    for (j, s) in sels.iter().enumerate() {
        if let Some(expr) = get(s, "cel").and_then(|c| c.entry("expression")) {
            out.push((&expr.value, format!("{base}.selectors[{j}].cel.expression")));
        }
    }
}

/// The request and subrequest names of a claim, for reference checks.
pub fn request_names(v: Version, obj: &Object) -> Vec<(String, Vec<String>)> {
    requests(v, obj)
        .into_iter()
        .filter_map(|(_, r, _)| {
            let name = get_str(r, "name")?.to_owned();
            let subs = items(r, "firstAvailable")
                .iter()
                .filter_map(|s| get_str(s, "name").map(str::to_owned))
                .collect();
            Some((name, subs))
        })
        .collect()
}

pub fn gate_on(cx: &super::Ctx<'_>, g: Gate) -> bool {
    cx.gates.enabled(g)
}

/// Finds the first duplicate names in a list: (index of the later item, name).
pub fn duplicates<'a, I: IntoIterator<Item = (usize, &'a str)>>(names: I) -> Vec<(usize, &'a str)> {
    // A set, not a list: a hostile list of a million names stays linear.
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (i, n) in names {
        if !seen.insert(n) {
            out.push((i, n));
        }
    }
    out
}
