//! `devices --summary`: what is free per node, driver, pool, class or
//! namespace (the holders'), one level per `-g`, as a tree.

use std::collections::HashMap;

use comfy_table::{presets, CellAlignment, Table};
use dra_core::cel::Env;
use dra_core::inventory;
use dra_core::model::ObjectKind;
use dra_core::usage::{DeviceRow, InvalidPool};
use dra_core::usage_summary::{self, ClassesOf, Group, GroupBy};

use crate::cli::{DevicesArgs, DevicesOutput};
use crate::commands::source::Inventory;
use crate::Outcome;

/// A CSV cell: quoted when it holds a comma, a quote or a line break.
pub fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// The classes that select each device, as the allocator evaluates them.
fn classes_of(inv: &Inventory) -> Result<ClassesOf, String> {
    let devices = inventory::devices(
        &inv.objects,
        dra_core::cel::list_values_converted(&inv.gates),
    );
    let env = Env::new(&inv.gates);
    let mut out = ClassesOf::new();
    for class in inv
        .objects
        .iter()
        .filter(|o| o.kind == ObjectKind::DeviceClass)
    {
        let name = class.name().unwrap_or_default().to_owned();
        let report = inventory::match_devices("true", Some(class), &devices, &env);
        for m in report
            .devices
            .into_iter()
            .filter(|m| m.matches == Some(true))
        {
            out.entry((m.driver, m.pool, m.device))
                .or_default()
                .push(name.clone());
        }
    }
    Ok(out)
}

/// The groups in tree order (each group before its children), siblings by
/// `key`: a count, most first, then name; by name when unset.
fn sorted(mut groups: Vec<Group>, key: Option<&str>) -> Vec<Group> {
    let metric = |g: &Group| match key {
        Some("devices") => g.devices,
        Some("allocated") => g.allocated,
        Some("free") => g.free,
        _ => 0,
    };
    // Each group sorts by its ancestors' (count, name) pairs, then its own:
    // siblings by count, every subtree kept under its parent.
    let by_path: HashMap<Vec<String>, usize> =
        groups.iter().map(|g| (g.keys.clone(), metric(g))).collect();
    let sort_key = |g: &Group| -> Vec<(std::cmp::Reverse<usize>, String)> {
        (1..=g.keys.len())
            .map(|n| {
                let path = &g.keys[..n];
                let m = by_path.get(path).copied().unwrap_or(0);
                (std::cmp::Reverse(m), path[n - 1].clone())
            })
            .collect()
    };
    groups.sort_by_cached_key(sort_key);
    groups
}

fn percent(part: usize, whole: usize) -> String {
    match (part * 100).checked_div(whole) {
        Some(p) => format!("{p}%"),
        None => "-".into(),
    }
}

fn amounts(a: &[usage_summary::Amount]) -> String {
    a.iter()
        .map(|a| format!("{} {}/{}", a.name, a.used, a.total))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn render(
    args: &DevicesArgs,
    rows: &[DeviceRow],
    inv: &Inventory,
    invalid: &[InvalidPool],
) -> Result<Outcome, String> {
    let mut levels: Vec<GroupBy> = args
        .group_by
        .iter()
        .filter_map(|g| GroupBy::parse(g))
        .collect();
    if levels.is_empty() {
        levels.push(GroupBy::Node);
    }
    let classes = if levels.contains(&GroupBy::Class) {
        classes_of(inv)?
    } else {
        HashMap::new()
    };
    let groups = sorted(
        usage_summary::summarize(rows, &levels, &classes),
        args.sort.as_deref(),
    );
    let total = usage_summary::summarize(rows, &[], &classes);
    let stdout = match args.output {
        DevicesOutput::Json | DevicesOutput::Yaml => {
            let v = serde_json::json!({
                "groupBy": args.group_by,
                "groups": groups,
                "total": total.first(),
                "invalidPools": invalid,
            });
            if args.output == DevicesOutput::Json {
                crate::render::stream_json(&v)
            } else {
                let node: dra_core::tree::Node =
                    serde_json::from_value(v).map_err(|e| e.to_string())?;
                node.to_yaml()
            }
        }
        DevicesOutput::Csv => {
            let mut s = String::new();
            let mut header: Vec<String> = levels
                .iter()
                .map(|l| format!("{l:?}").to_lowercase())
                .collect();
            header.extend(
                [
                    "devices",
                    "allocated",
                    "free",
                    "tainted",
                    "blocked",
                    "counters",
                    "capacity",
                ]
                .map(str::to_owned),
            );
            s.push_str(&header.join(","));
            s.push('\n');
            // Only the leaves: each line a full path.
            for g in groups.iter().filter(|g| g.keys.len() == levels.len()) {
                let mut cells: Vec<String> = g.keys.iter().map(|k| csv_cell(k)).collect();
                cells.extend(
                    [g.devices, g.allocated, g.free, g.tainted, g.blocked].map(|n| n.to_string()),
                );
                cells.push(csv_cell(&amounts(&g.counters)));
                cells.push(csv_cell(&amounts(&g.capacity)));
                s.push_str(&cells.join(","));
                s.push('\n');
            }
            s
        }
        DevicesOutput::Name => groups.iter().map(|g| g.keys.join("/") + "\n").collect(),
        DevicesOutput::Text | DevicesOutput::Wide => {
            text(args, &levels, &groups, total.first(), invalid)
        }
    };
    Ok(Outcome { stdout, code: 0 })
}

fn text(
    args: &DevicesArgs,
    levels: &[GroupBy],
    groups: &[Group],
    total: Option<&Group>,
    invalid: &[InvalidPool],
) -> String {
    use crate::render::terminal::{one_line, strict};
    let mut t = Table::new();
    t.load_preset(presets::NOTHING);
    let name = levels
        .iter()
        .map(|l| format!("{l:?}").to_uppercase())
        .collect::<Vec<_>>()
        .join(" / ");
    let mut header = vec![
        name,
        "DEVICES".into(),
        "ALLOCATED".into(),
        "FREE".into(),
        "TAINTED".into(),
        "BLOCKED".into(),
        "USED".into(),
    ];
    let wide = args.output == DevicesOutput::Wide;
    if wide {
        header.extend([
            "COUNTERS (USED/TOTAL)".into(),
            "CAPACITY (CONSUMED/TOTAL)".into(),
        ]);
    }
    if !args.no_headers {
        t.set_header(header);
    }
    let mut rows: Vec<&Group> = groups.iter().collect();
    if let Some(t) = total.filter(|_| !args.no_headers) {
        rows.push(t);
    }
    for g in rows {
        let label = match g.keys.last() {
            // A tree: each level indented under its parent.
            Some(k) => format!("{}{}", "  ".repeat(g.keys.len() - 1), k),
            None => "(all)".to_owned(),
        };
        let mut cells = vec![
            label,
            g.devices.to_string(),
            g.allocated.to_string(),
            g.free.to_string(),
            g.tainted.to_string(),
            g.blocked.to_string(),
            percent(g.allocated, g.devices),
        ];
        if wide {
            cells.push(amounts(&g.counters));
            cells.push(amounts(&g.capacity));
        }
        t.add_row(cells.iter().map(|c| strict(&one_line(c)).into_owned()));
    }
    for i in 1..7 {
        if let Some(c) = t.column_mut(i) {
            c.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut s = format!("{t}\n");
    for p in invalid {
        s.push_str(&format!(
            "pool {}/{} is invalid: {}; the scheduler uses none of its devices\n",
            strict(&p.driver),
            strict(&p.pool),
            strict(&p.reason)
        ));
    }
    s.lines().map(|l| l.trim_end().to_owned() + "\n").collect()
}
