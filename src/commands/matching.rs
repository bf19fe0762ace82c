//! `kubectl dra match EXPR -f FILE...`: which devices a selector matches.

use dra_core::cel::Env;
use dra_core::inventory::{self, MatchReport};
use dra_core::lint::{self, SourceFile};
use dra_core::model::ObjectKind;
use dra_core::yaml::Limits;

use crate::cli::{MatchArgs, MatchOutput};
use crate::commands::lint::gates_from;
use crate::{files, Outcome};

/// Reads the files of `-f`; unreadable ones are an error (exit 2).
pub fn read_sources(paths: &[std::path::PathBuf]) -> Result<Vec<SourceFile>, String> {
    let (paths, missing) = files::collect(paths);
    if let Some(m) = missing.first() {
        return Err(format!("{m}: no such file or directory"));
    }
    let mut out = Vec::new();
    for p in &paths {
        let input = files::read(p);
        let text = input.text.map_err(|e| format!("{}: {e}", input.name))?;
        out.push(SourceFile {
            name: input.name,
            text,
        });
    }
    Ok(out)
}

pub fn run(args: &MatchArgs) -> Result<Outcome, String> {
    let gates = gates_from(&args.target.kubernetes_version, &args.target.feature_gates)?;
    let sources = read_sources(&args.files)?;
    let (objects, problems) = lint::load_objects(&sources, Limits::default());
    if let Some(p) = problems.first() {
        let name = sources.get(p.file).map_or("<input>", |s| s.name.as_str());
        return Err(format!("{name}: {}", p.message));
    }
    let class = match &args.class {
        Some(name) => Some(
            objects
                .iter()
                .find(|o| o.kind == ObjectKind::DeviceClass && o.name() == Some(name.as_str()))
                .ok_or_else(|| format!("no DeviceClass named {name:?} in the files given"))?,
        ),
        None => None,
    };
    let devices = inventory::devices(&objects);
    let report = inventory::match_devices(&args.expression, class, &devices, &Env::new(&gates));
    let stdout = match args.output {
        MatchOutput::Json => serde_json::to_string_pretty(&report).unwrap_or_default() + "\n",
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
        table.add_row([&d.node, &d.driver, &d.pool, &d.device, &result]);
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
    out
}
