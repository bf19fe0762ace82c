//! kubectl's plugin completion protocol (cobra's `__complete`), which
//! kubectl 1.26+ speaks through `kubectl_complete-dra`: one candidate per
//! line, then `:DIRECTIVE`. Completing never runs the command line, never
//! contacts a cluster and never runs a kubeconfig's exec plugin: candidates
//! come from the clap definitions, the rule registry, the feature gates and
//! the kubeconfig's names.

use clap::{Arg, Command, CommandFactory};

use crate::cli::Cli;
use crate::Outcome;
use dra_core::gates::{Gate, Version};

/// cobra's ShellCompDirective bits.
const FILES: u8 = 0;
const NO_SPACE: u8 = 2;
const NO_FILES: u8 = 4;

pub fn complete(words: &[String]) -> Result<Outcome, String> {
    let (last, before) = match words.split_last() {
        Some((l, b)) => (l.as_str(), b),
        None => ("", &[][..]),
    };
    let cmd = Cli::command();
    let line = Line::read(&cmd, before);
    let (candidates, directive) = candidates(&line, last);
    let mut out: Vec<String> = candidates;
    out.push(format!(":{directive}"));
    Ok(Outcome {
        stdout: out.join("\n") + "\n",
        code: 0,
    })
}

/// What the words before the one being completed say.
struct Line<'c> {
    /// The innermost subcommand named.
    command: &'c Command,
    /// The flag whose value is being completed (`-o <TAB>`).
    pending: Option<&'c Arg>,
    /// `--kubeconfig PATH` when given.
    kubeconfig: Option<String>,
    /// The files of `-f`, whose objects name what the positionals take.
    files: Vec<String>,
    /// The command's positional words so far.
    positionals: Vec<String>,
}

impl<'c> Line<'c> {
    fn read(root: &'c Command, words: &[String]) -> Line<'c> {
        let mut line = Line {
            command: root,
            pending: None,
            kubeconfig: None,
            files: Vec::new(),
            positionals: Vec::new(),
        };
        for w in words {
            if let Some(arg) = line.pending.take() {
                line.value(arg, w);
                continue;
            }
            if w.starts_with('-') {
                let (flag, value) = match w.split_once('=') {
                    Some((f, v)) => (f, Some(v)),
                    None => (w.as_str(), None),
                };
                let Some(arg) = find_flag(line.command, flag) else {
                    continue;
                };
                match value {
                    Some(v) => line.value(arg, v),
                    None if takes_value(arg)
                        && arg.get_num_args().is_none_or(|n| n.min_values() > 0) =>
                    {
                        line.pending = Some(arg);
                    }
                    None => {}
                }
                continue;
            }
            match line.command.find_subcommand(w) {
                Some(sub) if line.positionals.is_empty() => line.command = sub,
                _ => line.positionals.push(w.clone()),
            }
        }
        line
    }

    /// A flag's value: the ones later candidates depend on are kept.
    fn value(&mut self, arg: &Arg, value: &str) {
        match arg.get_long() {
            Some("kubeconfig") => self.kubeconfig = Some(value.to_owned()),
            Some("filename") => self.files.push(value.to_owned()),
            _ => {}
        }
    }
}

fn takes_value(arg: &Arg) -> bool {
    arg.get_action().takes_values()
}

/// The argument `-x` or `--long` names in `cmd`.
fn find_flag<'c>(cmd: &'c Command, flag: &str) -> Option<&'c Arg> {
    if let Some(long) = flag.strip_prefix("--") {
        return cmd.get_arguments().find(|a| {
            a.get_long() == Some(long) || a.get_all_aliases().is_some_and(|al| al.contains(&long))
        });
    }
    let mut shorts = flag.strip_prefix('-')?.chars();
    let c = shorts.next()?;
    // `-ojson` carries its value; only a lone `-o` waits for one.
    shorts
        .next()
        .is_none()
        .then(|| cmd.get_arguments().find(|a| a.get_short() == Some(c)))
        .flatten()
}

fn candidates(line: &Line<'_>, last: &str) -> (Vec<String>, u8) {
    if let Some(arg) = line.pending {
        return values(line, arg, last, "");
    }
    if last.starts_with("--") {
        if let Some((flag, value)) = last.split_once('=') {
            return match find_flag(line.command, flag) {
                Some(arg) if takes_value(arg) => values(line, arg, value, &format!("{flag}=")),
                _ => (Vec::new(), NO_FILES),
            };
        }
    }
    if last.starts_with('-') {
        let mut out = Vec::new();
        for a in line.command.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = a.get_long() {
                let flag = format!("--{long}");
                if flag.starts_with(last) {
                    out.push(flag);
                }
            }
        }
        return (out, NO_FILES);
    }
    let subs: Vec<String> = line
        .command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name().starts_with(last))
        .map(|s| s.get_name().to_owned())
        .collect();
    if !subs.is_empty() {
        return (subs, NO_FILES);
    }
    positional(line, last)
}

/// Candidates for the next positional argument of the command.
fn positional(line: &Line<'_>, typed: &str) -> (Vec<String>, u8) {
    let index = line.positionals.len();
    let Some(arg) = line.command.get_positionals().nth(index).or_else(|| {
        // A positional that takes many values (`explain claim A B`).
        line.command
            .get_positionals()
            .last()
            .filter(|a| a.get_num_args().is_some_and(|n| n.max_values() > 1))
    }) else {
        return (Vec::new(), NO_FILES);
    };
    let possible: Vec<String> = possible_values(arg)
        .into_iter()
        .filter(|v| v.starts_with(typed))
        .collect();
    if !possible.is_empty() {
        return (possible, NO_FILES);
    }
    let kind = match (line.command.get_name(), arg.get_id().as_str()) {
        ("rules", _) => return (rule_ids(typed, ""), NO_FILES),
        ("claim", "claims") => "ResourceClaim",
        ("pod", "pod") => "Pod",
        ("capacity", "name") => match line.positionals.first().map(String::as_str) {
            Some("claim") => "ResourceClaim",
            Some("template") => "ResourceClaimTemplate",
            Some("pod") => "Pod",
            Some("workload") => return (Vec::new(), FILES),
            _ => return (Vec::new(), NO_FILES),
        },
        _ if is_path(arg) => return (Vec::new(), FILES),
        // An expression, or a name only the cluster knows: nothing to offer.
        _ => return (Vec::new(), NO_FILES),
    };
    let mut names = super::complete_names::names(&line.files, kind, typed);
    // `explain claim A B`: A is not offered again.
    names.retain(|n| !line.positionals.contains(n));
    (names, NO_FILES)
}

/// Candidates for the value of `arg` that begin with `typed`, each written
/// after `prefix` (`--output=` when completing `--output=js`).
fn values(line: &Line<'_>, arg: &Arg, typed: &str, prefix: &str) -> (Vec<String>, u8) {
    let starting = |names: Vec<String>| -> Vec<String> {
        names
            .into_iter()
            .filter(|n| n.starts_with(typed))
            .map(|n| format!("{prefix}{n}"))
            .collect()
    };
    let possible = possible_values(arg);
    if !possible.is_empty() {
        return (starting(possible), NO_FILES);
    }
    let id = arg.get_id().as_str();
    match arg.get_long().unwrap_or(id) {
        "kubernetes-version" => (
            starting(Version::SUPPORTED.iter().map(Version::to_string).collect()),
            NO_FILES,
        ),
        "feature-gates" => feature_gates(typed, prefix),
        "select" | "ignore" => {
            let (done, part) = typed.rsplit_once(',').map_or(("", typed), |(d, p)| (d, p));
            let head = if done.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix}{done},")
            };
            (rule_ids(part, &head), NO_FILES)
        }
        "context" | "cluster" | "user" => {
            let names = crate::cluster::kubeconfig_names(
                line.kubeconfig.as_deref().map(std::path::Path::new),
            );
            let names = match arg.get_long() {
                Some("context") => names.contexts,
                Some("cluster") => names.clusters,
                _ => names.users,
            };
            (starting(names), NO_FILES)
        }
        _ if is_path(arg) => (Vec::new(), FILES),
        // Namespaces, nodes and object names live in the cluster, which
        // completion never contacts.
        _ => (Vec::new(), NO_FILES),
    }
}

/// The values the clap definition lists for `arg` (a value enum, a value
/// list), hidden ones aside.
fn possible_values(arg: &Arg) -> Vec<String> {
    arg.get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect()
}

fn is_path(arg: &Arg) -> bool {
    matches!(
        arg.get_value_hint(),
        clap::ValueHint::FilePath | clap::ValueHint::DirPath | clap::ValueHint::AnyPath
    ) || arg
        .get_value_names()
        .is_some_and(|n| n.iter().any(|n| matches!(n.as_str(), "PATH" | "FILE")))
}

/// `Name=` for each gate, then `Name=true`/`Name=false`; in a list
/// (`A=true,B`), the part after the last comma.
fn feature_gates(typed: &str, prefix: &str) -> (Vec<String>, u8) {
    let (done, part) = typed.rsplit_once(',').map_or(("", typed), |(d, p)| (d, p));
    let head = if done.is_empty() {
        prefix.to_owned()
    } else {
        format!("{prefix}{done},")
    };
    if let Some((name, value)) = part.split_once('=') {
        let out = ["true", "false"]
            .into_iter()
            .filter(|v| v.starts_with(value))
            .map(|v| format!("{head}{name}={v}"))
            .collect();
        return (out, NO_FILES);
    }
    let out = Gate::ALL
        .iter()
        .map(|g| g.name())
        .filter(|n| n.starts_with(part))
        .map(|n| format!("{head}{n}="))
        .collect();
    (out, NO_FILES | NO_SPACE)
}

/// Rule ids and names that begin with `typed`, after `head` (the shell
/// keeps only candidates that begin with the word as typed).
fn rule_ids(typed: &str, head: &str) -> Vec<String> {
    dra_core::lint::registry::RULES
        .iter()
        .flat_map(|r| [r.id, r.name])
        .filter(|n| {
            n.starts_with(typed) && !typed.is_empty() || typed.is_empty() && n.starts_with("DRA-")
        })
        .map(|n| format!("{head}{n}"))
        .collect()
}
