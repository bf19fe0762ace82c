//! Shared helpers for the integration tests: run the built binary, read
//! conformance cases.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use dra_core::tree::Node;

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_kubectl-dra"))
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `kubectl-dra` with `args` in the repository root.
pub fn run(args: &[&str]) -> Output {
    run_with_stdin(args, None)
}

pub fn run_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_full(args, stdin, &[])
}

/// Runs `kubectl-dra` with extra environment variables (e.g. `KUBECONFIG`).
pub fn run_env(args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Output {
    run_full(args, None, env)
}

fn run_full(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &std::ffi::OsStr)]) -> Output {
    let mut cmd = Command::new(bin());
    // Output does not depend on the developer's terminal width (explain
    // wraps at COLUMNS); a test that wants wrapping sets it after this.
    cmd.env_remove("COLUMNS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn kubectl-dra");
    if let Some(data) = stdin {
        use std::io::Write;
        let mut s = child.stdin.take().unwrap();
        let _ = s.write_all(data);
    }
    child.wait_with_output().expect("wait for kubectl-dra")
}

/// Loads a YAML file with kubectl-dra's own loader, as JSON.
pub fn load_yaml(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let loaded = dra_core::yaml::load(&text, dra_core::yaml::Limits::default());
    assert!(
        loaded.errors.is_empty(),
        "{}: {:?}",
        path.display(),
        loaded.errors
    );
    let root: &Node = &loaded.documents[0].root;
    case_json(root, &text)
}

/// A case file as its authors mean it (FORMAT.md, "Reading the cases"):
/// every string a string. YAML 1.1 reads a plain `y`, `on` or `no` as a
/// boolean (as Kubernetes does, and so kubectl-dra's loader); here only
/// `true` and `false` are, so that writing the objects back out as JSON
/// hands the CLI the strings the case holds.
fn case_json(node: &Node, text: &str) -> serde_json::Value {
    use dra_core::tree::Value;
    use serde_json::Value as J;
    match &node.value {
        Value::Bool(_) => {
            let src = text
                .get(node.span.start as usize..node.span.end as usize)
                .unwrap_or_default();
            match src.to_ascii_lowercase().as_str() {
                "true" | "false" => node.to_json(),
                _ => J::String(src.to_owned()),
            }
        }
        Value::Seq(items) => J::Array(items.iter().map(|i| case_json(i, text)).collect()),
        Value::Map(entries) => J::Object(
            entries
                .iter()
                .map(|e| (e.key.to_string(), case_json(&e.value, text)))
                .collect(),
        ),
        _ => node.to_json(),
    }
}

/// Writes objects as a multi-document YAML file (JSON documents are YAML).
pub fn write_objects(objects: &[serde_json::Value], path: &Path) {
    let docs: Vec<String> = objects
        .iter()
        .map(|o| serde_json::to_string_pretty(o).unwrap())
        .collect();
    std::fs::write(path, docs.join("\n---\n")).unwrap();
}

/// The cases of one conformance suite, sorted by name.
pub fn cases(suite: &str) -> Vec<(String, serde_json::Value)> {
    let dir = root().join("testdata/conformance").join(suite);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, load_yaml(&p))
        })
        .collect()
}

/// `suite/case: reason` lines of testdata/conformance/KNOWN_GAPS.
pub fn known_gaps() -> Vec<String> {
    let text =
        std::fs::read_to_string(root().join("testdata/conformance/KNOWN_GAPS")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(':').next().map(|s| s.trim().to_owned()))
        .collect()
}

/// Fails with every mismatch at once, honouring the known-gaps list.
pub fn judge(suite: &str, failures: Vec<(String, String)>, total: usize) {
    let gaps = known_gaps();
    let mut unexpected = Vec::new();
    for (case, why) in &failures {
        if !gaps.contains(&format!("{suite}/{case}")) {
            unexpected.push(format!("{suite}/{case}: {why}"));
        }
    }
    for g in gaps.iter().filter(|g| g.starts_with(&format!("{suite}/"))) {
        let case = &g[suite.len() + 1..];
        if !failures.iter().any(|(c, _)| c == case) {
            unexpected.push(format!("{g} passes now: remove it from KNOWN_GAPS"));
        }
    }
    assert!(
        unexpected.is_empty(),
        "{} of {total} {suite} cases disagree with Kubernetes:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

pub fn gate_args(case: &serde_json::Value) -> Vec<String> {
    let mut args = Vec::new();
    if let Some(v) = case.get("kubernetesVersion").and_then(|v| v.as_str()) {
        args.push("--kubernetes-version".to_owned());
        args.push(v.to_owned());
    }
    if let Some(g) = case.get("featureGates").and_then(|g| g.as_object()) {
        let list: Vec<String> = g
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_bool().unwrap_or(false)))
            .collect();
        if !list.is_empty() {
            args.push("--feature-gates".to_owned());
            args.push(list.join(","));
        }
    }
    args
}

/// Runs every case of a suite through `judge_case` (in a scratch directory)
/// and fails with all disagreements, honouring KNOWN_GAPS.
pub fn run_suite(
    suite: &str,
    expected: usize,
    judge_case: fn(&serde_json::Value, &Path, &str) -> Result<(), String>,
) {
    let dir = std::env::temp_dir().join(format!(
        "kubectl-dra-{}-{}",
        suite.replace('/', "-"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = cases(suite);
    assert!(
        cases.len() >= expected,
        "expected the {expected} {suite} cases, found {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for (name, case) in &cases {
        if let Err(why) = judge_case(case, &dir, name) {
            failures.push((name.clone(), why));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    judge(suite, failures, cases.len());
}

/// Runs `kubectl-dra` with owned arguments and parses its JSON output.
pub fn run_json(args: &[String]) -> Result<(serde_json::Value, Option<i32>), String> {
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&argv);
    let v = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "no JSON ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    Ok((v, out.status.code()))
}

/// Lints each `*.yaml` of a fixture directory on its own and compares the
/// findings with the lines marked `# expect: RULE [severity]` (a first line
/// `# args: ...` adds flags; `*-pass.yaml` files must have no finding).
/// Checks that every rule whose id starts with `prefix` has a failing and a
/// passing fixture. Used by tests/rbac.rs and tests/rule_fixtures.rs.
pub fn check_fixture_dir(dir: &str, prefixes: &[&str]) {
    use std::collections::BTreeSet;
    fn expectations(text: &str) -> BTreeSet<(usize, String, Option<String>)> {
        let mut out = BTreeSet::new();
        for (i, line) in text.lines().enumerate() {
            let Some((_, mark)) = line.split_once("# expect: ") else {
                continue;
            };
            let mut words = mark.split_whitespace();
            let rule = words
                .next()
                .expect("a rule id after `# expect:`")
                .to_owned();
            out.insert((i + 1, rule, words.next().map(str::to_owned)));
        }
        out
    }
    let mut files: Vec<_> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let mut failed = Vec::new();
    let mut covered: BTreeSet<String> = BTreeSet::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut args: Vec<String> = vec!["lint".into(), "-o".into(), "json".into(), rel.clone()];
        if let Some(extra) = text.lines().next().and_then(|l| l.strip_prefix("# args: ")) {
            args.extend(extra.split_whitespace().map(str::to_owned));
        }
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&argv);
        assert!(
            o.status.code().is_some_and(|c| c <= 1),
            "{rel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let expected = expectations(&text);
        let got: BTreeSet<(usize, String, Option<String>)> = v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                let line = d["line"].as_u64().unwrap() as usize;
                let rule = d["rule"].as_str().unwrap().to_owned();
                // Compare the severity only where the fixture names one.
                let sev = d["severity"].as_str().unwrap().to_owned();
                let named = expected
                    .iter()
                    .any(|(l, r, s)| *l == line && *r == rule && s.is_some());
                (line, rule, named.then_some(sev))
            })
            .collect();
        if rel.ends_with("-pass.yaml") {
            assert!(expected.is_empty(), "{rel}: a pass fixture marks findings");
        } else {
            covered.extend(expected.iter().map(|(_, r, _)| r.clone()));
        }
        if got != expected {
            failed.push(format!(
                "{rel}:\n  expected {expected:?}\n  got      {got:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for rule in dra_core::lint::registry::RULES
        .iter()
        .filter(|r| prefixes.iter().any(|p| r.id.starts_with(p)))
    {
        assert!(
            covered.contains(rule.id),
            "no failing fixture finds {}",
            rule.id
        );
        let stem = rule.id.trim_start_matches("DRA-").to_ascii_lowercase();
        assert!(
            names
                .iter()
                .any(|n| n.starts_with(&stem) && n.ends_with("-pass.yaml")),
            "no passing fixture for {}",
            rule.id
        );
    }
}

/// A scratch directory under the system's temp dir, named after the test
/// and the process, emptied when created and removed when dropped (so test
/// runs leave nothing behind).
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(name: &str) -> ScratchDir {
        let dir = std::env::temp_dir().join(format!("kubectl-dra-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }
}

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for ScratchDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// YAML text as kubectl-dra's loader reads it (YAML 1.1 scalars), as JSON.
pub fn load_yaml_text(text: &str) -> serde_json::Value {
    let loaded = dra_core::yaml::load(text, dra_core::yaml::Limits::default());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    loaded.documents[0].root.to_json()
}

/// Runs the CLI with `-o json` appended and returns the parsed answer
/// (panics with stderr when the output is not JSON).
pub fn json_answer(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.extend(["-o", "json"]);
    let o = run(&a);
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)))
}

/// `capacity -o json`'s nodes as (node, copies, stop kind), in its order.
pub fn capacity_rows(v: &serde_json::Value) -> Vec<(String, u64, String)> {
    v["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| {
            (
                n["node"].as_str().unwrap_or_default().to_owned(),
                n["copies"].as_u64().unwrap_or_default(),
                n["stop"]["kind"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}
