//! `kubectl dra explain pods [-n NS | -A] [-l SELECTOR]`: every pod that is
//! not bound and uses resource claims (or extended resources a DeviceClass
//! backs), each decided as `explain pod` decides it, grouped by root cause.
//!
//! Each pod is decided alone against the cluster as it is, as the
//! scheduler's next attempt for that pod would be; pending pods compete for
//! the same devices, which the text says.

use serde_json::{json, Value};

use super::{load_with, pod_report};
use crate::cli::{ExplainPodsArgs, MatchOutput};
use crate::cluster::Needs;
use crate::commands::source::Inventory;
use crate::Outcome as CmdOutcome;
use dra_core::model::{Object, ObjectKind};

/// Nodes of `verdict.allocatedOn` kept per pod.
const ALLOCATED_ON_SHOWN: usize = 10;

/// Pods listed one per line in text unless `--all`.
const LISTED_PODS: usize = 20;

/// One pod's answer.
pub(super) struct Decided {
    pub(super) pod: String,
    /// The whole `explain pod -o json` document, or why it could not be made.
    explain: Result<Value, String>,
    /// Index into the groups.
    pub(super) group: usize,
    /// With `--in-order`: the node the pod was placed on.
    placed_on: Option<String>,
}

/// A root cause shared by pods: its kind and the words of its first pod.
pub(super) struct Group {
    kind: String,
    reason: String,
    example: String,
    closest: Option<String>,
    pods: usize,
    /// The claims fit: the pod pends for another reason.
    pub(super) fits: bool,
}

/// The group of pods held back by scheduling gates.
const GATED: &str = "schedulingGated";

/// The group of pods VolumeBinding's or VolumeZone's PreFilter stops.
const VOLUMES: &str = "preFilter.volumes";

impl Group {
    fn gated(&self) -> bool {
        self.kind == GATED
    }
    /// Held by its volumes, not its devices.
    fn volumes(&self) -> bool {
        self.kind == VOLUMES
    }
}

pub fn run_pods(args: &ExplainPodsArgs) -> Result<CmdOutcome, String> {
    if let Some(sel) = &args.selector {
        dra_core::usage::check_label_selector(sel)?;
    }
    let all = args.all_namespaces;
    let inv = load_with(&args.common, |ns| Needs {
        slices: true,
        classes: true,
        claims: true,
        claims_namespace: Some(ns.to_owned()),
        templates: Some(if all { String::new() } else { ns.to_owned() }),
        nodes: true,
        taint_rules: true,
        pod: None,
        pods: Some(if all { String::new() } else { ns.to_owned() }),
        bound_pods: true,
        prepare_events: None,
        // VolumeBinding and VolumeZone, for pods with PVC volumes.
        volumes: Some(if all { String::new() } else { ns.to_owned() }),
    })?;
    let mut inv = inv;
    // (namespace/name, priority, creationTimestamp) of each pending pod.
    let mut pending: Vec<(String, i64, String)> = inv
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Workload && o.reference.kind == "Pod")
        .filter(|o| all || o.namespace_or_default() == inv.namespace)
        .filter(|o| is_pending_on_dra(o, &inv.objects, &inv.gates))
        .filter(|o| match &args.selector {
            Some(sel) => {
                let labels = o.root.get("metadata").and_then(|m| m.get("labels"));
                dra_core::usage::label_selector_matches(sel, labels) == Ok(true)
            }
            None => true,
        })
        .map(|o| {
            let priority = o
                .pod_spec()
                .and_then(|s| s.get("priority"))
                .and_then(dra_core::tree::Node::as_i64)
                .unwrap_or(0);
            let created = o
                .root
                .get("metadata")
                .and_then(|m| m.get("creationTimestamp"))
                .and_then(dra_core::tree::Node::as_str)
                .unwrap_or_default()
                .to_owned();
            let name = format!(
                "{}/{}",
                o.namespace_or_default(),
                o.name().unwrap_or_default()
            );
            (name, priority, created)
        })
        .collect();
    if args.in_order {
        // The scheduler's queue: higher priority first, then older pods
        // (RFC 3339 times in UTC order as text), then by name.
        pending.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| a.2.cmp(&b.2))
                .then_with(|| a.0.cmp(&b.0))
        });
    }
    // `--add-nodes auto`: the fewest copies, then the answer with them.
    let auto_args;
    let mut auto = None;
    let args = if args.common.what_if.add_nodes == Some(crate::cli::AddNodes::Auto) {
        let (a, found) = super::add_nodes::search(args, &inv, &pending)?;
        auto = Some(found);
        auto_args = a;
        pending.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| a.2.cmp(&b.2))
                .then_with(|| a.0.cmp(&b.0))
        });
        &auto_args
    } else {
        args
    };
    // What-if: each pod decided on the cluster as it is, then as changed.
    let before: Option<std::collections::HashMap<String, bool>> = if args.common.what_if.is_empty()
    {
        None
    } else {
        let mut as_is = Inventory {
            gates: inv.gates.clone(),
            objects: inv.objects.clone(),
            namespace: inv.namespace.clone(),
            live: None,
        };
        let (groups, decided, _) = evaluate(args, &mut as_is, &pending, false)?;
        let fits = decided
            .into_iter()
            .map(|d| (d.pod, groups[d.group].fits))
            .collect();
        std::mem::forget(as_is);
        Some(fits)
    };
    let mut changes = Vec::new();
    if before.is_some() {
        changes = crate::commands::source::what_if(&mut inv.objects, &args.common.what_if)?;
        // A pod the change deletes is no longer pending.
        pending.retain(|(name, _, _)| find_pod(&inv.objects, name).is_some());
    }
    let (groups, decided, evaluations) = evaluate(args, &mut inv, &pending, before.is_some())?;
    // Pods whose claims fit after the change and not before, and the reverse.
    let (mut gain, mut lose) = (Vec::new(), Vec::new());
    if let Some(before) = &before {
        for d in &decided {
            let now = groups[d.group].fits;
            match before.get(&d.pod) {
                Some(false) if now => gain.push(d.pod.clone()),
                Some(true) if !now => lose.push(d.pod.clone()),
                _ => {}
            }
        }
    }
    let what_if = before.as_ref().map(|_| WhatIfDelta {
        changes: changes.clone(),
        gain: gain.clone(),
        lose: lose.clone(),
    });
    // Most pods first; the order of first appearance breaks ties.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| std::cmp::Reverse(groups[g].pods));
    // Pods held back by scheduling gates are not tried at all: counted
    // apart from those whose devices are the block.
    let blocked = groups
        .iter()
        .filter(|g| !g.fits && !g.gated() && !g.volumes())
        .map(|g| g.pods)
        .sum::<usize>();
    let on_volumes = groups
        .iter()
        .filter(|g| g.volumes())
        .map(|g| g.pods)
        .sum::<usize>();
    let gated = groups
        .iter()
        .filter(|g| g.gated())
        .map(|g| g.pods)
        .sum::<usize>();
    let scope = if all {
        "in every namespace".to_owned()
    } else {
        format!("in namespace {}", inv.namespace)
    };
    let stdout = match args.common.output {
        MatchOutput::Json => {
            let rank = |g: usize| order.iter().position(|&o| o == g).unwrap_or(g);
            let doc = json!({
                "scope": if all { Value::Null } else { json!(inv.namespace) },
                "pending": decided.len(),
                "blockedOnDevices": blocked,
                "schedulingGated": gated,
                "blockedOnVolumes": on_volumes,
                "decidedAlone": !args.in_order,
                "inOrder": args.in_order,
                "evaluations": evaluations,
                "addNodesAuto": auto.as_ref().map(super::add_nodes::Found::json),
                "whatIf": what_if.as_ref().map(|w| json!({
                    "changes": w.changes, "gainFit": w.gain, "loseFit": w.lose,
                })),
                "groups": order.iter().map(|&g| {
                    let gr = &groups[g];
                    json!({"kind": gr.kind, "reason": gr.reason, "pods": gr.pods,
                           "example": gr.example, "closestNode": gr.closest, "claimsFit": gr.fits})
                }).collect::<Vec<_>>(),
                "pods": decided.iter().map(|d| {
                    let (ns, name) = d.pod.split_once('/').unwrap_or(("", &d.pod));
                    let mut v = json!({"namespace": ns, "name": name, "group": rank(d.group)});
                    if args.in_order {
                        v["placedOn"] = json!(d.placed_on);
                    }
                    match &d.explain {
                        Ok(e) => v["explain"] = e.clone(),
                        Err(e) => v["error"] = json!(e),
                    }
                    v
                }).collect::<Vec<_>>(),
            });
            crate::render::stream_json(&doc)
        }
        MatchOutput::Text => {
            let mut out = String::new();
            if let Some(found) = &auto {
                out.push_str(&found.text());
            }
            if let Some(w) = &what_if {
                out.push_str(&what_if_text(w));
            }
            out.push_str(&text(
                args,
                &scope,
                &groups,
                &order,
                &decided,
                (blocked, gated, on_volumes),
            ));
            out
        }
    };
    let code = u8::from(blocked > 0);
    std::mem::forget(inv);
    Ok(CmdOutcome { stdout, code })
}

/// `explain pod`'s answer as `explain pods` keeps it (the report's slim
/// JSON: verdict, extended resources, counts, placement); the whole answer
/// (with `--node`, or a pre-filter stop) is cut to the same fields.
fn slim(mut answer: Value) -> Value {
    // Every node that fits, for every pod, would grow with the fleet: the
    // first few, and the count (`verdict.allocated`).
    if let Some(on) = answer["verdict"]["allocatedOn"].as_array_mut() {
        on.truncate(ALLOCATED_ON_SHOWN);
    }
    if answer.get("placement").is_some() {
        return answer;
    }
    let placement = answer["nodes"]
        .as_array()
        .and_then(|nodes| nodes.iter().find(|n| n["result"] == "allocated"))
        .map(|n| json!({"node": n["node"], "claims": n["claims"]}))
        .or_else(|| {
            // `--node`: the answer is that node's.
            (answer["result"] == "allocated")
                .then(|| json!({"node": answer["node"], "claims": answer["claims"]}))
        })
        .unwrap_or(Value::Null);
    json!({
        "verdict": answer["verdict"].take(),
        "extendedResources": answer["extendedResources"].take(),
        "summary": answer["summary"].take(),
        "placement": placement,
    })
}

pub(super) fn find_pod<'o>(objects: &'o [Object], name: &str) -> Option<&'o Object> {
    let (ns, n) = name.split_once('/')?;
    objects.iter().find(|o| {
        o.kind == ObjectKind::Workload
            && o.reference.kind == "Pod"
            && o.namespace_or_default() == ns
            && o.name() == Some(n)
    })
}

/// Holds a placed pod's devices for the pods after it: its claims, as the
/// answer allocated them on the first node that fits (kube-scheduler would
/// score the nodes; kubectl-dra takes them in name order), stored with
/// that allocation and reserved for the pod; a claim a template would
/// generate is added.
fn place(objects: &mut Vec<Object>, pod: &str, answer: &Value) -> Option<String> {
    let node = answer["placement"].as_object()?;
    let (ns, pod_name) = pod.split_once('/')?;
    let uid = find_pod(objects, pod)
        .and_then(|p| {
            p.root
                .get("metadata")?
                .get("uid")?
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_default();
    for claim in node["claims"].as_array()? {
        let name = claim["name"].as_str()?;
        let allocation = claim["allocation"].clone();
        let reserved = json!([{"resource": "pods", "name": pod_name, "uid": uid}]);
        let stored = objects.iter_mut().find(|o| {
            o.kind == ObjectKind::ResourceClaim
                && o.namespace_or_default() == ns
                && o.name() == Some(name)
        });
        let status: dra_core::tree::Node =
            serde_json::from_value(json!({"allocation": allocation, "reservedFor": reserved}))
                .ok()?;
        match stored {
            Some(o) => {
                o.root.remove("status");
                o.root.insert_back("status", status);
            }
            None => {
                // A claim generated from a template: its spec does not
                // matter to the pods after it, only what it holds.
                let mut root: dra_core::tree::Node = serde_json::from_value(json!({
                    "metadata": {"name": name, "namespace": ns},
                    "spec": {"devices": {"requests": []}},
                }))
                .ok()?;
                root.insert_back("status", status);
                let o = dra_core::model::object_from_node(
                    usize::MAX,
                    objects.len(),
                    root,
                    "resource.k8s.io/v1",
                    "ResourceClaim",
                )?;
                objects.push(o);
            }
        }
    }
    // The pod is bound there now: the pods after it see what it requests
    // of the node, its labels, anti-affinity and host ports (NodeInfo).
    let on = node["node"].as_str()?.to_owned();
    if let Some(spec) = objects
        .iter_mut()
        .find(|o| {
            o.kind == ObjectKind::Workload
                && o.reference.kind == "Pod"
                && o.namespace_or_default() == ns
                && o.name() == Some(pod_name)
        })
        .and_then(|o| o.root.get_mut("spec"))
    {
        spec.remove("nodeName");
        spec.insert_back("nodeName", dra_core::tree::Node::string(&on));
    }
    Some(on)
}

/// What a what-if changed for the pending pods.
struct WhatIfDelta {
    changes: Vec<String>,
    gain: Vec<String>,
    lose: Vec<String>,
}

fn what_if_text(w: &WhatIfDelta) -> String {
    use crate::render::terminal::strict;
    let list = |pods: &[String]| {
        let shown: Vec<String> = pods
            .iter()
            .take(5)
            .map(|p| strict(p).into_owned())
            .collect();
        let more = if pods.len() > 5 {
            format!(", +{}", pods.len() - 5)
        } else {
            String::new()
        };
        format!("{}{more}", shown.join(", "))
    };
    let mut s = format!(
        "What-if ({}): {} pending {} gain a fit, {} lose {}.\n",
        strict(&w.changes.join("; ")),
        w.gain.len(),
        if w.gain.len() == 1 {
            "pod would"
        } else {
            "pods would"
        },
        w.lose.len(),
        if w.lose.len() == 1 { "its" } else { "theirs" },
    );
    if !w.gain.is_empty() {
        s.push_str(&format!("  gain: {}\n", list(&w.gain)));
    }
    if !w.lose.is_empty() {
        s.push_str(&format!("  lose: {}\n", list(&w.lose)));
    }
    s.push_str("Below, the pods as they would be after the change (nothing is written to the cluster).\n\n");
    s
}

/// Decides each pending pod (shared per shape; placed in order with
/// `--in-order`), grouped by root cause.
pub(super) fn evaluate(
    args: &ExplainPodsArgs,
    inv: &mut Inventory,
    pending: &[(String, i64, String)],
    changed: bool,
) -> Result<(Vec<Group>, Vec<Decided>, usize), String> {
    let mut json_common = args.common.clone();
    json_common.output = MatchOutput::Json;
    json_common.slim = true;
    let mut groups: Vec<Group> = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut decided = Vec::new();
    let mut shapes = super::shapes::Shapes::default();
    // What the pods bound to each node take: read once, again after a pod
    // is placed.
    let mut usage: Option<dra_core::node_fit::NodeUsage> = None;
    for (name, _, _) in pending {
        let pod = find_pod(&inv.objects, name).ok_or("a pending pod went missing")?;
        let used = usage
            .get_or_insert_with(|| dra_core::node_fit::NodeUsage::of(&inv.objects, &inv.gates));
        let labels_read = used.bound_pods().any_anti_affinity();
        let explain = shapes.answer(pod, &inv.objects, labels_read, || {
            pod_report(&json_common, inv, name, Some(used)).and_then(|out| {
                serde_json::from_str::<Value>(&out.stdout)
                    .map(slim)
                    .map_err(|e| e.to_string())
            })
        });
        let (mut kind, mut reason, closest, fits) = root_cause(&explain, changed);
        let placeable = args.in_order
            && fits
            && explain
                .as_ref()
                .is_ok_and(|v| v["verdict"]["lastAttempt"].is_null());
        if placeable {
            kind = "placed".into();
            reason =
                "its claims fit: placed in queue order, its devices held for the pods after it"
                    .into();
        }
        let pod = find_pod(&inv.objects, name).ok_or("a pending pod went missing")?;
        let key = (kind.clone(), mask(&reason, pod, &explain));
        let group = match keys.iter().position(|k| *k == key) {
            Some(g) => g,
            None => {
                keys.push(key);
                groups.push(Group {
                    kind,
                    reason,
                    example: name.clone(),
                    closest,
                    pods: 0,
                    fits,
                });
                groups.len() - 1
            }
        };
        groups[group].pods += 1;
        // In queue order, a pod that fits holds its devices for the next;
        // one whose claims fit but that the scheduler found unschedulable
        // for another reason (its PodScheduled condition) is not placed: that
        // reason stands, and kubectl-dra does not model it.
        let placed_on = match &explain {
            Ok(v) if placeable => {
                // The inventory changes: no answer made before holds.
                shapes.clear();
                usage = None;
                place(&mut inv.objects, name, v)
            }
            _ => None,
        };
        decided.push(Decided {
            pod: name.clone(),
            explain,
            group,
            placed_on,
        });
    }
    Ok((groups, decided, shapes.evaluations))
}

/// Not bound to a node, not finished, and using claims or a DRA-backed
/// extended resource.
fn is_pending_on_dra(
    pod: &Object,
    objects: &[Object],
    gates: &dra_core::gates::FeatureGates,
) -> bool {
    let Some(spec) = pod.pod_spec() else {
        return false;
    };
    let bound = spec
        .get("nodeName")
        .and_then(dra_core::tree::Node::as_str)
        .is_some_and(|n| !n.is_empty());
    let phase = pod
        .root
        .get("status")
        .and_then(|s| s.get("phase"))
        .and_then(dra_core::tree::Node::as_str);
    let finished = matches!(phase, Some("Succeeded" | "Failed"));
    let claims = spec
        .get("resourceClaims")
        .and_then(dra_core::tree::Node::as_seq)
        .is_some_and(|c| !c.is_empty());
    !bound
        && !finished
        && (claims || !dra_core::extended::extended_requests(pod, objects, gates).is_empty())
}

/// The kind and words of what blocks a pod on its closest node (else its
/// first cause), that node, and whether
/// its claims fit (then the pod pends for a reason DRA does not decide).
fn root_cause(
    explain: &Result<Value, String>,
    changed: bool,
) -> (String, String, Option<String>, bool) {
    let v = match explain {
        Ok(v) => &v["verdict"],
        Err(e) => return ("undecided".into(), e.clone(), None, false),
    };
    let closest = v["closest"]["node"].as_str().map(str::to_owned);
    // Held back by the scheduler's queue before anything else is tried.
    if let Some(gates) = v["schedulingGates"].as_array().filter(|g| !g.is_empty()) {
        let names: Vec<&str> = gates.iter().filter_map(Value::as_str).collect();
        let reason = format!(
            "scheduling gates {}: the scheduler does not try it until they are removed",
            names.join(", ")
        );
        return (GATED.into(), reason, None, false);
    }
    if v["schedulable"] == true {
        let reason = match v["lastAttempt"]["message"].as_str() {
            Some(m) => format!("its claims fit; the scheduler's last attempt said: {m}"),
            None if changed => "its claims fit once the change is made".to_owned(),
            None => "its claims fit: it pends for another reason (not DRA)".to_owned(),
        };
        let first = v["allocatedOn"][0].as_str().map(str::to_owned);
        return ("claimsFit".into(), reason, first, true);
    }
    if v["preFilter"].is_object() {
        let kind = v["preFilter"]["kind"]["check"].as_str().unwrap_or("other");
        let message = v["preFilter"]["message"].as_str().unwrap_or_default();
        return (format!("preFilter.{kind}"), message.to_owned(), None, false);
    }
    if v["fatalError"].is_object() {
        let kind = v["fatalError"]["kind"].as_str().unwrap_or("error");
        let error = v["fatalError"]["error"].as_str().unwrap_or_default();
        return (format!("error.{kind}"), error.to_owned(), None, false);
    }
    // The cause on the closest node: where the pod could run but for it,
    // with the selector that keeps its devices out when that is the cause.
    if let (Some(kind), Some(reason)) = (
        v["closest"]["kind"].as_str(),
        v["closest"]["reason"].as_str(),
    ) {
        let miss = v["causes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["kind"] == kind)
            .find_map(|c| {
                let m: dra_core::selector_miss::SelectorMiss =
                    serde_json::from_value(c["selectorMiss"].clone()).ok()?;
                Some(m.text(if c["kind"] == "noClassDevices" {
                    dra_core::selector_miss::Scope::Inventory
                } else {
                    dra_core::selector_miss::Scope::Nodes
                }))
            });
        let reason = match miss {
            Some(m) => format!("{reason}\n{m}"),
            None => reason.to_owned(),
        };
        return (kind.to_owned(), reason, closest, false);
    }
    match v["causes"].get(0) {
        Some(c) => (
            c["kind"].as_str().unwrap_or("other").to_owned(),
            c["reason"].as_str().unwrap_or_default().to_owned(),
            closest,
            false,
        ),
        None => ("other".into(), "no node to try".into(), closest, false),
    }
}

/// The words with this pod's own names (pod, namespace, claims) masked, so
/// that pods alike share a group: the names come from the answer's fields.
fn mask(reason: &str, pod: &Object, explain: &Result<Value, String>) -> String {
    let mut names: Vec<String> = Vec::new();
    if let Ok(v) = explain {
        for c in v["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|n| n["claims"].as_array().into_iter().flatten())
            .chain(v["claims"].as_array().into_iter().flatten())
        {
            if let Some(n) = c["name"].as_str() {
                names.push(n.to_owned());
            }
        }
    }
    names.extend(pod.name().map(str::to_owned));
    // Only the `namespace/name` forms, in which the answers name objects:
    // a bare name could be any word of the text (a pod named `a`). A holder
    // in the same namespace is a shared object and keeps its name.
    let ns = pod.namespace_or_default();
    let mut all: Vec<String> = names
        .iter()
        .filter(|n| !n.is_empty())
        .map(|n| format!("{ns}/{n}"))
        .collect();
    all.sort_by_key(|n| std::cmp::Reverse(n.len()));
    all.dedup();
    let mut out = reason.to_owned();
    for n in &all {
        out = out.replace(n.as_str(), "\u{0}");
    }
    out
}

fn text(
    args: &ExplainPodsArgs,
    scope: &str,
    groups: &[Group],
    order: &[usize],
    decided: &[Decided],
    (blocked, gated, on_volumes): (usize, usize, usize),
) -> String {
    use crate::render::terminal::strict;
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            one.to_owned()
        } else {
            many.to_owned()
        }
    };
    if decided.is_empty() {
        return format!(
            "No pod {scope} is pending on DRA (unbound pods that use resource claims).\n"
        );
    }
    let held = if gated > 0 {
        format!(
            "; {gated} {} held back by scheduling gates",
            plural(gated, "is", "are")
        )
    } else {
        String::new()
    };
    let held = if on_volumes > 0 {
        format!(
            "{held}; {on_volumes} {} held by {} volumes (PersistentVolumeClaims)",
            plural(on_volumes, "is", "are"),
            plural(on_volumes, "its", "their"),
        )
    } else {
        held
    };
    let mut s = format!(
        "{} {} {scope} {} pending on DRA; {} {} the devices {} claims need{held}.\n",
        decided.len(),
        plural(decided.len(), "pod", "pods"),
        plural(decided.len(), "is", "are"),
        blocked,
        plural(blocked, "cannot get", "cannot get"),
        plural(blocked, "its", "their"),
    );
    if args.in_order {
        s.push_str("Placed one after another in the scheduler's queue order (priority, then creation time), each on\nthe first node that fits in name order, each placement holding its devices for the next.\n\n");
    } else {
        s.push_str("Each pod is decided alone, as the scheduler's next attempt for it would be; pending pods compete\nfor the same devices, so fewer may fit together (--in-order places them one after another).\n\n");
    }
    for &g in order {
        let gr = &groups[g];
        let closest = gr
            .closest
            .as_deref()
            .map(|n| format!(", closest node {}", strict(n)))
            .unwrap_or_default();
        // Readable at 100 columns: the words wrap under themselves.
        let head = format!("{:>5} {}  ", gr.pods, plural(gr.pods, "pod ", "pods"));
        // A CEL compile error's snippet (the expression and a caret under
        // the column) is kept as it is, under the wrapped first line.
        let (first, snippet) = gr.reason.split_once('\n').unwrap_or((&gr.reason, ""));
        let body = format!("{}: {}", strict(&gr.kind), strict(first));
        let indent = " ".repeat(head.len());
        let options = textwrap::Options::new(100)
            .initial_indent(&head)
            .subsequent_indent(&indent);
        s.push_str(&textwrap::fill(&body, options));
        for line in snippet.lines() {
            s.push_str(&format!("\n{indent}{}", strict(line)));
        }
        s.push_str(&format!(
            "\n{indent}e.g. {}{closest}\n",
            strict(&gr.example)
        ));
    }
    let shown = if args.all {
        decided.len()
    } else {
        LISTED_PODS.min(decided.len())
    };
    let width = decided[..shown]
        .iter()
        .map(|d| d.pod.chars().count())
        .max()
        .unwrap_or(0);
    s.push('\n');
    for d in &decided[..shown] {
        // A pod whose claims fit is still pending: say so, not "Schedulable".
        let fate = match &d.explain {
            _ if d.placed_on.is_some() => {
                format!(
                    "placed on {}",
                    strict(d.placed_on.as_deref().unwrap_or_default())
                )
            }
            Ok(_) if groups[d.group].fits => "Pending (its claims fit)".to_owned(),
            Ok(_) if groups[d.group].gated() => "Pending (gated)".to_owned(),
            Ok(v) => v["verdict"]["fate"].as_str().unwrap_or("?").to_owned(),
            Err(_) => "Undecided".to_owned(),
        };
        let rank = order.iter().position(|&o| o == d.group).unwrap_or(0) + 1;
        s.push_str(&format!(
            "  {:<width$}  cause {rank}  {fate}\n",
            strict(&d.pod)
        ));
    }
    if shown < decided.len() {
        s.push_str(&format!(
            "  ({} more; --all lists every pod, -o json has each pod's whole answer)\n",
            decided.len() - shown
        ));
    }
    s
}
