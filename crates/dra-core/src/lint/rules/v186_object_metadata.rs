//! DRA-V186: invalid object metadata (labels, annotations, owner
//! references, finalizers, namespace, generation).
use super::prelude::*;
use crate::tree::Value;

declare_rule! {
    id: "DRA-V186", name: "invalid-object-metadata", severity: Error, origin: Apiserver,
    summary: "metadata has an invalid label, annotation, owner reference, finalizer, namespace or generation; or the name of a Pod, workload, Namespace, ServiceAccount or RBAC object, or a workload's pod template labels, is invalid",
    docs: "Every object's metadata is checked on create and update by `ValidateObjectMetaAccessor` (apimachinery `api/validation/objectmeta.go`, the same in 1.34-1.37), inside each kind's own validation: label keys and annotation keys must be qualified names (`example.com/name`, annotation keys in any case) and label values at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric; annotations may hold 256 KiB in all; an owner reference needs an apiVersion with a version, a kind, a name and a uid, at most one may be the controller, and an Event may not own anything; finalizers must be qualified names, one without a domain must be `kubernetes`, `orphan` or `foregroundDeletion` (core validation's `validateKubeFinalizerName`, reported at its index), and `orphan` and `foregroundDeletion` exclude each other; a namespace must be a DNS label. A ResourceClaim or template (and an RBAC object, ServiceAccount or Namespace, whose metadata is checked the same way) also keeps the `generation` it is created with, which may not be negative (the other DRA kinds and workloads start at 1). A Pod, workload, ServiceAccount (a DNS subdomain), Namespace (a DNS label) or RBAC object (no `/` or `%`, not `.` or `..`) is also checked for its name, from `generateName` too (a CronJob's at most 52 characters) and, for the built-in workloads, its pod template's labels and annotations, which `ValidatePodTemplateSpec` reports at `spec.template.labels` (no `metadata` in the path). Each finding is reported at the field, without an index, as the apiserver does.",
    example: "metadata:\n  name: gpu-claim\n  labels:\n    team: ml platform\n",
    check: Check::Object(&[ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule, Workload, Namespace, Role, ClusterRole, RoleBinding, ClusterRoleBinding, ServiceAccount], check),
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
/// are created with generation 1 by their `PrepareForCreate`).
const GENERATION_KEPT: &[ObjectKind] = &[
    ResourceClaim,
    ResourceClaimTemplate,
    Namespace,
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    ServiceAccount,
];

/// What `IsQualifiedName` accepts (label and annotation keys, finalizers).
const QUALIFIED_NAME: &str = "an optional DNS subdomain and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric";

/// The most bytes of keys and values `ValidateAnnotationsSize` allows.
const ANNOTATIONS_MAX_BYTES: usize = 256 << 10;

fn check(_: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    // The name first: without any metadata it is Required.
    match obj.kind {
        Workload => workload(obj, out),
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
    labels(obj, meta, "metadata", out);
    annotations(obj, meta, "metadata", out);
    owner_references(obj, meta, out);
    finalizers(obj, meta, out);
}

/// A Pod's or workload's name (`NameIsDNSSubdomain` for every kind, and a
/// CronJob's at most 52 characters: its jobs append 11), and the labels and
/// annotations of a built-in workload's pod template, which
/// `ValidatePodTemplateSpec` reports at `<template>.labels`, without
/// `metadata` (a custom resource's template is its schema's to check).
fn workload(obj: &Object, out: &mut Sink<'_>) {
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
        labels(obj, meta, &path, out);
        annotations(obj, meta, &path, out);
    }
}

/// `ValidateNamespaceName`: a DNS label (an empty namespace is filled in
/// from the request, as kubectl sends it).
fn namespace(obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    if let Some(n) = get(meta, "namespace") {
        if let Some(ns) = n.as_str().filter(|ns| !ns.is_empty() && !is_dns_label(ns)) {
            out.report(
                obj,
                Invalid,
                "metadata.namespace",
                n.span,
                format!("{ns:?} is not a DNS label: lower-case letters, digits and '-', at most 63 characters"),
            );
        }
    }
}

/// `ValidateLabels`: qualified-name keys, label values, reported at
/// `<at>.labels`.
pub(crate) fn labels(obj: &Object, meta: &Node, at: &str, out: &mut Sink<'_>) {
    let path = format!("{at}.labels");
    for l in entries(meta, "labels") {
        if !is_label_key(&l.key) {
            out.report(
                obj,
                Invalid,
                &path,
                l.key_span,
                format!(
                    "{:?} is not a valid label key: {QUALIFIED_NAME}",
                    l.key.as_str()
                ),
            );
        }
        if let Some(v) = l.value.as_str().filter(|v| !is_label_value(v)) {
            out.report(
                obj,
                Invalid,
                &path,
                l.value.span,
                format!("{v:?} is not a valid label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric"),
            );
        }
    }
}

/// `ValidateAnnotations`: keys are qualified names in any case, and all
/// keys and values together at most 256 KiB, reported at `<at>.annotations`.
pub(crate) fn annotations(obj: &Object, meta: &Node, at: &str, out: &mut Sink<'_>) {
    let path = format!("{at}.annotations");
    let mut bytes = 0usize;
    for a in entries(meta, "annotations") {
        bytes += a.key.len() + a.value.as_str().map_or(0, str::len);
        if !is_label_key(&a.key.to_ascii_lowercase()) {
            out.report(
                obj,
                Invalid,
                &path,
                a.key_span,
                format!(
                    "{:?} is not a valid annotation key: {QUALIFIED_NAME}",
                    a.key.as_str()
                ),
            );
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

/// `ValidateOwnerReferences`: each reference's fields (reported without
/// the index), banned owners, and one controller at most.
fn owner_references(obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    const PATH: &str = "metadata.ownerReferences";
    let mut controller: Option<String> = None;
    for r in items(meta, "ownerReferences") {
        if !matches!(r.value, Value::Map(_)) {
            continue;
        }
        let text = |k: &str| get(r, k).and_then(Node::as_str).unwrap_or("");
        let span = |k: &str| get(r, k).map_or_else(|| missing_span(r), |n| n.span);
        let api_version = text("apiVersion");
        let (group, version) = group_version(api_version);
        let kind = text("kind");
        if version.is_empty() {
            out.report(
                obj,
                Invalid,
                format!("{PATH}.apiVersion"),
                span("apiVersion"),
                format!("{api_version:?}: version must not be empty"),
            );
        }
        for key in ["kind", "name", "uid"] {
            if text(key).is_empty() {
                out.report(
                    obj,
                    Invalid,
                    format!("{PATH}.{key}"),
                    span(key),
                    "must not be empty",
                );
            }
        }
        if group.is_empty() && version == "v1" && kind == "Event" {
            out.report(
                obj,
                Invalid,
                PATH,
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
pub(crate) fn qualified_finalizer(obj: &Object, n: &Node, f: &str, path: &str, out: &mut Sink<'_>) {
    if !is_label_key(f) {
        out.report(
            obj,
            Invalid,
            path,
            n.span,
            format!("{f:?} is not a qualified name: {QUALIFIED_NAME}"),
        );
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
            format!("{f:?} is neither a standard finalizer name (kubernetes, orphan, foregroundDeletion) nor fully qualified (domain/name)"),
        );
    }
}

fn finalizers(obj: &Object, meta: &Node, out: &mut Sink<'_>) {
    const PATH: &str = "metadata.finalizers";
    let list = items(meta, "finalizers");
    let names: Vec<(&Node, &str)> = list.iter().filter_map(|n| Some((n, n.as_str()?))).collect();
    for (n, f) in &names {
        qualified_finalizer(obj, n, f, PATH, out);
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
