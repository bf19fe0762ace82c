//! `kubectl dra convert`: resource.k8s.io manifests moved to another API
//! version as minimal edits (the engine is `dra_core::migrate`). Prints the
//! converted files, a unified diff (`--diff`), or edits them (`--write`).
//! Exit 0 when every object converted, 1 when one was left as it was, 2 for
//! usage errors and unreadable or missing paths.

use std::fmt::Write as _;

use dra_core::migrate::{convert, Conversion};

use crate::cli::ConvertArgs;
use crate::commands::source::resolve_gates;
use crate::render::terminal::strict;
use crate::Outcome;

pub fn run(args: &ConvertArgs) -> Result<Outcome, String> {
    let gates = resolve_gates(&args.target, None)?;
    let (paths, missing) = crate::files::collect(&args.paths);
    if args.write && paths.iter().any(|p| p.as_os_str() == "-") {
        return Err("--write cannot edit stdin: give file paths, or drop --write".into());
    }
    let mut stdout = String::new();
    let mut code = 0u8;
    let several = paths.len() > 1;
    let (mut written, mut not_written) = (0usize, 0usize);
    for path in &paths {
        let input = crate::files::read(path);
        let text = match input.text {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {}", strict(&input.name), strict(&e));
                code = 2;
                continue;
            }
        };
        let c = convert(&text, &args.to, &gates);
        report(&input.name, &c);
        if !c.problems.is_empty() {
            code = code.max(1);
        }
        if args.diff {
            stdout.push_str(&unified_diff(&input.name, &text, &c.text));
        } else if args.write {
            if c.text != text {
                // One file's failure is that file's: the others are written.
                match crate::writer::replace(path, &c.text, crate::writer::Expect::Unchanged(&text))
                {
                    Ok(()) => written += 1,
                    Err(e) => {
                        eprintln!("{}: not written: {}", strict(&input.name), strict(&e.0));
                        not_written += 1;
                        code = 2;
                    }
                }
            }
        } else {
            if several {
                if !stdout.is_empty() && !stdout.ends_with('\n') {
                    stdout.push('\n');
                }
                let _ = writeln!(stdout, "---\n# Source: {}", input.name);
            }
            stdout.push_str(&c.text);
        }
    }
    for m in &missing {
        eprintln!("{}: no such file or directory", strict(m));
        code = 2;
    }
    if args.write && (written > 0 || not_written > 0) {
        eprintln!(
            "{written} file{} written{}",
            if written == 1 { "" } else { "s" },
            if not_written > 0 {
                format!(", {not_written} not written")
            } else {
                String::new()
            }
        );
    }
    Ok(Outcome { stdout, code })
}

/// One stderr line per object converted or left, with its position.
fn report(file: &str, c: &Conversion) {
    for x in &c.converted {
        eprintln!(
            "{}:{}: {}: {} -> {}",
            strict(file),
            x.line,
            strict(&x.object),
            x.from,
            x.to
        );
    }
    for p in &c.problems {
        eprintln!(
            "{}:{}: {}{}not converted: {}",
            strict(file),
            p.line,
            strict(&p.object),
            if p.object.is_empty() { "" } else { ": " },
            strict(&p.message)
        );
    }
}

/// A unified diff of a file before and after its edits (`convert --diff`,
/// `lint --fix --diff`). Patience, not Myers: a fix or conversion edits
/// many objects apart, and Myers' time grows with the number of changes
/// times the length (20,000 fixed objects took 37 s); patience anchors on
/// the lines that occur once (object names) and diffs the pieces between.
pub(crate) fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Patience)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}
