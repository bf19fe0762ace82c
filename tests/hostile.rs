//! Bad input never panics and never stops the run: every hostile file gets
//! a finding with a position (or the file named), the valid file next to
//! them is still linted, and the exit code is 1 or 2.

mod support;

fn tmpdir(name: &str) -> support::ScratchDir {
    support::ScratchDir::new(name)
}

fn lint_json(path: &str) -> (serde_json::Value, i32, String) {
    let o = support::run(&["lint", "-o", "json", path]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{path}: no JSON ({e}); stderr: {stderr}"));
    (v, o.status.code().unwrap_or(-1), stderr)
}

#[test]
fn hostile_fixtures_each_get_a_finding_and_the_valid_file_is_still_linted() {
    let (v, code, stderr) = lint_json("testdata/fixtures/hostile");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 2, "unreadable files make the exit code 2");
    let diags = v["diagnostics"].as_array().unwrap();
    let by_file = |f: &str| {
        diags
            .iter()
            .filter(|d| d["file"].as_str().unwrap().ends_with(f))
            .map(|d| d["rule"].as_str().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(by_file("alias-bomb.yaml"), vec!["DRA-E002"]);
    assert_eq!(by_file("binary.yaml"), vec!["DRA-E005"]);
    assert_eq!(by_file("latin1.yaml"), vec!["DRA-E005"]);
    assert_eq!(by_file("broken.yaml"), vec!["DRA-E001"]);
    assert_eq!(by_file("dup-keys.yaml"), vec!["DRA-E003"]);
    // A scalar and a list are YAML but no Kubernetes object: skipped, counted.
    assert!(by_file("not-objects.yaml").is_empty());
    assert!(
        v["summary"]["skipped"].as_u64().unwrap() >= 2,
        "{}",
        v["summary"]
    );
    // One decoding error per body, as kube-apiserver answers (the first
    // quantity that fails stops its decoder); the note names the others.
    assert_eq!(by_file("wrong-types.yaml"), vec!["DRA-V042"]);
    let wrong = diags
        .iter()
        .find(|d| d["file"].as_str().unwrap().ends_with("wrong-types.yaml"))
        .unwrap();
    assert!(
        wrong["notes"]
            .to_string()
            .contains("6 more values of this object do not decode either: metadata.name,"),
        "{wrong}"
    );
    // The valid DeviceClass in zz-valid.yaml was read: 3 objects in total.
    assert_eq!(v["summary"]["objects"], 3);
    for d in diags {
        assert!(d["line"].as_u64().unwrap() >= 1 && d["column"].as_u64().unwrap() >= 1);
    }
}

#[test]
fn deep_nesting_and_long_lines() {
    let dir = tmpdir("deep");
    std::fs::write(dir.join("deep-block.yaml"), "- ".repeat(100_000) + "x\n").unwrap();
    std::fs::write(dir.join("deep-flow.yaml"), "[".repeat(100_000)).unwrap();
    let mut map = String::new();
    for i in 0..300 {
        map.push_str(&" ".repeat(i));
        map.push_str("k:\n");
    }
    std::fs::write(dir.join("deep-map.yaml"), map).unwrap();
    let long = format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: long}}\nspec:\n  selectors:\n  - cel:\n      expression: \"{}\"\n",
        "a".repeat(1 << 20)
    );
    std::fs::write(dir.join("long-line.yaml"), long).unwrap();
    std::fs::write(
        dir.join("ok.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: ok}\n",
    )
    .unwrap();
    let (v, code, stderr) = lint_json(dir.to_str().unwrap());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 1);
    let rules: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
                d["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        rules.contains(&("deep-block.yaml".into(), "DRA-E002".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("deep-map.yaml".into(), "DRA-E002".into())),
        "{rules:?}"
    );
    assert!(
        rules.iter().any(|(f, _)| f == "deep-flow.yaml"),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("long-line.yaml".into(), "DRA-V160".into())),
        "{rules:?}"
    );
    assert_eq!(v["summary"]["objects"], 2);
    // The text report says where a finding on a megabyte line is, without
    // echoing the line.
    let out = support::run(&[
        "lint",
        dir.join("long-line.yaml").to_str().unwrap(),
        "--color",
        "never",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.len() < 4096, "{} bytes of output", text.len());
    assert!(text.contains("long-line.yaml:7:"), "{text}");
    assert!(text.contains("the line is too long to show"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn oversized_file_is_refused_unread() {
    let dir = tmpdir("big");
    let f = std::fs::File::create(dir.join("huge.yaml")).unwrap();
    f.set_len(200 * 1024 * 1024).unwrap(); // sparse: the 200 MiB are never written
    std::fs::write(
        dir.join("ok.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: ok}\n",
    )
    .unwrap();
    let (v, code, _) = lint_json(dir.to_str().unwrap());
    assert_eq!(code, 2);
    let d = &v["diagnostics"][0];
    assert_eq!(d["rule"], "DRA-E005");
    assert!(d["message"].as_str().unwrap().contains("larger than"));
    assert_eq!(v["summary"]["objects"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--max-file-size` moves lint's limit and the refusal says how to raise it.
#[test]
fn max_file_size_moves_lints_limit() {
    let dir = tmpdir("maxsize");
    let body = format!(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: ok}}\n# {}\n",
        "x".repeat(2048)
    );
    std::fs::write(dir.join("two-k.yaml"), body).unwrap();
    let path = dir.join("two-k.yaml");
    let o = support::run(&[
        "lint",
        "-o",
        "json",
        "--max-file-size",
        "1Ki",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let msg = v["diagnostics"][0]["message"].as_str().unwrap().to_owned();
    assert!(msg.contains("larger than the 1024 bytes limit"), "{msg}");
    assert!(msg.contains("--max-file-size raises the limit"), "{msg}");
    let o = support::run(&[
        "lint",
        "-o",
        "json",
        "--max-file-size",
        "4Ki",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    for bad in ["0", "12Xi", "-1", "99999999999Gi"] {
        let o = support::run(&["lint", "--max-file-size", bad, path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "--max-file-size {bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Inventory inputs are not held to lint's 64 MiB: a 65 MiB snapshot is
/// read (here it is all NUL bytes, so it is then refused as binary, which
/// proves it was read rather than refused by size).
#[test]
fn inventory_inputs_are_not_held_to_lints_limit() {
    let dir = tmpdir("biginv");
    let path = dir.join("snapshot.yaml");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(65 * 1024 * 1024).unwrap(); // sparse
    let o = support::run(&["devices", "-f", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0));
    assert!(err.contains("binary file"), "{err}");
    assert!(!err.contains("larger than"), "{err}");
    let o = support::run(&["lint", "-o", "json", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let msg = v["diagnostics"][0]["message"].as_str().unwrap().to_owned();
    assert!(msg.contains("larger than the 64 MiB limit"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A missing path is reported, with exit 2, after the other files' findings.
#[test]
fn a_missing_path_does_not_hide_the_other_files() {
    let d = tmpdir("missing");
    let good = d.join("bad-name.yaml");
    std::fs::write(
        &good,
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: Bad_Name}\n",
    )
    .unwrap();
    let o = support::run(&[
        "lint",
        "-o",
        "json",
        &good.to_string_lossy(),
        &d.join("nope.yaml").to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rules: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"DRA-E005") && rules.contains(&"DRA-V110"),
        "{rules:?}"
    );
}

/// An empty --select or --ignore (an unset CI variable) is a usage error, not
/// a run with every rule off.
#[test]
fn empty_rule_selection_is_a_usage_error() {
    for flag in ["--select", "--ignore"] {
        let o = support::run(&["lint", flag, "", "testdata/fixtures/taint-rule.yaml"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
    }
}

/// A FIFO given by name is read as a pipe (`lint <(helm template .)`), and
/// one that no program writes to reads as empty instead of blocking; one
/// found inside a directory is not read; /dev/zero is read only up to the
/// size limit.
#[cfg(unix)]
#[test]
fn pipes_are_read_bounded_and_never_block() {
    let d = tmpdir("fifo");
    let fifo = d.join("pipe.yaml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    // No writer: empty, at once.
    let (v, code, _) = lint_json(&fifo.to_string_lossy());
    assert_eq!((code, &v["summary"]["objects"]), (0, &serde_json::json!(0)));
    // Inside a directory: not a regular file, not read.
    let (v, code, _) = lint_json(&d.to_string_lossy());
    assert_eq!((code, &v["summary"]["files"]), (0, &serde_json::json!(0)));
    // Process substitution: bash hands a pipe that a program writes to.
    let o = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!(
            "{} lint -o json <(sleep 0.3; cat testdata/fixtures/taint-rule.yaml)",
            support::bin().display()
        ))
        .current_dir(support::root())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["summary"]["objects"].as_u64().unwrap() >= 1, "{v}");
    let (v, code, _) = lint_json("/dev/zero");
    assert_eq!(code, 2);
    let msg = v["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(msg.contains("larger than"), "{msg}");
}

/// Symlinks that loop back to a parent directory add nothing: each file is
/// linted once.
#[cfg(unix)]
#[test]
fn symlink_loops_lint_each_file_once() {
    let d = tmpdir("loops");
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(
        d.join("sub/x.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: Bad_Name}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(&d, d.join("sub/up")).unwrap();
    std::os::unix::fs::symlink(d.join("sub"), d.join("again")).unwrap();
    let (v, _, _) = lint_json(&d.to_string_lossy());
    assert_eq!(v["summary"]["files"], 1, "{v}");
}

/// A link planted in a walked directory may not lead out of it (nor out
/// of the working directory): a CI run over a branch that links
/// `leak.yaml` to a runner's secrets must not read them, let alone show a
/// line of them in an invalid-YAML finding. Named on the command line the
/// link is read (the user asked for it); a link inside is followed.
#[cfg(unix)]
#[test]
fn a_walk_does_not_follow_links_out_of_its_directory() {
    let d = tmpdir("escape");
    let repo = d.join("repo");
    std::fs::create_dir_all(repo.join(".hidden")).unwrap();
    std::fs::create_dir_all(d.join("secret")).unwrap();
    std::fs::write(d.join("secret/creds"), "token: \"SECRET-abc123\nother: x\n").unwrap();
    std::fs::write(
        repo.join(".hidden/real.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: Bad_Name}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(d.join("secret/creds"), repo.join("leak.yaml")).unwrap();
    std::os::unix::fs::symlink(d.join("secret"), repo.join("leakdir")).unwrap();
    std::os::unix::fs::symlink(repo.join(".hidden/real.yaml"), repo.join("alias.yaml")).unwrap();
    let o = support::run(&["lint", &repo.to_string_lossy()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        !stdout.contains("SECRET") && !stderr.contains("SECRET"),
        "{stdout}{stderr}"
    );
    assert!(
        stdout.contains("DRA-V110"),
        "the link inside is read: {stdout}"
    );
    assert!(stdout.contains("1 file,"), "{stdout}");
    for link in ["leak.yaml", "leakdir"] {
        assert!(
            stderr.contains(&format!("{link}: a symbolic link out of")),
            "{link} is named as skipped: {stderr}"
        );
    }
    let (v, _, _) = lint_json(&repo.join("leak.yaml").to_string_lossy());
    assert_eq!(v["diagnostics"][0]["rule"], "DRA-E001", "{v}");
}

/// `lint --fix` and `convert --write` on a path through a directory link
/// planted in a repository (`repo/linked/t.yaml`, `linked -> ../secret`,
/// as a shell glob or a CI script names it) write nothing outside.
#[cfg(unix)]
#[test]
fn a_fix_through_a_linked_directory_stays_in_the_repository() {
    let d = tmpdir("fix-dir-link");
    let repo = d.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(d.join("secret")).unwrap();
    let old =
        "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata:\n  name: x\nspec: {}\n";
    std::fs::write(d.join("secret/t.yaml"), old).unwrap();
    std::os::unix::fs::symlink("../secret", repo.join("linked")).unwrap();
    let target = repo.join("linked/t.yaml");
    for args in [
        vec!["lint", "--fix", target.to_str().unwrap()],
        vec!["convert", "--write", target.to_str().unwrap()],
    ] {
        let o = support::run(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("goes through the symbolic link"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read_to_string(d.join("secret/t.yaml")).unwrap(),
            old
        );
    }
}

/// A repository's `.kubectl-dra.yaml` may not name an inventory outside
/// its own directory, by path or through a link: a hostile branch could
/// otherwise make a pre-commit hook or CI job read any file of the machine.
/// The command line may still name one.
#[test]
fn a_configured_inventory_may_not_leave_the_repository() {
    let d = tmpdir("inventory-escape");
    let repo = d.join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(d.join("secret")).unwrap();
    let slice = "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: SECRET-s}\nspec:\n  driver: gpu.example.com\n  nodeName: n\n  pool: {name: p, resourceSliceCount: 1}\n  devices: [{name: d}]\n";
    std::fs::write(d.join("secret/cluster.yaml"), slice).unwrap();
    std::fs::write(
        repo.join("claim.yaml"),
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(d.join("secret/cluster.yaml"), repo.join("snap.yaml")).unwrap();
    let claim = repo.join("claim.yaml").to_string_lossy().into_owned();
    for target in ["../secret/cluster.yaml", "snap.yaml"] {
        std::fs::write(
            repo.join(".kubectl-dra.yaml"),
            format!("inventory: {target}\n"),
        )
        .unwrap();
        let o = support::run(&["lint", &claim]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{target}: {stderr}");
        assert!(
            stderr.contains(".kubectl-dra.yaml:1: inventory") && stderr.contains("outside"),
            "{target}: {stderr}"
        );
        let secret = d.join("secret/cluster.yaml").to_string_lossy().into_owned();
        let o = support::run(&["lint", &claim, "--inventory", &secret]);
        assert_ne!(o.status.code(), Some(2), "the command line may name it");
    }
    std::fs::write(repo.join("inside.yaml"), slice).unwrap();
    std::fs::write(repo.join(".kubectl-dra.yaml"), "inventory: inside.yaml\n").unwrap();
    let o = support::run(&["lint", &claim]);
    assert_ne!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// An absurd --timeout is no deadline, not an overflow panic.
#[test]
fn an_absurd_timeout_does_not_panic() {
    let o = support::run(&[
        "explain",
        "pod",
        "team-a/trainer",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
        "--timeout",
        "9000000000000000000s",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A 6 KB expression of 3,000 `+` terms (under the length limit) in two
/// files: walked on worker threads, it must not overflow their stacks.
#[test]
fn long_operator_chains_on_worker_threads() {
    let d = tmpdir("chain");
    let expr = format!("{} > 0", vec!["1"; 3000].join("+"));
    for f in ["a.yaml", "b.yaml"] {
        std::fs::write(
            d.join(f),
            format!("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec:\n  selectors:\n  - cel: {{expression: \"{expr}\"}}\n"),
        )
        .unwrap();
    }
    let (v, code, stderr) = lint_json(&d.to_string_lossy());
    assert_eq!(code, 1, "exit {code}: {stderr}");
    assert!(!stderr.contains("overflow"), "{stderr}");
    // cel-go's parser refuses it, as the apiserver does: 2,999 additions
    // nest its visitor past 250 (a left-recursive chain does not nest the
    // grammar's rules, so this is not the listener's limit).
    assert!(
        v.to_string().contains("max recursion depth exceeded"),
        "{v}"
    );
    // A chain of 4,000 selections in one file (linted on the command's own
    // thread) overflowed the main thread's stack.
    let one = tmpdir("select-chain");
    std::fs::write(
        one.join("c.yaml"),
        format!("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {{name: c}}\nspec:\n  selectors:\n  - cel: {{expression: \"device{} == 1\"}}\n", ".a".repeat(4000)),
    )
    .unwrap();
    let (v, code, stderr) = lint_json(&one.to_string_lossy());
    assert_eq!(code, 1, "exit {code}: {stderr}");
    assert!(v.to_string().contains("recursion"), "{v}");
}

/// cel.bind doubling a string (or a list) thirty times stops at the cost
/// limit (strings: cel-go's 0.1 per byte of `_+_`, charged before the result
/// is built) or at the growth bound (lists), not at a 1 GiB allocation.
#[test]
fn doubling_bombs_stop_early() {
    for (seed, name) in [("\"xxxxxxxx\"", "string"), ("[1, 2, 3, 4]", "list")] {
        let mut inner = "size(v30) > 0".to_owned();
        for i in (1..=30).rev() {
            inner = format!("cel.bind(v{i}, v{} + v{}, {inner})", i - 1, i - 1);
        }
        let expr = format!("cel.bind(v0, {seed}, {inner})");
        let o = support::run(&[
            "match",
            &expr,
            "-o",
            "json",
            "-f",
            "testdata/fixtures/explain-fleet/fleet.yaml",
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("operation cancelled"), "{name}: {out}");
    }
}

/// An invalid label selector is a usage error, even before any node is seen.
#[test]
fn invalid_label_selectors_are_usage_errors() {
    for sel in ["a in (b", "a in b", "a,,b", "a)"] {
        let o = support::run(&[
            "devices",
            "-l",
            sel,
            "-f",
            "testdata/fixtures/explain-fleet/fleet.yaml",
        ]);
        assert_eq!(o.status.code(), Some(2), "{sel}");
    }
    let o = support::run(&[
        "devices",
        "-l",
        "accelerator in (a100)",
        "-f",
        "testdata/fixtures/explain-fleet/fleet.yaml",
    ]);
    assert_eq!(o.status.code(), Some(0));
}

/// Input never reaches the reader raw, on a terminal or through a pipe (a
/// pager, a CI log): a file name and object names carrying escape sequences
/// (colour that conceals, a title rewrite, C1 CSI) are shown escaped by
/// `lint`, `devices` and `explain`; with `--color always` the tool's own
/// colour is there and the input's is not.
#[test]
fn escape_sequences_from_input_are_shown_escaped() {
    let dir = tmpdir("escapes");
    let name = dir.join("evil\x1b[8mhidden.yaml");
    std::fs::write(
        &name,
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: \"s\\e]0;pwned\\a\"}\nspec:\n  driver: x.example.com\n  nodeName: node-1\n  pool: {name: \"p\\e[8m\", resourceSliceCount: 1}\n  devices:\n  - name: \"d\\x9b2J\"\n    attributes:\n      note: {string: \"\\e[30;40mblack\"}\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - name: r\n      exactly: {deviceClassName: \"no\\e[8mclass\"}\n",
    )
    .unwrap();
    let path = name.to_str().unwrap();
    for args in [
        vec!["lint", path],
        vec!["lint", path, "--color", "always"],
        vec!["devices", "-f", path],
        vec![
            "explain",
            "claim",
            "default/c",
            "-f",
            path,
            "--color",
            "always",
        ],
        vec!["explain", "claim", "default/c", "-f", path, "--all-nodes"],
    ] {
        let o = support::run(&args);
        let text = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!text.is_empty(), "{args:?}: {err}");
        for bad in ["\x1b[8m", "\x1b]0", "\x1b[30;40m", "\u{9b}", "\x07"] {
            assert!(!text.contains(bad), "{args:?}: {bad:?} in {text:?}");
            assert!(!err.contains(bad), "{args:?}: {bad:?} in {err:?}");
        }
        let painted = args.contains(&"always");
        assert_eq!(text.contains("\x1b["), painted, "{args:?}: {text:?}");
    }
    let o = support::run(&["lint", path]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("evil\\x1b[8mhidden.yaml"), "{text}");
    let o = support::run(&["devices", "-f", path]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("d\\u009b2J"), "{text}");
    // Columns are measured on the escaped text: STATE starts where the
    // row's state does.
    let lines: Vec<&str> = text.lines().collect();
    let (header, row) = (lines[0], lines[1]);
    assert_eq!(header.find("STATE"), row.find("free"), "{text}");
    let o = support::run(&["match", "true", "-f", path]);
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0].find("RESULT"), lines[1].find("match"), "{text}");
}

/// Text from the cluster in explain's verdict lines (the scheduler's message
/// in a pod's status, a missing class's name) is escaped: an ANSI sequence
/// or a newline in it cannot paint or forge the terminal's lines.
#[test]
fn explain_verdict_lines_escape_cluster_text() {
    let d = tmpdir("verdict-escape");
    let text = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\nspec: {}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\nspec: {driver: d.example.com, nodeName: n1, pool: {name: p, generation: 1, resourceSliceCount: 1}, devices: [{name: g0}]}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: ok, namespace: default}\nspec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n---\n\
apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: bad, namespace: default}\nspec: {devices: {requests: [{name: r, exactly: {deviceClassName: \"x\\e[31mred\\nFAKE LINE\"}}]}}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: default}\nspec: {containers: [{name: c, image: i}], resourceClaims: [{name: g, resourceClaimName: ok}]}\n\
status: {conditions: [{type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"\\e[2J\\e[31mwiped\\nFAKE LINE\"}]}\n---\n\
apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: default}\nspec: {containers: [{name: c, image: i}], resourceClaims: [{name: g, resourceClaimName: bad}]}\n";
    let f = d.join("c.yaml");
    std::fs::write(&f, text).unwrap();
    for pod in ["default/a", "default/b"] {
        let o = support::run(&["explain", "pod", pod, "-f", &f.to_string_lossy()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(!out.contains('\x1b'), "{pod}: {out:?}");
        assert!(
            !out.lines().any(|l| l.starts_with("FAKE LINE")),
            "{pod}: {out}"
        );
        assert!(
            out.contains("FAKE LINE"),
            "{pod}: the text is shown, escaped: {out}"
        );
    }
}

/// Names with line breaks (no valid object has one; a hostile file may) do
/// not forge lines in explain's text nor split rows of the devices and
/// match tables: class, slice, pool, device, claim, request and taint names
/// are shown with the break escaped.
#[test]
fn explain_names_with_line_breaks_forge_no_lines() {
    let d = tmpdir("name-breaks");
    let text = r#"apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: "gpu\nFAKE class"}
spec: {selectors: [{cel: {expression: "device.attributes[\"x\"].model == \"a\""}}]}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: "ok\nFAKE class"}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: "s\nFAKE slice"}
spec: {driver: "d.example.com", nodeName: n1, pool: {name: "p\nFAKE pool", generation: 1, resourceSliceCount: 1}, devices: [{name: "g0\nFAKE dev", attributes: {model: {string: "b"}}, taints: [{key: "k\nFAKE taint", effect: NoSchedule}]}]}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: "c", namespace: default}
spec: {devices: {requests: [{name: "r\nFAKE req", exactly: {deviceClassName: "gpu\nFAKE class"}}]}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: "t", namespace: default}
spec: {devices: {requests: [{name: "r\nFAKE req", exactly: {deviceClassName: "ok\nFAKE class"}}]}}
"#;
    let f = d.join("c.yaml");
    std::fs::write(&f, text).unwrap();
    for claim in ["default/c", "default/t"] {
        let o = support::run(&[
            "explain",
            "claim",
            claim,
            "-f",
            &f.to_string_lossy(),
            "--all-nodes",
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("FAKE"), "{claim}: the names are shown: {out}");
        assert!(
            !out.lines().any(|l| l.starts_with("FAKE")),
            "{claim}: {out}"
        );
    }
    // lint's text: the object a finding is in is one help line.
    let o = support::run(&["lint", &f.to_string_lossy()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("in DeviceClass gpu\\nFAKE class"), "{out}");
    assert!(
        !out.lines().any(|l| l.trim_start().starts_with("FAKE")),
        "{out}"
    );
    // The tables of devices and match: one row per device, the break shown.
    for args in [
        vec!["devices", "-f", &*f.to_string_lossy()],
        vec!["match", "true", "-f", &*f.to_string_lossy()],
    ] {
        let o = support::run(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("p\\nFAKE pool"), "{args:?}: {out}");
        assert_eq!(
            out.lines().filter(|l| l.contains("FAKE")).count(),
            1,
            "{args:?}: {out}"
        );
    }
}

/// A manifest below a path longer than PATH_MAX is never skipped silently:
/// the walk reports what it could not read, and the run exits 2.
#[test]
fn a_path_past_path_max_is_reported_not_skipped() {
    let d = tmpdir("path-max");
    // Built by a process that enters each directory on the way: a path
    // past PATH_MAX cannot be created by its full name.
    let o = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import os\nos.chdir({:?})\nfor i in range(25):\n    n='d'*200\n    os.makedirs(n, exist_ok=True); os.chdir(n)\nopen('a.yaml','w').write('apiVersion: v1\\nkind: Namespace\\nmetadata: {{name: x}}\\n')\n",
            d.to_string_lossy()
        ))
        .status()
        .unwrap();
    assert!(o.success());
    let (v, code, _) = lint_json(&d.to_string_lossy());
    assert_eq!(code, 2, "{v}");
    let msg = v["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(msg.starts_with("cannot read"), "{msg}");
}

/// A status write with 50,000 distinct entries in every list the status
/// rules walk (results and the device statuses matched against them,
/// conditions, reservedFor, binding conditions): each check stays linear,
/// so the run ends with each bound reported once.
#[test]
fn huge_status_lists_are_checked_in_linear_time() {
    let dir = tmpdir("status-lists");
    const N: usize = 50_000;
    let mut y = String::from("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\nspec:\n  devices:\n    requests:\n    - {name: gpu, exactly: {deviceClassName: gpu.example.com}}\nstatus:\n  allocation:\n    devices:\n      results:\n");
    for i in 0..N {
        y.push_str(&format!("      - {{request: gpu, driver: gpu.example.com, pool: p, device: d{i}, bindingConditions: [a]}}\n"));
    }
    y.push_str("  reservedFor:\n");
    for i in 0..N {
        y.push_str(&format!("  - {{resource: pods, name: p, uid: u{i}}}\n"));
    }
    y.push_str("  devices:\n");
    for i in 0..N {
        y.push_str(&format!(
            "  - {{driver: gpu.example.com, pool: p, device: d{i}}}\n"
        ));
    }
    y.push_str("  - driver: gpu.example.com\n    pool: p\n    device: d0\n    conditions:\n");
    for i in 0..N {
        y.push_str(&format!("    - {{type: T{i}, status: \"True\", reason: R, lastTransitionTime: \"2026-01-01T00:00:00Z\"}}\n"));
    }
    std::fs::write(dir.join("status.yaml"), y).unwrap();
    let out = support::run(&[
        "lint",
        "--subresource",
        "status",
        "-o",
        "json",
        "--kubernetes-version",
        "1.35",
        // Kept, so that the binding conditions are walked too.
        "--feature-gates",
        "DRADeviceBindingConditions=true",
        dir.join("status.yaml").to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["field"].as_str().unwrap_or(""),
                d["type"].as_str().unwrap_or("")
            )
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            format!("status.devices[{N}] Duplicate"),
            format!("status.devices[{N}].conditions TooMany"),
            "status.allocation.devices.results TooMany".to_owned(),
            "status.reservedFor TooMany".to_owned(),
        ]
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
}

#[test]
fn a_document_of_many_bad_keys_is_read_once_and_its_problems_are_capped() {
    // 100,000 null keys in one mapping: each is a key JSON cannot hold
    // (DRA-E001) and each repeats the one before (DRA-E003). The document
    // is refused once, the findings stop at the cap and say how many more.
    let dir = tmpdir("many-null-keys");
    let mut text = String::from(
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: a\n  labels:\n",
    );
    for _ in 0..100_000 {
        text.push_str("    ~: a\n");
    }
    let path = dir.join("keys.yaml");
    std::fs::write(&path, text).unwrap();
    let (v, code, stderr) = lint_json(path.to_str().unwrap());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 1);
    assert_eq!(v["summary"]["objects"], 0, "{}", v["summary"]);
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1000);
    let last = diags.last().unwrap();
    assert!(
        last["notes"]
            .to_string()
            .contains("198999 more problems reading this file are not shown"),
        "{last}"
    );
}
