//! DRA-V226: a container's resource requests and limits.
use super::prelude::*;
use super::v080_request_policy_without_multiple_allocations::{go_amount_of, quantity_of, text_of};
use super::v118_extended_resource_name::is_extended_resource_name;
use crate::tree::{Entry, Span};

declare_rule! {
    id: "DRA-V226", name: "container-resources", severity: Error, origin: Apiserver,
    summary: "A container's resources: a name that is no container resource, a negative or (for an extended resource) fractional quantity, a request above its limit, or an extended resource without an equal limit",
    docs: "Core validation's `validateResourceRequirements`, for every container and init container of a Pod and of the built-in workloads' pod templates. An extended resource (`example.com/gpu`, the names a DeviceClass's `extendedResourceName` serves) cannot be overcommitted: it needs a limit (Required at `resources.limits`), a request must equal it (Invalid at `resources.requests`), and both must be whole numbers (`MilliValue() % 1000`). A native resource's request may not exceed its limit. Names must be `cpu`, `memory`, `ephemeral-storage`, `hugepages-<size>` or a qualified name outside `kubernetes.io/`; quantities may not be negative. A Pod's missing requests are first copied from its limits (`SetDefaults_Pod`; not for templates, which are defaulted when their pods are made), so a fractional limit is reported at both. Hugepages must be a multiple of their page size and come with cpu or memory. Pod-level `spec.resources` is not checked here.",
    example: "containers:\n- name: c\n  image: busybox\n  resources:\n    requests: {example.com/gpu: 1}\n",
    check: Check::Object(WORKLOADS, check),
}

fn check(cx: &Ctx<'_>, obj: &Object, out: &mut Sink<'_>) {
    let (api_version, kind) = (&obj.reference.api_version, &obj.reference.kind);
    // Custom workloads' templates are not validated by core validation
    // when they are created; their controllers' Pods are.
    if crate::schema::workloads::fields_of(api_version, kind).is_none() {
        return;
    }
    let Some(spec) = obj.pod_spec() else { return };
    let pod = kind == "Pod" && api_version == "v1";
    let base = obj.pod_spec_field();
    for list in ["containers", "initContainers"] {
        for (c, container) in items(spec, list).iter().enumerate() {
            let Some(res) = get(container, "resources") else {
                continue;
            };
            let path = format!("{base}.{list}[{c}].resources");
            check_requirements(cx, obj, res, pod, &path, out);
        }
    }
}

/// One resource list entry: its name, its node, and where to report it.
#[derive(Clone, Copy)]
struct Item<'a> {
    name: &'a str,
    value: &'a Node,
    span: Span,
}

fn list<'a>(res: &'a Node, key: &str) -> Vec<Item<'a>> {
    entries(res, key)
        .iter()
        .map(|e: &'a Entry| Item {
            name: e.key.as_str(),
            value: &e.value,
            span: e.key_span,
        })
        .collect()
}

fn check_requirements(
    cx: &Ctx<'_>,
    obj: &Object,
    res: &Node,
    pod: bool,
    path: &str,
    out: &mut Sink<'_>,
) {
    let limits = list(res, "limits");
    let mut requests = list(res, "requests");
    // SetDefaults_Pod: with limits given, each limit without a request
    // becomes the request too.
    if pod && get(res, "limits").is_some_and(|l| l.as_map().is_some()) {
        for l in &limits {
            if !requests.iter().any(|r| r.name == l.name) {
                requests.push(*l);
            }
        }
    }
    let (lim_path, req_path) = (format!("{path}.limits"), format!("{path}.requests"));
    // List-level errors point at the `limits:` / `requests:` key.
    let key_span = |k: &str| entry(res, k).map_or(res.span, |e| e.key_span);
    let (lim_span, req_span) = (key_span("limits"), key_span("requests"));
    let mut cpu_or_memory = false;
    let mut hugepages = false;
    for l in &limits {
        let p = format!("{lim_path}[{}]", l.name);
        check_item(cx, obj, l, &p, out);
        hugepages |= is_hugepages(l.name);
        cpu_or_memory |= matches!(l.name, "cpu" | "memory");
    }
    for r in &requests {
        let p = format!("{req_path}[{}]", r.name);
        check_item(cx, obj, r, &p, out);
        match limits.iter().find(|l| l.name == r.name) {
            Some(l) => {
                let (Some(rq), Some(lq)) = (quantity_of(r.value), quantity_of(l.value)) else {
                    continue;
                };
                if rq != lq && !overcommit_allowed(r.name) {
                    out.report(
                        obj,
                        Invalid,
                        req_path.clone(),
                        req_span,
                        format!("must be equal to {} limit of {}", r.name, text_of(l.value)),
                    )
                    .note(format!(
                        "{} cannot be overcommitted: its request must equal its limit (set the limit alone: a Pod's request is copied from it)",
                        r.name
                    ));
                } else if rq > lq {
                    out.report(
                        obj,
                        Invalid,
                        req_path.clone(),
                        req_span,
                        format!(
                            "must be less than or equal to {} limit of {}",
                            r.name,
                            text_of(l.value)
                        ),
                    );
                }
            }
            None if !overcommit_allowed(r.name) => {
                out.report(
                    obj,
                    Required,
                    lim_path.clone(),
                    lim_span,
                    "Limit must be set for non overcommitable resources",
                )
                .note(format!(
                    "{} has a request and no limit: set `limits: {{{}: N}}` (a Pod's request is copied from it)",
                    r.name, r.name
                ));
            }
            None => {}
        }
        hugepages |= is_hugepages(r.name);
        cpu_or_memory |= matches!(r.name, "cpu" | "memory");
    }
    if hugepages && !cpu_or_memory {
        out.report(
            obj,
            Forbidden,
            path.to_owned(),
            res.span,
            "HugePages require cpu or memory",
        );
    }
}

/// validateContainerResourceName, ValidateResourceQuantityValue and
/// validateResourceQuantityHugePageValue of one entry.
fn check_item(cx: &Ctx<'_>, obj: &Object, item: &Item<'_>, path: &str, out: &mut Sink<'_>) {
    let errors = name_errors(cx.gates.version, item.name);
    let count = errors.len();
    for (i, msg) in errors.into_iter().enumerate() {
        let report = out.report(obj, Invalid, path.to_owned(), item.span, msg);
        if i + 1 == count && !item.name.contains('/') {
            report.note(format!(
                "a device or other extended resource is named with a domain, e.g. \"example.com/{}\"",
                item.name
            ));
        }
    }
    let Some(q) = quantity_of(item.value) else {
        return;
    };
    if q.is_negative() {
        out.report(
            obj,
            Invalid,
            path.to_owned(),
            item.value.span,
            "must be greater than or equal to 0",
        );
    }
    if is_integer_resource(item.name) {
        let whole =
            go_amount_of(item.value).map_or(!q.is_fractional(), |a| a.milli_value() % 1000 == 0);
        if !whole {
            out.report(
                obj,
                Invalid,
                path.to_owned(),
                item.value.span,
                "must be an integer",
            );
        }
    }
    if is_hugepages(item.name) && !hugepage_divisible(item.name, item.value) {
        out.report(
            obj,
            Invalid,
            path.to_owned(),
            item.value.span,
            format!("not a positive integer multiple of {}", item.name),
        );
    }
}

/// validateContainerResourceName: validateResourceName (IsQualifiedName,
/// then a bare name must be a standard resource), then a bare name must
/// be a container resource and a qualified one native or extended.
fn name_errors(v: Version, name: &str) -> Vec<String> {
    let mut out = crate::name_errors::label_key(v, name);
    let bare = !name.contains('/');
    if out.is_empty() && bare && !is_standard_resource(name) {
        out.push("must be a standard resource type or fully qualified".to_owned());
    }
    if bare {
        if !matches!(name, "cpu" | "memory" | "ephemeral-storage") && !is_hugepages(name) {
            out.push("must be a standard resource for containers".to_owned());
        }
    } else if !is_native(name) && !is_extended_resource_name(name) {
        out.push("doesn't follow extended resource name standard".to_owned());
    }
    out
}

/// helpers.go's integerResources: object counts, measured in whole units.
const COUNTS: &[&str] = &[
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "services.nodeports",
    "services.loadbalancers",
];

/// helper.IsStandardResourceName: the standard names (compute, their
/// quota forms, storage and the counts) and the (quota) hugepages prefixes.
fn is_standard_resource(name: &str) -> bool {
    const COMPUTE: &[&str] = &[
        "cpu",
        "memory",
        "ephemeral-storage",
        "requests.cpu",
        "requests.memory",
        "requests.ephemeral-storage",
        "limits.cpu",
        "limits.memory",
        "limits.ephemeral-storage",
        "storage",
        "requests.storage",
    ];
    COMPUTE.contains(&name)
        || COUNTS.contains(&name)
        || is_hugepages(name)
        || name.starts_with("requests.hugepages-")
}

fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// helper.IsNativeResource: unprefixed, or anywhere in kubernetes.io/.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// helper.IsIntegerResourceName.
fn is_integer_resource(name: &str) -> bool {
    COUNTS.contains(&name) || is_extended_resource_name(name)
}

/// helper.IsOvercommitAllowed: native and not hugepages.
fn overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// helper.IsHugePageResourceValueDivisible: the page size parses, is a
/// positive whole number, and divides Value().
fn hugepage_divisible(name: &str, value: &Node) -> bool {
    let Some(size) = GoAmount::parse(&name["hugepages-".len()..]) else {
        return false;
    };
    let Some(q) = go_amount_of(value) else {
        return true;
    };
    let page = size.value();
    let exact = Quantity::parse(&name["hugepages-".len()..]).ok();
    if exact.is_none_or(|s| s <= Quantity::zero()) || size.milli_value() % 1000 != 0 || page == 0 {
        return false;
    }
    q.value() % page == 0
}
