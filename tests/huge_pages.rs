//! The CLI turns transparent huge pages off for its process (issue 37:
//! with them, a fault zeroes 2 MiB after the kernel compacts memory to find
//! it, and the system time of a large inventory swung by seconds). Seen
//! from outside: the kernel's `THP_enabled` flag in /proc/PID/status.

mod support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `THP_enabled` of a process, once it reads as `want` (or the last value
/// read when `deadline` passes); `None` where the kernel does not report it.
fn thp_enabled(pid: u32, want: &str, deadline: Instant) -> Option<String> {
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let value = status
            .lines()
            .find_map(|l| l.strip_prefix("THP_enabled:"))?
            .trim()
            .to_owned();
        if value == want || Instant::now() > deadline {
            return Some(value);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_cli_runs_without_transparent_huge_pages() {
    // `lint -` reads stdin to its end: the process waits for us meanwhile.
    let mut child = Command::new(support::bin())
        .args(["lint", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let seen = thp_enabled(child.id(), "0", Instant::now() + Duration::from_secs(20));
    child.stdin.take().unwrap().write_all(b"").unwrap();
    child.wait().unwrap();
    match seen {
        Some(v) => assert_eq!(v, "0", "THP_enabled of the running CLI"),
        // Kernels before 6.x do not print the field: nothing to see there.
        None => eprintln!("this kernel does not report THP_enabled"),
    }
    // This test process itself keeps them: the flag is the CLI's own doing.
    let own = thp_enabled(std::process::id(), "1", Instant::now());
    assert!(own.as_deref().is_none_or(|v| v == "1"), "{own:?}");
}
