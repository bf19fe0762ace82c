//! Finding `.kubectl-dra.yaml` and merging it with the command line.
//!
//! Each linted file is governed by the nearest configuration file in its
//! directory or above, up to the repository root (the first directory
//! holding `.git`): a configuration outside the repository never governs
//! it. `--config FILE` names one for every file; `--no-config` uses none.
//! The command line wins over the file: `--select`, `--kubernetes-version`,
//! `--inventory` and `--exclude` replace its values, `--ignore`,
//! `--feature-gates` and `--extend-exclude` add to them, `--strict` turns
//! strictness on.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use dra_core::config::{self, Config, FILE_NAME};
use dra_core::lint::suppress::resolve_all;
use dra_core::lint::Selection;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// A configuration file and what it says.
#[derive(Debug)]
pub struct Found {
    /// As shown to the user (relative to the working directory when below it).
    pub shown: String,
    /// The directory its relative paths and globs start from.
    pub dir: PathBuf,
    pub config: Config,
    excludes: Option<Gitignore>,
    per_file: Vec<(Gitignore, Vec<String>)>,
}

impl Found {
    fn new(path: &Path, config: Config) -> Result<Self, String> {
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let shown = crate::files::display_path(path);
        let build = |globs: &[&String], line: u32| -> Result<Gitignore, String> {
            let mut b = GitignoreBuilder::new(&dir);
            for g in globs {
                b.add_line(None, g)
                    .map_err(|e| format!("{shown}:{line}: {e}"))?;
            }
            b.build().map_err(|e| format!("{shown}:{line}: {e}"))
        };
        let mut globs = Vec::new();
        let mut line = 0;
        for s in [&config.exclude, &config.extend_exclude]
            .into_iter()
            .flatten()
        {
            globs.extend(s.value.iter());
            line = s.line;
        }
        let excludes = match globs.is_empty() {
            true => None,
            false => Some(build(&globs, line)?),
        };
        let mut per_file = Vec::new();
        for p in &config.per_file_ignores {
            per_file.push((build(&[&p.glob], p.line)?, p.codes.clone()));
        }
        Ok(Found {
            shown,
            dir,
            config,
            excludes,
            per_file,
        })
    }

    /// Whether the file's `exclude`/`extendExclude` leave `file` out (a
    /// file pre-commit names is left out too, as ruff's force-exclude).
    pub fn excludes(&self, file: &Path) -> bool {
        let Some(ex) = &self.excludes else {
            return false;
        };
        let abs = absolute(file);
        abs.starts_with(&self.dir) && ex.matched_path_or_any_parents(&abs, false).is_ignore()
    }

    /// The `perFileIgnores` codes that apply to `file`.
    pub fn ignores_for(&self, file: &Path) -> Vec<String> {
        let abs = absolute(file);
        if !abs.starts_with(&self.dir) {
            return Vec::new();
        }
        self.per_file
            .iter()
            .filter(|(g, _)| g.matched_path_or_any_parents(&abs, false).is_ignore())
            .flat_map(|(_, codes)| codes.iter().cloned())
            .collect()
    }

    /// Whether the `i`th `perFileIgnores` glob matches `file`.
    pub fn per_file_applies(&self, i: usize, file: &Path) -> bool {
        let abs = absolute(file);
        abs.starts_with(&self.dir)
            && self.per_file.get(i).is_some_and(|(g, _)| {
                g.matched_path_or_any_parents(&abs, abs.is_dir())
                    .is_ignore()
            })
    }

    /// `file:line` of a setting, for messages and `kubectl dra config`.
    pub fn at(&self, line: u32) -> String {
        format!("{}:{line}", self.shown)
    }
}

/// The absolute path, `..` taken lexically: the upward search and the
/// globs see `sub/../a.yaml` as `a.yaml`.
fn absolute(p: &Path) -> PathBuf {
    use std::path::Component;
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Reads and checks one configuration file; its problems, each with its
/// line and column, are one error.
pub fn read(path: &Path) -> Result<Found, String> {
    let input = crate::files::read_limited(path, config::MAX_BYTES);
    let shown = crate::files::display_path(path);
    let text = input.text.map_err(|e| format!("{shown}: {e}"))?;
    let config = config::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| {
                format!(
                    "{shown}:{}:{}: {}",
                    e.line,
                    e.column,
                    crate::render::terminal::strict(&e.message)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    Found::new(&absolute(path), config)
}

/// Which configuration governs which path, each directory looked up once.
pub struct Lookup {
    /// `--config FILE` (Some(Some)), `--no-config` (Some(None)), or search.
    fixed: Option<Option<Rc<Found>>>,
    cache: RefCell<HashMap<PathBuf, Option<Rc<Found>>>>,
}

impl Lookup {
    pub fn new(config: Option<&Path>, no_config: bool) -> Result<Self, String> {
        let fixed = match (config, no_config) {
            (Some(_), true) => return Err("--config and --no-config exclude each other".into()),
            (Some(p), false) => Some(Some(Rc::new(read(p)?))),
            (None, true) => Some(None),
            (None, false) => None,
        };
        Ok(Lookup {
            fixed,
            cache: RefCell::default(),
        })
    }

    /// The configuration of a path: of a directory from itself upward, of a
    /// file (or of `-`, stdin: the working directory) from its directory.
    pub fn for_path(&self, path: &Path) -> Result<Option<Rc<Found>>, String> {
        if let Some(fixed) = &self.fixed {
            return Ok(fixed.clone());
        }
        let abs = absolute(path);
        let dir = if path.as_os_str() == "-" {
            absolute(Path::new("."))
        } else if abs.is_dir() {
            abs
        } else {
            abs.parent().map(Path::to_path_buf).unwrap_or(abs)
        };
        self.for_dir(&dir)
    }

    fn for_dir(&self, dir: &Path) -> Result<Option<Rc<Found>>, String> {
        if let Some(hit) = self.cache.borrow().get(dir) {
            return Ok(hit.clone());
        }
        let candidate = dir.join(FILE_NAME);
        let found = if candidate.is_file() {
            Some(Rc::new(read(&candidate)?))
        } else if dir.join(".git").exists() {
            // The repository root: nothing above it governs its files.
            None
        } else {
            match dir.parent() {
                Some(parent) => self.for_dir(parent)?,
                None => None,
            }
        };
        self.cache
            .borrow_mut()
            .insert(dir.to_path_buf(), found.clone());
        Ok(found)
    }
}

/// The settings one lint run takes from the configuration files that
/// govern its files, where the command line leaves them open.
#[derive(Debug, Default)]
pub struct RunWide {
    pub kubernetes_version: Option<String>,
    pub feature_gates: Vec<String>,
    pub strict: bool,
    /// The configuration's inventory, or why it may not be read (an
    /// error only when no `--inventory` replaces it).
    pub inventory: Option<Result<Vec<PathBuf>, String>>,
}

/// The run-wide settings of the configuration files in force. They hold
/// for every file of a run, so files whose configurations disagree on one
/// are an error naming both (lint them in separate runs).
pub fn run_wide(configs: &[Option<Rc<Found>>]) -> Result<RunWide, String> {
    let mut distinct: Vec<&Rc<Found>> = Vec::new();
    for c in configs.iter().flatten() {
        if !distinct.iter().any(|d| Rc::ptr_eq(d, c)) {
            distinct.push(c);
        }
    }
    // A file no configuration governs takes the defaults.
    let unconfigured = configs.iter().any(Option::is_none);
    let Some(first) = distinct.first() else {
        return Ok(RunWide::default());
    };
    type Key = (&'static str, fn(&Config) -> Option<(String, u32)>);
    let keys: [Key; 4] = [
        ("kubernetesVersion", |c| {
            c.kubernetes_version
                .as_ref()
                .map(|s| (s.value.clone(), s.line))
        }),
        ("featureGates", |c| {
            c.feature_gates
                .as_ref()
                .map(|s| (s.value.join(","), s.line))
        }),
        ("strict", |c| {
            c.strict.as_ref().map(|s| (s.value.to_string(), s.line))
        }),
        ("inventory", |c| {
            c.inventory.as_ref().map(|s| (s.value.join(","), s.line))
        }),
    ];
    for (key, get) in keys {
        let value = |f: &Found| get(&f.config).map(|(v, _)| v);
        let where_ = |f: &Found| match get(&f.config) {
            Some((_, line)) => f.at(line),
            None => format!("{} (unset)", f.shown),
        };
        for other in distinct.iter().skip(1) {
            if value(first) != value(other) {
                return Err(format!(
                    "{key} differs between {} and {}, which both govern files of this run: lint them in separate runs",
                    where_(first),
                    where_(other)
                ));
            }
        }
        if unconfigured && value(first).is_some() {
            return Err(format!(
                "{key} is set by {} but some files of this run are under no configuration file: lint them in separate runs, or name one with --config",
                where_(first)
            ));
        }
    }
    let c = &first.config;
    let inventory = c.inventory.as_ref().map(|s| {
        s.value
            .iter()
            .map(|p| confined(&first.dir, p).map_err(|e| format!("{}: {e}", first.at(s.line))))
            .collect::<Result<Vec<_>, _>>()
    });
    Ok(RunWide {
        kubernetes_version: c.kubernetes_version.as_ref().map(|s| s.value.clone()),
        feature_gates: c
            .feature_gates
            .as_ref()
            .map(|s| s.value.clone())
            .unwrap_or_default(),
        strict: c.strict.as_ref().is_some_and(|s| s.value),
        inventory,
    })
}

/// A configuration's `inventory` path, resolved from the configuration's
/// directory, which it may not leave: a repository's configuration must
/// not make a pre-commit hook or CI job read (and quote in a finding's
/// snippet) a file elsewhere on the machine, directly or through a link.
/// A path that does not exist is left for the loader to report.
fn confined(dir: &Path, path: &str) -> Result<PathBuf, String> {
    let joined = dir.join(path);
    let Ok(real) = joined.canonicalize() else {
        return Ok(joined);
    };
    let base = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    if real.starts_with(&base) {
        Ok(joined)
    } else {
        Err(format!(
            "inventory {path:?} resolves outside the configuration file's directory, where a repository's configuration may not read; name it with --inventory to read it"
        ))
    }
}

/// The rules that apply to one file: its configuration's `select`,
/// `ignore` and matching `perFileIgnores`, then the command line's.
pub fn selection(
    found: Option<&Found>,
    file: Option<&Path>,
    cli_select: Option<&[String]>,
    cli_ignore: &[String],
) -> Selection {
    let resolve = |codes: &[String]| resolve_all(codes).unwrap_or_default();
    let select = match (cli_select, found.and_then(|f| f.config.select.as_ref())) {
        (Some(cli), _) => Some(cli.to_vec()),
        (None, Some(s)) => Some(resolve(&s.value)),
        (None, None) => None,
    };
    let mut ignore = cli_ignore.to_vec();
    if let Some(f) = found {
        if let Some(s) = &f.config.ignore {
            ignore.extend(resolve(&s.value));
        }
        if let Some(file) = file {
            ignore.extend(resolve(&f.ignores_for(file)));
        }
    }
    Selection { select, ignore }
}
