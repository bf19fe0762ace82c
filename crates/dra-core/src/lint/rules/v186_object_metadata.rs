//! DRA-V186: invalid object metadata (labels, annotations, owner
//! references, finalizers, namespace, generation).
use super::prelude::*;
use crate::tree::Value;

declare_rule! {
    id: "DRA-V186", name: "invalid-object-metadata", severity: Error, origin: Apiserver,
    summary: "metadata has an invalid label, annotation, owner reference, finalizer, namespace or generation; or the name of a Pod, workload, Namespace, ServiceAccount or RBAC object, or a workload's pod template labels, is invalid",
    docs: "Every object's metadata is checked on create and update by `ValidateObjectMetaAccessor` (apimachinery `api/validation/objectmeta.go`, the same in 1.34-1.36; 1.37 changed the owner references), inside each kind's own validation: label keys and annotation keys must be qualified names (`example.com/name`, annotation keys in any case) and label values at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric; annotations may hold 256 KiB in all; an owner reference needs an apiVersion with a version, a kind, a name and a uid (up to 1.36 each missing one is Invalid, reported without the reference's index; apimachinery 1.37, v0.37.0-beta.0, reports them at `ownerReferences[i]`, an empty one Required and a version-less apiVersion \"must be <group>/<version> or <version>\"), at most one may be the controller, and an Event may not own anything; finalizers must be qualified names, one without a domain must be `kubernetes`, `orphan` or `foregroundDeletion` (core validation's `validateKubeFinalizerName`, reported at its index), and `orphan` and `foregroundDeletion` exclude each other; a namespace must be a DNS label. A ResourceClaim or template (and an RBAC object, ServiceAccount or Namespace, whose metadata is checked the same way) also keeps the `generation` it is created with, which may not be negative (the other DRA kinds and workloads start at 1). A Pod, workload, ServiceAccount (a DNS subdomain), Namespace (a DNS label) or RBAC object (no `/` or `%`, not `.` or `..`) is also checked for its name, from `generateName` too (a CronJob's at most 52 characters) and, for the built-in workloads, its pod template's labels and annotations, which `ValidatePodTemplateSpec` reports at `spec.template.labels` (no `metadata` in the path). Each finding is reported at the field, without an index (owner references in 1.37 aside), as the apiserver does; each message is apimachinery's own for the release (`IsQualifiedName` says \"a qualified name\" and counts characters in 1.34, \"a valid label key\" and bytes from 1.35).",
    example: "metadata:\n  name: gpu-claim\n  labels:\n    team: ml platform\n",
    check: Check::Object(&[ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, ResourcePoolStatusRequest, Workload, Namespace, Role, ClusterRole, RoleBinding, ClusterRoleBinding, ServiceAccount], check),
}

/// The kinds whose objects live in a namespace (the others have theirs
/// cleared before validation: `rest.BeforeCreate`).
const NAMESPACED: &[ObjectKind] = &[
    ResourceClaim,
    ResourceClaimTemplate,
    Workload,
    Role,
    RoleBinding,
    ServiceAccount,
];

/// The kinds whose strategy keeps the generation a client sends on create
/// (DeviceClass, ResourceSlice, DeviceTaintRule, Pods and the workloads
/// are created with generation 1 by their `PrepareForCreate`; a
/// ResourcePoolStatusRequest's resets only its status).
const GENERATION_KEPT: &[ObjectKind] = &[
    ResourceClaim,
    ResourceClaimTemplate,
    ResourcePoolStatusRequest,
    Namespace,
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    ServiceAccount,
];

/// The most bytes of keys and values `ValidateAnnotationsSize` allows.
const ANNOTATIONS_MAX_BYTES: usize = 256 << 10;

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let v = cx.gates.version;
    // The name first: without any metadata it is Required.
    match obj.kind {
        Workload => workload(v, obj, out),
        Namespace => check_name_as(obj, NameFormat::DnsLabel, out),
        ServiceAccount => check_name_as(obj, NameFormat::DnsSubdomain, out),
        Role | ClusterRole | RoleBinding | ClusterRoleBinding => {
            check_name_as(obj, NameFormat::PathSegment, out)
        }
        _ => {}
    }
    let Some(meta) = get(&obj.root, "metadata") else {
        return;
    };
    if NAMESPACED.contains(&obj.kind) {
        namespace(obj, meta, out);
    }
    if GENERATION_KEPT.contains(&obj.kind) {
        if let Some(g) = get(meta, "generation").filter(|g| g.as_i64().is_some_and(|g| g < 0)) {
            out.report(
                obj,
                Invalid,
                "metadata.generation",
                g.span,
                "must be greater than or equal to 0",
            );
        }
    }
    labels(v, obj, meta, "metadata", out);
    annotations(v, obj, meta, "metadata", out);
    owner_references(v, obj, meta, out);
    finalizers(v, obj, meta, out);
}

/// A Pod's or workload's name (`NameIsDNSSubdomain` for every kind, and a
/// CronJob's at most 52 characters: its jobs append 11), and the labels and
/// annotations of a built-in workload's pod template, which
/// `ValidatePodTemplateSpec` reports at `<template>.labels`, without
/// `metadata` (a custom resource's template is its schema's to check).
fn workload(v: Version, obj: &Object, out: &mut Sink<'_>) {
    check_object_name(obj, out);
    let api = obj.reference.api_version.as_str();
    if obj.reference.kind == "CronJob" && api == "batch/v1" {
        if let Some(n) = get(&obj.root, "metadata").and_then(|m| get(m, "name")) {
            if n.as_str().is_some_and(|name| name.len() > 52) {
                out.report(
                    obj,
                    Invalid,
                    "metadata.name",
                    n.span,
                    "must be no more than 52 characters",
                );
            }
        }
    }
    if !matches!(api, "v1" | "apps/v1" | "batch/v1") {
        return;
    }
    // A Pod's spec is at `spec`: it has no template.
    let Some((_, template_path)) = obj
        .pod_spec_path
        .split_last()
        .filter(|(_, t)| !t.is_empty())
    else {
        return;
    };
    let template = template_path
        .iter()
        .try_fold(&obj.root, |node, key| get(node, key));
    if let Some(meta) = template.and_then(|t| get(t, "metadata")) {
        let path = template_path.join(".");
        labels(v, obj, meta, &path, out);
        annotations(v, obj, meta, &path, out);
    }
}

/// `ValidateNamespaceName`: a DNS label (an empty namespace is filled in
/// from the request, as kubectl sends it).
fn namespace(obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    if let Some(n) = get(meta, "namespace") {
        if let Some(ns) = n.as_str().filter(|ns| !ns.is_empty()) {
            for msg in crate::name_errors::dns1123_label(ns) {
                out.report(obj, Invalid, "metadata.namespace", n.span, msg);
            }
        }
    }
}

/// `ValidateLabels`: qualified-name keys, label values, reported at
/// `<at>.labels`.
pub(crate) fn labels(v: Version, obj: &Object, meta: &Node, at: &str, out: &mut Sink<'_>) {
    use crate::name_errors::{label_key, label_value};
    let path = format!("{at}.labels");
    for l in entries(meta, "labels") {
        for msg in label_key(v, &l.key) {
            out.report(obj, Invalid, &path, l.key_span, msg);
        }
        for msg in l
            .value
            .as_str()
            .map(|s| label_value(v, s))
            .unwrap_or_default()
        {
            out.report(obj, Invalid, &path, l.value.span, msg);
        }
    }
}

/// `ValidateAnnotations`: keys are qualified names in any case, and all
/// keys and values together at most 256 KiB, reported at `<at>.annotations`.
pub(crate) fn annotations(v: Version, obj: &Object, meta: &Node, at: &str, out: &mut Sink<'_>) {
    let path = format!("{at}.annotations");
    let mut bytes = 0usize;
    for a in entries(meta, "annotations") {
        bytes += a.key.len() + a.value.as_str().map_or(0, str::len);
        for msg in crate::name_errors::label_key(v, &a.key.to_ascii_lowercase()) {
            out.report(obj, Invalid, &path, a.key_span, msg);
        }
    }
    if bytes > ANNOTATIONS_MAX_BYTES {
        if let Some(e) = entry(meta, "annotations") {
            out.report(
                obj,
                TooLong,
                &path,
                e.key_span,
                format!("may not be more than {ANNOTATIONS_MAX_BYTES} bytes"),
            )
            .note(format!(
                "the annotations hold {bytes} bytes (keys and values)"
            ));
        }
    }
}

/// `ValidateOwnerReferences`: each reference's fields, banned owners, and
/// one controller at most. Up to 1.36 a reference's errors are reported
/// without its index and an empty field is Invalid ("must not be empty",
/// the version "version must not be empty"); apimachinery 1.37
/// (v0.37.0-beta.0, d8186ee8 and 35f307f3) indexes them, makes an empty
/// field Required and a version-less apiVersion "must be <group>/<version>
/// or <version>". The controller error stays at the list in both.
fn owner_references(v: Version, obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    const PATH: &str = "metadata.ownerReferences";
    let v137 = v >= Version::V1_37;
    let mut controller: Option<String> = None;
    for (i, r) in items(meta, "ownerReferences").iter().enumerate() {
        if !matches!(r.value, Value::Map(_)) {
            continue;
        }
        let at = if v137 {
            format!("{PATH}[{i}]")
        } else {
            PATH.to_owned()
        };
        let text = |k: &str| get(r, k).and_then(Node::as_str).unwrap_or("");
        let span = |k: &str| get(r, k).map_or_else(|| missing_span(r), |n| n.span);
        let api_version = text("apiVersion");
        let (group, version) = group_version(api_version);
        let kind = text("kind");
        if v137 && api_version.is_empty() {
            out.report(
                obj,
                Required,
                format!("{at}.apiVersion"),
                span("apiVersion"),
                "must not be empty",
            );
        } else if version.is_empty() {
            let msg = if v137 {
                "must be <group>/<version> or <version>"
            } else {
                "version must not be empty"
            };
            out.report(
                obj,
                Invalid,
                format!("{at}.apiVersion"),
                span("apiVersion"),
                msg,
            );
        }
        let empty = if v137 { Required } else { Invalid };
        for key in ["kind", "name", "uid"] {
            if text(key).is_empty() {
                out.report(
                    obj,
                    empty,
                    format!("{at}.{key}"),
                    span(key),
                    "must not be empty",
                );
            }
        }
        if group.is_empty() && version == "v1" && kind == "Event" {
            out.report(
                obj,
                Invalid,
                at.clone(),
                r.span,
                "/v1, Kind=Event is disallowed from being an owner",
            );
        }
        if get(r, "controller").and_then(Node::as_bool) == Some(true) {
            let this = format!("{kind}/{}", text("name"));
            match &controller {
                Some(first) => {
                    out.report(
                        obj,
                        Invalid,
                        PATH,
                        span("controller"),
                        format!("Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"),
                    );
                }
                None => controller = Some(this),
            }
        }
    }
}

/// `schema.ParseGroupVersion` as `FromAPIVersionAndKind` uses it: a value
/// with more than one `/` parses to nothing (no version).
fn group_version(api_version: &str) -> (&str, &str) {
    if api_version == "/" {
        return ("", "");
    }
    match api_version.matches('/').count() {
        0 => ("", api_version),
        1 => api_version.split_once('/').unwrap_or(("", "")),
        _ => ("", ""),
    }
}

/// The finalizers a name without a domain may be (core/helper
/// `IsStandardFinalizerName`).
const STANDARD_FINALIZERS: &[&str] = &["kubernetes", "orphan", "foregroundDeletion"];

/// `ValidateFinalizers`: qualified names, and not both ways of deleting
/// dependents; then core validation's `ValidateObjectMeta` (every kind here
/// goes through it, or its `WithOpts` twin) adds `validateKubeFinalizerName`
/// for each entry, at its index: a name without a '/' must be a standard one.
/// apimachinery `ValidateFinalizerName`: a qualified name.
pub(crate) fn qualified_finalizer(
    v: Version,
    obj: &Object,
    n: &Node,
    f: &str,
    path: &str,
    out: &mut Sink<'_>,
) {
    for msg in crate::name_errors::label_key(v, f) {
        out.report(obj, Invalid, path, n.span, msg);
    }
}

/// Core validation's `validateKubeFinalizerName`: a name without a domain
/// must be a standard one.
pub(crate) fn standard_finalizer(obj: &Object, n: &Node, f: &str, path: &str, out: &mut Sink<'_>) {
    if !f.contains('/') && !STANDARD_FINALIZERS.contains(&f) {
        out.report(
            obj,
            Invalid,
            path,
            n.span,
            format!("{f:?}: name is neither a standard finalizer name nor is it fully qualified"),
        )
        .note("the standard finalizers are kubernetes, orphan and foregroundDeletion; others need a domain, e.g. example.com/cleanup");
    }
}

fn finalizers(v: Version, obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    const PATH: &str = "metadata.finalizers";
    let list = items(meta, "finalizers");
    let names: Vec<(&Node, &str)> = list.iter().filter_map(|n| Some((n, n.as_str()?))).collect();
    for (n, f) in &names {
        qualified_finalizer(v, obj, n, f, PATH, out);
    }
    for (i, n) in list.iter().enumerate() {
        if let Some(f) = n.as_str() {
            standard_finalizer(obj, n, f, &format!("{PATH}[{i}]"), out);
        }
    }
    let has = |x: &str| names.iter().any(|(_, f)| *f == x);
    if has("orphan") && has("foregroundDeletion") {
        if let Some(e) = entry(meta, "finalizers") {
            out.report(
                obj,
                Invalid,
                PATH,
                e.key_span,
                "finalizer orphan and foregroundDeletion cannot be both set",
            );
        }
    }
}
