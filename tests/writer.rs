//! The one writer (src/writer.rs) under attack: links planted at the
//! temporary file's name or as the target, a concurrent edit, a full disk
//! (a real tmpfs), a name at NAME_MAX, modes, owners and byte order marks.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use kubectl_dra::writer::{replace, Expect};

mod support;

/// Removed when the test ends.
fn scratch(name: &str) -> support::ScratchDir {
    support::ScratchDir::new(&format!("writer-{name}"))
}

fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".kubectl-dra-"))
        .collect()
}

/// Links planted at the old predictable name (`.NAME.kubectl-dra-PID`)
/// and at tempfile-like names redirect nothing.
#[test]
fn a_planted_link_redirects_nothing() {
    let d = scratch("planted");
    let outside_dir = scratch("planted-outside");
    let outside = outside_dir.join("victim");
    fs::write(&outside, "precious").unwrap();
    let m = d.join("m.yaml");
    fs::write(&m, "old").unwrap();
    std::os::unix::fs::symlink(
        &outside,
        d.join(format!(".m.yaml.kubectl-dra-{}", std::process::id())),
    )
    .unwrap();
    replace(&m, "new", Expect::Unchanged("old")).unwrap();
    assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
    assert!(!fs::symlink_metadata(&m).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&m).unwrap(), "new");
    assert!(leftovers(&d).is_empty());
}

#[test]
fn a_link_out_of_its_directory_is_not_written_through() {
    let d = scratch("link-out");
    let outside_dir = scratch("link-out-target");
    let outside = outside_dir.join("t.yaml");
    fs::write(&outside, "old").unwrap();
    let link = d.join("sub").join("m.yaml");
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let e = replace(&link, "new", Expect::Unchanged("old")).unwrap_err();
    assert!(e.0.contains("symbolic link"), "{e}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "old");
    // A link to a file of its own directory is followed and stays a link.
    let real = d.join("real.yaml");
    fs::write(&real, "old").unwrap();
    let near = d.join("near.yaml");
    std::os::unix::fs::symlink(&real, &near).unwrap();
    replace(&near, "new", Expect::Unchanged("old")).unwrap();
    assert_eq!(fs::read_to_string(&real).unwrap(), "new");
    assert!(fs::symlink_metadata(&near)
        .unwrap()
        .file_type()
        .is_symlink());
}

/// A directory link on the path counts as a file link does: `sub/m.yaml`
/// with `sub` pointing out of the repository is not written, one that
/// stays below its own directory is (and the link is kept).
#[test]
fn a_directory_link_out_of_its_directory_is_not_written_through() {
    let d = scratch("dir-link-out");
    let outside_dir = scratch("dir-link-out-target");
    let outside = outside_dir.join("m.yaml");
    fs::write(&outside, "old").unwrap();
    let sub = d.join("sub");
    std::os::unix::fs::symlink(&*outside_dir, &sub).unwrap();
    let e = replace(&sub.join("m.yaml"), "new", Expect::Unchanged("old")).unwrap_err();
    assert!(e.0.contains("goes through the symbolic link"), "{e}");
    assert_eq!(fs::read_to_string(&outside).unwrap(), "old");
    // `..` after a link walks from where the link points.
    let dotdot = sub
        .join("..")
        .join(outside_dir.file_name().unwrap())
        .join("m.yaml");
    assert!(replace(&dotdot, "new", Expect::Unchanged("old")).is_err());
    // A new output file behind such a link is refused too.
    assert!(replace(&sub.join("new.yaml"), "x", Expect::Anything).is_err());
    assert!(!outside_dir.join("new.yaml").exists());
    // A link to a directory below its own is followed.
    fs::create_dir_all(d.join("real")).unwrap();
    fs::write(d.join("real").join("m.yaml"), "old").unwrap();
    std::os::unix::fs::symlink("real", d.join("near")).unwrap();
    replace(
        &d.join("near").join("m.yaml"),
        "new",
        Expect::Unchanged("old"),
    )
    .unwrap();
    assert_eq!(
        fs::read_to_string(d.join("real").join("m.yaml")).unwrap(),
        "new"
    );
    assert!(leftovers(&d.join("real")).is_empty());
}

/// A user's edit saved after the read is kept, and said.
#[test]
fn a_concurrent_edit_is_never_overwritten() {
    let d = scratch("edit");
    let m = d.join("m.yaml");
    fs::write(&m, "edited by the user").unwrap();
    let e = replace(&m, "fixed", Expect::Unchanged("as read")).unwrap_err();
    assert!(e.0.contains("changed since"), "{e}");
    assert_eq!(fs::read_to_string(&m).unwrap(), "edited by the user");
    assert!(leftovers(&d).is_empty());
}

#[test]
fn mode_owner_and_byte_order_mark_are_kept() {
    let d = scratch("mode");
    let m = d.join("m.yaml");
    fs::write(&m, b"\xEF\xBB\xBFold").unwrap();
    fs::set_permissions(&m, fs::Permissions::from_mode(0o640)).unwrap();
    let before = fs::metadata(&m).unwrap();
    // As root, the file of another user stays theirs.
    let other = std::os::unix::fs::chown(&m, Some(4242), Some(4343)).is_ok();
    replace(&m, "new", Expect::Unchanged("old")).unwrap();
    let after = fs::metadata(&m).unwrap();
    assert_eq!(after.mode() & 0o7777, 0o640);
    if other {
        assert_eq!((after.uid(), after.gid()), (4242, 4343));
    } else {
        assert_eq!(after.gid(), before.gid());
    }
    assert_eq!(fs::read(&m).unwrap(), b"\xEF\xBB\xBFnew");
}

/// A name at NAME_MAX is writable: the temporary name does not grow
/// with it.
#[test]
fn a_name_at_name_max_is_written() {
    let d = scratch("long");
    let m = d.join(format!("{}.yaml", "a".repeat(250)));
    fs::write(&m, "old").unwrap();
    replace(&m, "new", Expect::Unchanged("old")).unwrap();
    assert_eq!(fs::read_to_string(&m).unwrap(), "new");
}

#[test]
fn read_only_files_and_new_output_files() {
    let d = scratch("ro");
    let m = d.join("m.yaml");
    fs::write(&m, "old").unwrap();
    fs::set_permissions(&m, fs::Permissions::from_mode(0o444)).unwrap();
    assert!(replace(&m, "new", Expect::Unchanged("old"))
        .unwrap_err()
        .0
        .contains("read-only"));
    let out = d.join("snapshot.yaml");
    replace(&out, "snap", Expect::Anything).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), "snap");
    assert_eq!(fs::metadata(&out).unwrap().mode() & 0o777, 0o644);
    assert!(leftovers(&d).is_empty());
}

/// A full disk (a real 64 KiB tmpfs, as root; CI runs as root) leaves
/// the original and no temporary file.
#[test]
fn a_full_disk_leaves_the_original() {
    let root = fs::metadata("/proc/self").map(|m| m.uid()).unwrap_or(1) == 0;
    let d = scratch("enospc");
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
        .arg(&*d)
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        assert!(!root, "root could not mount a tmpfs");
        eprintln!("skipped: not root, no tmpfs");
        return;
    }
    let m = d.join("m.yaml");
    let old = "a".repeat(40 << 10);
    fs::write(&m, &old).unwrap();
    let e = replace(&m, &"b".repeat(40 << 10), Expect::Unchanged(&old));
    let left = leftovers(&d);
    let kept = fs::read_to_string(&m).unwrap() == old;
    let _ = std::process::Command::new("umount").arg(&*d).status();
    assert!(e.unwrap_err().0.contains("cannot write"));
    assert!(kept, "the original was lost");
    assert!(left.is_empty(), "{left:?}");
}

/// Ctrl-C while the fixed file waits to be renamed over the original (the
/// writer held there by its test-build pause): the original is intact, no
/// temporary file is left, the exit status is 130. Without the pause, the
/// same run writes the file.
#[test]
fn ctrl_c_mid_write_leaves_the_original() {
    let dir = scratch("ctrl-c");
    let file = dir.join("beta.yaml");
    let original = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: c\n  namespace: default\nspec:\n  devices:\n    requests:\n    - name: gpu\n      deviceClassName: gpu.example.com\n";
    fs::write(&file, original).unwrap();
    let mut child = std::process::Command::new(support::bin())
        .args(["convert", "--write", file.to_str().unwrap()])
        .env("KUBECTL_DRA_TEST_WRITE_PAUSE_MS", "5000")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the temporary file exists: the writer is in its pause.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while leftovers(&dir).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no temporary file appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: kill sends a signal to the child we spawned and still own.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert_eq!(fs::read_to_string(&file).unwrap(), original);
    assert!(leftovers(&dir).is_empty(), "{:?}", leftovers(&dir));
    let o = support::run(&["convert", "--write", file.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(fs::read_to_string(&file).unwrap().contains("exactly:"));
}
