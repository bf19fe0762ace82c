//! One document linted as `lint` would lint it in its repository: the same
//! configuration file (`.kubectl-dra.yaml`: version, gates, rule selection,
//! excludes, inventory), the workspace's other YAML files as context for the
//! cross-object rules, and the same findings, turned into LSP diagnostics
//! and code actions.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use dra_core::diag::Severity;
use dra_core::fix::Applicability;
use dra_core::lint::{self, Settings, SourceFile};
use dra_core::yaml::Limits;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    TextEdit,
};

use super::position::{Encoding, Lines};

/// Largest document linted (lint's `--max-file-size` default).
pub const MAX_DOCUMENT: usize = 64 << 20;
/// Other files of the workspace read as context, at most.
const MAX_CONTEXT_FILES: usize = 2000;
/// Bytes of context read, at most (past it, files are left out).
const MAX_CONTEXT_BYTES: usize = 256 << 20;
/// A context file larger than this is left out.
const MAX_CONTEXT_FILE: u64 = 16 << 20;
/// How long a directory walk of the workspace is reused.
const WALK_TTL: std::time::Duration = std::time::Duration::from_secs(5);

/// What the client says about the workspace and its settings.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    pub roots: Vec<PathBuf>,
    /// `kubectl-dra.inventory` of the client's settings: snapshots or
    /// slices the selectors are checked against (over the configuration's).
    pub inventory: Option<Vec<PathBuf>>,
    /// `kubectl-dra.kubernetesVersion` and `featureGates` (over the
    /// configuration's, as the command line's flags are).
    pub kubernetes_version: Option<String>,
    pub feature_gates: Vec<String>,
}

/// One document to lint, with the texts of the other open documents.
pub struct Job {
    pub uri: lsp_types::Uri,
    pub version: i32,
    /// The file's path (`None` for an unsaved, untitled buffer).
    pub path: Option<PathBuf>,
    pub text: String,
    pub open: HashMap<PathBuf, String>,
    pub workspace: Workspace,
    pub encoding: Encoding,
}

/// A fix offered for one finding.
#[derive(Clone, Debug)]
pub struct Action {
    /// Index into `Analysis::diagnostics`.
    pub diagnostic: usize,
    pub title: String,
    pub safe: bool,
    pub edits: Vec<TextEdit>,
}

/// The findings of one version of a document.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    pub version: i32,
    pub diagnostics: Vec<Diagnostic>,
    pub actions: Vec<Action>,
    /// Every safe fix at once (`source.fixAll`), as `lint --fix` applies
    /// them: each checked by linting again.
    pub fix_all: Option<Vec<TextEdit>>,
}

/// Context files read from disk, kept while unchanged.
#[derive(Default)]
pub struct Cache {
    texts: HashMap<PathBuf, (SystemTime, u64, String)>,
    walks: HashMap<PathBuf, (Instant, Vec<PathBuf>)>,
}

pub fn analyze(job: &Job, cache: &mut Cache) -> Analysis {
    let mut out = Analysis {
        version: job.version,
        ..Analysis::default()
    };
    let lines = Lines::new(&job.text);
    let whole_file = |message: String| Diagnostic {
        range: lsp_types::Range::default(),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("kubectl-dra".into()),
        message,
        ..Diagnostic::default()
    };
    if job.text.len() > MAX_DOCUMENT {
        out.diagnostics.push(whole_file(format!(
            "DRA-E005: file is larger than {} MiB: not linted",
            MAX_DOCUMENT >> 20
        )));
        return out;
    }
    let lookup = match crate::config::Lookup::new(None, false) {
        Ok(l) => l,
        Err(e) => {
            out.diagnostics.push(whole_file(e));
            return out;
        }
    };
    let found = match &job.path {
        Some(p) => match lookup.for_path(p) {
            Ok(f) => f,
            Err(e) => {
                out.diagnostics.push(whole_file(e));
                return out;
            }
        },
        None => None,
    };
    // A file the configuration excludes is not linted (as pre-commit's
    // files are not).
    if let (Some(f), Some(p)) = (&found, &job.path) {
        if f.excludes(p) {
            return out;
        }
    }
    let run_wide = match crate::config::run_wide(std::slice::from_ref(&found)) {
        Ok(r) => r,
        Err(e) => {
            out.diagnostics.push(whole_file(e));
            return out;
        }
    };
    let target = crate::cli::Target {
        kubernetes_version: job
            .workspace
            .kubernetes_version
            .clone()
            .or(run_wide.kubernetes_version),
        feature_gates: run_wide
            .feature_gates
            .into_iter()
            .chain(job.workspace.feature_gates.iter().cloned())
            .collect(),
    };
    let gates = match crate::commands::source::resolve_gates(&target, None) {
        Ok(g) => g,
        Err(e) => {
            out.diagnostics.push(whole_file(e));
            return out;
        }
    };
    let paths = match job.workspace.inventory.clone() {
        Some(paths) => Some(paths),
        None => match run_wide.inventory.transpose() {
            Ok(paths) => paths,
            Err(e) => {
                out.diagnostics.push(whole_file(e));
                return out;
            }
        },
    };
    let inventory = match paths {
        Some(paths) if !paths.is_empty() => match inventory_devices(&paths, &gates) {
            Ok(d) => Some(d),
            Err(e) => {
                out.diagnostics.push(whole_file(e));
                return out;
            }
        },
        _ => None,
    };
    let name = job.path.as_ref().map_or_else(
        || job.uri.as_str().to_owned(),
        |p| crate::files::display_path(p),
    );
    let mut sources = vec![SourceFile {
        name,
        text: job.text.clone(),
    }];
    sources.extend(context(job, found.as_deref(), cache));
    let selection = crate::config::selection(found.as_deref(), job.path.as_deref(), None, &[]);
    let settings = Settings {
        gates,
        selection,
        per_file: Vec::new(),
        limits: Limits::default(),
        inventory,
        inventory_from_input: false,
        stored: Vec::new(),
        status: false,
    };
    let result = lint::lint(&sources, Vec::new(), &settings);
    // The document's findings; an index from the run's to ours.
    let mut ours: HashMap<usize, usize> = HashMap::new();
    for (i, d) in result.diagnostics.iter().enumerate() {
        if d.file != 0 {
            continue;
        }
        ours.insert(i, out.diagnostics.len());
        out.diagnostics
            .push(to_lsp(d, &lines, &job.uri, job.encoding));
    }
    let crlf = job.text.contains("\r\n");
    let edit = |e: &dra_core::migrate::edit::Edit| TextEdit {
        range: lines.range_of_bytes(e.start, e.end, job.encoding),
        new_text: if crlf {
            e.text.replace("\r\n", "\n").replace('\n', "\r\n")
        } else {
            e.text.clone()
        },
    };
    let mut any_safe = false;
    for offer in lint::fixes::offers(&sources, &result.diagnostics, &settings.gates) {
        let Some(&diagnostic) = ours.get(&offer.diagnostic) else {
            continue;
        };
        // Edits under an alias would change the other objects too.
        if offer.through_alias {
            continue;
        }
        let safe = offer.applicability == Applicability::Safe;
        any_safe |= safe;
        out.actions.push(Action {
            diagnostic,
            title: format!(
                "{}: {}{}",
                offer.rule,
                offer.description,
                if safe { "" } else { " (unsafe fix)" }
            ),
            safe,
            edits: offer.edits.iter().map(edit).collect(),
        });
    }
    if any_safe {
        let fixed = lint::fixes::run(&sources, &settings, false);
        if let Some(new) = fixed.texts.first().filter(|t| **t != job.text) {
            out.fix_all = Some(vec![TextEdit {
                range: lines.all(job.encoding),
                new_text: new.clone(),
            }]);
        }
    }
    out
}

fn severity(s: Severity) -> DiagnosticSeverity {
    match s {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        _ => DiagnosticSeverity::INFORMATION,
    }
}

/// A finding as the editor shows it: lint's id, severity, range and message;
/// the secondary labels as related locations.
fn to_lsp(
    d: &dra_core::diag::Diagnostic,
    lines: &Lines<'_>,
    uri: &lsp_types::Uri,
    enc: Encoding,
) -> Diagnostic {
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        // Labels in other files would need their own URIs: left to the CLI.
        .filter(|l| l.file.is_none_or(|f| f == d.file))
        .map(|l| DiagnosticRelatedInformation {
            location: Location {
                uri: uri.clone(),
                range: lines.range_of_chars(l.span.start, l.span.end, enc),
            },
            message: l.message.clone(),
        })
        .collect();
    Diagnostic {
        range: lines.range_of_chars(d.span.start, d.span.end, enc),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.rule.to_owned())),
        source: Some("kubectl-dra".into()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        data: Some(serde_json::json!({
            "field": d.field,
            "type": d.error_type.to_string(),
            "notes": d.notes,
        })),
        ..Diagnostic::default()
    }
}

fn inventory_devices(
    paths: &[PathBuf],
    gates: &dra_core::gates::FeatureGates,
) -> Result<Vec<dra_core::inventory::InventoryDevice>, String> {
    let sources = crate::commands::source::read_sources(paths)?;
    let (objects, problems) = lint::load_objects(&sources, Limits::default());
    if let Some(p) = problems.first() {
        let name = sources
            .get(p.file)
            .map_or("<inventory>", |s| s.name.as_str());
        return Err(format!("inventory {}", p.located(name)));
    }
    Ok(dra_core::inventory::devices(
        &objects,
        dra_core::cel::list_values_converted(gates),
    ))
}

/// The workspace's other YAML files (open documents as the editor has
/// them), walked as `lint` walks a directory, with the configuration's
/// excludes; bounded in number and bytes.
fn context(job: &Job, found: Option<&crate::config::Found>, cache: &mut Cache) -> Vec<SourceFile> {
    let Some(path) = &job.path else {
        return Vec::new();
    };
    let Some(root) = job
        .workspace
        .roots
        .iter()
        .filter(|r| path.starts_with(r))
        .max_by_key(|r| r.as_os_str().len())
        .cloned()
        .or_else(|| found.map(|f| f.dir.clone()))
    else {
        return Vec::new();
    };
    let now = Instant::now();
    let fresh = cache
        .walks
        .get(&root)
        .is_some_and(|(at, _)| now.duration_since(*at) < WALK_TTL);
    if !fresh {
        let walk = crate::files::Walk {
            exclude: found.and_then(|f| f.config.exclude.as_ref().map(|s| s.value.clone())),
            extend_exclude: found
                .and_then(|f| f.config.extend_exclude.as_ref().map(|s| s.value.clone()))
                .unwrap_or_default(),
        };
        let collected = crate::files::collect_with(std::slice::from_ref(&root), &[walk]);
        let mut paths = collected.paths;
        paths.truncate(MAX_CONTEXT_FILES);
        cache.walks.insert(root.clone(), (now, paths));
    }
    let paths = cache
        .walks
        .get(&root)
        .map(|(_, p)| p.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut bytes = 0usize;
    for p in paths {
        if same_file(&p, path) {
            continue;
        }
        let text = match job.open.get(&p) {
            Some(t) => t.clone(),
            None => match read_cached(&p, cache) {
                Some(t) => t,
                None => continue,
            },
        };
        bytes += text.len();
        if bytes > MAX_CONTEXT_BYTES {
            break;
        }
        out.push(SourceFile {
            name: crate::files::display_path(&p),
            text,
        });
    }
    out
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

fn read_cached(p: &Path, cache: &mut Cache) -> Option<String> {
    let meta = std::fs::metadata(p).ok()?;
    if meta.len() > MAX_CONTEXT_FILE {
        return None;
    }
    let mtime = meta.modified().ok()?;
    if let Some((m, len, text)) = cache.texts.get(p) {
        if *m == mtime && *len == meta.len() {
            return Some(text.clone());
        }
    }
    let text = crate::files::read_limited(p, MAX_CONTEXT_FILE).text.ok()?;
    cache
        .texts
        .insert(p.to_path_buf(), (mtime, meta.len(), text.clone()));
    Some(text)
}
