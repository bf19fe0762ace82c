//! `kubectl dra match EXPR -f FILE...`: which devices a selector matches.

use dra_core::cel::Env;
use dra_core::inventory::{self, MatchReport};
use dra_core::model::ObjectKind;

use crate::cli::{MatchArgs, MatchOutput};
use crate::cluster::Needs;
use crate::Outcome;

pub use crate::commands::source::read_sources;

pub fn run(args: &MatchArgs) -> Result<Outcome, String> {
    let inv = crate::commands::source::load(
        &args.files,
        &args.cluster,
        &args.target,
        None,
        |_| Needs {
            slices: true,
            classes: args.class.is_some(),
            ..Needs::default()
        },
        args.output == MatchOutput::Text,
    )?;
    let (gates, objects) = (inv.gates, inv.objects);
    let place = if inv.live.is_some() {
        "the cluster"
    } else {
        "the files given"
    };
    let class = match &args.class {
        Some(name) => Some(
            objects
                .iter()
                .find(|o| o.kind == ObjectKind::DeviceClass && o.name() == Some(name.as_str()))
                .ok_or_else(|| format!("no DeviceClass named {name:?} in {place}"))?,
        ),
        None => None,
    };
    let devices = inventory::devices(&objects, dra_core::cel::list_values_converted(&gates));
    let report = inventory::match_devices(&args.expression, class, &devices, &Env::new(&gates));
    let stdout = match args.output {
        MatchOutput::Json => crate::render::stream_json(&report),
        MatchOutput::Text => text(&args.expression, &report, &devices),
    };
    // 0: it compiled (whatever matched); 1: it does not compile.
    let code = if report.compile_error.is_some() { 1 } else { 0 };
    Ok(Outcome { stdout, code })
}

fn text(expr: &str, r: &MatchReport, devices: &[inventory::InventoryDevice]) -> String {
    if let Some(e) = &r.compile_error {
        return format!("error: the expression does not compile: {e}\n");
    }
    let mut table = comfy_table::Table::new();
    table.load_preset(comfy_table::presets::NOTHING);
    table.set_header(["NODE", "DRIVER", "POOL", "DEVICE", "RESULT"]);
    for d in &r.devices {
        let result = match (&d.matches, &d.error) {
            (Some(true), _) => "match".to_owned(),
            (Some(false), _) => "no match".to_owned(),
            (None, Some(e)) => format!("error: {e}"),
            _ => String::new(),
        };
        // Escaped before the table measures them (aligned columns).
        table.add_row([&d.node, &d.driver, &d.pool, &d.device, &result].map(|c| {
            crate::render::terminal::strict(&crate::render::terminal::one_line(c)).into_owned()
        }));
    }
    let mut out = String::new();
    if !r.devices.is_empty() {
        for line in table.to_string().lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    let s = &r.summary;
    let mut line = format!("{} of {} devices match", s.matching, s.devices);
    if s.errors > 0 {
        // Group errors by message: "37 raise no such key: model".
        let mut groups: Vec<(String, usize)> = Vec::new();
        for e in r.devices.iter().filter_map(|d| d.error.as_ref()) {
            match groups.iter_mut().find(|(m, _)| m == e) {
                Some((_, n)) => *n += 1,
                None => groups.push((e.clone(), 1)),
            }
        }
        for (msg, n) in &groups {
            line.push_str(&format!("; {n} raise {msg}"));
            if let Some(h) = inventory::error_hint(expr, msg, devices) {
                line.push_str(&format!(" ({h})"));
            }
        }
        line.push_str("\na runtime error aborts scheduling of the whole pod: the scheduler does not skip the device");
    }
    out.push_str(&line);
    out.push('\n');
    if let Some(why) = &r.too_complex {
        out.push_str(&format!(
            "note: the apiserver refuses this expression in a new claim or class ({why}); the scheduler evaluates a stored one as above\n"
        ));
    }
    out
}
