//! `kubectl dra explain claim CLAIM... -f PATH... [--node NODE]`.

use dra_core::allocate::{self, Outcome};
use dra_core::model::{Object, ObjectKind};
use dra_core::tree::Node;
use dra_core::yaml::Limits;
use serde_json::{json, Value};

use crate::cli::{ExplainClaimArgs, ExplainCommon, ExplainPodArgs, MatchOutput};
use crate::cluster::Needs;
use crate::commands::source::{self, Inventory};
use crate::Outcome as CmdOutcome;

/// Every node the inventory mentions: Node objects and slice node names.
fn nodes(objects: &[Object]) -> Vec<String> {
    let mut out: Vec<String> = objects
        .iter()
        .filter(|o| o.kind == ObjectKind::Node)
        .filter_map(|o| o.name().map(str::to_owned))
        .collect();
    for s in objects
        .iter()
        .filter(|o| o.kind == ObjectKind::ResourceSlice)
    {
        let spec = s.spec();
        let mut names: Vec<&str> = spec
            .and_then(|sp| sp.get("nodeName"))
            .and_then(Node::as_str)
            .into_iter()
            .collect();
        for d in spec
            .and_then(|sp| sp.get("devices"))
            .and_then(Node::as_seq)
            .unwrap_or_default()
        {
            names.extend(d.get("nodeName").and_then(Node::as_str));
        }
        for n in names {
            if !out.iter().any(|x| x == n) {
                out.push(n.to_owned());
            }
        }
    }
    out.sort();
    out
}

fn node_json(node: &str, claims: &[&Object], outcome: &Outcome, advice: &[String]) -> Value {
    let claim_json = |o: &Object, allocation: Value, explanation: Value| {
        json!({
            "namespace": o.namespace().unwrap_or("default"),
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
            "node": node, "result": "unsatisfiable", "error": null, "advice": advice,
            "claims": claims.iter().map(|o| {
                let me = format!("{}/{}", o.namespace().unwrap_or("default"), o.name().unwrap_or_default());
                let mine: Vec<_> = funnels.iter().filter(|f| f.claim == me).collect();
                let blocked: Vec<_> = constraints.iter().filter(|c| c.claim == me).collect();
                claim_json(o, Value::Null, json!({"reasons": reasons, "requests": mine, "constraints": blocked}))
            }).collect::<Vec<_>>(),
        }),
        Outcome::Error { error } => json!({
            "node": node, "result": "error", "error": error,
            "claims": claims.iter().map(|o| claim_json(o, Value::Null, json!({"error": error}))).collect::<Vec<_>>(),
        }),
    }
}

/// The inventory, from `-f` or the cluster; `pod` is read too when set.
fn load(common: &ExplainCommon, pod: Option<&str>) -> Result<Inventory, String> {
    source::load(
        &common.files,
        &common.cluster,
        &common.target,
        common.namespace.as_deref(),
        |ns| Needs {
            slices: true,
            classes: true,
            claims: true,
            claims_namespace: Some(ns.to_owned()),
            templates: pod.map(|_| ns.to_owned()),
            nodes: true,
            taint_rules: true,
            pod: pod.map(|p| match p.split_once('/') {
                Some((pns, name)) => (pns.to_owned(), name.to_owned()),
                None => (ns.to_owned(), p.to_owned()),
            }),
            pods: None,
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
        .find(|o| {
            o.kind == kind && o.name() == Some(name) && o.namespace().unwrap_or("default") == ns
        })
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
    report(&args.common, gates, objects, &claims)
}

/// `explain pod`: the pod's claims in `spec.resourceClaims` order; a
/// template's claim is built as the resourceclaim controller would
/// (`<pod>-<claim>`), unless it already exists in `status.resourceClaimStatuses`.
pub fn run_pod(args: &ExplainPodArgs) -> Result<CmdOutcome, String> {
    let inv = load(&args.common, Some(&args.pod))?;
    let (gates, objects, place) = (&inv.gates, &inv.objects, place(&inv));
    let (ns, name) = args
        .pod
        .split_once('/')
        .unwrap_or((&inv.namespace, &args.pod));
    let pod = objects
        .iter()
        .find(|o| {
            o.kind == ObjectKind::Workload
                && o.reference.kind == "Pod"
                && o.name() == Some(name)
                && o.namespace().unwrap_or("default") == ns
        })
        .ok_or_else(|| format!("no Pod {ns}/{name} in {place}"))?;
    let spec = pod.pod_spec().ok_or("the Pod has no spec")?;
    let statuses = pod
        .root
        .get("status")
        .and_then(|s| s.get("resourceClaimStatuses"))
        .and_then(Node::as_seq)
        .unwrap_or_default();
    let mut generated_text = Vec::new();
    let mut order: Vec<Result<String, usize>> = Vec::new();
    for c in spec
        .get("resourceClaims")
        .and_then(Node::as_seq)
        .unwrap_or_default()
    {
        let pod_claim = c.get("name").and_then(Node::as_str).unwrap_or_default();
        if let Some(claim_name) = c.get("resourceClaimName").and_then(Node::as_str) {
            order.push(Ok(claim_name.to_owned()));
        } else if let Some(t) = c.get("resourceClaimTemplateName").and_then(Node::as_str) {
            let existing = statuses
                .iter()
                .find(|s| s.get("name").and_then(Node::as_str) == Some(pod_claim))
                .and_then(|s| s.get("resourceClaimName"))
                .and_then(Node::as_str);
            if let Some(e) = existing {
                order.push(Ok(e.to_owned()));
                continue;
            }
            let template = find(
                objects,
                ObjectKind::ResourceClaimTemplate,
                "ResourceClaimTemplate",
                ns,
                t,
                place,
            )?;
            let claim_spec = template
                .spec()
                .and_then(|s| s.get("spec"))
                .map(Node::to_json)
                .unwrap_or(Value::Null);
            let claim = json!({
                "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
                "metadata": {"name": format!("{name}-{pod_claim}"), "namespace": ns},
                "spec": claim_spec,
            });
            order.push(Err(generated_text.len()));
            generated_text.push(claim.to_string());
        }
    }
    // Extended resources backed by DRA: the scheduler's made-up claim, last.
    if let Some(claim) = dra_core::extended::extended_resource_claim(pod, objects, gates) {
        order.push(Err(generated_text.len()));
        generated_text.push(claim.to_string());
    }
    let generated: Vec<Object> = generated_text
        .iter()
        .flat_map(|t| dra_core::model::parse_file(usize::MAX, t, Limits::default()).objects)
        .collect();
    let mut claims = Vec::new();
    for o in &order {
        match o {
            Ok(claim_name) => claims.push(find(
                objects,
                ObjectKind::ResourceClaim,
                "ResourceClaim",
                ns,
                claim_name,
                place,
            )?),
            Err(i) => claims.push(
                generated
                    .get(*i)
                    .ok_or("a template did not produce a claim")?,
            ),
        }
    }
    if claims.is_empty() {
        return Err(format!(
            "Pod {ns}/{name} uses no ResourceClaims and no extended resource a DeviceClass backs"
        ));
    }
    report(&args.common, gates, objects, &claims)
}

fn report(
    common: &ExplainCommon,
    gates: &dra_core::gates::FeatureGates,
    objects: &[Object],
    claims: &[&Object],
) -> Result<CmdOutcome, String> {
    let targets = match &common.node {
        Some(n) => vec![n.clone()],
        None => nodes(objects),
    };
    if targets.is_empty() {
        return Err(
            "no node to try: the inventory names none (give --node, or include Nodes or ResourceSlices)"
                .into(),
        );
    }
    // The clock is read here, at the edge: the core only compares.
    let timeout = (!common.timeout.is_zero()).then_some((
        std::time::Instant::now as fn() -> std::time::Instant,
        common.timeout,
    ));
    let allocator =
        allocate::Allocator::new(objects, gates, claims).with_limits(allocate::Limits {
            steps: allocate::DEFAULT_BUDGET,
            timeout,
        });
    let outcomes = allocator.on_nodes(&targets);
    let per_node: Vec<(String, Outcome)> = targets.into_iter().zip(outcomes).collect();
    // What would help, verified by allocating again with the change; for the
    // first nodes only, as each try is another allocation.
    let advice: Vec<Vec<String>> = per_node
        .iter()
        .enumerate()
        .map(|(i, (node, o))| match o {
            Outcome::Unsatisfiable { funnels, .. } if i < ADVISED_NODES => {
                advise(&allocator, objects, node, funnels)
            }
            _ => Vec::new(),
        })
        .collect();
    let allocated = per_node
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Allocated { .. }))
        .count();
    let errors = per_node
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Error { .. }))
        .count();
    let stdout = match common.output {
        MatchOutput::Json => {
            let v = if common.node.is_some() {
                node_json(&per_node[0].0, claims, &per_node[0].1, &advice[0])
            } else {
                json!({
                    "nodes": per_node.iter().zip(&advice).map(|((n, o), a)| node_json(n, claims, o, a)).collect::<Vec<_>>(),
                    "summary": {"nodes": per_node.len(), "allocated": allocated, "errors": errors,
                                "unsatisfiable": per_node.len() - allocated - errors},
                })
            };
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        MatchOutput::Text => text(claims, &per_node, &advice),
    };
    // 0: the claims fit on some node tried; 1: they fit nowhere (or the scheduler errs).
    let code = if allocated > 0 { 0 } else { 1 };
    Ok(CmdOutcome { stdout, code })
}

/// The step of the funnel where a request dropped below what it needs.
fn blocking_step(f: &allocate::Funnel) -> String {
    let n = f.needed;
    let req = &f.request;
    if f.pass_class < n {
        format!("request {req:?}: fewer than {n} devices pass the class selectors")
    } else if f.pass_request < n {
        format!("request {req:?}: fewer than {n} devices pass the request selectors")
    } else if f.untainted < n {
        format!("request {req:?}: matching devices are tainted")
    } else if f.free < n {
        let by = if f.held_by.is_empty() {
            String::new()
        } else {
            format!(" (held by {})", f.held_by.join(", "))
        };
        format!("request {req:?}: matching devices are allocated{by}")
    } else if f.counters_left < n {
        match &f.shortfall {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: shared counters are used up"),
        }
    } else if f.compatible < n {
        match &f.group_conflict {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: compatibility groups conflict"),
        }
    } else if f.capacity_left < n {
        match &f.capacity_shortfall {
            Some(s) => format!("request {req:?}: {s}"),
            None => format!("request {req:?}: consumable capacity is used up"),
        }
    } else if f.constrained < n {
        match &f.missing_attribute {
            Some(s) => format!("request {req:?}: a constraint's attribute is missing: {s}"),
            None => format!("request {req:?}: a constraint's attribute is missing"),
        }
    } else {
        format!(
            "request {req:?}: shared counters, capacity or constraints rule out every combination"
        )
    }
}

/// Why the claims do not fit on a node, in one line (to group nodes by).
fn blocking_reason(
    reasons: &[String],
    funnels: &[allocate::Funnel],
    constraints: &[allocate::ConstraintBlock],
) -> String {
    if let Some(f) = funnels.iter().find(|f| !f.enough()) {
        return blocking_step(f);
    }
    if let Some(c) = constraints.first() {
        return c.message.clone();
    }
    if !funnels.is_empty() {
        return "every request has enough devices on its own, but shared counters, capacity or constraints rule out every combination".to_owned();
    }
    reasons
        .first()
        .cloned()
        .unwrap_or_else(|| "no allocation".to_owned())
}

/// The funnel of one request as text: the first steps always, the later ones
/// where they drop devices.
fn funnel_text(f: &allocate::Funnel, node: &str) -> String {
    let mut out = format!(
        "\n  request {:?} of {} ({} needed)\n",
        f.request, f.claim, f.needed
    );
    let steps = f.steps();
    for (i, step) in steps.iter().enumerate() {
        let dropped = i > 0 && step.count < steps[i - 1].count;
        if i >= 5 && !dropped {
            continue;
        }
        let label = if i == 0 {
            format!("devices on {node}")
        } else {
            step.label.to_owned()
        };
        let note = match &step.note {
            Some(note) if dropped || step.note_always => format!("   ({note})"),
            _ => String::new(),
        };
        out.push_str(&format!("  {:>6}  {label}{note}\n", step.count));
    }
    if f.constrained < f.needed {
        out.push_str(&format!("  {:>6}  < {} needed\n", f.constrained, f.needed));
    }
    out
}

/// How many unsatisfiable nodes get verified advice.
const ADVISED_NODES: usize = 20;

/// One change that makes the claims fit on the node, verified by allocating
/// again: deleting a claim that holds devices or counters they need, or
/// tolerating the device taints.
fn advise(
    allocator: &allocate::Allocator<'_>,
    objects: &[Object],
    node: &str,
    funnels: &[allocate::Funnel],
) -> Vec<String> {
    let mut holders: Vec<&str> = Vec::new();
    for h in funnels
        .iter()
        .flat_map(|f| f.held_by.iter().chain(&f.counter_holders))
    {
        if !holders.contains(&h.as_str()) {
            holders.push(h);
        }
    }
    for h in holders.iter().take(3) {
        let Some(claim) = objects.iter().find(|o| {
            o.kind == ObjectKind::ResourceClaim
                && format!(
                    "{}/{}",
                    o.namespace().unwrap_or("default"),
                    o.name().unwrap_or_default()
                ) == *h
        }) else {
            continue;
        };
        if allocator.fits_without(node, claim) {
            return vec![format!(
                "It fits on {node} if {h} is deleted (DRA devices are never preempted)."
            )];
        }
    }
    let mut taints: Vec<&str> = Vec::new();
    for t in funnels.iter().flat_map(|f| &f.taints) {
        if !taints.contains(&t.as_str()) {
            taints.push(t);
        }
    }
    if !taints.is_empty() && allocator.fits_tolerating_taints(node) {
        return vec![format!(
            "It fits on {node} if the requests tolerate {}.",
            taints.join(", ")
        )];
    }
    Vec::new()
}

fn text(claims: &[&Object], per_node: &[(String, Outcome)], advice: &[Vec<String>]) -> String {
    let names: Vec<String> = claims
        .iter()
        .map(|o| {
            format!(
                "{}/{}",
                o.namespace().unwrap_or("default"),
                o.name().unwrap_or_default()
            )
        })
        .collect();
    let mut out = String::new();
    let many = per_node.len() > 1;
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for ((node, o), advice) in per_node.iter().zip(advice) {
        match o {
            Outcome::Allocated { claims } => {
                out.push_str(&format!("{}: allocated on {node}\n", names.join(", ")));
                for c in claims {
                    if c.existing {
                        let reserved = if c.reserved_for.is_empty() {
                            "reserved for no pod".to_owned()
                        } else {
                            format!("reserved for {}", c.reserved_for.join(", "))
                        };
                        out.push_str(&format!(
                            "  {}/{} was already allocated (status.allocation), {reserved}; its devices:\n",
                            c.namespace, c.name
                        ));
                    }
                    for r in &c.results {
                        out.push_str(&format!(
                            "  {}/{} request {:<12} -> {}/{}/{}",
                            c.namespace, c.name, r.request, r.driver, r.pool, r.device
                        ));
                        if let Some(cc) = &r.consumed_capacity {
                            let parts: Vec<String> =
                                cc.iter().map(|(k, v)| format!("{k}={v}")).collect();
                            out.push_str(&format!(" (shared, {})", parts.join(", ")));
                        }
                        out.push('\n');
                    }
                }
                if many {
                    out.push('\n');
                }
            }
            Outcome::Unsatisfiable {
                reasons,
                funnels,
                constraints,
            } => {
                let why = blocking_reason(reasons, funnels, constraints);
                match groups.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, nodes)) => nodes.push(node.clone()),
                    None => groups.push((why, vec![node.clone()])),
                }
                out.push_str(&format!(
                    "{} cannot be allocated on {node}.\n",
                    names.join(", ")
                ));
                // Reasons without a funnel (a claim allocated for another node).
                if funnels.is_empty() {
                    for r in reasons {
                        out.push_str(&format!("  {r}\n"));
                    }
                }
                for f in funnels {
                    out.push_str(&funnel_text(f, node));
                }
                for a in advice {
                    out.push_str(&format!("  {a}\n"));
                }
                if funnels.iter().all(allocate::Funnel::enough) && !funnels.is_empty() {
                    out.push_str(
                        "\n  Every request has enough devices on its own, but not together:\n",
                    );
                    for c in constraints {
                        out.push_str(&format!("  - {}: {}\n", c.claim, c.message));
                    }
                    if constraints.is_empty() {
                        out.push_str("  - shared counters, capacity or constraints rule out every combination of them\n");
                    }
                }
                if let Some(r) = reasons
                    .iter()
                    .find(|r| r.contains("invalid resource pools"))
                {
                    out.push_str(&format!("\n  {r}\n"));
                }
                out.push('\n');
            }
            Outcome::Error { error } => {
                out.push_str(&format!(
                    "{}: the scheduler fails on {node} with an error:\n  {error}\n\n",
                    names.join(", ")
                ));
                let why = format!("error: {error}");
                match groups.iter_mut().find(|(w, _)| *w == why) {
                    Some((_, nodes)) => nodes.push(node.clone()),
                    None => groups.push((why, vec![node.clone()])),
                }
            }
        }
    }
    if many {
        let allocated = per_node
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Allocated { .. }))
            .count();
        if allocated == 0 {
            out.push_str(&format!(
                "{} is pending: no node of {} can allocate it.\n",
                names.join(", "),
                per_node.len()
            ));
        } else {
            out.push_str(&format!(
                "{} fits on {allocated} of {} nodes.\n",
                names.join(", "),
                per_node.len()
            ));
        }
        for (why, nodes) in &groups {
            let shown: Vec<&str> = nodes.iter().take(3).map(String::as_str).collect();
            let more = if nodes.len() > 3 {
                format!(", +{}", nodes.len() - 3)
            } else {
                String::new()
            };
            let word = if nodes.len() == 1 { "node " } else { "nodes" };
            out.push_str(&format!(
                "  {:>4} {word}  {why} ({}{more})\n",
                nodes.len(),
                shown.join(", ")
            ));
        }
    }
    out
}
