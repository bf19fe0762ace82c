//! `kubectl dra config [PATH]`: the settings `lint` uses for PATH and
//! where each comes from.

use serde_json::json;

use crate::cli::{ConfigArgs, ConfigFormat};
use crate::config::{Found, Lookup};
use crate::Outcome;

/// One row: key, value as shown, origin (`file:line` or `default`).
type Row = (&'static str, String, String);

fn rows(found: Option<&Found>, path: &std::path::Path) -> Vec<Row> {
    let c = found.map(|f| &f.config);
    let origin = |line: Option<u32>| match (found, line) {
        (Some(f), Some(l)) => f.at(l),
        _ => "default".to_owned(),
    };
    let list = |v: &[String]| v.join(", ");
    let mut out = vec![
        (
            "kubernetesVersion",
            c.and_then(|c| c.kubernetes_version.as_ref())
                .map_or("1.37 (or the cluster's with --cluster)".into(), |s| {
                    s.value.clone()
                }),
            origin(
                c.and_then(|c| c.kubernetes_version.as_ref())
                    .map(|s| s.line),
            ),
        ),
        (
            "featureGates",
            c.and_then(|c| c.feature_gates.as_ref())
                .map_or("the release's defaults".into(), |s| list(&s.value)),
            origin(c.and_then(|c| c.feature_gates.as_ref()).map(|s| s.line)),
        ),
        (
            "select",
            c.and_then(|c| c.select.as_ref())
                .map_or("every rule".into(), |s| list(&s.value)),
            origin(c.and_then(|c| c.select.as_ref()).map(|s| s.line)),
        ),
        (
            "ignore",
            c.and_then(|c| c.ignore.as_ref())
                .map_or("none".into(), |s| list(&s.value)),
            origin(c.and_then(|c| c.ignore.as_ref()).map(|s| s.line)),
        ),
    ];
    let per_file = c.map(|c| c.per_file_ignores.as_slice()).unwrap_or_default();
    if per_file.is_empty() {
        out.push(("perFileIgnores", "none".into(), "default".into()));
    }
    for (i, p) in per_file.iter().enumerate() {
        let applies = found.is_some_and(|f| f.per_file_applies(i, path));
        out.push((
            "perFileIgnores",
            format!(
                "{}: {}{}",
                p.glob,
                list(&p.codes),
                if applies { " (applies here)" } else { "" }
            ),
            origin(Some(p.line)),
        ));
    }
    out.extend([
        (
            "exclude",
            c.and_then(|c| c.exclude.as_ref()).map_or_else(
                || crate::files::DEFAULT_EXCLUDE.join(", "),
                |s| list(&s.value),
            ),
            origin(c.and_then(|c| c.exclude.as_ref()).map(|s| s.line)),
        ),
        (
            "extendExclude",
            c.and_then(|c| c.extend_exclude.as_ref())
                .map_or("none".into(), |s| list(&s.value)),
            origin(c.and_then(|c| c.extend_exclude.as_ref()).map(|s| s.line)),
        ),
        (
            "strict",
            c.and_then(|c| c.strict.as_ref())
                .map_or("false".into(), |s| s.value.to_string()),
            origin(c.and_then(|c| c.strict.as_ref()).map(|s| s.line)),
        ),
        (
            "inventory",
            c.and_then(|c| c.inventory.as_ref())
                .map_or("none".into(), |s| list(&s.value)),
            origin(c.and_then(|c| c.inventory.as_ref()).map(|s| s.line)),
        ),
    ]);
    out
}

pub fn run(args: &ConfigArgs) -> Result<Outcome, String> {
    let lookup = Lookup::new(args.config.as_deref(), args.no_config)?;
    let found = lookup.for_path(&args.path)?;
    let shown = crate::files::display_path(&args.path);
    let excluded = found.as_ref().is_some_and(|f| f.excludes(&args.path));
    let rows = rows(found.as_deref(), &args.path);
    let stdout = match args.output {
        ConfigFormat::Json => {
            let c = found.as_ref().map(|f| &f.config);
            let at = |line: Option<u32>| match (&found, line) {
                (Some(f), Some(l)) => json!(f.at(l)),
                _ => json!("default"),
            };
            let setting = |value: serde_json::Value, line: Option<u32>| json!({"value": value, "from": at(line)});
            macro_rules! key {
                ($field:ident) => {
                    c.and_then(|c| c.$field.as_ref())
                        .map_or(setting(serde_json::Value::Null, None), |s| {
                            setting(json!(s.value), Some(s.line))
                        })
                };
            }
            let per_file: Vec<serde_json::Value> = c
                .map(|c| c.per_file_ignores.as_slice())
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    json!({
                        "glob": p.glob,
                        "codes": p.codes,
                        "appliesHere": found.as_ref().is_some_and(|f| f.per_file_applies(i, &args.path)),
                        "from": at(Some(p.line)),
                    })
                })
                .collect();
            let doc = json!({
                "path": shown,
                "configFile": found.as_ref().map(|f| f.shown.clone()),
                "excluded": excluded,
                "settings": {
                    "kubernetesVersion": key!(kubernetes_version),
                    "featureGates": key!(feature_gates),
                    "select": key!(select),
                    "ignore": key!(ignore),
                    "perFileIgnores": per_file,
                    "exclude": c.and_then(|c| c.exclude.as_ref()).map_or_else(
                        || setting(json!(crate::files::DEFAULT_EXCLUDE), None),
                        |s| setting(json!(s.value), Some(s.line)),
                    ),
                    "extendExclude": key!(extend_exclude),
                    "strict": key!(strict),
                    "inventory": key!(inventory),
                },
            });
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        ConfigFormat::Text => {
            let strict = crate::render::terminal::strict;
            let mut s = match &found {
                Some(f) => format!("{} governs {}\n", strict(&f.shown), strict(&shown)),
                None if args.no_config => {
                    "no configuration file (--no-config): the defaults\n".into()
                }
                None => format!(
                    "no {} from {} up to the repository root: the defaults\n",
                    dra_core::config::FILE_NAME,
                    strict(&shown)
                ),
            };
            if excluded {
                s.push_str("this path is excluded: lint leaves it out\n");
            }
            let width = rows
                .iter()
                .map(|(_, v, _)| v.chars().count())
                .max()
                .unwrap_or(0);
            for (k, v, o) in &rows {
                s.push_str(&format!("{k:<18} {:<width$}  {}\n", strict(v), strict(o)));
            }
            s
        }
    };
    Ok(Outcome { stdout, code: 0 })
}
