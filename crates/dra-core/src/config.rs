//! The repository's configuration file, `.kubectl-dra.yaml`, read from its
//! text. Finding it (nearest directory upward) and merging it with the
//! command line are the CLI's part; here every key is checked, and every
//! problem has the line and column of the key or value at fault.
//!
//! ```yaml
//! kubernetesVersion: "1.36"
//! featureGates: {DRAConsumableCapacity: true}
//! select: [DRA-V, DRA-X]
//! ignore: [DRA-A001]
//! perFileIgnores:
//!   "legacy/**": [DRA-A001, unguarded-attribute-lookup]
//! exclude: [node_modules, vendor]
//! extendExclude: ["*.tmpl.yaml"]
//! strict: true
//! inventory: [snapshots/cluster.yaml]
//! ```

use crate::gates::{FeatureGates, Version};
use crate::lint::suppress::resolve_all;
use crate::tree::{LineIndex, Node, Span, Value};

/// The file name, found from each linted file's directory upward.
pub const FILE_NAME: &str = ".kubectl-dra.yaml";

/// Largest configuration file read: a config is a few lines.
pub const MAX_BYTES: u64 = 1 << 20;

/// The keys, in the order `kubectl dra config` prints them.
pub const KEYS: &[&str] = &[
    "kubernetesVersion",
    "featureGates",
    "select",
    "ignore",
    "perFileIgnores",
    "exclude",
    "extendExclude",
    "strict",
    "inventory",
];

/// A value and the 1-based line it was written on.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub line: u32,
}

/// One `perFileIgnores` entry: files matching `glob` (as in `.gitignore`,
/// relative to the configuration file's directory) skip the rules `codes`.
#[derive(Clone, Debug, PartialEq)]
pub struct PerFileIgnore {
    pub glob: String,
    pub codes: Vec<String>,
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    pub kubernetes_version: Option<Setting<String>>,
    /// `Name=true` items, as `--feature-gates` takes them.
    pub feature_gates: Option<Setting<Vec<String>>>,
    /// Codes as written (ids, prefixes, names, `all`), each naming a rule:
    /// `lint::suppress::resolve_all` turns them into ids.
    pub select: Option<Setting<Vec<String>>>,
    pub ignore: Option<Setting<Vec<String>>>,
    pub per_file_ignores: Vec<PerFileIgnore>,
    pub exclude: Option<Setting<Vec<String>>>,
    pub extend_exclude: Option<Setting<Vec<String>>>,
    pub strict: Option<Setting<bool>>,
    /// Paths as written (relative to the configuration file's directory).
    pub inventory: Option<Setting<Vec<String>>>,
}

/// A problem with the file, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

struct Reader<'a> {
    text: &'a str,
    index: LineIndex,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn error(&mut self, span: Span, message: String) {
        let (line, column) = self.index.line_col(span.start);
        self.errors.push(ConfigError {
            line,
            column,
            message,
        });
    }

    fn line(&self, span: Span) -> u32 {
        self.index.line_col(span.start).0
    }

    /// The scalar as written: `1.30` stays `1.30`, not the float 1.3.
    fn raw<'n>(&self, node: &'n Node) -> Option<std::borrow::Cow<'n, str>> {
        match &node.value {
            Value::Str(s) => Some(std::borrow::Cow::Borrowed(s.as_str())),
            Value::Int(_) | Value::Float(_) => self
                .text
                .get(node.span.start as usize..node.span.end as usize)
                .map(|s| std::borrow::Cow::Owned(s.trim().to_owned())),
            _ => None,
        }
    }

    fn strings(&mut self, key: &str, node: &Node) -> Option<Vec<String>> {
        // A single string stands for a list of one, comma-separated as on
        // the command line.
        if let Value::Str(s) = &node.value {
            return Some(split_list(s));
        }
        let Some(items) = node.as_seq() else {
            self.error(
                node.span,
                format!("{key}: expected a list of strings, got {}", node.kind()),
            );
            return None;
        };
        let mut out = Vec::new();
        for item in items {
            match item.as_str() {
                Some(s) => out.extend(split_list(s)),
                None => {
                    self.error(
                        item.span,
                        format!("{key}: expected a string, got {}", item.kind()),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    fn codes(&mut self, key: &str, node: &Node) -> Option<Vec<String>> {
        let codes = self.strings(key, node)?;
        match resolve_all(&codes) {
            Ok(_) => Some(codes),
            Err(code) => {
                self.error(
                    node.span,
                    format!("{key}: {code:?} names no rule (see `kubectl dra rules`)"),
                );
                None
            }
        }
    }
}

fn split_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Reads a configuration file's text. An empty file is an empty
/// configuration; every problem is returned, not only the first.
///
/// ```
/// let c = dra_core::config::parse("kubernetesVersion: \"1.35\"\nstrict: true\n").unwrap();
/// assert_eq!(c.kubernetes_version.unwrap().value, "1.35");
/// let errors = dra_core::config::parse("strict: maybe\n").unwrap_err();
/// assert_eq!((errors[0].line, errors[0].column), (1, 9));
/// ```
pub fn parse(text: &str) -> Result<Config, Vec<ConfigError>> {
    let loaded = crate::yaml::load(text, crate::yaml::Limits::default());
    let mut r = Reader {
        text,
        index: LineIndex::new(text),
        errors: Vec::new(),
    };
    for e in &loaded.errors {
        r.error(e.span, e.message.clone());
    }
    if !r.errors.is_empty() {
        return Err(r.errors);
    }
    let mut config = Config::default();
    let root = match loaded.documents.as_slice() {
        [] => return Ok(config),
        [one] => &one.root,
        [_, second, ..] => {
            r.error(
                second.root.span,
                "one document expected: the configuration is one mapping".into(),
            );
            return Err(r.errors);
        }
    };
    if root.is_null() {
        return Ok(config);
    }
    let Some(entries) = root.as_map() else {
        r.error(
            root.span,
            format!("expected a mapping of settings, got {}", root.kind()),
        );
        return Err(r.errors);
    };
    for entry in entries {
        let node = &entry.value;
        let line = r.line(entry.key_span);
        match entry.key.as_str() {
            "kubernetesVersion" => match r.raw(node) {
                Some(v) => match v.parse::<Version>() {
                    Ok(_) => {
                        config.kubernetes_version = Some(Setting {
                            value: v.into_owned(),
                            line,
                        })
                    }
                    Err(e) => r.error(node.span, format!("kubernetesVersion: {e}")),
                },
                None => r.error(
                    node.span,
                    format!(
                        "kubernetesVersion: expected a version such as \"1.36\", got {}",
                        node.kind()
                    ),
                ),
            },
            "featureGates" => {
                if let Some(gates) = feature_gates(&mut r, node) {
                    config.feature_gates = Some(Setting { value: gates, line });
                }
            }
            "select" => {
                config.select = r.codes("select", node).map(|value| Setting { value, line });
            }
            "ignore" => {
                config.ignore = r.codes("ignore", node).map(|value| Setting { value, line });
            }
            "perFileIgnores" => per_file_ignores(&mut r, node, &mut config.per_file_ignores),
            "exclude" => {
                config.exclude = r
                    .strings("exclude", node)
                    .map(|value| Setting { value, line });
            }
            "extendExclude" => {
                config.extend_exclude = r
                    .strings("extendExclude", node)
                    .map(|value| Setting { value, line });
            }
            "strict" => match node.as_bool() {
                Some(value) => config.strict = Some(Setting { value, line }),
                None => r.error(
                    node.span,
                    format!("strict: expected true or false, got {}", node.kind()),
                ),
            },
            "inventory" => {
                config.inventory = r
                    .strings("inventory", node)
                    .map(|value| Setting { value, line });
            }
            other => {
                let hint = crate::suggest::did_you_mean(other, KEYS.iter().copied())
                    .map(|k| format!(" (did you mean {k:?}?)"))
                    .unwrap_or_default();
                r.error(
                    entry.key_span,
                    format!(
                        "unknown key {other:?}{hint}; the keys are {}",
                        KEYS.join(", ")
                    ),
                );
            }
        }
    }
    // Gates are checked against the version of the same file (or the
    // default), as the command line checks `--feature-gates`.
    if let Some(gates) = &config.feature_gates {
        let version = config
            .kubernetes_version
            .as_ref()
            .and_then(|v| v.value.parse().ok())
            .unwrap_or(Version::V1_37);
        let mut check = FeatureGates::defaults(version);
        for g in &gates.value {
            if let Err(e) = check.parse_into(g) {
                let (line, column) = (gates.line, 1);
                r.errors.push(ConfigError {
                    line,
                    column,
                    message: format!("featureGates: {e}"),
                });
            }
        }
    }
    if r.errors.is_empty() {
        Ok(config)
    } else {
        r.errors.sort_by_key(|e| (e.line, e.column));
        Err(r.errors)
    }
}

/// `{Name: true}` or `"Name=true,Other=false"`.
fn feature_gates(r: &mut Reader<'_>, node: &Node) -> Option<Vec<String>> {
    if let Value::Str(s) = &node.value {
        return Some(split_list(s));
    }
    let Some(entries) = node.as_map() else {
        r.error(
            node.span,
            format!(
                "featureGates: expected a mapping of gate names to true or false, got {}",
                node.kind()
            ),
        );
        return None;
    };
    let mut out = Vec::new();
    for e in entries {
        match e.value.as_bool() {
            Some(on) => out.push(format!("{}={on}", e.key)),
            None => {
                r.error(
                    e.value.span,
                    format!(
                        "featureGates.{}: expected true or false, got {}",
                        e.key,
                        e.value.kind()
                    ),
                );
                return None;
            }
        }
    }
    Some(out)
}

fn per_file_ignores(r: &mut Reader<'_>, node: &Node, out: &mut Vec<PerFileIgnore>) {
    let Some(entries) = node.as_map() else {
        r.error(
            node.span,
            format!(
                "perFileIgnores: expected a mapping of globs to rule codes, got {}",
                node.kind()
            ),
        );
        return;
    };
    for e in entries {
        let key = format!("perFileIgnores.{}", e.key);
        if let Some(codes) = r.codes(&key, &e.value) {
            let line = r.line(e.key_span);
            out.push(PerFileIgnore {
                glob: e.key.to_string(),
                codes,
                line,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_read() {
        let text = "kubernetesVersion: 1.35\nfeatureGates: {DRAConsumableCapacity: true}\nselect: DRA-V, dra-x\nignore: [invalid-device-class-name]\nperFileIgnores:\n  legacy/**: [DRA-A001]\nexclude: [vendor]\nextendExclude: ['*.tmpl.yaml']\nstrict: yes\ninventory: snap.yaml\n";
        let c = parse(text).unwrap();
        assert_eq!(c.kubernetes_version.unwrap().value, "1.35");
        assert_eq!(
            c.feature_gates.unwrap().value,
            ["DRAConsumableCapacity=true"]
        );
        assert_eq!(c.select.as_ref().unwrap().line, 3);
        assert_eq!(c.select.unwrap().value, ["DRA-V", "dra-x"]);
        assert_eq!(c.ignore.unwrap().value, ["invalid-device-class-name"]);
        assert_eq!(c.per_file_ignores[0].glob, "legacy/**");
        assert_eq!(c.per_file_ignores[0].line, 6);
        // YAML 1.1: `yes` is true, as Kubernetes reads it.
        assert!(c.strict.unwrap().value);
        assert_eq!(c.inventory.unwrap().value, ["snap.yaml"]);
    }

    #[test]
    fn a_version_keeps_its_digits() {
        let c = parse("kubernetesVersion: 1.30").unwrap_err();
        assert!(c[0].message.contains("1.30"), "{c:?}");
    }

    #[test]
    fn problems_name_their_line_and_column() {
        let text =
            "strict: maybe\nselcet: [DRA-V]\nignore: [DRA-Q9]\nfeatureGates: {NoSuchGate: true}\n";
        let errors = parse(text).unwrap_err();
        let at: Vec<(u32, u32)> = errors.iter().map(|e| (e.line, e.column)).collect();
        assert_eq!(at, [(1, 9), (2, 1), (3, 9), (4, 1)], "{errors:?}");
        assert!(errors[1].message.contains("did you mean \"select\""));
        assert!(errors[3].message.contains("NoSuchGate"));
    }

    #[test]
    fn empty_and_hostile_files() {
        assert_eq!(parse("").unwrap(), Config::default());
        assert_eq!(parse("# nothing\n").unwrap(), Config::default());
        assert!(parse("[1, 2]").is_err());
        assert!(parse("a: 1\n---\nb: 2\n").is_err());
        let deep = "[".repeat(100_000);
        assert!(parse(&deep).is_err());
    }
}
