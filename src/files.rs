//! Finding and reading input files. Problems become findings, never panics.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// `lint`'s own inputs over this size are refused unread (`--max-file-size`
/// changes it).
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Inventory inputs (`explain -f`, `devices -f`, `match -f`, `lint
/// --inventory` / `--stored`): a snapshot of a 10,000-node cluster is one
/// file of a few hundred MB, so only memory bounds these.
pub const MAX_INVENTORY_BYTES: u64 = 4 << 30;

/// An input: its display name and its text, or why it could not be read.
pub struct Input {
    pub name: String,
    pub text: Result<String, String>,
}

fn is_manifest(p: &Path) -> bool {
    matches!(
        p.extension().and_then(|e| e.to_str()),
        Some("yaml" | "yml" | "json")
    )
}

/// Expands paths: directories recursively (sorted, manifests only), files as given.
/// Returns the inputs and the paths that do not exist.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut out = Vec::new();
    let mut missing = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(p.clone());
        } else if p.is_dir() {
            let mut stack = vec![p.clone()];
            let mut found = Vec::new();
            // Symlinked directories are followed once: a link to a parent
            // (a loop) adds nothing.
            let mut visited = std::collections::HashSet::new();
            while let Some(dir) = stack.pop() {
                if !visited.insert(fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone())) {
                    continue;
                }
                let Ok(rd) = fs::read_dir(&dir) else {
                    found.push(dir);
                    continue;
                };
                for e in rd.flatten() {
                    let path = e.path();
                    let name = e.file_name();
                    if name.to_string_lossy().starts_with('.') && path.is_dir() {
                        continue;
                    }
                    if path.is_dir() {
                        stack.push(path);
                    } else if is_manifest(&path) {
                        found.push(path);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else if p.exists() {
            out.push(p.clone());
        } else {
            missing.push(p.display().to_string());
        }
    }
    (out, missing)
}

/// How a size limit reads in a message.
fn show_limit(limit: u64) -> String {
    if limit >= 1 << 30 && limit.is_multiple_of(1 << 30) {
        format!("{} GiB", limit >> 30)
    } else if limit >= 1 << 20 {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

/// Checks that bytes are text kubectl-dra can lint.
pub fn decode(bytes: Vec<u8>, limit: u64) -> Result<String, String> {
    if bytes.len() as u64 > limit {
        return Err(format!(
            "file is larger than {}; not read",
            show_limit(limit)
        ));
    }
    let bytes = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    match String::from_utf8(bytes) {
        Ok(s) if s.contains('\0') => Err("binary file (contains NUL bytes); not a manifest".into()),
        Ok(s) => Ok(s),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
            Err(format!(
                "not UTF-8 text: invalid byte at offset {at} (line {line})"
            ))
        }
    }
}

/// Reads a `lint` input, refused past `MAX_FILE_BYTES`.
pub fn read(path: &Path) -> Input {
    read_limited(path, MAX_FILE_BYTES)
}

/// Reads an input, refused past `limit` bytes.
pub fn read_limited(path: &Path, limit: u64) -> Input {
    let name = if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        display_path(path)
    };
    let text = if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(limit.saturating_add(1))
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read stdin: {e}"))
            .and_then(|_| decode(buf, limit))
    } else {
        read_regular(path, limit)
    };
    Input { name, text }
}

/// A regular file's bytes, at most `limit`: a FIFO, a device such as
/// /dev/zero or a socket would block or never end, so they are refused
/// before reading, and the read itself is capped (a file may grow).
fn read_regular(path: &Path, limit: u64) -> Result<String, String> {
    // Checked before opening: opening a FIFO blocks until a writer comes.
    let m = fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !m.is_file() {
        return Err("not a regular file (a FIFO, device or socket); not read".into());
    }
    let too_big = || {
        format!(
            "file is larger than the {} limit; not read",
            show_limit(limit)
        )
    };
    if m.len() > limit {
        return Err(too_big());
    }
    let f = fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut buf = Vec::with_capacity(usize::try_from(m.len()).unwrap_or(0).saturating_add(1));
    f.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read: {e}"))?;
    if buf.len() as u64 > limit {
        return Err(too_big());
    }
    decode(buf, limit)
}

/// A path as users expect to see it: relative to the working directory when
/// inside it, with forward slashes.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let rel = cwd
        .as_deref()
        .and_then(|c| path.strip_prefix(c).ok())
        .unwrap_or(path);
    let s = rel.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}
