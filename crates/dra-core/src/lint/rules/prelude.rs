//! What every rule file needs.
pub(crate) use crate::diag::ErrorType::*;
pub(crate) use crate::format::*;
pub(crate) use crate::gates::{Gate, Version};
pub(crate) use crate::lint::walk::*;
pub(crate) use crate::lint::{Check, Ctx, Sink};
pub(crate) use crate::model::Object;
pub(crate) use crate::model::ObjectKind::{self, *};
pub(crate) use crate::quantity::{GoAmount, Quantity, QuantityText};
pub(crate) use crate::tree::Node;

pub(crate) const SLICES: &[ObjectKind] = &[ResourceSlice];
pub(crate) const CLASSES: &[ObjectKind] = &[DeviceClass];
pub(crate) const CLAIMS: &[ObjectKind] = &[ResourceClaim, ResourceClaimTemplate];
pub(crate) const WORKLOADS: &[ObjectKind] = &[Workload];

/// Whether the object is a mirror pod (a static pod the kubelet reports),
/// which core validation refuses claims from (1.34+, kubernetes#131844):
/// only a Pod's own metadata counts, never a workload's pod template.
pub(crate) fn is_mirror_pod(obj: &Object) -> bool {
    obj.reference.kind == "Pod"
        && obj.reference.api_version == "v1"
        && get(&obj.root, "metadata")
            .and_then(|m| get(m, "annotations"))
            .and_then(|a| get(a, "kubernetes.io/config.mirror"))
            .is_some()
}

/// How a kind's validation checks its name (its `ValidateNameFunc`).
#[derive(Clone, Copy)]
pub(crate) enum NameFormat {
    /// `NameIsDNSSubdomain`: the DRA kinds, Pods, workloads, ServiceAccounts.
    DnsSubdomain,
    /// `NameIsDNSLabel`: Namespaces.
    DnsLabel,
    /// `path.IsValidPathSegmentName`: the RBAC kinds.
    PathSegment,
    /// `validate.LongName` through `ValidateObjectMetaWithOpts`
    /// (DeviceClass from 1.35): the name only, a generateName is not
    /// checked itself (only the name generated from it).
    LongName,
}

impl NameFormat {
    /// What the name function says of a name (or, `prefix`, a
    /// generateName, its trailing dash masked as `maskTrailingDash` does).
    fn errors(self, name: &str, prefix: bool) -> Vec<String> {
        use crate::name_errors as ne;
        let masked = |n: &str| {
            if prefix {
                masked_prefix(n)
            } else {
                n.to_owned()
            }
        };
        match self {
            NameFormat::DnsSubdomain => ne::dns1123_subdomain(&masked(name)),
            NameFormat::DnsLabel => ne::dns1123_label(&masked(name)),
            NameFormat::PathSegment => ne::path_segment(name, prefix),
            NameFormat::LongName if prefix => Vec::new(),
            NameFormat::LongName => ne::long_name(name),
        }
    }
}

/// `metadata.name` and `metadata.generateName` as `ValidateObjectMetaAccessor`
/// (apimachinery `api/validation/objectmeta.go`) checks them with the
/// kind's name function: a generateName is checked as a prefix
/// (`maskTrailingDash` for DNS names), and without a name the name
/// `SimpleNameGenerator` makes from it (at most 58 bytes of it, then five
/// lower-case letters and digits) is checked again; with neither, the name
/// is Required.
pub(crate) fn check_object_name(obj: &Object, out: &mut Sink<'_>) {
    check_name_as(obj, NameFormat::DnsSubdomain, out);
}

/// [`check_object_name`] with the kind's own name format.
pub(crate) fn check_name_as(obj: &Object, format: NameFormat, out: &mut Sink<'_>) {
    let meta = get(&obj.root, "metadata");
    // Metadata that is not a map fails to decode (DRA-S002); null is empty.
    if meta.is_some_and(|m| !m.is_null() && m.as_map().is_none()) {
        return;
    }
    let field = |key: &str| meta.and_then(|m| entry(m, key));
    let generate = field("generateName")
        .and_then(|e| Some((e, e.value.as_str()?)))
        .filter(|(_, g)| !g.is_empty());
    if let Some((e, g)) = generate {
        for msg in format.errors(g, true) {
            out.report(obj, Invalid, "metadata.generateName", e.value.span, msg);
        }
    }
    let name = field("name");
    match name.map(|e| (e, e.value.as_str())) {
        // Not a string: the decoding rule (DRA-S002) reports it (null
        // decodes to "", which is Required below).
        Some((e, None)) if !e.value.is_null() => {}
        Some((e, Some(n))) if !n.is_empty() => {
            for msg in format.errors(n, false) {
                out.report(obj, Invalid, "metadata.name", e.value.span, msg);
            }
        }
        _ => match generate {
            Some((e, g)) => {
                for msg in format.errors(&generated_name(g), false) {
                    out.report(obj, Invalid, "metadata.name", e.value.span, msg)
                        .note(format!("the apiserver validates the name it generates from {g:?}: its first 58 characters and 5 random ones"));
                }
            }
            None => {
                let span = match (name, meta) {
                    (Some(e), _) => e.value.span,
                    (None, Some(m)) => missing_span(m),
                    (None, None) => missing_span(&obj.root),
                };
                out.report(
                    obj,
                    Required,
                    "metadata.name",
                    span,
                    "name or generateName is required",
                );
            }
        },
    }
}

/// A status written with the object (not null): the registry resets it on
/// create and update, so it is Reset, not an error (the object is
/// accepted, but not stored as written).
pub(crate) fn report_status_discarded(obj: &Object, message: &str, note: &str, out: &mut Sink<'_>) {
    let Some(e) = entry(&obj.root, "status").filter(|e| !e.value.is_null()) else {
        return;
    };
    out.report(obj, Reset, "status", e.key_span, message)
        .note(note);
}

/// `spec: Invalid value: field is immutable` when the file's spec (`new`,
/// as the apiserver compares it) differs from the stored one (`was`), with
/// the first difference; `stored` names the stored object for the note.
pub(crate) fn report_spec_changed(
    obj: &Object,
    new: &serde_json::Value,
    was: &serde_json::Value,
    stored: &str,
    out: &mut Sink<'_>,
) {
    let Some((path, now, before)) = crate::stored::first_difference("spec", new, was) else {
        return;
    };
    let span = entry(&obj.root, "spec").map_or_else(|| missing_span(&obj.root), |e| e.key_span);
    let shown =
        |v: &Option<serde_json::Value>| v.as_ref().map_or("unset".to_owned(), |v| v.to_string());
    out.report(obj, Invalid, "spec", span, "field is immutable")
        .note(format!(
            "{path} is {} in the file and {} in the stored {stored}",
            shown(&now),
            shown(&before)
        ));
}

/// A string field's value as Go decodes it (see [`get_str_or_zero`]).
pub(crate) fn string_or_zero(value: Option<&Node>) -> Option<&str> {
    match value {
        None => Some(""),
        Some(v) if v.is_null() => Some(""),
        Some(v) => v.as_str(),
    }
}

/// A string field as Go decodes it, with where to point: the value, or
/// the parent when the field is missing. `None` for another type.
pub(crate) fn string_field<'a>(
    parent: &'a Node,
    key: &str,
) -> Option<(&'a str, crate::tree::Span)> {
    let value = get(parent, key);
    let name = string_or_zero(value)?;
    Some((name, value.map_or_else(|| missing_span(parent), |v| v.span)))
}

/// `validateDriverName` (`ValidateCSIDriverName`): every error it finds,
/// an empty name both Required and not a DNS subdomain.
pub(crate) fn check_driver_name(
    obj: &Object,
    parent: &Node,
    key: &str,
    path: &str,
    out: &mut Sink<'_>,
) {
    let Some((name, span)) = string_field(parent, key) else {
        return;
    };
    if name.is_empty() {
        out.report(obj, Required, path, span, "a driver name is required");
    }
    for (ty, msg) in driver_name_errors(name) {
        out.report(obj, ty, path, span, msg);
    }
}

/// `ValidateDNS1123Label` on a name field (device, request and subrequest
/// names): a missing name is Go's "", which the pattern refuses, so it is
/// Invalid, not Required (C34-C37 call no Required check first).
pub(crate) fn check_dns_label(
    obj: &Object,
    parent: &Node,
    key: &str,
    path: &str,
    out: &mut Sink<'_>,
) {
    if let Some((name, span)) = string_field(parent, key) {
        report_dns_label(obj, name, span, path, out);
    }
}

/// A name that validation requires first and then checks as a DNS label
/// (counter set names: `validateCounterSet`, `validateDeviceCounterConsumption`).
pub(crate) fn check_required_dns_label(
    obj: &Object,
    parent: &Node,
    key: &str,
    path: &str,
    what: &str,
    out: &mut Sink<'_>,
) {
    match string_field(parent, key) {
        Some(("", span)) => {
            out.report(obj, Required, path, span, format!("{what} is required"));
        }
        Some((name, span)) => report_dns_label(obj, name, span, path, out),
        None => {}
    }
}

/// apimachinery's words for a name that is no DNS label, each with a note
/// saying what the format is, since the messages do not repeat the name.
fn report_dns_label(
    obj: &Object,
    name: &str,
    span: crate::tree::Span,
    path: &str,
    out: &mut Sink<'_>,
) {
    for msg in crate::name_errors::dns1123_label(name) {
        out.report(obj, Invalid, path, span, msg).note(format!(
            "{name:?} must be a DNS label (RFC 1123): at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit"
        ));
    }
}

/// `validatePoolName`: required, at most 253 characters, DNS subdomains
/// separated by '/'.
pub(crate) fn check_pool_name(
    obj: &Object,
    parent: &Node,
    key: &str,
    path: &str,
    out: &mut Sink<'_>,
) {
    let Some((name, span)) = string_field(parent, key) else {
        return;
    };
    // `validatePoolName` (C34-C37): TooLong past 253 characters, and each
    // '/'-separated part's own `ValidateDNS1123Subdomain` errors beside it.
    if name.is_empty() {
        out.report(obj, Required, path, span, "a pool name is required");
        return;
    }
    if name.len() > 253 {
        out.report(obj, TooLong, path, span, "may not be more than 253 bytes");
    }
    for part in name.split('/') {
        for msg in crate::name_errors::dns1123_subdomain(part) {
            out.report(obj, Invalid, path, span, msg);
        }
    }
}

/// Whether a slice says `perDeviceNodeSelection: true`: only then does
/// `validateDevice` look at a device's nodeName, nodeSelector and allNodes
/// (otherwise setting any of them is one Invalid at the device, DRA-V051).
pub(crate) fn per_device_node_selection(obj: &Object) -> bool {
    obj.spec()
        .and_then(|s| get(s, "perDeviceNodeSelection"))
        .and_then(Node::as_bool)
        == Some(true)
}

/// Kubernetes 1.34 validated DRA objects by hand and reported some errors
/// elsewhere than the declarative validation of 1.35+: map key errors at
/// `map[key]`, duplicates at the item's name field, an attribute without a
/// value or an empty name part as Required (validation-releases.md,
/// section 1; C34 fabiendupont/kubernetes@291372b).
pub(crate) fn paths_1_34(cx: &Ctx<'_>) -> bool {
    cx.gates.version < Version::V1_35
}

/// A duplicate's path: the item (1.35+) or its key field (1.34).
pub(crate) fn duplicate_path(cx: &Ctx<'_>, item: String, key: &str) -> String {
    if paths_1_34(cx) {
        format!("{item}.{key}")
    } else {
        item
    }
}

/// A counter name's error path. `validateMap` gives the key check the
/// entry's path, its key shortened past 63 characters (DNS1123LabelMaxLength)
/// in 1.34 and 1.35, and the map's path from 1.36 (C35 galal-hussein/kubernetes@ec20661
/// validateMap ≈56.6k; C36 ≈61.3k; validation-releases.md "Map key errors").
pub(crate) fn map_key_path(cx: &Ctx<'_>, map: String, key: &str) -> String {
    if cx.gates.version <= Version::V1_35 {
        format!(
            "{map}[{}]",
            crate::format::truncated_key(key, crate::format::DNS_LABEL_MAX)
        )
    } else {
        map
    }
}

/// Reports a list longer than `max` as TooMany at the list.
pub(crate) fn check_too_many(
    obj: &Object,
    parent: &Node,
    key: &str,
    // Formatted only when there is a finding: this runs for every device.
    path: std::fmt::Arguments<'_>,
    max: usize,
    what: &str,
    out: &mut Sink<'_>,
) {
    let Some(e) = entry(parent, key) else { return };
    let Some(list) = e.value.as_seq() else { return };
    if list.len() > max {
        out.report(
            obj,
            TooMany,
            path.to_string(),
            e.key_span,
            // field.TooMany's words.
            format!("must have at most {max} items"),
        )
        .label_text(format!("{} {what} here", list.len()));
    }
}

/// The CEL selectors of a class or claim that the apiserver would compile
/// (non-empty, within the length limit), with their compiled form.
#[allow(clippy::type_complexity)]
pub(crate) fn compiled_selectors<'o>(
    cx: &Ctx<'_>,
    obj: &'o Object,
) -> Vec<(
    &'o Node,
    String,
    std::sync::Arc<Result<crate::cel::Program, crate::cel::CompileError>>,
)> {
    cel_selectors(cx.gates.version, obj)
        .into_iter()
        .filter_map(|(n, path)| {
            let expr = n.as_str()?;
            if expr.trim().is_empty() || expr.len() > CEL_MAX_LEN {
                return None;
            }
            let compiled = cx.compile(expr);
            Some((n, path, compiled))
        })
        .collect()
}

pub(crate) use crate::rbac::{Model as RbacModel, PolicyRule, Principal, GROUP};

/// The RBAC picture of the input; `None` when it holds no Role or ClusterRole.
pub(crate) fn rbac_model<'a>(cx: &Ctx<'a>) -> Option<RbacModel<'a>> {
    crate::rbac::has_rbac(cx.objects).then(|| RbacModel::build(cx.objects))
}

/// Whether the granular status checks of 1.36 are on for the target.
pub(crate) fn granular_status_on(cx: &Ctx<'_>) -> bool {
    cx.gates
        .enabled(Gate::DRAResourceClaimGranularStatusAuthorization)
}

/// The drivers the input publishes devices for or selects in classes.
pub(crate) fn published_drivers(cx: &Ctx<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in cx.dra().slices.iter().filter(|s| !s.driver.is_empty()) {
        out.push(s.driver.to_owned());
    }
    for c in cx.of_kind(DeviceClass) {
        for (n, _) in cel_selectors(cx.gates.version, c) {
            if let Some(Ok(p)) = n.as_str().map(|e| cx.compile(e)).as_deref() {
                out.extend(p.driver_literals());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The names of the subjects, for a message: "ServiceAccount a/b and 2 more".
pub(crate) fn principal_names(principals: &[&Principal<'_>]) -> String {
    match principals {
        [] => "a service account bound to this role".to_owned(),
        [a] => a.display(),
        [a, rest @ ..] => format!("{} and {} more", a.display(), rest.len()),
    }
}

/// A rule item of a Role, as YAML to add, indented for a note.
pub(crate) fn grant_yaml(resource: &str, verbs: &[&str], names: &[String]) -> String {
    let mut y = format!(
        "  - apiGroups: [\"{GROUP}\"]\n    resources: [\"{resource}\"]\n    verbs: [{}]",
        verbs
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if !names.is_empty() {
        y.push_str(&format!(
            "\n    resourceNames: [{}]",
            names
                .iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    y
}

/// One entry of a device's `nodeAllocatableResources` (DRANodeAllocatableResources):
/// the device, the resource name, its value and its field path.
pub(crate) struct NodeAllocatable<'a> {
    pub device: &'a Node,
    pub key: &'a str,
    pub key_span: crate::tree::Span,
    pub value: &'a Node,
    pub path: String,
}

/// Every `nodeAllocatableResources` entry of a slice (kept only with the gate on).
pub(crate) fn node_allocatable<'a>(cx: &Ctx<'_>, obj: &'a Object) -> Vec<NodeAllocatable<'a>> {
    let mut out = Vec::new();
    for (i, d) in devices(cx.gates.version, obj) {
        for e in entries(d, "nodeAllocatableResources") {
            out.push(NodeAllocatable {
                device: d,
                key: &e.key,
                key_span: e.key_span,
                value: &e.value,
                path: format!("spec.devices[{i}].nodeAllocatableResources[{}]", e.key),
            });
        }
    }
    out
}

/// The `derivedAttributes` of every request body (DRADerivedAttributes).
pub(crate) fn derived_attributes(v: Version, obj: &Object) -> Vec<(RequestBody<'_>, &[Node])> {
    request_bodies(v, obj)
        .into_iter()
        .filter_map(|b| {
            let list = get(b.node, "derivedAttributes").and_then(Node::as_seq)?;
            Some((b, list))
        })
        .collect()
}

// The stored-state rules (DRA-H, `kubectl dra doctor`) speak only when the
// input holds what they compare against (Nodes, Pods, slices), so linting
// manifests without them stays quiet.

/// Whether the input holds objects of `kind` (a Pod is a Workload whose
/// reference kind is `Pod`).
pub(crate) fn has(cx: &Ctx<'_>, kind: ObjectKind, pods: bool) -> bool {
    let p = cx.present();
    match pods {
        true => p.has_pods,
        false => p.kinds.contains(&kind),
    }
}

/// Whether a Pod named `ns/name` is in the input.
pub(crate) fn pod_exists(cx: &Ctx<'_>, ns: &str, name: &str) -> bool {
    cx.present().pods.contains(&(ns, name))
}

/// Whether the input is a cluster's state rather than manifests: it holds
/// Nodes (`kubectl dra doctor`, a snapshot). Statuses in manifests are
/// discarded on create (DRA-V169), so they are not checked as state.
pub(crate) fn cluster_state(cx: &Ctx<'_>) -> bool {
    has(cx, Node, false)
}

/// `validateDeviceAttributeStringValue`: Go's `len`, so bytes, not characters.
pub(crate) fn check_attribute_string(
    obj: &Object,
    value: &str,
    path: String,
    span: crate::tree::Span,
    out: &mut Sink<'_>,
) {
    if value.len() > MAX_STRING_ATTR {
        out.report(
            obj,
            TooLong,
            path,
            span,
            format!("may not be more than {MAX_STRING_ATTR} bytes"),
        );
    }
}

/// `validateDeviceAttributeVersionValue`: semver and the 64-byte limit, each
/// reported on its own.
pub(crate) fn check_attribute_version(
    obj: &Object,
    value: &str,
    path: String,
    span: crate::tree::Span,
    out: &mut Sink<'_>,
) {
    if !is_semver(value) {
        let d = out.report(
            obj,
            Invalid,
            path.clone(),
            span,
            format!("{value:?}: must be a string compatible with semver.org spec 2.0.0"),
        );
        if let Some(stripped) = value.strip_prefix('v') {
            if is_semver(stripped) {
                d.note(format!("drop the leading 'v': {stripped:?}"));
            }
        }
    }
    check_attribute_string(obj, value, path, span, out);
}
