//! `kubectl dra explain claim CLAIM... -f PATH... [--node NODE]` and
//! `explain pod`: the scheduler's verdict first (fits where, or why not, by
//! cause, or the error that stops the whole attempt), then the detail.

mod add_nodes;
mod extended_nodes;
mod pods;
mod selector_misses;
mod shapes;
mod summary;
mod text;

pub use pods::run_pods;

use dra_core::allocate::{self, Outcome};
use dra_core::dra::{self, NodeSelection};
use dra_core::model::{Object, ObjectKind};
use dra_core::prefilter::{self, PodClaimRef, Unresolved};
use dra_core::tree::Node;
use dra_core::volumes;
use serde_json::{json, Value};

use crate::cli::{ExplainClaimArgs, ExplainCommon, ExplainPodArgs, MatchOutput};
use crate::cluster::Needs;
use crate::commands::source::{self, Inventory};
use crate::Outcome as CmdOutcome;
use dra_core::scheduling::{NodeFit, PodConstraints};
use summary::{Summary, Words};

/// Every node the inventory mentions: Node objects and slice node names.
fn nodes(objects: &[Object]) -> Vec<String> {
    let mut out: Vec<String> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(|o| o.name().map(str::to_owned))
        .collect();
    // A set: a scan per slice made 100,000 slices quadratic.
    let mut seen: std::collections::HashSet<String> = out.iter().cloned().collect();
    for s in slices(objects) {
        let mut names: Vec<&str> = Vec::new();
        if let NodeSelection::Node(n) = s.selection {
            names.push(n);
        }
        // Devices are decoded only for slices that select per device.
        for d in s.devices().iter().filter(|_| s.per_device()) {
            if let NodeSelection::Node(n) = d.selection {
                names.push(n);
            }
        }
        for n in names {
            if !seen.contains(n) {
                seen.insert(n.to_owned());
                out.push(n.to_owned());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The ResourceSlices, typed (devices decoded when read).
fn slices(objects: &[Object]) -> impl Iterator<Item = dra::Slice<'_>> {
    objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
        .map(dra::Slice::decode)
}

fn node_json(
    node: &str,
    claims: &[&Object],
    outcome: &Outcome,
    advice: &[dra_core::verdict::Advice],
) -> Value {
    let advice_text: Vec<&str> = advice.iter().map(|a| a.text.as_str()).collect();
    let claim_json = |o: &Object, allocation: Value, explanation: Value| {
        json!({
            "namespace": o.namespace_or_default(),
            "name": o.name().unwrap_or_default(),
            "allocation": allocation,
            "explanation": explanation,
        })
    };
    match outcome {
        Outcome::Allocated { claims: allocs } => json!({
            "node": node, "result": "allocated", "error": null,
            "claims": claims.iter().zip(allocs).map(|(o, a)| claim_json(o, {
                let mut v = json!({"devices": {"results": a.results}, "nodeSelector": a.node_selector});
                if !a.config.is_empty() {
                    v["devices"]["config"] = json!(a.config);
                }
                if a.existing {
                    v["alreadyAllocated"] = json!(true);
                    v["reservedFor"] = json!(a.reserved_for);
                }
                v
            }, json!({"devices": a.results.iter().map(|r| format!("{}/{}/{}", r.driver, r.pool, r.device)).collect::<Vec<_>>()}))).collect::<Vec<_>>(),
        }),
        Outcome::Unsatisfiable {
            reasons,
            funnels,
            constraints,
        } => json!({
            "node": node, "result": "unsatisfiable", "error": null, "advice": advice_text, "adviceDetail": advice,
            "claims": claims.iter().map(|o| {
                let me = format!("{}/{}", o.namespace_or_default(), o.name().unwrap_or_default());
                let mine: Vec<_> = funnels.iter().filter(|f| f.claim == me).collect();
                let blocked: Vec<_> = constraints.iter().filter(|c| c.claim == me).collect();
                claim_json(o, Value::Null, json!({"reasons": reasons, "requests": mine, "constraints": blocked}))
            }).collect::<Vec<_>>(),
        }),
        Outcome::Error {
            error,
            device,
            search,
            ..
        } => json!({
            "node": node, "result": "error", "error": error, "device": device, "search": search,
            "claims": claims.iter().map(|o| claim_json(o, Value::Null, json!({"error": error}))).collect::<Vec<_>>(),
        }),
        Outcome::Undecided { reason } => json!({
            "node": node, "result": "undecided", "error": null, "reason": reason,
        }),
    }
}

/// The inventory, from `-f` or the cluster; `pod` is read too when set.
fn load(common: &ExplainCommon, pod: Option<&str>) -> Result<Inventory, String> {
    let mut inv = load_inventory(common, pod)?;
    source::what_if(&mut inv.objects, &common.what_if)?;
    if common.output == MatchOutput::Text {
        one_line_names(&mut inv.objects);
    }
    Ok(inv)
}

/// Line breaks in the names and values of the objects, escaped (`\n`) for
/// text output, where each cause is one line: a name with a line break (no
/// valid object has one; a hostile file may) would otherwise forge lines.
/// Free text that may span lines is left as it is: CEL expressions (their
/// errors point into them), opaque parameters, annotations, messages.
/// Equal names stay equal, so the verdict is the same.
fn one_line_names(objects: &mut [Object]) {
    fn escape(s: &str) -> dra_core::tree::Value {
        dra_core::tree::Value::Str(s.replace('\r', "\\r").replace('\n', "\\n").into())
    }
    /// Free text, left as it is.
    fn free(key: &str) -> bool {
        matches!(key, "expression" | "parameters" | "annotations" | "message")
    }
    fn broken(s: &str) -> bool {
        s.contains(['\n', '\r'])
    }
    /// Whether `walk` would change anything: a list is copied only then,
    /// since lists may be shared (`dra_core::share`).
    fn breaks(n: &Node) -> bool {
        use dra_core::tree::Value;
        match &n.value {
            Value::Str(s) => broken(s),
            Value::Seq(items) => items.iter().any(breaks),
            Value::Map(entries) => entries
                .iter()
                .any(|e| broken(&e.key) || (!free(&e.key) && breaks(&e.value))),
            _ => false,
        }
    }
    fn walk(n: &mut Node) {
        use dra_core::tree::Value;
        if !breaks(n) {
            return;
        }
        match &mut n.value {
            Value::Str(s) => n.value = escape(s),
            Value::Seq(items) => dra_core::tree::items_mut(items).iter_mut().for_each(walk),
            Value::Map(entries) => {
                for e in dra_core::tree::items_mut(entries) {
                    if broken(&e.key) {
                        e.key = e.key.replace('\r', "\\r").replace('\n', "\\n").into();
                    }
                    if !free(&e.key) {
                        walk(&mut e.value);
                    }
                }
            }
            _ => {}
        }
    }
    let one = |s: &mut Option<String>| {
        if let Some(v) = s.as_mut().filter(|v| v.contains(['\n', '\r'])) {
            *v = v.replace('\r', "\\r").replace('\n', "\\n");
        }
    };
    for o in objects {
        walk(&mut o.root);
        one(&mut o.reference.name);
        one(&mut o.reference.namespace);
    }
}

/// The inventory with what `needs` asks of a cluster (`explain pods`).
fn load_with(
    common: &ExplainCommon,
    needs: impl FnOnce(&str) -> Needs,
) -> Result<Inventory, String> {
    let mut inv = source::load(
        &common.files,
        &common.cluster,
        &common.target,
        common.namespace.as_deref(),
        needs,
        common.output == MatchOutput::Text,
    )?;
    if common.output == MatchOutput::Text {
        one_line_names(&mut inv.objects);
    }
    Ok(inv)
}

fn load_inventory(common: &ExplainCommon, pod: Option<&str>) -> Result<Inventory, String> {
    source::load(
        &common.files,
        &common.cluster,
        &common.target,
        common.namespace.as_deref(),
        |ns| {
            // `explain pod NS/NAME`: the pod's namespace, not the context's,
            // holds its templates and claims.
            let pod = pod.map(|p| match p.split_once('/') {
                Some((pns, name)) => (pns.to_owned(), name.to_owned()),
                None => (ns.to_owned(), p.to_owned()),
            });
            let ns = pod.as_ref().map_or(ns, |(pns, _)| pns.as_str());
            // A bound pod the kubelet cannot start (its driver's plugin).
            let prepare_events = pod.as_ref().map(|(pns, _)| pns.clone());
            let volumes = prepare_events.clone();
            Needs {
                slices: true,
                classes: true,
                claims: true,
                claims_namespace: Some(ns.to_owned()),
                templates: pod.as_ref().map(|_| ns.to_owned()),
                nodes: true,
                taint_rules: true,
                // NodeResourcesFit: what the pods running on each node take.
                bound_pods: pod.is_some(),
                pod,
                pods: None,
                // VolumeBinding and VolumeZone, if the pod has PVC volumes.
                volumes,
                prepare_events,
            }
        },
        common.output == MatchOutput::Text,
    )
}

fn place(inv: &Inventory) -> &'static str {
    if inv.live.is_some() {
        "the cluster"
    } else {
        "the files given"
    }
}

fn find<'a>(
    objects: &'a [Object],
    kind: ObjectKind,
    what: &str,
    ns: &str,
    name: &str,
    place: &str,
) -> Result<&'a Object, String> {
    objects
        .iter()
        .find(|o| o.kind == kind && o.name() == Some(name) && o.namespace_or_default() == ns)
        .ok_or_else(|| format!("no {what} {ns}/{name} in {place}"))
}

pub fn run(args: &ExplainClaimArgs) -> Result<CmdOutcome, String> {
    let inv = load(&args.common, None)?;
    let (gates, objects, place) = (&inv.gates, &inv.objects, place(&inv));
    let mut claims = Vec::new();
    for c in &args.claims {
        let (ns, name) = c.split_once('/').unwrap_or((&inv.namespace, c));
        claims.push(find(
            objects,
            ObjectKind::ResourceClaim,
            "ResourceClaim",
            ns,
            name,
            place,
        )?);
    }
    // kube-scheduler's PreFilter checks the claims' classes before it
    // allocates: a stop there is the verdict on every node.
    if let Some(stop) = prefilter::class_checks(&claims, objects, gates).filter(|s| !s.error) {
        let names: Vec<String> = claims
            .iter()
            .map(|c| {
                format!(
                    "{}/{}",
                    c.namespace_or_default(),
                    c.name().unwrap_or_default()
                )
            })
            .collect();
        let names = format!("Claim {}", names.join(", "));
        let out = pre_filter_report(&args.common, &names, objects, &claims, stop, None);
        std::mem::forget(inv);
        return Ok(out);
    }
    let none = extended_nodes::PerNode::default();
    let out = report(
        &args.common,
        gates,
        objects,
        &claims,
        None,
        None,
        extended_nodes::Extended {
            requests: &[],
            per_node: &none,
            more_sets: &[],
        },
    );
    drop(claims);
    // The process exits right after printing: freeing a tree of millions of
    // nodes one by one would only cost time.
    std::mem::forget(inv);
    out
}

/// `explain pod`: the pod's claims in `spec.resourceClaims` order; a
/// template's claim is built as the resourceclaim controller would
/// (`<pod>-<claim>`), unless it already exists in `status.resourceClaimStatuses`.
pub fn run_pod(args: &ExplainPodArgs) -> Result<CmdOutcome, String> {
    let inv = load(&args.common, Some(&args.pod))?;
    let out = pod_report(&args.common, &inv, &args.pod, None);
    // The process exits right after printing: freeing a tree of millions of
    // nodes one by one would only cost time.
    std::mem::forget(inv);
    out
}

/// Where a pod's claim comes from, in `spec.resourceClaims` order.
enum PodClaimAt {
    /// A stored claim by name, and whether the pod's template made it (the
    /// pod must then own it).
    Stored(String, bool),
    /// Made up here, by index into the claims built from templates.
    Made(usize),
    /// resourceclaim.Name's error: the pod claim names neither source.
    Unnamed(String),
    /// From a template that does not exist: no claim is ever made.
    NotCreated(String),
}

/// `explain pod` on an inventory already read (`explain pods` asks it for
/// each pending pod).
fn pod_report(
    common: &ExplainCommon,
    inv: &Inventory,
    pod: &str,
    usage: Option<&dra_core::node_fit::NodeUsage>,
) -> Result<CmdOutcome, String> {
    let (gates, objects, place) = (&inv.gates, &inv.objects, place(inv));
    let (ns, name) = pod.split_once('/').unwrap_or((&inv.namespace, pod));
    let pod = objects
        .iter()
        .find(|o| {
            o.kind == ObjectKind::Workload
                && o.reference.kind == "Pod"
                && o.name() == Some(name)
                && o.namespace_or_default() == ns
        })
        .ok_or_else(|| format!("no Pod {ns}/{name} in {place}"))?;
    pod.pod_spec().ok_or("the Pod has no spec")?;
    let mut generated: Vec<Node> = Vec::new();
    // Each claim in `spec.resourceClaims` order, as PreFilter's
    // foreachPodResourceClaim meets them.
    let mut order: Vec<PodClaimAt> = Vec::new();
    for c in dra::PodClaims::decode(pod).claims {
        let pod_claim = c.name;
        match (c.source, c.generated) {
            (dra::PodClaimSource::Claim(claim_name), _) => {
                order.push(PodClaimAt::Stored(claim_name.to_owned(), false))
            }
            (dra::PodClaimSource::Template(_), Some(existing)) => {
                order.push(PodClaimAt::Stored(existing.to_owned(), true))
            }
            // resourceclaim.Name's error for a pod claim naming neither.
            (dra::PodClaimSource::Unset, _) => order.push(PodClaimAt::Unnamed(format!(
                "pod \"{ns}/{name}\", spec.resourceClaim {pod_claim:?}: none of the supported fields are set"
            ))),
            // Recorded without a claim: none was needed; the scheduler
            // skips it.
            (dra::PodClaimSource::Template(_), None) if c.recorded => {}
            (dra::PodClaimSource::Template(t), None) => {
                let found = objects.iter().find(|o| {
                    o.kind == ObjectKind::ResourceClaimTemplate
                        && o.name() == Some(t)
                        && o.namespace_or_default() == ns
                });
                let Some(template) = found else {
                    // The resourceclaim controller cannot make the claim, so
                    // the scheduler finds none (resourceclaim.Name's
                    // ErrClaimNotFound) for as long as the template is missing.
                    order.push(PodClaimAt::NotCreated(t.to_owned()));
                    continue;
                };
                // The claim the resourceclaim controller creates: the
                // template's spec as it is (its tree, spans and all).
                let mut root: Node = serde_json::from_value(json!({
                    "metadata": {"name": format!("{name}-{pod_claim}"), "namespace": ns},
                }))
                .map_err(|e| e.to_string())?;
                if let Some(spec) = template.spec().and_then(|s| s.get("spec")) {
                    root.insert_back("spec", spec.clone());
                }
                order.push(PodClaimAt::Made(generated.len()));
                generated.push(root);
            }
        }
    }
    // The pod's own claims come first; the extended-resource one is the
    // scheduler's, which a pod that bypasses it never gets.
    let own_claims = order.len();
    // Extended resources backed by DRA: the scheduler's made-up claim, last.
    if let Some(claim) = dra_core::extended::extended_resource_claim(pod, objects, gates) {
        order.push(PodClaimAt::Made(generated.len()));
        generated.push(serde_json::from_value(claim).map_err(|e| e.to_string())?);
    }
    // The made-up claim as nodes whose device plugin serves part of it
    // need it (filterExtendedResources builds it per node).
    let full = dra_core::extended::backed_resources(pod, objects, gates);
    // What the pods bound to each node take (NodeInfo.Requested); `explain
    // pods` reads it once for all the pods it decides.
    let own_usage;
    let usage = match usage {
        Some(u) => u,
        None => {
            own_usage = dra_core::node_fit::NodeUsage::of(objects, gates);
            &own_usage
        }
    };
    // VolumeBinding's and VolumeZone's PreFilter (before DRA's), and their
    // Filter on each node (after NodeResourcesFit's).
    // Read of the objects only for a pod with a PVC volume (`explain pods`
    // asks for each pending pod).
    let storage = (!volumes::pod_claims(pod).is_empty()).then(|| volumes::Storage::of(objects));
    let volume_check = storage
        .as_ref()
        .and_then(|s| source::volume_check(inv, pod, s));
    let (volume_stop, volume_filter) = match volume_check {
        Some(Err(stop)) => (Some(stop), None),
        Some(Ok(filter)) => (None, filter),
        None => (None, None),
    };
    let per_node = extended_nodes::PerNode::of(
        pod,
        objects,
        gates,
        &full,
        own_claims > 0,
        usage,
        volume_filter.as_ref(),
    );
    let variants: Vec<Object> = per_node
        .sets
        .iter()
        .enumerate()
        .map(|(i, set)| {
            let claim = dra_core::extended::extended_resource_claim_for(pod, objects, gates, set);
            let root: Node = serde_json::from_value(claim).map_err(|e| e.to_string())?;
            dra_core::model::object_from_node(
                usize::MAX,
                generated.len() + i,
                root,
                "resource.k8s.io/v1",
                "ResourceClaim",
            )
            .ok_or_else(|| "the extended-resource claim did not decode".to_owned())
        })
        .collect::<Result<_, String>>()?;
    let generated: Vec<Object> = generated
        .into_iter()
        .enumerate()
        .filter_map(|(i, root)| {
            dra_core::model::object_from_node(
                usize::MAX,
                i,
                root,
                "resource.k8s.io/v1",
                "ResourceClaim",
            )
        })
        .collect();
    let mut claims = Vec::new();
    let mut refs = Vec::new();
    let mut own_found = 0;
    for (i, o) in order.iter().enumerate() {
        let found = match o {
            PodClaimAt::Stored(claim_name, from_template) => objects
                .iter()
                .find(|o| {
                    o.kind == ObjectKind::ResourceClaim
                        && o.name() == Some(claim_name)
                        && o.namespace_or_default() == ns
                })
                .map(|claim| (claim, true, *from_template))
                // The scheduler's claim cache (assumecache.NotFoundError):
                // the pod waits at PreFilter until the claim exists.
                .ok_or_else(|| Unresolved::NotFound(ns.to_owned(), claim_name.clone())),
            PodClaimAt::Made(i) => Ok((
                generated
                    .get(*i)
                    .ok_or("a template did not produce a claim")?,
                false,
                false,
            )),
            PodClaimAt::Unnamed(why) => Err(Unresolved::Unnamed(why.clone())),
            PodClaimAt::NotCreated(template) => Err(Unresolved::TemplateMissing(template.clone())),
        };
        let (claim, stored, from_template) = match found {
            Ok(found) => found,
            Err(why) => {
                refs.push(PodClaimRef {
                    claim: Err(why),
                    stored: false,
                    from_template: false,
                });
                continue;
            }
        };
        if i < own_claims {
            own_found += 1;
        }
        claims.push(claim);
        refs.push(PodClaimRef {
            claim: Ok(claim),
            stored,
            from_template,
        });
    }
    let own_claims = own_found;
    // Created with spec.nodeName: the scheduler never sees it (nor runs its
    // PreFilter); what it would do is still shown, for nodeSelector instead.
    let bypass = prefilter::bypassed(pod, &claims[..own_claims.min(claims.len())]);
    let stop = prefilter::prefilter(pod, &refs, objects, gates);
    // The DRA plugin's PreEnqueue checks come before any PreFilter; its
    // PreFilter after VolumeBinding's and VolumeZone's (the profile's order).
    let stop = match stop {
        Some(s) if s.kind.pre_enqueue() => Some(s),
        dra_stop => volume_stop
            .map(|v| prefilter::Stop {
                message: v.message,
                error: false,
                kind: prefilter::StopKind::Volumes(v.claim),
            })
            .or(dra_stop),
    }
    .filter(|_| bypass.is_none());
    if let Some(stop) = stop {
        let names = if claims.is_empty() {
            format!("Pod {ns}/{name}")
        } else {
            format!("Pod {ns}/{name} ({})", text::claim_names(&claims))
        };
        return Ok(pre_filter_report(
            common,
            &names,
            objects,
            &claims,
            stop,
            Some(pod),
        ));
    }
    if claims.is_empty() {
        let out = unbacked_report(common, &format!("Pod {ns}/{name}"), pod, objects, gates);
        return out;
    }
    let extended = dra_core::extended::extended_requests(pod, objects, gates);
    // The other claim sets: the made-up claim (last) as those nodes need it.
    let more_sets: Vec<Vec<&Object>> = variants
        .iter()
        .map(|v| {
            let mut set = claims.clone();
            if let Some(last) = set.last_mut() {
                *last = v;
            }
            set
        })
        .collect();
    let out = report(
        common,
        gates,
        objects,
        &claims,
        Some(pod),
        bypass,
        extended_nodes::Extended {
            requests: &extended,
            per_node: &per_node,
            more_sets: &more_sets,
        },
    );
    drop((claims, extended, more_sets));
    out
}

/// A pod without claims: an extended resource that no DeviceClass backs
/// and no node advertises keeps it Pending (kube-scheduler's NodeResourcesFit:
/// "Insufficient NAME"), which is the verdict; one that nodes advertise is a
/// device plugin's, not DRA's, and there is nothing to explain.
fn unbacked_report(
    common: &ExplainCommon,
    names: &str,
    pod: &Object,
    objects: &[Object],
    gates: &dra_core::gates::FeatureGates,
) -> Result<CmdOutcome, String> {
    let unbacked = dra_core::extended::unbacked_resources(pod, objects, gates);
    let nodes: Vec<&str> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(Object::name)
        .collect();
    let missing: Vec<&String> = unbacked
        .iter()
        .filter(|(_, on)| on.is_empty())
        .map(|(n, _)| n)
        .collect();
    if missing.is_empty() {
        let served: Vec<String> = unbacked
            .iter()
            .map(|(n, on)| format!("{n} (on {} nodes)", on.len()))
            .collect();
        let tail = if served.is_empty() {
            String::new()
        } else {
            format!(
                "; its extended resources come from device plugins: {}",
                served.join(", ")
            )
        };
        return Err(format!(
            "{names} uses no ResourceClaims and no extended resource a DeviceClass backs{tail}"
        ));
    }
    let mut verdict = Summary {
        pod: true,
        total: nodes.len(),
        ..Summary::default()
    };
    for r in &missing {
        verdict.causes.push(dra_core::verdict::Cause {
            kind: dra_core::verdict::CauseKind::InsufficientResource,
            subject: Some((*r).clone()),
            reason: format!("Insufficient {r}: no DeviceClass backs it (spec.extendedResourceName) and no node advertises it"),
            nodes: nodes.iter().map(|n| (*n).to_owned()).collect(),
            facts: Some(json!({"resource": r, "advertisedBy": []})),
            selector_miss: None,
        });
    }
    let list = missing
        .iter()
        .map(|r| crate::render::terminal::one_line(r).into_owned())
        .collect::<Vec<_>>()
        .join(", ");
    let stdout = match common.output {
        MatchOutput::Json => {
            let mut v = json!({"verdict": verdict.json(), "nodes": []});
            v["verdict"]["insufficient"] = json!(missing);
            format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
        }
        MatchOutput::Text => {
            // Advice that works in this release: a class can back it only
            // while DRAExtendedResource is on.
            let how = if gates.enabled(dra_core::gates::Gate::DRAExtendedResource) {
                format!(
                    "Give a DeviceClass spec.extendedResourceName: {} to have DRA allocate it, or install the driver's device plugin.",
                    crate::render::terminal::one_line(missing[0])
                )
            } else {
                format!(
                    "DRA can back an extended resource only with DRAExtendedResource (off in Kubernetes {}): install the driver's device plugin, or ask for the devices with a ResourceClaim.",
                    gates.version
                )
            };
            format!(
                "{names} stays Pending: no node has {list}, and no DeviceClass backs it (kube-scheduler: Insufficient {list}).\n  {how}\n"
            )
        }
    };
    Ok(CmdOutcome { stdout, code: 1 })
}

/// For a selector that reads an attribute or capacity some devices lack
/// (`no such key: NAME`): the guard that skips those devices instead, with
/// the domain the failing expression uses.
fn guard_hint(error: &str, objects: &[Object], claims: &[&Object]) -> Option<String> {
    let key = dra_core::cel::missing_key(error)?;
    let exprs = claims
        .iter()
        .copied()
        .chain(objects.iter().filter(|o| o.kind == ObjectKind::DeviceClass))
        .flat_map(|o| {
            let mut v = Vec::new();
            strings(&o.root, &mut v);
            v
        });
    // `device.attributes["DOMAIN"].KEY` in the failing expression.
    let needle = format!("\"].{key}");
    let (field, domain) = exprs
        .filter_map(|e| {
            let at = e.find(&needle)?;
            let head = &e[..at];
            let open = head.rfind("[\"")?;
            let domain = head[open + 2..].to_owned();
            let field = if head[..open].ends_with("capacity") {
                "capacity"
            } else {
                "attributes"
            };
            Some((field, domain))
        })
        .next()?;
    // No device publishes the name at all: a misspelt name or domain, which
    // a guard would only turn into "matches nothing".
    let published = dra_core::dra::Inventory::decode(objects).published(field);
    if let Some(hint) = dra_core::suggest::unpublished(&published, field, &domain, key) {
        return Some(hint);
    }
    Some(format!(
        "Guard it: has(device.{field}[\"{domain}\"].{key}) && ..., or device.{field}[\"{domain}\"].?{key}.orValue(...), so that devices without {key} are skipped instead."
    ))
}

/// When requests find no device on any node: the devices of their classes
/// that no node can use (a nodeSelector no node matches, a nodeName that is
/// not a node), as lines for the verdict.
fn stranded_devices(
    summary: &Summary,
    objects: &[Object],
    claims: &[&Object],
    gates: &dra_core::gates::FeatureGates,
) -> Vec<String> {
    let without: Vec<&str> = summary
        .causes
        .iter()
        // A node with other drivers' devices only is missing the slice too.
        .filter(|c| {
            use dra_core::verdict::CauseKind::{NoClassDevices, NoDevices};
            matches!(c.kind, NoDevices | NoClassDevices)
        })
        .flat_map(|c| c.nodes.iter().map(String::as_str))
        .collect();
    if without.is_empty() {
        return Vec::new();
    }
    let mut classes: Vec<&str> = Vec::new();
    let typed: Vec<dra_core::dra::Claim> = claims
        .iter()
        .map(|c| dra_core::dra::Claim::decode(c))
        .collect();
    for claim in &typed {
        for r in &claim.requests {
            let bodies: Vec<&dra_core::dra::DeviceRequest> = match &r.body {
                dra_core::dra::RequestBody::Exactly(e) => vec![e],
                dra_core::dra::RequestBody::FirstAvailable(subs) => subs.iter().collect(),
                dra_core::dra::RequestBody::Empty => Vec::new(),
            };
            for b in bodies {
                if !classes.contains(&b.device_class_name) {
                    classes.push(b.device_class_name);
                }
            }
        }
    }
    let mut lines = Vec::new();
    for name in classes {
        let Some(class) = objects
            .iter()
            .find(|o| o.kind == ObjectKind::DeviceClass && o.name() == Some(name))
        else {
            continue;
        };
        for s in dra_core::stranded::stranded(objects, class, gates) {
            lines.push(format!(
                "{} device{} of class {name} no node can use: slice {} (pool {}): {}.",
                s.devices,
                if s.devices == 1 { "" } else { "s" },
                s.slice,
                s.pool,
                s.why
            ));
        }
        // A node-local driver that publishes the class's devices on other
        // nodes, but no slice for these: the slice that is missing.
        // Not when the pod's own constraints are the cause (it fits where
        // they exclude it), and only where the driver runs on at least as
        // many nodes as it is missing from: a cluster's CPU nodes are not a
        // missing slice.
        let own_constraints = !summary.fits_where_excluded.is_empty();
        for (driver, on) in dra_core::stranded::publishing_nodes(objects, class, gates) {
            let missing: Vec<&str> = without
                .iter()
                .copied()
                .filter(|n| !on.contains(n))
                .collect();
            if missing.is_empty() || own_constraints || on.len() < missing.len() {
                continue;
            }
            let shown = missing
                .iter()
                .take(3)
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            let more = if missing.len() > 3 {
                format!(" and {} more", missing.len() - 3)
            } else {
                String::new()
            };
            lines.push(format!(
                "No ResourceSlice of driver {driver} names {shown}{more}, while it publishes devices of class {name} on {} other node{}: is its kubelet plugin running there?",
                on.len(),
                if on.len() == 1 { "" } else { "s" }
            ));
        }
    }
    lines
}

/// Every string value under `n` (the parser bounds the depth).
fn strings<'a>(n: &'a Node, out: &mut Vec<&'a str>) {
    match &n.value {
        dra_core::tree::Value::Str(s) => out.push(s.as_str()),
        dra_core::tree::Value::Seq(items) => items.iter().for_each(|i| strings(i, out)),
        dra_core::tree::Value::Map(entries) => entries.iter().for_each(|e| strings(&e.value, out)),
        _ => {}
    }
}

/// Whether some slice (or device) selects its nodes by label or takes all
/// nodes: then any node may have devices, named or not.
fn selects_by_label(objects: &[Object]) -> bool {
    let selects =
        |n: NodeSelection| matches!(n, NodeSelection::Selector(_) | NodeSelection::AllNodes);
    slices(objects).any(|s| {
        selects(s.selection) || (s.per_device() && s.devices().iter().any(|d| selects(d.selection)))
    })
}

/// The claims allocated before that carry a node selector, each with the
/// tried nodes it admits (the scheduler's filter checks them first).
fn allocated_claims(
    objects: &[Object],
    claims: &[&Object],
    per_node: &[(String, Outcome)],
) -> Vec<(String, Vec<String>)> {
    claims
        .iter()
        .filter_map(|c| {
            let sel = dra::Claim::decode(c).allocation?.node_selector?;
            let admits = per_node
                .iter()
                .map(|(n, _)| n)
                .filter(|n| {
                    let labels = objects
                        .iter()
                        .find(|o| o.kind == ObjectKind::Node && o.name() == Some(n.as_str()))
                        .and_then(|o| o.root.get("metadata"))
                        .and_then(|m| m.get("labels"));
                    allocate::node_selector_matches(sel, n, labels)
                })
                .cloned()
                .collect();
            Some((
                format!(
                    "{}/{}",
                    c.namespace_or_default(),
                    c.name().unwrap_or_default()
                ),
                admits,
            ))
        })
        .collect()
}

/// How many nodes' detail the text shows without `--all-nodes`.
const DETAIL_NODES: usize = 3;

fn report(
    common: &ExplainCommon,
    gates: &dra_core::gates::FeatureGates,
    objects: &[Object],
    claims: &[&Object],
    pod: Option<&Object>,
    bypass: Option<prefilter::Bypass>,
    ext: extended_nodes::Extended<'_, '_>,
) -> Result<CmdOutcome, String> {
    let (extended, per_node_claims, more_sets) = (ext.requests, ext.per_node, ext.more_sets);
    let known = nodes(objects);
    let targets = match &common.node {
        Some(n) if !known.contains(n) && !selects_by_label(objects) => {
            let shown: Vec<&str> = known.iter().take(10).map(String::as_str).collect();
            let more = if known.len() > 10 {
                format!(", +{}", known.len() - 10)
            } else {
                String::new()
            };
            return Err(format!(
                "node {n:?} is unknown: no Node object and no ResourceSlice names it; known nodes: {}{more}",
                if shown.is_empty() { "none".to_owned() } else { shown.join(", ") }
            ));
        }
        Some(n) => vec![n.clone()],
        None => known,
    };
    if targets.is_empty() {
        return Err(
            "no node to try: the inventory names none (give --node, or include Nodes or ResourceSlices)"
                .into(),
        );
    }
    // What the scheduler applies to the pod before DRA.
    let constraints = pod.map(PodConstraints::of);
    let mut run_on = Vec::new();
    let mut excluded: Vec<(String, String)> = Vec::new();
    let mut unchecked = 0;
    // By name: a fleet has thousands of nodes (a search per node was quadratic).
    let node_objects: std::collections::HashMap<&str, &Object> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(|o| Some((o.name()?, o)))
        .rev()
        .collect();
    for n in targets {
        let node_obj = node_objects.get(n.as_str()).copied();
        // NodeResourcesFit, after the pod's own constraints.
        let short = per_node_claims.ruled_out(&n);
        match constraints.as_ref().map(|c| c.fit(&n, node_obj)) {
            Some(NodeFit::Excluded(why)) => excluded.push((n, why)),
            _ if short.is_some() => excluded.push((n, short.unwrap_or_default())),
            Some(NodeFit::Unchecked) => {
                unchecked += 1;
                run_on.push(n);
            }
            Some(NodeFit::Fits) | None => run_on.push(n),
        }
    }
    // The clock is read here, at the edge: the core only compares.
    let timeout = (!common.timeout.is_zero()).then_some((
        std::time::Instant::now as fn() -> std::time::Instant,
        common.timeout,
    ));
    // Device binding timeouts and NoExecute toleration times are judged
    // against the wall clock, read once, here.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    // One allocator per claim set: the scheduler's extended-resource claim
    // differs on nodes whose device plugin serves some of it.
    let cluster = std::sync::Arc::new(allocate::Cluster::new(objects));
    let allocators: Vec<allocate::Allocator> = std::iter::once(claims)
        .chain(more_sets.iter().map(Vec::as_slice))
        .map(|set| {
            allocate::Allocator::over(cluster.clone(), gates, set)
                .with_limits(allocate::Limits {
                    steps: allocate::DEFAULT_BUDGET,
                    timeout,
                })
                .at_time(now)
        })
        .collect();
    let outcomes = extended_nodes::on_nodes(&allocators, per_node_claims, &run_on);
    let per_node: Vec<(String, Outcome)> = run_on.into_iter().zip(outcomes).collect();
    // The scheduler's Filter returns statusError for a timeout from 1.36
    // (omeryahud/kubernetes@a125bd3, just after the 1.36 branch point:
    // "Timeouts are potentially transient. Return Error"); 1.35 ruled the
    // node out (statusUnschedulable).
    let timeout_fatal = gates.version >= dra_core::gates::Version::V1_36;
    let mut summary = Summary::build(&per_node, &excluded, unchecked, timeout_fatal);
    summary.allocated_claims = allocated_claims(objects, claims, &per_node);
    summary.ignored = dra_core::verdict::ignored(objects, gates);
    summary.release_faults = dra_core::verdict::release_faults(claims, gates);
    summary.pod = pod.is_some();
    // A NoExecute taint tolerated for a while on the devices of the node
    // it goes to: the pod is evicted once that time is up.
    if summary.fits() {
        if let Some(Outcome::Allocated { claims: allocated }) = per_node
            .iter()
            .map(|(_, o)| o)
            .find(|o| matches!(o, Outcome::Allocated { .. }))
        {
            summary.evictions = dra_core::verdict::evictions(objects, gates, allocated, now);
            summary.binding_waits = dra_core::binding::waits(objects, gates, allocated);
        }
    }
    summary.bypass = bypass;
    summary.gated = pod.map(prefilter::scheduling_gates).unwrap_or_default();
    summary.scheduler = pod.and_then(prefilter::other_scheduler);
    // Bound and not running: the kubelet's own word on why it does not start.
    summary.not_prepared = pod
        .filter(|p| {
            let bound = p
                .pod_spec()
                .and_then(|s| s.get("nodeName"))
                .and_then(dra_core::tree::Node::as_str)
                .is_some_and(|n| !n.is_empty());
            let phase = p
                .root
                .get("status")
                .and_then(|s| s.get("phase"))
                .and_then(dra_core::tree::Node::as_str);
            bound && !matches!(phase, Some("Running" | "Succeeded" | "Failed"))
        })
        .and_then(|p| {
            let uid = p
                .root
                .get("metadata")
                .and_then(|m| m.get("uid"))
                .and_then(dra_core::tree::Node::as_str);
            dra_core::prepare::failures(objects).into_iter().find(|f| {
                Some(f.pod.as_str()) == p.name()
                    && f.namespace == p.namespace_or_default()
                    && (f.pod_uid.is_none() || uid.is_none() || f.pod_uid.as_deref() == uid)
            })
        });
    summary.last_attempt = pod
        .and_then(dra_core::scheduling::last_attempt)
        .map(|(reason, message)| (reason.to_owned(), message.to_owned()));
    summary.hint = summary
        .fatal
        .as_ref()
        .and_then(|f| guard_hint(&f.error, objects, claims));
    if summary.fatal.is_none() && summary.allocated.is_empty() {
        // The claims fit nowhere the pod may run: do they fit where its own
        // constraints keep it away? Then those constraints are the cause.
        let names: Vec<&str> = excluded.iter().map(|(n, _)| n.as_str()).collect();
        let outcomes = extended_nodes::on_nodes(&allocators, per_node_claims, &names);
        summary.fits_where_excluded = excluded
            .iter()
            .zip(outcomes)
            .filter(|(_, o)| matches!(o, Outcome::Allocated { .. }))
            .map(|((node, why), _)| (node.clone(), why.clone()))
            .collect();
        summary.stranded = stranded_devices(&summary, objects, claims, gates);
        selector_misses::attach(&mut summary, objects, claims, gates);
    }
    // The closest nodes first: their detail is shown, and advised.
    let mut order: Vec<usize> = (0..per_node.len()).collect();
    order.sort_by_key(|&i| match &per_node[i].1 {
        Outcome::Undecided { .. } => (3, 0),
        Outcome::Error { .. } => (0, 0),
        Outcome::Allocated { .. } => (1, 0),
        // Nodes ruled out before any device was sought come last.
        Outcome::Unsatisfiable {
            funnels,
            constraints,
            ..
        } if funnels.is_empty() && constraints.is_empty() => (2, usize::MAX),
        Outcome::Unsatisfiable { funnels, .. } => (2, summary::shortfall(funnels)),
    });
    // What would help, verified by allocating again with the change: only
    // when nothing fits, and for the closest nodes, as each try is another
    // allocation.
    let mut advice: Vec<Vec<dra_core::verdict::Advice>> = vec![Vec::new(); per_node.len()];
    if summary.allocated.is_empty() && summary.fatal.is_none() {
        for &i in order.iter().take(ADVISED_NODES) {
            if let (node, Outcome::Unsatisfiable { funnels, .. }) = &per_node[i] {
                let allocator = &allocators[per_node_claims.set_of(node)];
                advice[i] = dra_core::verdict::advise(allocator, objects, node, funnels);
            }
        }
    }
    // A node's value, with the extended resources its device plugin serves.
    let node_value = |n: &str, o: &Outcome, a: &[dra_core::verdict::Advice]| {
        let mut v = node_json(n, claims, o, a);
        let own = per_node_claims.served_by_node(n);
        if !own.is_empty() {
            v["servedByNode"] = json!(own);
        }
        v
    };
    let names = match pod {
        Some(p) => format!(
            "Pod {}/{} ({})",
            p.namespace_or_default(),
            p.name().unwrap_or_default(),
            text::claim_names(claims)
        ),
        None => text::claim_names(claims),
    };
    let stdout = match common.output {
        MatchOutput::Json if common.slim => {
            // `explain pods`: the verdict and where the pod would go, not
            // every node's detail.
            let placement = per_node
                .iter()
                .zip(&advice)
                .find(|((_, o), _)| matches!(o, Outcome::Allocated { .. }))
                .map(|((n, o), a)| {
                    let v = node_value(n, o, a);
                    json!({"node": v["node"], "claims": v["claims"]})
                })
                .unwrap_or(Value::Null);
            let errors = per_node
                .iter()
                .filter(|(_, o)| matches!(o, Outcome::Error { .. }))
                .count();
            let v = json!({
                "verdict": summary.json(),
                "extendedResources": extended.iter().map(|r| json!({
                    "request": r.name, "container": r.container, "resource": r.resource,
                    "deviceClass": r.class, "count": r.count,
                })).collect::<Vec<_>>(),
                "summary": {"nodes": summary.total, "allocated": summary.allocated.len(), "errors": errors,
                            "excluded": excluded.len(),
                            "unsatisfiable": per_node.len() - summary.allocated.len() - errors},
                "placement": placement,
            });
            serde_json::to_string(&v).unwrap_or_default()
        }
        MatchOutput::Json => {
            if common.node.is_some() && excluded.is_empty() {
                let mut v = node_value(&per_node[0].0, &per_node[0].1, &advice[0]);
                v["verdict"] = summary.json();
                serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
            } else {
                // One node's value at a time, as it is written to stdout: a
                // fleet of 100,000 nodes is never one JSON tree, nor its text.
                let nodes = per_node
                    .iter()
                    .zip(&advice)
                    .map(|((n, o), a)| node_value(n, o, a))
                    .chain(excluded.iter().map(|(n, why)| {
                        json!({"node": n, "result": "excluded", "error": null, "reason": why})
                    }));
                let errors = per_node
                    .iter()
                    .filter(|(_, o)| matches!(o, Outcome::Error { .. }))
                    .count();
                // Fields in the order the output has always had (preserve_order).
                #[derive(serde::Serialize)]
                struct Fleet<'a> {
                    verdict: Value,
                    #[serde(rename = "extendedResources")]
                    extended_resources: Value,
                    nodes: crate::render::Values<'a>,
                    summary: Value,
                }
                let fleet = Fleet {
                    verdict: summary.json(),
                    extended_resources: json!(extended
                        .iter()
                        .map(|r| json!({
                            "request": r.name, "container": r.container, "resource": r.resource,
                            "deviceClass": r.class, "count": r.count,
                        }))
                        .collect::<Vec<_>>()),
                    nodes: crate::render::Each::new(Box::new(nodes)),
                    summary: json!({"nodes": summary.total, "allocated": summary.allocated.len(), "errors": errors,
                                "excluded": excluded.len(),
                                "unsatisfiable": per_node.len() - summary.allocated.len() - errors}),
                };
                // Written as it is serialized: a fleet's answer is never
                // held as text (issue 37).
                crate::render::stream_json(&fleet)
            }
        }
        MatchOutput::Text if common.node.is_some() && excluded.is_empty() => {
            let mut out = text::node_detail(&names, &per_node[0].0, &per_node[0].1, &advice[0]);
            out.push_str(&per_node_claims.served_note(&per_node[0].0));
            if summary.fatal.is_some() {
                out.push_str("  An error on any node aborts the scheduling attempt: the pod stays pending on every node.\n");
            }
            for f in &summary.release_faults {
                out.push_str(&format!(
                    "  {}\n",
                    crate::render::terminal::one_line(&f.text())
                ));
            }
            out
        }
        MatchOutput::Text => {
            let color = crate::render::terminal::use_color(common.color);
            let mut out = summary.text(&names, color);
            // The detail: the node it goes to when it fits, else the closest.
            let shown: Vec<usize> = if summary.fatal.is_some() {
                // The summary says it all; the rest is in --all-nodes.
                Vec::new()
            } else if summary.fits() {
                order
                    .iter()
                    .copied()
                    .filter(|&i| matches!(per_node[i].1, Outcome::Allocated { .. }))
                    .take(1)
                    .collect()
            } else {
                order.iter().copied().take(DETAIL_NODES).collect()
            };
            let shown: Vec<usize> = if common.all_nodes {
                order.clone()
            } else {
                shown
            };
            // Nodes whose detail reads the same but for the node's name (a
            // fleet of identical nodes) are shown once, with how many more.
            let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
            let mut by_shape: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            for &i in &shown {
                let node = per_node[i].0.as_str();
                // (Painted runs let colour through: input is escaped here.)
                let detail = crate::render::terminal::strict(
                    &(text::node_detail(&names, node, &per_node[i].1, &advice[i])
                        + &per_node_claims.served_note(node)),
                )
                .into_owned();
                let shape = detail.replace(node, "\u{0}");
                match by_shape.get(&shape) {
                    Some(&g) => groups[g].1.push(node),
                    None => {
                        by_shape.insert(shape, groups.len());
                        groups.push((detail, Vec::new()));
                    }
                }
            }
            for (detail, like) in &groups {
                out.push('\n');
                out.push_str(detail);
                if !like.is_empty() {
                    let names: Vec<String> = like
                        .iter()
                        .take(3)
                        .map(|n| crate::render::terminal::one_line(n).into_owned())
                        .collect();
                    let more = if like.len() > 3 { ", ..." } else { "" };
                    out.push_str(&format!(
                        "  (and {} more node{} like it: {}{more})\n",
                        like.len(),
                        if like.len() == 1 { "" } else { "s" },
                        names.join(", ")
                    ));
                }
            }
            let hidden = per_node.len() - shown.len();
            if hidden > 0 {
                out.push_str(&format!(
                    "\n({hidden} {}node{} tried; --all-nodes shows each, -o json has all)\n",
                    if shown.is_empty() { "" } else { "more " },
                    if hidden == 1 { "" } else { "s" }
                ));
            }
            out
        }
    };
    // The scheduler's made-up names of extended-resource requests, with the
    // container and resource each stands for.
    let mut stdout = stdout;
    if common.output == MatchOutput::Text {
        for r in extended {
            stdout = stdout
                .replace(
                    &format!("request \"{}\"", r.name),
                    &format!("request \"{}\" ({})", r.name, r.describe()),
                )
                .replace(
                    &format!("request {} ->", r.name),
                    &format!("request {} ({}) ->", r.name, r.describe()),
                );
        }
    }
    // 0: the claims fit on some node tried and nothing aborts the attempt;
    // 1: they fit nowhere, the scheduler errs, or the pod would be evicted.
    // A pod evicted as soon as it runs does not run either.
    let code = if summary.fate() == dra_core::verdict::Fate::Schedulable {
        0
    } else {
        1
    };
    Ok(CmdOutcome { stdout, code })
}

/// The verdict when the scheduler's PreFilter stops the pod: no node is
/// tried. A class that does not exist gets the spelling it may have meant.
fn pre_filter_report(
    common: &ExplainCommon,
    names: &str,
    objects: &[Object],
    claims: &[&Object],
    stop: prefilter::Stop,
    pod: Option<&Object>,
) -> CmdOutcome {
    // As a node's verdict too (`--node`): PreFilter decides for every node.
    let claims_json: Vec<Value> = claims
        .iter()
        .map(|o| {
            json!({"namespace": o.namespace_or_default(), "name": o.name().unwrap_or_default(),
                   "allocation": null, "explanation": {"reasons": [stop.message]}})
        })
        .collect();
    let result = if stop.error { "error" } else { "unsatisfiable" };
    let mut summary = Summary::build(&[], &[], 0, false);
    summary.pod = pod.is_some();
    summary.gated = pod.map(prefilter::scheduling_gates).unwrap_or_default();
    summary.scheduler = pod.and_then(prefilter::other_scheduler);
    if let prefilter::StopKind::ClaimNotCreated(template) = &stop.kind {
        summary.hint = Some(format!(
            "ResourceClaimTemplate {template} does not exist in the pod's namespace: the resourceclaim controller cannot create the claim until it does"
        ));
    }
    if let prefilter::StopKind::Volumes(_) = &stop.kind {
        summary.hint = Some(
            "kube-scheduler's volume plugins (VolumeRestrictions, VolumeBinding, VolumeZone) stop the pod before the DRA plugin looks at its claims: its volumes, not its devices, keep it Pending".into(),
        );
    }
    if let prefilter::StopKind::ClassMissing(class) = &stop.kind {
        let known = objects
            .iter()
            .filter(|o| o.kind == ObjectKind::DeviceClass)
            .filter_map(Object::name);
        summary.hint = dra_core::suggest::did_you_mean(class, known)
            .map(|s| format!("Did you mean DeviceClass {s:?}?"));
    }
    summary.pre_filter = Some(stop);
    let stdout = match common.output {
        MatchOutput::Json => {
            let v = json!({
                "result": result,
                "claims": claims_json,
                "verdict": summary.json(),
                "extendedResources": [],
                "nodes": [],
                "summary": {"nodes": 0, "allocated": 0, "errors": 0, "excluded": 0, "unsatisfiable": 0},
            });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        MatchOutput::Text => {
            let color = crate::render::terminal::use_color(common.color);
            summary.text(names, color)
        }
    };
    CmdOutcome { stdout, code: 1 }
}

/// How many unsatisfiable nodes get verified advice.
const ADVISED_NODES: usize = 20;
