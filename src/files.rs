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

/// A Helm chart's own metadata (`Chart.yaml`, `Chart.lock`): YAML with an
/// `apiVersion: v2` and no `kind`, never a manifest.
fn is_chart_metadata(p: &Path) -> bool {
    p.file_name()
        .is_some_and(|n| n == "Chart.yaml" || n == "Chart.lock")
}

fn is_manifest(p: &Path) -> bool {
    !is_chart_metadata(p)
        && matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml" | "json")
        )
}

/// What the directory walk leaves out, on top of `.gitignore`, `.ignore`
/// and hidden files: `--exclude` replaces these, `--extend-exclude` adds.
pub const DEFAULT_EXCLUDE: &[&str] = &["node_modules", ".git"];

/// How directories are walked.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// Globs replacing `DEFAULT_EXCLUDE` (`--exclude`).
    pub exclude: Option<Vec<String>>,
    /// Globs added to the excludes (`--extend-exclude`).
    pub extend_exclude: Vec<String>,
}

/// The inputs a command reads: each once, in order.
#[derive(Debug, Default)]
pub struct Collected {
    pub paths: Vec<PathBuf>,
    /// Paths given that do not exist.
    pub missing: Vec<String>,
    /// What the walk skipped that a user should hear of (Helm templates).
    pub notes: Vec<String>,
    /// Entries the walk could not read (a directory without permission, a
    /// path longer than PATH_MAX): (path, why). Never skipped silently.
    pub unreadable: Vec<(String, String)>,
}

/// Expands paths with the default walk; see `collect_with`.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let c = collect_with(paths, &vec![Walk::default(); paths.len()]);
    (c.paths, c.missing)
}

/// Expands paths: a file as given (hidden or not, a pipe too); a directory
/// walked as `git` and ruff walk one (the `ignore` crate: `.gitignore`,
/// `.ignore` and hidden entries skipped, excludes applied, links to
/// directories followed without looping), manifests only (`*.yaml`, `*.yml`,
/// `*.json`), sorted. A Helm chart's `templates/` (a directory beside a
/// `Chart.yaml`) holds Go templates, not manifests: skipped with a note.
/// Every file is read once however often it is named (a file and its
/// directory, `./a.yaml` and `a.yaml`). `walks[i]` walks `paths[i]` (each
/// directory's configuration file may set its own excludes).
pub fn collect_with(paths: &[PathBuf], walks: &[Walk]) -> Collected {
    let mut out = Collected::default();
    let mut seen = std::collections::HashSet::new();
    let mut push = |out: &mut Collected, p: PathBuf| {
        let key = fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
        if p.as_os_str() == "-" || seen.insert(key) {
            out.paths.push(p);
        }
    };
    for (i, p) in paths.iter().enumerate() {
        if p.as_os_str() == "-" {
            push(&mut out, p.clone());
        } else if p.is_dir() {
            let walk = walks.get(i).cloned().unwrap_or_default();
            let mut excludes: Vec<String> = walk
                .exclude
                .unwrap_or_else(|| DEFAULT_EXCLUDE.iter().map(|s| (*s).to_owned()).collect());
            excludes.extend(walk.extend_exclude);
            let mut overrides = ignore::overrides::OverrideBuilder::new(p);
            for g in &excludes {
                // An override glob is a whitelist; `!` makes it an exclude.
                let _ = overrides.add(&format!("!{g}"));
            }
            let mut builder = ignore::WalkBuilder::new(p);
            builder
                .hidden(true)
                .git_ignore(true)
                .git_exclude(true)
                .git_global(false)
                .ignore(true)
                .parents(true)
                .require_git(false)
                .follow_links(true)
                .sort_by_file_path(|a, b| a.cmp(b));
            if let Ok(o) = overrides.build() {
                builder.overrides(o);
            }
            let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            let seen_notes = notes.clone();
            let inside = Inside::new(p);
            builder.filter_entry(move |e| {
                if e.path_is_symlink() && !inside.admits(e.path()) {
                    let mut n = seen_notes.lock().unwrap_or_else(|p| p.into_inner());
                    n.push(format!(
                        "{}: a symbolic link out of {} and the working directory: not read (name it on the command line to read it)",
                        display_path(e.path()),
                        display_path(inside.shown()),
                    ));
                    return false;
                }
                let is_templates = e.file_type().is_some_and(|t| t.is_dir())
                    && e.file_name() == "templates"
                    && e.path().parent().is_some_and(|d| d.join("Chart.yaml").is_file());
                if is_templates {
                    let mut n = seen_notes.lock().unwrap_or_else(|p| p.into_inner());
                    n.push(format!(
                        "{}: Helm chart templates, not manifests: skipped (lint the rendered chart: helm template ... | kubectl dra lint -)",
                        display_path(e.path())
                    ));
                }
                !is_templates
            });
            let mut found = Vec::new();
            for e in builder.build() {
                match e {
                    Ok(e) => {
                        if e.file_type().is_some_and(|t| t.is_file()) && is_manifest(e.path()) {
                            found.push(e.into_path());
                        }
                    }
                    // A link back to a parent adds nothing: not a failure.
                    Err(e) if is_loop(&e) => {}
                    Err(e) => {
                        let path = walk_error_path(&e).unwrap_or_else(|| p.clone());
                        out.unreadable.push((display_path(&path), e.to_string()));
                    }
                }
            }
            found.sort();
            for f in found {
                push(&mut out, f);
            }
            out.notes
                .extend(notes.lock().map(|n| n.clone()).unwrap_or_default());
        } else if is_chart_metadata(p) {
            // Named by pre-commit with every staged YAML file: left out.
        } else if let Some(chart) = in_chart_templates(p) {
            // pre-commit names every staged file: a template is still no manifest.
            out.notes.push(format!(
                "{}: a template of the Helm chart {}, not a manifest: skipped (lint the rendered chart: helm template ... | kubectl dra lint -)",
                display_path(p),
                display_path(&chart)
            ));
        } else if p.exists() {
            push(&mut out, p.clone());
        } else {
            out.missing.push(p.display().to_string());
        }
    }
    out
}

/// Where a walked directory's links may lead: into the directory itself
/// or the working directory (the repository, when run from its root). A
/// link planted in a checked-out branch to `~/.kube/config` or a CI
/// runner's secrets would otherwise be read, and an invalid line of it
/// shown in a finding; the writer refuses such links for the same reason.
struct Inside {
    given: PathBuf,
    roots: Vec<PathBuf>,
}

impl Inside {
    fn new(dir: &Path) -> Inside {
        let roots = [Some(dir.to_path_buf()), std::env::current_dir().ok()]
            .into_iter()
            .flatten()
            .filter_map(|d| fs::canonicalize(d).ok())
            .collect();
        Inside {
            given: dir.to_path_buf(),
            roots,
        }
    }

    fn shown(&self) -> &Path {
        &self.given
    }

    /// Whether the link at `path` resolves inside a root. A dangling link
    /// is left to the walk, which reports it as unreadable.
    fn admits(&self, path: &Path) -> bool {
        match fs::canonicalize(path) {
            Ok(real) => self.roots.iter().any(|r| real.starts_with(r)),
            Err(_) => true,
        }
    }
}

fn is_loop(e: &ignore::Error) -> bool {
    match e {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

fn walk_error_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            walk_error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

/// The chart directory when `file` lies below a `templates/` directory that
/// stands beside a `Chart.yaml`.
fn in_chart_templates(file: &Path) -> Option<PathBuf> {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d.file_name().is_some_and(|n| n == "templates") {
            let chart = d.parent().unwrap_or(Path::new("."));
            let chart = if chart.as_os_str().is_empty() {
                Path::new(".")
            } else {
                chart
            };
            if chart.join("Chart.yaml").is_file() {
                return Some(chart.to_owned());
            }
        }
        dir = d.parent().filter(|p| !p.as_os_str().is_empty());
    }
    None
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

/// Reads a regular file in blocks of text handed to `sink` as they are
/// decoded, so that a large inventory is never held whole (issue 37). The
/// same checks and messages as [`read_limited`] and [`decode`]: the size
/// limit, a BOM dropped, UTF-8 (an invalid byte named by its offset and
/// line), no NUL. `Ok(false)`: not a regular file, not read (read it whole).
pub fn read_streamed(path: &Path, limit: u64, sink: impl FnMut(&str)) -> Result<bool, String> {
    read_in_blocks(path, limit, 4 << 20, sink)
}

/// [`read_streamed`] with blocks of `block` bytes (at least 4).
fn read_in_blocks(
    path: &Path,
    limit: u64,
    block: usize,
    mut sink: impl FnMut(&str),
) -> Result<bool, String> {
    let m = fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !m.is_file() {
        return Ok(false);
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
    let mut f = fs::File::open(path)
        .map_err(|e| format!("cannot read: {e}"))?
        .take(limit.saturating_add(1));
    let mut buf = vec![0u8; block.max(4)];
    // The first three bytes decide whether there is a BOM to drop.
    let mut head = 0;
    while head < 3 {
        match f.read(&mut buf[head..3]) {
            Ok(0) => break,
            Ok(n) => head += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read: {e}")),
        }
    }
    let mut total = head as u64;
    // Bytes not yet decoded: the head, then a character cut by a block's end.
    let mut carry = if buf[..head] == *b"\xEF\xBB\xBF" {
        0
    } else {
        head
    };
    let (mut offset, mut newlines) = (0usize, 0usize);
    let mut nul = false;
    loop {
        let n = loop {
            match f.read(&mut buf[carry..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read: {e}")),
            }
        };
        total += n as u64;
        if total > limit {
            return Err(too_big());
        }
        let len = carry + n;
        let bytes = &buf[..len];
        let (valid, cut) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, 0),
            Err(e) if e.error_len().is_none() && n > 0 => {
                let at = e.valid_up_to();
                // Valid up to `valid_up_to`: the rest is a cut character.
                (
                    std::str::from_utf8(&bytes[..at]).unwrap_or_default(),
                    bytes.len() - at,
                )
            }
            Err(e) => {
                let at = offset + e.valid_up_to();
                let line = newlines
                    + bytes[..e.valid_up_to()]
                        .iter()
                        .filter(|b| **b == b'\n')
                        .count()
                    + 1;
                return Err(format!(
                    "not UTF-8 text: invalid byte at offset {at} (line {line})"
                ));
            }
        };
        nul |= valid.contains('\0');
        offset += valid.len();
        newlines += memchr::memchr_iter(b'\n', valid.as_bytes()).count();
        sink(valid);
        if n == 0 {
            break;
        }
        let from = len - cut;
        buf.copy_within(from..len, 0);
        carry = cut;
    }
    if nul {
        return Err("binary file (contains NUL bytes); not a manifest".into());
    }
    Ok(true)
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
        use std::os::unix::fs::FileTypeExt;
        let t = m.file_type();
        if t.is_fifo() || t.is_char_device() {
            return read_pipe(path, limit);
        }
        return Err("not a regular file or pipe (a socket or block device); not read".into());
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

/// A named pipe (`lint <(helm template .)`, `/dev/stdin`) or character
/// device, read as stdin is: bounded by `limit`. Opened non-blocking, so a
/// FIFO that no program writes to reads as empty instead of blocking
/// forever; while a writer is there, the read waits for its data.
fn read_pipe(path: &Path, limit: u64) -> Result<String, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| format!("cannot read: {e}"))?;
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        match f.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => {
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() as u64 > limit {
                    return Err(format!(
                        "file is larger than the {} limit; not read",
                        show_limit(limit)
                    ));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read: {e}")),
        }
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

#[cfg(test)]
mod stream_tests {
    use super::*;

    /// What a whole read gives, and what the blocks join to.
    fn both(bytes: &[u8], block: usize) -> (Result<String, String>, Result<String, String>) {
        let dir = std::env::temp_dir().join(format!("kdra-stream-{}-{block}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("f.yaml");
        std::fs::write(&p, bytes).unwrap();
        let whole = read_limited(&p, 1 << 20).text;
        let mut joined = String::new();
        let streamed = read_in_blocks(&p, 1 << 20, block, |t| joined.push_str(t)).map(|read| {
            assert!(read);
            joined
        });
        let _ = std::fs::remove_dir_all(&dir);
        (whole, streamed)
    }

    /// Blocks of every size agree with one read: a BOM dropped, characters
    /// cut by a block's end joined, and the same errors (an invalid byte by
    /// offset and line, a NUL, a character cut by the end of the file).
    #[test]
    fn blocks_agree_with_one_read() {
        let cases: [&[u8]; 7] = [
            b"apiVersion: v1\nkind: Pod\n",
            "\u{feff}kind: Pod\nname: \u{e9}t\u{e9} \u{1F600}\n".as_bytes(),
            b"\xEF\xBB",
            b"a: 1\nb: \xff\n",
            b"a: 1\n\x00\n",
            b"a: \xC3",
            b"",
        ];
        for bytes in cases {
            for block in [4, 5, 7, 64] {
                let (whole, streamed) = both(bytes, block);
                assert_eq!(streamed, whole, "{bytes:?} in blocks of {block}");
            }
        }
    }

    #[test]
    fn a_file_over_the_limit_is_not_read() {
        let dir = std::env::temp_dir().join(format!("kdra-stream-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("big.yaml");
        std::fs::write(&p, "a: 1\n".repeat(10)).unwrap();
        let mut got = String::new();
        let r = read_in_blocks(&p, 20, 8, |t| got.push_str(t));
        assert!(r.unwrap_err().contains("larger than"));
        let r = read_in_blocks(&dir, 20, 8, |t| got.push_str(t));
        assert_eq!(r, Ok(false), "a directory is not streamed");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
