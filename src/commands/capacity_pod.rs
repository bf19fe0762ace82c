//! `kubectl dra capacity pod NS/NAME` and `capacity workload FILE`: how
//! many more copies of a pod fit. Each copy makes the claims of the pod's
//! templates again (merged into one claim spec by
//! [`dra_core::pod_claims`]), runs only where the pod may (node selector,
//! affinity, taints: the scheduler's node filters), and shares the claims
//! the pod names, which pin every copy to the nodes their allocation admits.

use dra_core::capacity::{NodeCapacity, Stop};
use dra_core::model::{Object, ObjectKind};
use dra_core::pod_affinity::Reason;
use dra_core::scheduling::{NodeFit, PodConstraints};
use dra_core::verdict::CauseKind;
use serde_json::json;

use crate::cli::{CapacityArgs, MatchOutput};
use crate::commands::source::{self, Inventory};
use crate::Outcome;

pub fn run(args: &CapacityArgs, mut inv: Inventory) -> Result<Outcome, String> {
    // A workload file: its objects join the inventory (its templates are
    // found there), and its first pod template is the one copied.
    let pod_ref = if args.kind == "workload" {
        let sources = source::read_sources(&[args.name.clone().into()])?;
        let (objects, problems) =
            dra_core::lint::load_objects(&sources, dra_core::yaml::Limits::default());
        if let Some(p) = problems.first() {
            return Err(p.located(&args.name));
        }
        let workload = objects
            .iter()
            .find(|o| o.kind == ObjectKind::Workload && o.pod_spec().is_some())
            .ok_or_else(|| {
                format!(
                    "{}: no Pod or workload with a pod template (Deployment, StatefulSet, Job, ...)",
                    args.name
                )
            })?;
        let r = (
            workload.reference.kind.clone(),
            workload.namespace_or_default().to_owned(),
            workload.name().unwrap_or_default().to_owned(),
        );
        dra_core::whatif::apply(&mut inv.objects, objects);
        r
    } else {
        let (ns, name) = args
            .name
            .split_once('/')
            .unwrap_or((inv.namespace.as_str(), args.name.as_str()));
        ("Pod".to_owned(), ns.to_owned(), name.to_owned())
    };
    let (kind, ns, name) = &pod_ref;
    let pod = inv
        .objects
        .iter()
        .find(|o| {
            o.kind == ObjectKind::Workload
                && &o.reference.kind == kind
                && o.namespace_or_default() == ns
                && o.name() == Some(name.as_str())
        })
        .ok_or_else(|| format!("no {kind} {ns}/{name} in the inventory"))?;
    let merged = dra_core::pod_claims::of(pod, &inv.objects)?;
    // By name: a fleet has thousands of nodes (a search per node was
    // quadratic).
    let node_objects: std::collections::HashMap<&str, &Object> = inv
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(|o| Some((o.name()?, o)))
        .rev()
        .collect();
    let node_object = |n: &str| node_objects.get(n).copied();
    // Shared claims pin the copies: each must be allocated already.
    let mut pinned: Option<Vec<String>> = None;
    for shared in &merged.shared {
        let (cns, cname) = shared.split_once('/').unwrap_or(("", shared));
        let claim = inv
            .objects
            .iter()
            .find(|o| {
                o.kind == ObjectKind::ResourceClaim
                    && o.namespace_or_default() == cns
                    && o.name() == Some(cname)
            })
            .ok_or_else(|| format!("no ResourceClaim {shared} (every copy of {kind} {ns}/{name} shares it) in the inventory"))?;
        let decoded = dra_core::dra::Claim::decode(claim);
        let Some(allocation) = decoded.allocation else {
            return Err(format!("ResourceClaim {shared}, which every copy of {kind} {ns}/{name} shares, is not allocated yet: the first copy would allocate it; count the pod's templates with `capacity template`, or explain the pod"));
        };
        if let Some(sel) = allocation.node_selector {
            let admits: Vec<String> = nodes_of(&inv.objects)
                .into_iter()
                .filter(|n| {
                    let labels = node_object(n)
                        .and_then(|o| o.root.get("metadata"))
                        .and_then(|m| m.get("labels"));
                    dra_core::allocate::node_selector_matches(sel, n, labels)
                })
                .collect();
            pinned = Some(match pinned {
                Some(p) => p.into_iter().filter(|n| admits.contains(n)).collect(),
                None => admits,
            });
        }
    }
    let constraints = PodConstraints::of(pod);
    // NodeResourcesFit: a copy needs the node's cpu, memory, ... too.
    let resources = dra_core::node_fit::PodResources::of(pod, &inv.objects, &inv.gates);
    let usage = dra_core::node_fit::NodeUsage::of(&inv.objects, &inv.gates);
    // What the pods bound or nominated there do to each node: NodePorts,
    // NodeResourcesFit's usage, PodTopologySpread, InterPodAffinity.
    let around = dra_core::neighbours::Neighbours::of(pod, &inv.objects, &inv.gates, &usage);
    let node_index: std::collections::HashMap<&str, usize> = inv
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kind == ObjectKind::Node)
        .filter_map(|(i, o)| Some((o.name()?, i)))
        .rev()
        .collect();
    let index = |n: &str| node_index.get(n).copied();
    let fit_bound = |n: &str| {
        let used = index(n).and_then(|i| around.used(i));
        node_object(n).and_then(|o| resources.copies_on(o, used.as_deref()))
    };
    // Copies ask for the same host ports: a node takes one at most.
    let ports = dra_core::node_ports::NodePorts::prefilter(pod);
    let ports_taken = |n: &str| index(n).is_some_and(|i| around.ports_taken(i));
    let inter_pod_rules_out = |n: &str| index(n).and_then(|i| around.after_resources(i));
    // VolumeBinding and VolumeZone: the copies share the pod's PVCs. A
    // generic ephemeral volume's PVC would be made for each copy anew, so
    // a pod with one is not checked.
    let claims_of_volumes = dra_core::volumes::pod_claims(pod);
    let storage =
        (!claims_of_volumes.is_empty()).then(|| dra_core::volumes::Storage::of(&inv.objects));
    let ephemeral = claims_of_volumes.iter().any(|(_, e)| *e);
    let check = storage
        .as_ref()
        .and_then(|s| source::volume_check(&inv, pod, s));
    let volumes = match (ephemeral, check) {
        (true, _) | (_, None) => None,
        (false, Some(Err(stop))) => {
            return Err(format!(
                "{kind} {ns}/{name}: kube-scheduler's {} stops it before any node is tried: {}; no copy fits until its volumes do",
                stop.plugin, stop.message
            ))
        }
        (false, Some(Ok(filter))) => filter,
    };
    let volumes_rule_out = |n: &str| {
        let (reasons, why) = volumes.as_ref()?.verdict(node_object(n)?);
        let words = reasons.join(", ");
        (!reasons.is_empty()).then(|| match why {
            Some(why) => format!("{words} ({why})"),
            None => words,
        })
    };

    let mut counts: Vec<NodeCapacity> = Vec::new();
    let mut counted: Vec<String> = Vec::new();
    for n in nodes_of(&inv.objects) {
        if args.common.node.as_ref().is_some_and(|only| *only != n) {
            continue;
        }
        let excluded = |reason: String| NodeCapacity {
            node: n.clone(),
            copies: 0,
            stop: Stop::Unsatisfiable {
                kind: CauseKind::PodExcluded,
                reason,
            },
            shared_pools: Vec::new(),
            maximum: None,
            counted_as: None,
            upper: None,
        };
        if pinned.as_ref().is_some_and(|p| !p.contains(&n)) {
            counts.push(excluded(format!(
                "the pod cannot run there: its shared claims ({}) are allocated for other nodes",
                merged.shared.join(", ")
            )));
            continue;
        }
        match constraints.fit(&n, node_object(&n)) {
            NodeFit::Excluded(why) => {
                counts.push(excluded(format!("the pod cannot run there: {why}")))
            }
            NodeFit::Fits | NodeFit::Unchecked if ports_taken(&n) => counts.push(excluded(
                format!("the pod cannot run there: {}", dra_core::node_ports::REASON),
            )),
            NodeFit::Fits | NodeFit::Unchecked => match fit_bound(&n) {
                Some((0, why)) => counts.push(excluded(format!("the pod cannot run there: {why}"))),
                _ => match volumes_rule_out(&n)
                    .or_else(|| inter_pod_rules_out(&n).map(str::to_owned))
                {
                    Some(r) => counts.push(excluded(format!("the pod cannot run there: {r}"))),
                    None => counted.push(n),
                },
            },
        }
    }
    if counts.is_empty() && counted.is_empty() {
        return Err("no node to count on: the inventory names none".into());
    }
    let mut devices = dra_core::capacity::capacity(
        &inv.objects,
        &inv.gates,
        &merged.spec,
        ns,
        &counted,
        args.max_per_node,
    );
    // The devices would take more copies than the node's cpu, memory, pods
    // (or a device plugin's resources) let on: those stop the count.
    for c in &mut devices {
        let Some((most, why)) = fit_bound(&c.node) else {
            continue;
        };
        if most < c.copies || (most == c.copies && c.stop == Stop::Bound) {
            c.copies = most;
            c.stop = Stop::Unsatisfiable {
                kind: CauseKind::InsufficientResource,
                reason: format!("the next copy cannot run there: {why}"),
            };
            c.counted_as = None;
            if let Some(m) = &mut c.maximum {
                m.copies = m.copies.min(most);
            }
        }
    }
    if ports.is_some() {
        for c in devices.iter_mut().filter(|c| c.copies > 1) {
            c.copies = 1;
            c.stop = Stop::Unsatisfiable {
                kind: CauseKind::PodExcluded,
                reason: format!(
                    "the next copy cannot run there: {} (each copy asks for the same host ports)",
                    dra_core::node_ports::REASON
                ),
            };
            c.counted_as = None;
            if let Some(m) = &mut c.maximum {
                m.copies = m.copies.min(1);
            }
        }
    }
    // Each copy moves the spread: copies go where the DoNotSchedule
    // constraints let them, one after another.
    if let Some(spread) = around.spread() {
        let room: Vec<(&Object, usize)> = devices
            .iter()
            .filter_map(|c| Some((node_object(&c.node)?, c.copies)))
            .collect();
        let placed = (room.len() == devices.len())
            .then(|| spread.place_copies(&room))
            .flatten();
        if let Some(placed) = placed {
            for (c, most) in devices.iter_mut().zip(placed) {
                if most < c.copies {
                    c.copies = most;
                    c.stop = Stop::Unsatisfiable {
                        kind: CauseKind::PodExcluded,
                        reason: format!(
                            "the next copy cannot run there: {} (each copy moves the spread)",
                            dra_core::topology_spread::Reason::ConstraintsNotMatch.message()
                        ),
                    };
                    c.counted_as = None;
                    if let Some(m) = &mut c.maximum {
                        m.copies = m.copies.min(most);
                    }
                }
            }
        }
    }
    // Copies whose anti-affinity meets their own kind take one node per
    // domain of its topology keys (most copies first).
    if let Some(state) = around.inter_pod() {
        let keys = state.self_exclusive_keys(pod);
        if !keys.is_empty() {
            one_per_domain(&mut devices, &keys, node_object);
        }
        // A pod that starts a group: every copy joins the first's domain.
        if let Some(keys) = state.own_group_keys() {
            one_domain(&mut devices, &keys, node_object);
        }
    }
    counts.extend(devices);
    counts.sort_by(|a, b| b.copies.cmp(&a.copies).then_with(|| a.node.cmp(&b.node)));
    let total: usize = counts.iter().map(|c| c.copies).sum();
    let taking = counts.iter().filter(|c| c.copies > 0).count();
    let what = format!("{kind} {ns}/{name}");
    let stdout = match args.common.output {
        MatchOutput::Json => crate::render::stream_json(&json!({
            "of": {"kind": kind, "namespace": ns, "name": name},
            "templates": merged.templates.iter().map(|(c, t)| json!({"podClaim": c, "template": t})).collect::<Vec<_>>(),
            "sharedClaims": merged.shared,
            "total": total,
            "nodesTaking": taking,
            "nodes": counts,
            "maxPerNode": args.max_per_node,
        })),
        MatchOutput::Text => {
            let mut t = super::capacity::text(&what, total, taking, &counts, args.common.all_nodes);
            let made: Vec<String> = merged
                .templates
                .iter()
                .map(|(c, t)| format!("{c} from {t}"))
                .collect();
            t.push_str(&format!(
                "Each copy makes its claims anew ({}){}.\n",
                made.join(", "),
                if merged.shared.is_empty() {
                    String::new()
                } else {
                    format!(" and shares {}", merged.shared.join(", "))
                }
            ));
            crate::render::terminal::strict(&t).into_owned()
        }
    };
    std::mem::forget(inv);
    Ok(Outcome { stdout, code: 0 })
}

/// Every node the inventory names (Nodes, and the nodes of node-local
/// slices), sorted.
fn nodes_of(objects: &[Object]) -> Vec<String> {
    let mut nodes: Vec<String> = objects
        .iter()
        .filter_map(|o| match o.kind {
            ObjectKind::Node => o.name().map(str::to_owned),
            ObjectKind::ResourceSlice => o
                .spec()
                .and_then(|s| s.get("nodeName"))
                .and_then(dra_core::tree::Node::as_str)
                .map(str::to_owned),
            _ => None,
        })
        .collect();
    nodes.sort();
    nodes.dedup();
    nodes
}

/// Two copies of a pod whose required anti-affinity meets itself never
/// share a domain (a value of one of `keys` on their nodes): the node of
/// each domain with the most copies keeps one, the others none. A node
/// without the label is not limited by that key.
fn one_per_domain<'o>(
    counts: &mut [NodeCapacity],
    keys: &[&str],
    node_object: impl Fn(&str) -> Option<&'o Object>,
) {
    counts.sort_by(|a, b| b.copies.cmp(&a.copies).then_with(|| a.node.cmp(&b.node)));
    let mut taken: std::collections::HashSet<(&str, &str)> = Default::default();
    for c in counts.iter_mut().filter(|c| c.copies > 0) {
        let Some(node) = node_object(&c.node) else {
            continue;
        };
        let domains: Vec<(&str, &str)> = keys
            .iter()
            .filter_map(|k| Some((*k, dra_core::pod_affinity::node_label(node, k)?)))
            .collect();
        if domains.is_empty() {
            continue;
        }
        let shared = domains.iter().any(|d| taken.contains(d));
        taken.extend(domains);
        if !shared && c.copies == 1 {
            // One copy is all it takes anyway: its own stop stands.
            continue;
        }
        let reason = if shared {
            c.copies = 0;
            format!(
                "the pod cannot run there beside another copy: {} (one copy per {})",
                Reason::AntiAffinityRulesNotMatch.message(),
                keys.join(", ")
            )
        } else {
            c.copies = 1;
            format!(
                "the next copy cannot run there: {} (one copy per {})",
                Reason::AntiAffinityRulesNotMatch.message(),
                keys.join(", ")
            )
        };
        c.stop = Stop::Unsatisfiable {
            kind: CauseKind::PodExcluded,
            reason,
        };
        c.counted_as = None;
        if let Some(m) = &mut c.maximum {
            m.copies = m.copies.min(c.copies);
        }
    }
}

/// Copies of a pod that starts a group (its affinity to its own kind, no
/// such pod running yet) all go to the first copy's domain of `keys`: the
/// domain whose nodes take the most copies keeps them, the others none.
fn one_domain<'o>(
    counts: &mut [NodeCapacity],
    keys: &[&str],
    node_object: impl Fn(&str) -> Option<&'o Object>,
) {
    let domain = |c: &NodeCapacity| -> Option<Vec<&'o str>> {
        let node = node_object(&c.node)?;
        keys.iter()
            .map(|k| dra_core::pod_affinity::node_label(node, k))
            .collect()
    };
    let mut totals: std::collections::BTreeMap<Vec<&str>, usize> = Default::default();
    for c in counts.iter() {
        if let Some(d) = domain(c) {
            *totals.entry(d).or_default() += c.copies;
        }
    }
    // The most copies; the first domain in name order on a tie.
    let Some(best) = totals
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(d, _)| d.clone())
    else {
        return;
    };
    for c in counts.iter_mut().filter(|c| c.copies > 0) {
        if domain(c).as_ref() == Some(&best) {
            continue;
        }
        c.copies = 0;
        c.stop = Stop::Unsatisfiable {
            kind: CauseKind::PodExcluded,
            reason: format!(
                "the pod cannot run there beside the other copies: {} (the copies share one {} domain: the pod's affinity to its own kind)",
                Reason::AffinityRulesNotMatch.message(),
                keys.join(", ")
            ),
        };
        c.counted_as = None;
        if let Some(m) = &mut c.maximum {
            m.copies = 0;
        }
    }
}
