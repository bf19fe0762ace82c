//! `kubectl dra lint`.

use dra_core::diag::Severity;
use dra_core::lint::{self, Selection, Settings, SourceFile};
use dra_core::yaml::Limits;

use crate::cli::{LintArgs, OutputFormat};
use crate::render::{self, Report};
use crate::{files, Outcome};

use crate::render::terminal::use_color;

pub fn run(args: &LintArgs) -> Result<Outcome, String> {
    if args.list_rules {
        return super::rules::run(&crate::cli::RulesArgs {
            rule: None,
            markdown: false,
        });
    }
    // Arguments that would silently disable the linter are usage errors.
    for (flag, ids) in [
        ("--select", args.select.as_deref().unwrap_or_default()),
        ("--ignore", &args.ignore[..]),
    ] {
        if ids.iter().any(|id| id.trim().is_empty())
            || (flag == "--select" && ids.is_empty() && args.select.is_some())
        {
            return Err(format!("{flag} needs rule ids or id prefixes (an empty value would select no rule or every rule)"));
        }
    }
    // `lint --cluster manifests/`: clap reads the path as the cluster's name.
    // A value that names an existing file or directory is a path, and
    // `--cluster` then means the current context, wherever it stands.
    let mut cluster = args.cluster.clone();
    let mut given = args.paths.clone();
    if let Some(v) = cluster.cluster.clone().filter(|v| !v.is_empty()) {
        if std::path::Path::new(&v).exists() || v == "-" {
            // The "." default stands only when no path was given at all.
            if given.len() == 1 && given[0].as_os_str() == "." && v != "." {
                given.clear();
            }
            given.insert(0, v.into());
            cluster.cluster = Some(String::new());
        }
    }
    // Refused before stdin is read: nothing could be written back.
    if args.fix && !args.diff && given.iter().any(|p| p.as_os_str() == "-") {
        return Err("--fix cannot edit stdin: use --fix --diff, or give file paths".into());
    }
    let lookup = crate::config::Lookup::new(args.config.as_deref(), args.no_config)?;
    // Each path is walked with its configuration's excludes, unless the
    // command line gives them.
    let mut walks = Vec::new();
    for p in &given {
        let found = lookup.for_path(p)?;
        let config = found.as_ref().map(|f| &f.config);
        let mut extend_exclude = config
            .and_then(|c| c.extend_exclude.as_ref())
            .map(|s| s.value.clone())
            .unwrap_or_default();
        extend_exclude.extend(args.extend_exclude.iter().cloned());
        walks.push(files::Walk {
            exclude: args.exclude.clone().or_else(|| {
                config
                    .and_then(|c| c.exclude.as_ref())
                    .map(|s| s.value.clone())
            }),
            extend_exclude,
        });
    }
    // A missing path is reported after the other files' findings (exit 2).
    let mut collected = files::collect_with(&given, &walks);
    // A file pre-commit names is left out when its configuration excludes it.
    let mut kept = Vec::new();
    for p in std::mem::take(&mut collected.paths) {
        let excluded = p.as_os_str() != "-" && lookup.for_path(&p)?.is_some_and(|f| f.excludes(&p));
        if !excluded {
            kept.push(p);
        }
    }
    collected.paths = kept;
    for n in &collected.notes {
        eprintln!("note: {}", crate::render::terminal::strict(n));
    }
    let (paths, missing) = (collected.paths, collected.missing);
    let walk_failures = collected.unreadable;
    let mut sources = Vec::new();
    let mut names = Vec::new();
    let mut pre = Vec::new();
    let mut unreadable = false;
    // The path of each source, for `--fix` (none for missing files).
    let mut source_paths: Vec<Option<std::path::PathBuf>> = Vec::new();
    for m in missing {
        source_paths.push(None);
        let index = sources.len();
        unreadable = true;
        pre.push(lint::file_problem(
            index,
            "no such file or directory".into(),
        ));
        names.push(m.clone());
        sources.push(SourceFile {
            name: m,
            text: String::new(),
        });
    }
    for (path, why) in walk_failures {
        source_paths.push(None);
        unreadable = true;
        pre.push(lint::file_problem(
            sources.len(),
            format!("cannot read: {why}"),
        ));
        names.push(path.clone());
        sources.push(SourceFile {
            name: path,
            text: String::new(),
        });
    }
    // For each source split from a rendered stream: (the stream, the line
    // its document starts at).
    let mut rendered: Vec<Option<(String, u32)>> = Vec::new();
    let mut extra_parts = 0;
    for p in &paths {
        source_paths.push(Some(p.clone()));
        let input = files::read_limited(p, args.max_file_size);
        let index = sources.len();
        names.push(input.name.clone());
        let text = match input.text {
            Ok(t) => t,
            Err(e) => {
                unreadable = true;
                let e = if e.starts_with("file is larger") {
                    format!("{e} (--max-file-size raises the limit)")
                } else {
                    e
                };
                pre.push(lint::file_problem(index, e));
                String::new()
            }
        };
        // `helm template` output: one part per document, named after its
        // template (src/rendered.rs).
        if let Some(parts) = crate::rendered::split(&input.name, &text) {
            names.pop();
            source_paths.pop();
            // The summary counts the stream once.
            extra_parts += parts.len().saturating_sub(1);
            for part in parts {
                rendered.resize(sources.len(), None);
                rendered.push(part.rendered_at.map(|at| (input.name.clone(), at)));
                names.push(part.name.clone());
                // Never written back: the templates are the sources.
                source_paths.push(None);
                sources.push(SourceFile {
                    name: part.name,
                    text: part.text,
                });
            }
            continue;
        }
        sources.push(SourceFile {
            name: input.name,
            text,
        });
    }
    // The configuration governing each source, and the run-wide settings
    // they agree on, under the command line's.
    let mut governing = Vec::with_capacity(sources.len());
    for (s, p) in sources.iter().zip(&source_paths) {
        let path = p.clone().unwrap_or_else(|| s.name.clone().into());
        governing.push(lookup.for_path(&path)?);
    }
    let run_wide = crate::config::run_wide(&governing)?;
    let mut target = args.target.clone();
    if target.kubernetes_version.is_none() {
        target.kubernetes_version = run_wide.kubernetes_version.clone();
    }
    target.feature_gates = run_wide
        .feature_gates
        .iter()
        .chain(&args.target.feature_gates)
        .cloned()
        .collect();
    let strict = args.strict || run_wide.strict;
    let inventory_paths = match args.inventory.clone() {
        Some(paths) => Some(paths),
        None => run_wide.inventory.transpose()?,
    };
    // `--cluster`: the live cluster is the target, its classes and devices
    // the context, and the DRA objects it stores those the files update.
    let (own, _) = match cluster.cluster.is_some() {
        true => lint::load_objects(&sources, Limits::default()),
        false => (Vec::new(), Vec::new()),
    };
    let has = |kind: dra_core::model::ObjectKind| own.iter().any(|o| o.kind == kind);
    let mut live = match cluster.cluster.is_some() {
        true => Some(super::source::load(
            &[],
            &cluster,
            &target,
            None,
            |_| crate::cluster::Needs {
                slices: true,
                classes: true,
                claims: has(dra_core::model::ObjectKind::ResourceClaim),
                templates: has(dra_core::model::ObjectKind::ResourceClaimTemplate)
                    .then(String::new),
                ..Default::default()
            },
            args.output == OutputFormat::Text,
        )?),
        false => None,
    };
    let gates = match &live {
        Some(inv) => inv.gates.clone(),
        None => super::source::resolve_gates(&target, None)?,
    };
    let list_types = dra_core::cel::list_values_converted(&gates);
    // Rule ids, id prefixes and rule names, in any case, as in suppression
    // comments (lint::suppress::resolve); a code that names no rule is an error.
    let resolve = |codes: &[String]| {
        lint::suppress::resolve_all(codes).map_err(|code| {
            format!("unknown rule {code:?} in --select/--ignore (see `kubectl dra rules`)")
        })
    };
    let selection = Selection {
        select: args.select.as_deref().map(resolve).transpose()?,
        ignore: resolve(&args.ignore)?,
    };
    // Per file when a configuration file governs any: its select, ignore
    // and perFileIgnores, under the command line's.
    let per_file: Vec<Selection> = match governing.iter().any(Option::is_some) {
        false => Vec::new(),
        true => governing
            .iter()
            .zip(&source_paths)
            .map(|(found, path)| {
                crate::config::selection(
                    found.as_deref(),
                    path.as_deref(),
                    selection.select.as_deref(),
                    &selection.ignore,
                )
            })
            .collect(),
    };
    // The cluster's DeviceClasses join the run as a context file (findings in
    // it are dropped), except those the files define themselves.
    let mut context_file = None;
    if let Some(inv) = &live {
        let own_classes: Vec<&str> = own
            .iter()
            .filter(|o| o.kind == dra_core::model::ObjectKind::DeviceClass)
            .filter_map(|o| o.name())
            .collect();
        let text: Vec<String> = inv
            .objects
            .iter()
            .filter(|o| o.kind == dra_core::model::ObjectKind::DeviceClass)
            .filter(|o| o.name().is_none_or(|n| !own_classes.contains(&n)))
            .map(|o| o.root.to_yaml())
            .collect();
        context_file = Some(sources.len());
        sources.push(SourceFile {
            name: format!(
                "<cluster {}>",
                inv.live.as_ref().map_or("", |s| s.server.as_str())
            ),
            text: text.join("---\n"),
        });
    }
    let inventory = match &inventory_paths {
        Some(paths) if !paths.is_empty() => {
            let sources = super::matching::read_sources(paths)?;
            let (objects, problems) = lint::load_objects(&sources, Limits::default());
            if let Some(p) = problems.first() {
                let name = sources
                    .get(p.file)
                    .map_or("<inventory>", |s| s.name.as_str());
                return Err(format!("--inventory {}", p.located(name)));
            }
            Some(dra_core::inventory::devices(&objects, list_types))
        }
        _ => live
            .as_ref()
            .map(|inv| dra_core::inventory::devices(&inv.objects, list_types)),
    };
    // Only the kinds with update-only rules (or that a release validates
    // differently on update: lint::update; a stored resourceVersion and uid
    // for any kind lint checks, a binding's roleRef). From the cluster they
    // are taken, not copied (a large cluster stores many slices).
    let update_kinds = |o: &dra_core::model::Object| {
        use dra_core::model::ObjectKind::*;
        matches!(
            o.kind,
            ResourceSlice
                | ResourceClaim
                | ResourceClaimTemplate
                | DeviceClass
                | DeviceTaintRule
                | ResourcePoolStatusRequest
                | Workload
                | Namespace
                | ServiceAccount
                | Role
                | ClusterRole
                | RoleBinding
                | ClusterRoleBinding
        )
    };
    let stored = match (&args.stored, live.as_mut()) {
        (Some(paths), _) if !paths.is_empty() => {
            let sources = super::matching::read_sources(paths)?;
            let (objects, problems) = lint::load_objects(&sources, Limits::default());
            if let Some(p) = problems.first() {
                let name = sources.get(p.file).map_or("<stored>", |s| s.name.as_str());
                return Err(format!("--stored {}", p.located(name)));
            }
            objects.into_iter().filter(update_kinds).collect()
        }
        (_, Some(inv)) => std::mem::take(&mut inv.objects)
            .into_iter()
            .filter(update_kinds)
            .collect(),
        _ => Vec::new(),
    };
    let settings = Settings {
        gates,
        selection,
        per_file,
        inventory_from_input: false,
        limits: Limits::default(),
        inventory,
        stored,
        status: args.subresource == Some(crate::cli::Subresource::Status),
    };
    if args.fix {
        let fixed = dra_core::lint::fixes::run(&sources, &settings, args.unsafe_fixes);
        if args.diff {
            return Ok(fix_diff(&sources, &fixed, context_file));
        }
        if write_fixes(&mut sources, &source_paths, &fixed, context_file) > 0 {
            unreadable = true;
        }
    }
    if args.fix && !args.diff && rendered.iter().any(Option::is_some) {
        return Err("--fix cannot edit rendered Helm output: fix the chart's templates (--fix --diff shows what to change)".into());
    }
    let mut result = lint::lint(&sources, pre, &settings);
    rendered_notes(&sources, &rendered, &mut result.diagnostics);
    result.summary.files = result.summary.files.saturating_sub(extra_parts);
    if let Some(ctx) = context_file {
        let context_objects = result.objects.iter().filter(|o| o.file == ctx).count();
        result.diagnostics.retain(|d| d.file != ctx);
        let count = |s: Severity| {
            result
                .diagnostics
                .iter()
                .filter(|d| d.severity == s)
                .count()
        };
        result.summary.errors = count(Severity::Error);
        result.summary.warnings = count(Severity::Warning);
        result.summary.files -= 1;
        result.summary.objects -= context_objects;
        sources.pop();
    }
    // The process exits right after rendering: freeing a tree of millions of
    // nodes one by one would only cost time.
    std::mem::forget(std::mem::take(&mut result.objects));
    let stdout = render_result(
        &names,
        sources,
        &result,
        &settings,
        args.output,
        &RenderOptions {
            color: use_color(args.color),
            quiet: args.quiet,
            statistics: args.statistics,
        },
    );
    let code = if unreadable {
        2
    } else if fails(&result.diagnostics, strict) && !args.exit_zero {
        1
    } else {
        0
    };
    let stdout = match &args.output_file {
        Some(path) => {
            let shown = crate::render::terminal::strict(&path.display().to_string()).into_owned();
            crate::writer::replace(path, &stdout, crate::writer::Expect::Anything)
                .map_err(|e| format!("{shown}: not written: {}", e.0))?;
            eprintln!("wrote the report to {shown}");
            String::new()
        }
        None => stdout,
    };
    Ok(Outcome { stdout, code })
}

/// `--statistics`: one line per rule with findings, most first (ruff's
/// `--statistics`): count, id, name, and whether it is an error.
fn statistics(diagnostics: &[dra_core::diag::Diagnostic]) -> String {
    let mut counts: std::collections::BTreeMap<&str, (usize, bool)> = Default::default();
    for d in diagnostics {
        let e = counts.entry(d.rule).or_default();
        e.0 += 1;
        e.1 |= d.severity == Severity::Error;
    }
    let mut rows: Vec<(&str, usize, bool)> =
        counts.into_iter().map(|(r, (n, e))| (r, n, e)).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let width = rows.first().map_or(1, |r| r.1.to_string().len());
    let mut out = String::new();
    for (rule, n, error) in rows {
        let name = dra_core::lint::registry::find(rule).map_or("", |r| r.name);
        let severity = if error { "error" } else { "warning" };
        out.push_str(&format!("{n:>width$}  {rule:<9} {name} ({severity})\n"));
    }
    out
}

/// `--fix --diff`: the fixes as a unified diff per file; exit 1 when there
/// is one.
fn fix_diff(
    sources: &[SourceFile],
    fixed: &dra_core::lint::fixes::FixRun,
    context_file: Option<usize>,
) -> Outcome {
    let mut stdout = String::new();
    for (i, (s, new)) in sources.iter().zip(&fixed.texts).enumerate() {
        if Some(i) == context_file || *new == s.text {
            continue;
        }
        stdout.push_str(&super::convert::unified_diff(&s.name, &s.text, new));
    }
    report_fixes(sources, fixed, &|_| false);
    let code = u8::from(!stdout.is_empty());
    Outcome { stdout, code }
}

/// `--fix`: each fixed file written in place through the one writer
/// (stdin and the cluster's classes are never written), then linted again
/// by the caller. A file that cannot be written is that file's failure: its
/// fixes are reported as not applied, the others are written, and the
/// count of files not written is returned (the run then exits 2).
fn write_fixes(
    sources: &mut [SourceFile],
    paths: &[Option<std::path::PathBuf>],
    fixed: &dra_core::lint::fixes::FixRun,
    context_file: Option<usize>,
) -> usize {
    use crate::render::terminal::strict;
    let mut failed: Vec<(usize, String)> = Vec::new();
    let mut written = 0usize;
    for (i, new) in fixed.texts.iter().enumerate() {
        if Some(i) == context_file || *new == sources[i].text {
            continue;
        }
        let outcome = match paths.get(i).cloned().flatten() {
            Some(p) if p.as_os_str() != "-" => {
                crate::writer::replace(&p, new, crate::writer::Expect::Unchanged(&sources[i].text))
                    .map_err(|e| e.0)
            }
            _ => Err("stdin cannot be edited".into()),
        };
        match outcome {
            Ok(()) => {
                written += 1;
                sources[i].text = new.clone();
            }
            Err(e) => failed.push((i, e)),
        }
    }
    let not_written = |file: usize| failed.iter().any(|(f, _)| *f == file);
    report_fixes(sources, fixed, &not_written);
    for (i, why) in &failed {
        eprintln!(
            "{}: not written: {}",
            strict(&sources[*i].name),
            strict(why)
        );
    }
    if written + failed.len() > 0 {
        eprintln!(
            "{written} file{} fixed{}",
            if written == 1 { "" } else { "s" },
            if failed.is_empty() {
                String::new()
            } else {
                format!(", {} not written", failed.len())
            }
        );
    }
    failed.len()
}

/// One stderr line per fix applied or refused; a fix of a file that was
/// not written is said to be not applied.
fn report_fixes(
    sources: &[SourceFile],
    fixed: &dra_core::lint::fixes::FixRun,
    not_written: &dyn Fn(usize) -> bool,
) {
    use crate::render::terminal::strict;
    for (what, list) in [
        ("fixed", &fixed.applied),
        ("not fixed (it would bring a new finding)", &fixed.refused),
        (
            "not fixed (it would edit YAML an alias repeats, changing every object that shares it: fix it by hand)",
            &fixed.through_alias,
        ),
    ] {
        for a in list {
            let what = if not_written(a.file) && what == "fixed" {
                "not applied (the file was not written)"
            } else {
                what
            };
            let name = sources.get(a.file).map_or("", |s| s.name.as_str());
            eprintln!(
                "{}:{}: {} {what}: {}",
                strict(name),
                a.line,
                a.rule,
                a.description
            );
        }
    }
}

/// Whether findings fail the run (exit 1): an error, or with `strict` a
/// warning (`lint` and `doctor`).
pub(crate) fn fails(diagnostics: &[dra_core::diag::Diagnostic], strict: bool) -> bool {
    diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error || (strict && d.severity == Severity::Warning))
}

/// How a lint result is shown (text options; other formats ignore them).
pub(crate) struct RenderOptions {
    pub color: bool,
    pub quiet: bool,
    pub statistics: bool,
}

/// A lint result in one of the output formats (`lint` and `doctor`).
pub(crate) fn render_result(
    names: &[String],
    sources: Vec<SourceFile>,
    result: &lint::LintResult,
    settings: &Settings,
    output: OutputFormat,
    options: &RenderOptions,
) -> String {
    let mut fixes: Vec<Option<dra_core::lint::fixes::Offer>> = vec![None; result.diagnostics.len()];
    for o in dra_core::lint::fixes::offers(&sources, &result.diagnostics, &settings.gates) {
        let i = o.diagnostic;
        fixes[i] = Some(o);
    }
    let texts: Vec<String> = sources.into_iter().map(|s| s.text).collect();
    let lines: Vec<dra_core::tree::LineIndex> = texts
        .iter()
        .map(|t| dra_core::tree::LineIndex::new(t))
        .collect();
    let report = Report {
        names,
        texts: &texts,
        diagnostics: &result.diagnostics,
        lines: &lines,
        summary: result.summary,
        gates: &settings.gates,
        fixes: &fixes,
    };
    match output {
        OutputFormat::Text if options.statistics => statistics(&result.diagnostics),
        OutputFormat::Text => render::text::render(&report, options.color, options.quiet),
        OutputFormat::Json => render::json::render(&report) + "\n",
        OutputFormat::Sarif => render::sarif::render(&report) + "\n",
        OutputFormat::Github => render::github::render(&report),
        OutputFormat::Gitlab => render::gitlab::render(&report),
        OutputFormat::Junit => render::junit::render(&report),
    }
}

/// Says of each finding in a rendered template that it is, and where in the
/// stream it is (the text, JSON, SARIF and GitHub outputs name the template).
fn rendered_notes(
    sources: &[SourceFile],
    rendered: &[Option<(String, u32)>],
    diagnostics: &mut [dra_core::diag::Diagnostic],
) {
    if rendered.iter().all(Option::is_none) {
        return;
    }
    let mut lines: std::collections::HashMap<usize, dra_core::tree::LineIndex> =
        std::collections::HashMap::new();
    for d in diagnostics.iter_mut() {
        let Some(Some((stream, at))) = rendered.get(d.file) else {
            continue;
        };
        let Some(source) = sources.get(d.file) else {
            continue;
        };
        let index = lines
            .entry(d.file)
            .or_insert_with(|| dra_core::tree::LineIndex::new(&source.text));
        let line = index.line_col(d.span.start).0;
        d.notes.push(format!(
            "rendered by helm template: line {line} of the document from {}, {}:{}",
            source.name,
            stream,
            at + line - 1
        ));
    }
}
