//! `kubectl-dra completion SHELL` and the man page, generated from the clap
//! definitions so they never drift from the flags.

use clap::CommandFactory;

use crate::cli::Cli;
use crate::Outcome;

pub fn completion(shell: clap_complete::Shell) -> Result<Outcome, String> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kubectl-dra", &mut buf);
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&buf).into_owned(),
        code: 0,
    })
}

pub fn man() -> Result<Outcome, String> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command().name("kubectl-dra"))
        .render(&mut buf)
        .map_err(|e| format!("cannot render the man page: {e}"))?;
    Ok(Outcome {
        stdout: String::from_utf8_lossy(&buf).into_owned(),
        code: 0,
    })
}

/// Answers kubectl's plugin completion protocol (cobra's `__complete`): one
/// candidate per line, then `:4` (no file completion) or `:0` (files allowed,
/// for arguments that take paths).
pub fn complete(words: &[String]) -> Result<Outcome, String> {
    let cmd = Cli::command();
    let (last, before) = match words.split_last() {
        Some((l, b)) => (l.as_str(), b),
        None => ("", &[][..]),
    };
    let mut current = &cmd;
    for w in before {
        if let Some(sub) = current.get_subcommands().find(|s| s.get_name() == w) {
            current = sub;
        }
    }
    let mut out: Vec<String> = Vec::new();
    if last.starts_with('-') {
        for a in current.get_arguments() {
            if let Some(long) = a.get_long() {
                let flag = format!("--{long}");
                if flag.starts_with(last) {
                    out.push(flag);
                }
            }
        }
    } else {
        for s in current.get_subcommands().filter(|s| !s.is_hide_set()) {
            if s.get_name().starts_with(last) {
                out.push(s.get_name().to_owned());
            }
        }
    }
    // Paths are the usual arguments of lint, match and explain: let the shell complete files.
    let directive = if out.is_empty() { 0 } else { 4 };
    out.push(format!(":{directive}"));
    Ok(Outcome {
        stdout: out.join("\n") + "\n",
        code: 0,
    })
}
