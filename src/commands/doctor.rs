//! `kubectl dra doctor [-f PATH...]`: the inventory and claims as stored,
//! checked for what makes pods pend or devices leak. The checks are lint
//! rules (so each has a stable id that `kubectl dra rules` documents, and the
//! lint output formats): the stored-state rules (DRA-H), the pool and
//! cross-object rules (DRA-V20x, DRA-V21x), and selectors evaluated on every
//! published device (DRA-C003).

use dra_core::lint::{self, Selection, Settings};
use dra_core::sources::SourceFile;
use dra_core::yaml::Limits;

use crate::cli::DoctorArgs;
use crate::cluster::Needs;
use crate::commands::lint::{fails, render_result, RenderOptions};
use crate::commands::source;
use crate::Outcome;

/// The rules doctor runs (id prefixes).
pub const DOCTOR_RULES: &[&str] = &["DRA-H", "DRA-V20", "DRA-V21", "DRA-C003"];

pub fn run(args: &DoctorArgs) -> Result<Outcome, String> {
    // Files as they are: read once, by lint (the devices its selectors are
    // checked against are the input's own), the target from the header.
    if !args.files.is_empty() && args.what_if.is_empty() {
        let sources = source::read_sources(&args.files)?;
        let gates = source::gates_from_headers(&sources, &args.target)?;
        let settings = settings(gates, None);
        return finish(args, sources, &settings);
    }
    let inv = source::load(
        &args.files,
        &args.cluster,
        &args.target,
        None,
        |_| Needs {
            slices: true,
            classes: true,
            claims: true,
            claims_namespace: None,
            templates: Some(String::new()),
            nodes: true,
            taint_rules: true,
            pod: None,
            // Every namespace's pods, the bound ones among them.
            pods: Some(String::new()),
            bound_pods: false,
            prepare_events: Some(String::new()),
            volumes: None,
        },
        args.output == crate::cli::OutputFormat::Text,
    )?;
    let mut inv = inv;
    let changed = !source::what_if(&mut inv.objects, &args.what_if)?.is_empty();
    // Files are linted as they are (findings at their lines); the live
    // cluster's objects (or objects a what-if changed) as one YAML stream.
    let sources = if args.files.is_empty() || changed {
        let server = match &inv.live {
            Some(s) => s.server.clone(),
            None => "files, changed by --apply/--delete/--drain/--remove-node".into(),
        };
        let text: Vec<String> = inv.objects.iter().map(|o| o.root.to_yaml()).collect();
        vec![SourceFile {
            name: format!("<cluster {server}>"),
            text: text.join("---\n"),
        }]
    } else {
        source::read_sources(&args.files)?
    };
    let list_types = dra_core::cel::list_values_converted(&inv.gates);
    let devices = dra_core::inventory::devices(&inv.objects, list_types);
    let settings = settings(inv.gates.clone(), Some(devices));
    std::mem::forget(inv);
    finish(args, sources, &settings)
}

/// Lint's settings for doctor: its rules, and the devices selectors are
/// checked against (`None`: the input's own).
fn settings(
    gates: dra_core::gates::FeatureGates,
    inventory: Option<Vec<dra_core::inventory::InventoryDevice>>,
) -> Settings {
    Settings {
        inventory_from_input: inventory.is_none(),
        inventory,
        gates,
        selection: Selection {
            select: Some(DOCTOR_RULES.iter().map(|s| (*s).to_owned()).collect()),
            ignore: Vec::new(),
        },
        per_file: Vec::new(),
        limits: Limits::default(),
        stored: Vec::new(),
        status: false,
    }
}

fn finish(
    args: &DoctorArgs,
    sources: Vec<SourceFile>,
    settings: &Settings,
) -> Result<Outcome, String> {
    let names: Vec<String> = sources.iter().map(|s| s.name.clone()).collect();
    let mut result = lint::lint(&sources, Vec::new(), settings);
    std::mem::forget(std::mem::take(&mut result.objects));
    let stdout = render_result(
        &names,
        sources,
        &result,
        settings,
        args.output,
        &RenderOptions {
            color: crate::render::terminal::use_color(args.color),
            quiet: false,
            statistics: false,
        },
    );
    let code = u8::from(fails(&result.diagnostics, args.strict));
    Ok(Outcome { stdout, code })
}
