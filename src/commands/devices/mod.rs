//! `kubectl dra devices`: one row per device, with who holds it (or, with
//! `--summary`, counts per group: [`summary`]).

mod summary;

use comfy_table::{presets, Table};
use dra_core::cel::Env;
use dra_core::inventory;
use dra_core::model::ObjectKind;
use dra_core::tree::Node;
use dra_core::usage::{self, DeviceRow};

use crate::cli::{DevicesArgs, DevicesOutput};
use crate::cluster::Needs;
use crate::commands::source;
use crate::Outcome;

mod stream;

fn state_text(r: &DeviceRow) -> String {
    let held = held_text(r);
    // A held device's taints still matter: NoExecute evicts its pods
    // unless their claims tolerate it (doctor's DRA-H004 says which).
    if r.holders.is_empty() || r.taints.is_empty() {
        held
    } else {
        format!("{held}, tainted ({})", r.taints.join(", "))
    }
}

fn held_text(r: &DeviceRow) -> String {
    let claims: Vec<String> = r
        .holders
        .iter()
        .map(|h| format!("{}/{}", h.namespace, h.claim))
        .collect();
    match r.state {
        "reserved" => {
            let mut pods: Vec<String> = r
                .holders
                .iter()
                .flat_map(|h| h.reserved_for.iter().cloned())
                .collect();
            pods.dedup();
            format!(
                "reserved for pod {} ({})",
                pods.join(", "),
                claims.join(", ")
            )
        }
        "allocated" => format!("allocated to {}", claims.join(", ")),
        "tainted" => format!("tainted ({})", r.taints.join(", ")),
        "blocked" => match &r.blocked_by {
            Some(b) => format!(
                "blocked: needs {} of counter {}/{}, {} left (used by {})",
                b.needs,
                b.counter_set,
                b.counter,
                b.left,
                if b.claims.is_empty() {
                    "no claim".to_owned()
                } else {
                    b.claims.join(", ")
                }
            ),
            None => "blocked".into(),
        },
        _ => "free".into(),
    }
}

pub fn run(args: &DevicesArgs) -> Result<Outcome, String> {
    if let Some(sel) = &args.selector {
        usage::check_label_selector(sel)?;
    }
    let machine = matches!(
        args.output,
        DevicesOutput::Json | DevicesOutput::Yaml | DevicesOutput::Name
    );
    let inv = source::load(
        &args.files,
        &args.cluster,
        &args.target,
        None,
        |ns| Needs {
            slices: true,
            classes: args.class.is_some() || args.group_by.iter().any(|g| g == "class"),
            claims: true,
            claims_namespace: Some(ns.to_owned()),
            nodes: args.selector.is_some(),
            taint_rules: true,
            ..Needs::default()
        },
        !machine,
    )?;
    let mut inv = inv;
    source::what_if(&mut inv.objects, &args.what_if)?;
    if stream::applies(args) {
        return stream::run(args, &inv);
    }
    let mut rows = usage::device_rows(&inv.objects, &inv.gates);
    if let Some(n) = &args.node {
        rows.retain(|r| &r.node == n);
    }
    if let Some(d) = &args.driver {
        rows.retain(|r| &r.driver == d);
    }
    if let Some(sel) = &args.selector {
        let mut keep = Vec::new();
        for r in rows {
            let labels = inv
                .objects
                .iter()
                .find(|o| o.kind == ObjectKind::Node && o.name() == Some(r.node.as_str()))
                .and_then(|o| o.root.get("metadata"))
                .and_then(|m| m.get("labels"));
            if usage::label_selector_matches(sel, labels)? {
                keep.push(r);
            }
        }
        rows = keep;
    }
    if let Some(class_name) = &args.class {
        let class = inv
            .objects
            .iter()
            .find(|o| o.kind == ObjectKind::DeviceClass && o.name() == Some(class_name.as_str()))
            .ok_or_else(|| format!("no DeviceClass named {class_name:?}"))?;
        let devices = inventory::devices(
            &inv.objects,
            dra_core::cel::list_values_converted(&inv.gates),
        );
        let report = inventory::match_devices("true", Some(class), &devices, &Env::new(&inv.gates));
        if let Some(e) = report.compile_error {
            return Err(e);
        }
        let selected: std::collections::HashSet<(String, String, String)> = report
            .devices
            .into_iter()
            .filter(|m| m.matches == Some(true))
            .map(|m| (m.driver, m.pool, m.device))
            .collect();
        rows.retain(|r| selected.contains(&(r.driver.clone(), r.pool.clone(), r.device.clone())));
    }
    if let Some(key) = args.sort_by {
        use crate::cli::DeviceSort::*;
        rows.sort_by(|a, b| match key {
            Node => a.node.cmp(&b.node),
            Driver => a.driver.cmp(&b.driver),
            Pool => a.pool.cmp(&b.pool),
            Device => a.device.cmp(&b.device),
            State => a.state.cmp(b.state),
        });
    }
    // Listed once, with why: the scheduler uses none of their devices.
    let invalid = usage::invalid_pools(&inv.objects);
    if args.summary {
        return summary::render(args, &rows, &inv, &invalid);
    }
    let stdout = match args.output {
        DevicesOutput::Name => rows
            .iter()
            .map(|r| {
                let id = format!("{}/{}/{}", r.driver, r.pool, r.device);
                crate::render::terminal::strict(&crate::render::terminal::one_line(&id))
                    .into_owned()
                    + "\n"
            })
            .collect(),
        DevicesOutput::Csv => {
            let mut s = String::from("node,driver,pool,device,state\n");
            for r in &rows {
                let cells = [&r.node, &r.driver, &r.pool, &r.device, &r.state.to_owned()]
                    .map(|c| summary::csv_cell(c));
                s.push_str(&cells.join(","));
                s.push('\n');
            }
            s
        }
        DevicesOutput::Json => {
            // Streamed: a fleet's devices are written as they are
            // serialized, not kept twice (a JSON tree, then its text).
            #[derive(serde::Serialize)]
            struct Answer<'a> {
                devices: &'a [usage::DeviceRow],
                #[serde(rename = "invalidPools")]
                invalid_pools: &'a [usage::InvalidPool],
            }
            crate::render::stream_json(&Answer {
                devices: &rows,
                invalid_pools: &invalid,
            })
        }
        DevicesOutput::Yaml => {
            let v = serde_json::json!({"devices": rows, "invalidPools": invalid});
            let node: Node = serde_json::from_value(v).map_err(|e| e.to_string())?;
            node.to_yaml()
        }
        DevicesOutput::Text | DevicesOutput::Wide => {
            let wide = args.output == DevicesOutput::Wide;
            let mut t = Table::new();
            t.load_preset(presets::NOTHING);
            let mut header = vec!["NODE", "DRIVER", "POOL", "DEVICE", "STATE"];
            if wide {
                header.extend(["COUNTERS (NEEDS, POOL USE)", "CAPACITY (CONSUMED/TOTAL)"]);
            }
            if !args.no_headers {
                t.set_header(header);
            }
            for r in &rows {
                let mut cells = vec![
                    r.node.clone(),
                    r.driver.clone(),
                    r.pool.clone(),
                    r.device.clone(),
                    state_text(r),
                ];
                if wide {
                    let fmt = |u: &[usage::Use]| {
                        u.iter()
                            .map(|u| match &u.consumes {
                                Some(c) => format!("{} {c} ({}/{} used)", u.name, u.used, u.total),
                                None => format!("{} {}/{}", u.name, u.used, u.total),
                            })
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    cells.push(fmt(&r.counters));
                    cells.push(fmt(&r.capacity));
                }
                // Escaped before the table measures them, so that a name
                // with control characters keeps its columns aligned.
                t.add_row(cells.iter().map(|c| {
                    crate::render::terminal::strict(&crate::render::terminal::one_line(c))
                        .into_owned()
                }));
            }
            let free = rows.iter().filter(|r| r.state == "free").count();
            if args.no_headers {
                let table = if rows.is_empty() {
                    String::new()
                } else {
                    format!("{t}\n")
                };
                return Ok(Outcome {
                    stdout: table
                        .lines()
                        .map(|l| l.trim_end().to_owned() + "\n")
                        .collect(),
                    code: 0,
                });
            }
            let mut s = if rows.is_empty() {
                "no devices\n".to_owned()
            } else {
                format!("{t}\n")
            };
            s.push_str(&format!(
                "{} devices: {free} free, {} in use\n",
                rows.len(),
                rows.iter().filter(|r| !r.holders.is_empty()).count()
            ));
            for p in &invalid {
                s.push_str(&format!(
                    "pool {}/{} is invalid: {}; the scheduler uses none of its devices\n",
                    p.driver, p.pool, p.reason
                ));
            }
            s.lines().map(|l| l.trim_end().to_owned() + "\n").collect()
        }
    };
    Ok(Outcome { stdout, code: 0 })
}
