//! The one writer for every file kubectl-dra writes (`lint --fix`,
//! `convert --write`, `snapshot --output-file`). It runs in repositories and
//! in CI jobs on untrusted pull requests, so:
//! - the temporary file is created by `tempfile` next to the target with a
//!   random name, `O_EXCL` and mode 0600: a link planted at any name cannot
//!   redirect the write, and a long target name cannot make it too long;
//! - it is written, fsynced, given the target's mode, owner and group (where
//!   the user may), and renamed over the target, then the directory is
//!   fsynced: a crash leaves the old file or the new one;
//! - just before the rename the target is read again and must be what the
//!   caller read (a user's edit saved meanwhile is never overwritten);
//! - on any failure, and on Ctrl-C or SIGTERM, no temporary file remains.
//!
//! A target reached through a symbolic link (the file, or a directory on
//! its path) is written only when it lies below that link's own directory
//! or the working directory: a link planted in a repository cannot aim a
//! fix outside it.

use std::collections::HashSet;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// Temporary files being written: removed by the Ctrl-C/SIGTERM handler.
static IN_FLIGHT: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
static HANDLER: Once = Once::new();

fn install_handler() {
    HANDLER.call_once(|| {
        // A second handler (a test harness, an embedding program) wins;
        // the temporary files are then only removed on ordinary failures.
        let _ = ctrlc::set_handler(|| {
            if let Ok(mut set) = IN_FLIGHT.lock() {
                for p in set.take().unwrap_or_default() {
                    let _ = fs::remove_file(p);
                }
            }
            std::process::exit(130);
        });
    });
}

/// A temporary file in `dir`, known to the Ctrl-C handler before anything
/// can interrupt: the handler is installed first, and the file is created
/// and recorded under the lock the handler takes, so a signal in between
/// waits for the record and then removes the file.
fn create_tracked(dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    install_handler();
    let mut set = IN_FLIGHT.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::Builder::new()
        .prefix(".kubectl-dra-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    set.get_or_insert_with(HashSet::new)
        .insert(tmp.path().to_owned());
    Ok(tmp)
}

fn untrack(path: &Path) {
    if let Ok(mut set) = IN_FLIGHT.lock() {
        if let Some(set) = set.as_mut() {
            set.remove(path);
        }
    }
}

/// What the target must still hold when it is replaced.
pub enum Expect<'a> {
    /// The text the caller read (a UTF-8 byte order mark aside): anything
    /// else means the file changed meanwhile, and it is not written.
    Unchanged(&'a str),
    /// Whatever is there, or nothing (an output file).
    Anything,
}

/// Why a file was not written; the original is intact.
#[derive(Debug)]
pub struct NotWritten(pub String);

impl std::fmt::Display for NotWritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn io(what: &str, e: std::io::Error) -> NotWritten {
    NotWritten(format!("{what}: {e}"))
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where a write to `path` lands: the path itself, or the file it links
/// to. Every symbolic link met on the way as the path is named (the file
/// itself, or a directory of its path: `sub/m.yaml` with `sub -> ../..`)
/// must leave the write inside the link's own directory or the working
/// directory; links above either (`/tmp -> /private/tmp`) do.
fn resolve(path: &Path) -> Result<PathBuf, NotWritten> {
    let file_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let mut links = Vec::new();
    let mut prefix = PathBuf::new();
    for part in path.components() {
        prefix.push(part);
        if matches!(part, std::path::Component::Normal(_))
            && fs::symlink_metadata(&prefix).is_ok_and(|m| m.file_type().is_symlink())
        {
            links.push(prefix.clone());
        }
    }
    if links.is_empty() {
        return Ok(path.to_owned());
    }
    // Where the write lands: the file, or (a new file) its directory's
    // real place with the name.
    let landing = match fs::canonicalize(path) {
        Ok(t) => t,
        Err(_) if !file_link => match (path.parent(), path.file_name()) {
            (Some(d), Some(n)) => fs::canonicalize(if d.as_os_str().is_empty() {
                Path::new(".")
            } else {
                d
            })
            .map(|d| d.join(n))
            .map_err(|e| io("cannot follow the link", e))?,
            _ => return Ok(path.to_owned()),
        },
        Err(e) => return Err(io("cannot follow the link", e)),
    };
    let inside = |root: &Path| {
        fs::canonicalize(root)
            .map(|r| landing.starts_with(r))
            .unwrap_or(false)
    };
    if std::env::current_dir().is_ok_and(|c| inside(&c)) {
        return Ok(if file_link { landing } else { path.to_owned() });
    }
    for link in &links {
        let parent = link
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !inside(parent) {
            let what = if link == path {
                "is a symbolic link".to_string()
            } else {
                format!("goes through the symbolic link {}", link.display())
            };
            return Err(NotWritten(format!(
                "{what} to {}, outside the link's directory and the working directory; not written through (name the file's real path to write it)",
                landing.display()
            )));
        }
    }
    Ok(if file_link { landing } else { path.to_owned() })
}

/// Replaces `path` with `text` (see the module doc). A file that begins
/// with a byte order mark keeps it.
pub fn replace(path: &Path, text: &str, expect: Expect<'_>) -> Result<(), NotWritten> {
    replace_with(path, expect, text.as_bytes().starts_with(BOM), |f| {
        f.write_all(text.as_bytes())
    })
}

/// As [`replace`], the new content written by `write` as it is made (a
/// snapshot of a whole cluster is never held as one text). `has_bom`: the
/// content begins with a byte order mark of its own.
pub fn replace_with(
    path: &Path,
    expect: Expect<'_>,
    has_bom: bool,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), NotWritten> {
    let target = resolve(path)?;
    let existing = match fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io("cannot read", e)),
    };
    if let Some(m) = &existing {
        if !m.is_file() {
            return Err(NotWritten("not a regular file; not written".into()));
        }
        if m.permissions().readonly() {
            return Err(NotWritten("the file is read-only; not written".into()));
        }
    }
    if existing.is_none() && matches!(expect, Expect::Unchanged(_)) {
        return Err(NotWritten(
            "the file was removed since it was read; not written".into(),
        ));
    }
    let current = match (&existing, &expect) {
        (Some(_), Expect::Unchanged(_)) => Some(read_back(&target)?),
        (Some(_), Expect::Anything) => {
            let mut head = Vec::new();
            fs::File::open(&target)
                .and_then(|f| f.take(3).read_to_end(&mut head))
                .map_err(|e| io("cannot read", e))?;
            Some(head)
        }
        _ => None,
    };
    let bom = current.as_deref().is_some_and(|c| c.starts_with(BOM));
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = create_tracked(dir)
        .map_err(|e| io("cannot create a temporary file in its directory", e))?;
    let result = (|| {
        let f = tmp.as_file_mut();
        if bom && !has_bom {
            f.write_all(BOM).map_err(|e| io("cannot write", e))?;
        }
        {
            let mut buffered = std::io::BufWriter::new(&mut *f);
            write(&mut buffered)
                .and_then(|()| buffered.flush())
                .map_err(|e| io("cannot write", e))?;
        }
        let mode = existing.as_ref().map_or(0o644, |m| m.mode() & 0o7777);
        f.set_permissions(fs::Permissions::from_mode(mode))
            .map_err(|e| io("cannot set its mode", e))?;
        if let Some(m) = &existing {
            // Root keeps another user's file theirs; anyone else keeps at
            // least the group where they belong to it. Not permitted: the
            // file becomes the writer's, as any editor's save would make it.
            if std::os::unix::fs::fchown(&*f, Some(m.uid()), Some(m.gid())).is_err() {
                let _ = std::os::unix::fs::fchown(&*f, None, Some(m.gid()));
            }
            if m.mode() & 0o7000 != 0 {
                // chown clears setuid/setgid bits: set the mode again.
                let _ = f.set_permissions(fs::Permissions::from_mode(mode));
            }
        }
        f.sync_all().map_err(|e| io("cannot write", e))?;
        pause_for_tests();
        if let Expect::Unchanged(read) = expect {
            let now = read_back(&target)?;
            let now = now.strip_prefix(BOM).unwrap_or(&now);
            if now != read.as_bytes() {
                return Err(NotWritten(
                    "the file changed since kubectl-dra read it; not written (run again)".into(),
                ));
            }
        }
        Ok(())
    })();
    let tmp_path = tmp.path().to_owned();
    let outcome = result.and_then(|()| {
        tmp.persist(&target)
            .map(drop)
            .map_err(|e| io("cannot replace the file", e.error))
    });
    untrack(&tmp_path);
    outcome?;
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Test builds only: `KUBECTL_DRA_TEST_WRITE_PAUSE_MS` holds the writer
/// between writing the temporary file and renaming it, so that a test can
/// interrupt it there (tests/writer.rs). Release builds have no such hook.
fn pause_for_tests() {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("KUBECTL_DRA_TEST_WRITE_PAUSE_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
    }
}

/// The target's bytes as they are now (bounded: what was read plus a
/// margin; a file grown past it has changed anyway).
fn read_back(path: &Path) -> Result<Vec<u8>, NotWritten> {
    let mut buf = Vec::new();
    fs::File::open(path)
        .and_then(|f| {
            f.take(crate::files::MAX_FILE_BYTES + 4)
                .read_to_end(&mut buf)
        })
        .map_err(|e| io("cannot read", e))?;
    Ok(buf)
}

// Tests: tests/writer.rs (a planted link, a concurrent edit, a full disk).
