//! `kubectl dra explain claim CLAIM... -f PATH... [--node NODE]`.

use dra_core::allocate::{self, Outcome};
use dra_core::lint::{self};
use dra_core::model::{Object, ObjectKind};
use dra_core::tree::Node;
use dra_core::yaml::Limits;
use serde_json::{json, Value};

use crate::cli::{ExplainClaimArgs, MatchOutput};
use crate::commands::lint::gates_from;
use crate::commands::matching::read_sources;
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

fn node_json(node: &str, claims: &[&Object], outcome: &Outcome) -> Value {
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
            "claims": claims.iter().zip(allocs).map(|(o, a)| claim_json(o, json!({
                "devices": {"results": a.results},
                "nodeSelector": a.node_selector,
            }), json!({"devices": a.results.iter().map(|r| format!("{}/{}/{}", r.driver, r.pool, r.device)).collect::<Vec<_>>()}))).collect::<Vec<_>>(),
        }),
        Outcome::Unsatisfiable { reasons, funnels } => json!({
            "node": node, "result": "unsatisfiable", "error": null,
            "claims": claims.iter().map(|o| {
                let me = format!("{}/{}", o.namespace().unwrap_or("default"), o.name().unwrap_or_default());
                let mine: Vec<_> = funnels.iter().filter(|f| f.claim == me).collect();
                claim_json(o, Value::Null, json!({"reasons": reasons, "requests": mine}))
            }).collect::<Vec<_>>(),
        }),
        Outcome::Error { error } => json!({
            "node": node, "result": "error", "error": error,
            "claims": claims.iter().map(|o| claim_json(o, Value::Null, json!({"error": error}))).collect::<Vec<_>>(),
        }),
    }
}

pub fn run(args: &ExplainClaimArgs) -> Result<CmdOutcome, String> {
    let gates = gates_from(&args.kubernetes_version, &args.feature_gates)?;
    let sources = read_sources(&args.files)?;
    let (objects, problems) = lint::load_objects(&sources, Limits::default());
    if let Some(p) = problems.first() {
        let name = sources.get(p.file).map_or("<input>", |s| s.name.as_str());
        return Err(format!("{name}: {}", p.message));
    }
    let mut claims = Vec::new();
    for c in &args.claims {
        let (ns, name) = c.split_once('/').unwrap_or((&args.namespace, c));
        let obj = objects
            .iter()
            .find(|o| {
                o.kind == ObjectKind::ResourceClaim
                    && o.name() == Some(name)
                    && o.namespace().unwrap_or("default") == ns
            })
            .ok_or_else(|| format!("no ResourceClaim {ns}/{name} in the files given"))?;
        claims.push(obj);
    }
    let targets = match &args.node {
        Some(n) => vec![n.clone()],
        None => nodes(&objects),
    };
    let allocator = allocate::Allocator::new(&objects, &gates, &claims);
    let per_node: Vec<(String, Outcome)> = targets
        .iter()
        .map(|n| (n.clone(), allocator.on_node(n)))
        .collect();
    let allocated = per_node
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Allocated { .. }))
        .count();
    let errors = per_node
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Error { .. }))
        .count();
    let stdout = match args.output {
        MatchOutput::Json => {
            let v = if args.node.is_some() {
                node_json(&per_node[0].0, &claims, &per_node[0].1)
            } else {
                json!({
                    "nodes": per_node.iter().map(|(n, o)| node_json(n, &claims, o)).collect::<Vec<_>>(),
                    "summary": {"nodes": per_node.len(), "allocated": allocated, "errors": errors,
                                "unsatisfiable": per_node.len() - allocated - errors},
                })
            };
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        MatchOutput::Text => text(&claims, &per_node),
    };
    // 0: the claims fit on some node tried; 1: they fit nowhere (or the scheduler errs).
    let code = if allocated > 0 { 0 } else { 1 };
    Ok(CmdOutcome { stdout, code })
}

fn text(claims: &[&Object], per_node: &[(String, Outcome)]) -> String {
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
    for (node, o) in per_node {
        match o {
            Outcome::Allocated { claims } => {
                out.push_str(&format!("{}: allocated on {node}\n", names.join(", ")));
                for c in claims {
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
            }
            Outcome::Unsatisfiable { reasons, funnels } => {
                out.push_str(&format!(
                    "{} cannot be allocated on {node}.\n",
                    names.join(", ")
                ));
                for f in funnels {
                    out.push_str(&format!(
                        "\n  request {:?} of {} ({} needed)\n",
                        f.request, f.claim, f.needed
                    ));
                    out.push_str(&format!("  {:>6}  devices on {node}\n", f.devices));
                    out.push_str(&format!(
                        "  {:>6}  pass the class selectors\n",
                        f.pass_class
                    ));
                    out.push_str(&format!(
                        "  {:>6}  pass the request selectors\n",
                        f.pass_request
                    ));
                    let held = if f.held_by.is_empty() {
                        String::new()
                    } else {
                        format!("   (held by {})", f.held_by.join(", "))
                    };
                    out.push_str(&format!("  {:>6}  not in use{held}\n", f.free));
                    out.push_str(&format!(
                        "  {:>6}  not tainted, or tolerated\n",
                        f.untainted
                    ));
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
                    "{}: the scheduler fails on {node} with an error:\n  {error}\n",
                    names.join(", ")
                ));
            }
        }
    }
    out
}
