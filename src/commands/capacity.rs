//! `kubectl dra capacity claim|template NAME` (pods and workloads:
//! [`super::capacity_pod`]): how many more copies fit, in
//! total and per node, and what stops the next copy on each (the core's
//! [`dra_core::capacity`]).

use comfy_table::{presets, CellAlignment, Table};
use dra_core::capacity::{NodeCapacity, Stop};
use dra_core::model::ObjectKind;
use serde_json::json;

use crate::cli::{CapacityArgs, MatchOutput};
use crate::cluster::Needs;
use crate::commands::source;
use crate::Outcome;

/// Nodes listed in text unless `--all-nodes`.
const LISTED: usize = 20;

pub fn run(args: &CapacityArgs) -> Result<Outcome, String> {
    let common = &args.common;
    let mut inv = source::load(
        &common.files,
        &common.cluster,
        &common.target,
        common.namespace.as_deref(),
        |ns| {
            // `capacity pod NS/NAME`: the pod's namespace, not the
            // context's, holds its templates and claims.
            let pod = (args.kind == "pod").then(|| {
                let (pns, name) = args.name.split_once('/').unwrap_or((ns, &args.name));
                (pns.to_owned(), name.to_owned())
            });
            let ns = pod.as_ref().map_or(ns, |(pns, _)| pns.as_str());
            let volumes = pod.as_ref().map(|(pns, _)| pns.clone());
            Needs {
                slices: true,
                classes: true,
                claims: true,
                claims_namespace: Some(ns.to_owned()),
                templates: match args.kind.as_str() {
                    "template" | "pod" => Some(ns.to_owned()),
                    // The file's namespace is known only once it is read.
                    "workload" => Some(String::new()),
                    _ => None,
                },
                pod,
                nodes: true,
                taint_rules: true,
                bound_pods: matches!(args.kind.as_str(), "pod" | "workload"),
                // VolumeBinding and VolumeZone, if the pod has PVC volumes.
                volumes,
                ..Needs::default()
            }
        },
        common.output == MatchOutput::Text,
    )?;
    source::what_if(&mut inv.objects, &common.what_if)?;
    if matches!(args.kind.as_str(), "pod" | "workload") {
        return super::capacity_pod::run(args, inv);
    }
    let (ns, name) = args
        .name
        .split_once('/')
        .unwrap_or((inv.namespace.as_str(), args.name.as_str()));
    let (kind, shown) = match args.kind.as_str() {
        "template" => (ObjectKind::ResourceClaimTemplate, "ResourceClaimTemplate"),
        _ => (ObjectKind::ResourceClaim, "ResourceClaim"),
    };
    let object = inv
        .objects
        .iter()
        .find(|o| o.kind == kind && o.namespace_or_default() == ns && o.name() == Some(name))
        .ok_or_else(|| format!("no {shown} {ns}/{name} in the inventory"))?;
    let spec = match kind {
        ObjectKind::ResourceClaimTemplate => object.spec().and_then(|s| s.get("spec")),
        _ => object.spec(),
    }
    .ok_or_else(|| format!("{shown} {ns}/{name} has no spec"))?
    .clone();
    let mut nodes: Vec<String> = inv
        .objects
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
        .filter(|n| common.node.as_ref().is_none_or(|only| only == n))
        .collect();
    nodes.sort();
    nodes.dedup();
    if nodes.is_empty() {
        return Err("no node to count on: the inventory names none".into());
    }
    // A cordoned node (`kubectl drain`, `--drain`) takes no new pod, so no
    // copy of the claim either.
    let cordoned = |n: &String| {
        inv.objects.iter().any(|o| {
            o.kind == ObjectKind::Node
                && o.name() == Some(n.as_str())
                && o.spec()
                    .and_then(|s| s.get("unschedulable"))
                    .and_then(dra_core::tree::Node::as_bool)
                    == Some(true)
        })
    };
    let (closed, open): (Vec<String>, Vec<String>) = nodes.into_iter().partition(cordoned);
    let mut counts = dra_core::capacity::capacity(
        &inv.objects,
        &inv.gates,
        &spec,
        ns,
        &open,
        args.max_per_node,
    );
    counts.extend(closed.into_iter().map(|node| NodeCapacity {
        node,
        copies: 0,
        stop: Stop::Unsatisfiable {
            kind: dra_core::verdict::CauseKind::PodExcluded,
            reason:
                "the node is cordoned (spec.unschedulable): no new pod is scheduled there".into(),
        },
        shared_pools: Vec::new(),
        maximum: None,
        counted_as: None,
        upper: None,
    }));
    counts.sort_by(|a, b| b.copies.cmp(&a.copies).then_with(|| a.node.cmp(&b.node)));
    let total: usize = counts.iter().map(|c| c.copies).sum();
    let taking = counts.iter().filter(|c| c.copies > 0).count();
    let what = format!("{shown} {ns}/{name}");
    let stdout = match common.output {
        MatchOutput::Json => crate::render::stream_json(&json!({
            "of": {"kind": shown, "namespace": ns, "name": name},
            "total": total,
            "nodesTaking": taking,
            "nodes": counts,
            "maxPerNode": args.max_per_node,
        })),
        MatchOutput::Text => text(&what, total, taking, &counts, common.all_nodes),
    };
    std::mem::forget(inv);
    Ok(Outcome { stdout, code: 0 })
}

pub(super) fn stop_text(c: &NodeCapacity, max: bool) -> String {
    match &c.stop {
        Stop::Unsatisfiable { kind, reason } => {
            format!(
                "{}: {reason}",
                serde_json::to_value(kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            )
        }
        Stop::Error { error } => format!("error: {error}"),
        Stop::Bound if max => "the --max-per-node bound: more may fit".into(),
        Stop::Bound => String::new(),
    }
}

pub(super) fn text(
    what: &str,
    total: usize,
    taking: usize,
    counts: &[NodeCapacity],
    all: bool,
) -> String {
    use crate::render::terminal::{one_line, strict};
    let mut s = format!(
        "{total} more {} of {} fit, on {taking} of {} node{} (each copy allocated after the ones before it, holding its devices).\n",
        if total == 1 { "copy" } else { "copies" },
        strict(what),
        counts.len(),
        if counts.len() == 1 { "" } else { "s" },
    );
    let most: usize = counts
        .iter()
        .map(|c| c.maximum.as_ref().map_or(c.copies, |m| m.copies))
        .sum();
    if most > total {
        s.push_str(&format!(
            "Packed otherwise than first fit, {most} fit together: the order copies arrive in decides how many (per node below).\n"
        ));
    }
    let mut t = Table::new();
    t.load_preset(presets::NOTHING);
    t.set_header(["NODE", "MORE", "WHAT STOPS THE NEXT COPY"]);
    let shown = if all {
        counts.len()
    } else {
        LISTED.min(counts.len())
    };
    for c in &counts[..shown] {
        let mut stop = stop_text(c, true);
        match &c.maximum {
            Some(m) if m.copies > c.copies => stop.push_str(&format!(
                "; packed otherwise, {}{} fit together",
                if m.exact { "" } else { "at least " },
                m.copies
            )),
            Some(m) if !m.exact && c.copies > 0 && !matches!(c.stop, Stop::Bound) => stop.push_str(
                "; whether more fit packed otherwise is unknown (the search budget ran out)",
            ),
            _ => {}
        }
        if let Some(like) = &c.counted_as {
            // Its words name the other node's devices: said once, there.
            stop = format!("as on {like} (the same devices and claims)");
        }
        if !c.shared_pools.is_empty() {
            stop.push_str(&format!(
                " (takes from pools shared with other nodes: {}; nodes are filled in name order, each after the copies on the nodes before it)",
                c.shared_pools.join(", ")
            ));
        }
        t.add_row(
            [c.node.clone(), c.copies.to_string(), stop]
                .map(|c| strict(&one_line(&c)).into_owned()),
        );
    }
    if let Some(col) = t.column_mut(1) {
        col.set_cell_alignment(CellAlignment::Right);
    }
    s.push_str(&format!("{t}\n"));
    if shown < counts.len() {
        s.push_str(&format!(
            "({} more nodes; --all-nodes lists each, -o json has all)\n",
            counts.len() - shown
        ));
    }
    s.lines().map(|l| l.trim_end().to_owned() + "\n").collect()
}
