//! `kubectl dra convert`: resource.k8s.io manifests moved to another API
//! version as minimal edits (the engine is `dra_core::migrate`). Prints the
//! converted files, a unified diff (`--diff`), or edits them (`--write`).
//! Exit 0 when every object converted, 1 when one was left as it was, 2 for
//! usage errors and unreadable or missing paths.

use std::fmt::Write as _;
use std::path::Path;

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
                write_in_place(path, &c.text)
                    .map_err(|e| format!("{}: cannot write: {e}", input.name))?;
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

fn unified_diff(name: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// Writes next to the file, then renames over it: a crash leaves the old
/// file or the new one, never half of each. The file's permissions stay; a
/// symbolic link stays a link (its target is written); a read-only file is
/// refused.
pub(crate) fn write_in_place(path: &Path, text: &str) -> std::io::Result<()> {
    let resolved = std::fs::canonicalize(path)?;
    let path = resolved.as_path();
    if std::fs::metadata(path)?.permissions().readonly() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            "the file is read-only",
        ));
    }
    // The reader drops a UTF-8 byte order mark; the file keeps it.
    let mut head = [0u8; 3];
    let bom = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && head == *b"\xEF\xBB\xBF";
    let text = if bom {
        format!("\u{feff}{text}")
    } else {
        text.to_owned()
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir
        .unwrap_or_else(|| Path::new("."))
        .join(format!(".{name}.kubectl-dra-{}", std::process::id()));
    std::fs::write(&tmp, &text)?;
    if let Ok(m) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&tmp, m.permissions());
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
