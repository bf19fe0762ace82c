//! `.kubectl-dra.yaml` (src/config.rs, crates/dra-core/src/config.rs): found
//! from each file upward to the repository root, merged under the command
//! line, every problem at its line, and `kubectl dra config` saying where
//! each setting comes from.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

const CLAIM: &str = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {}\n";
const OLD_CLAIM: &str = "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      deviceClassName: gpu.example.com\n";

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(support::bin())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run kubectl-dra")
}

/// The rule ids of `lint -o json` run in `dir`, with the exit code.
fn rules_in(dir: &Path, args: &[&str]) -> (Vec<String>, Option<i32>) {
    let mut argv = vec!["lint", "-o", "json"];
    argv.extend_from_slice(args);
    let o = run_in(dir, &argv);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| {
        panic!("{}", String::from_utf8_lossy(&o.stderr));
    });
    let ids = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["rule"].as_str().unwrap().to_owned())
        .collect();
    (ids, o.status.code())
}

fn repo(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    for (name, text) in files {
        let p = dir.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn the_nearest_configuration_governs_each_file() {
    let dir = repo(&[
        (".kubectl-dra.yaml", "ignore: [DRA-A001]\n"),
        ("a/claim.yaml", OLD_CLAIM),
        // A nearer file wins outright: its directory's files see DRA-A001.
        ("b/.kubectl-dra.yaml", "ignore: invalid-device-class-name\n"),
        ("b/claim.yaml", OLD_CLAIM),
        ("b/new.yaml", CLAIM),
    ]);
    let (ids, code) = rules_in(dir.path(), &[]);
    assert_eq!(ids, ["DRA-A001"], "only b/claim.yaml's");
    assert_eq!(code, Some(0), "A001 is a warning");
    // The command line adds to `ignore`, and --no-config reads none.
    let (ids, _) = rules_in(dir.path(), &["--ignore", "DRA-A"]);
    assert!(ids.is_empty(), "{ids:?}");
    let (ids, code) = rules_in(dir.path(), &["--no-config"]);
    assert_eq!(ids, ["DRA-A001", "DRA-A001", "DRA-V140"]);
    assert_eq!(code, Some(1));
    // --config names one file for every path.
    let (ids, _) = rules_in(dir.path(), &["--config", "b/.kubectl-dra.yaml"]);
    assert_eq!(ids, ["DRA-A001", "DRA-A001"]);
}

#[test]
fn nothing_above_the_repository_root_governs_it() {
    let outer = repo(&[(".kubectl-dra.yaml", "ignore: [all]\n")]);
    let inner = outer.path().join("inner");
    std::fs::create_dir_all(inner.join(".git")).unwrap();
    std::fs::write(inner.join("claim.yaml"), CLAIM).unwrap();
    let (ids, _) = rules_in(&inner, &[]);
    assert_eq!(ids, ["DRA-V140"]);
}

#[test]
fn per_file_ignores_excludes_and_strictness() {
    let dir = repo(&[
        (
            ".kubectl-dra.yaml",
            "perFileIgnores:\n  legacy/**: [DRA-A001]\nextendExclude: [vendor]\nstrict: true\n",
        ),
        ("legacy/claim.yaml", OLD_CLAIM),
        ("claim.yaml", OLD_CLAIM),
        ("vendor/claim.yaml", CLAIM),
    ]);
    let (ids, code) = rules_in(dir.path(), &[]);
    assert_eq!(ids, ["DRA-A001"]);
    assert_eq!(code, Some(1), "strict: a warning fails the run");
    // Excluded files stay out when named, as pre-commit names them.
    let (ids, code) = rules_in(dir.path(), &["vendor/claim.yaml", "legacy/claim.yaml"]);
    assert!(ids.is_empty(), "{ids:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn the_version_and_gates_come_from_the_file_under_the_command_line() {
    let dir = repo(&[
        (
            ".kubectl-dra.yaml",
            "kubernetesVersion: \"1.35\"\nfeatureGates: {DRAConsumableCapacity: true}\n",
        ),
        ("claim.yaml", CLAIM),
    ]);
    let o = run_in(dir.path(), &["lint", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kubernetesVersion"], "1.35", "{v}");
    let o = run_in(
        dir.path(),
        &["lint", "-o", "json", "--kubernetes-version", "1.36"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["kubernetesVersion"], "1.36");
}

#[test]
fn files_whose_configurations_disagree_on_the_release_are_refused() {
    let dir = repo(&[
        ("a/.kubectl-dra.yaml", "kubernetesVersion: \"1.35\"\n"),
        ("a/claim.yaml", CLAIM),
        ("b/.kubectl-dra.yaml", "kubernetesVersion: \"1.36\"\n"),
        ("b/claim.yaml", CLAIM),
    ]);
    let o = run_in(dir.path(), &["lint"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a/.kubectl-dra.yaml:1") && err.contains("b/.kubectl-dra.yaml:1"),
        "{err}"
    );
    assert_eq!(run_in(dir.path(), &["lint", "a"]).status.code(), Some(1));
}

#[test]
fn every_problem_names_the_file_line_and_column() {
    let dir = repo(&[
        (
            ".kubectl-dra.yaml",
            "strict: maybe\nselcet: [DRA-V]\nkubernetesVersion: 1.30\nignore: [DRA-Q]\n",
        ),
        ("claim.yaml", CLAIM),
    ]);
    let o = run_in(dir.path(), &["lint"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for want in [
        ".kubectl-dra.yaml:1:9: strict: expected true or false",
        ".kubectl-dra.yaml:2:1: unknown key \"selcet\" (did you mean \"select\"?)",
        ".kubectl-dra.yaml:3:20: kubernetesVersion: Kubernetes 1.30 is not supported",
        ".kubectl-dra.yaml:4:9: ignore: \"DRA-Q\" names no rule",
    ] {
        assert!(err.contains(want), "{want}\n{err}");
    }
    assert_eq!(run_in(dir.path(), &["config"]).status.code(), Some(2));
}

#[test]
fn config_says_where_each_setting_comes_from() {
    let dir = repo(&[
        (
            ".kubectl-dra.yaml",
            "# team defaults\nkubernetesVersion: \"1.36\"\nignore: DRA-A001\nperFileIgnores:\n  legacy/**: [unguarded-attribute-lookup]\n",
        ),
        ("legacy/claim.yaml", CLAIM),
    ]);
    let o = run_in(dir.path(), &["config", "legacy/claim.yaml"]);
    assert_eq!(o.status.code(), Some(0));
    insta::assert_snapshot!("config_text", String::from_utf8_lossy(&o.stdout));
    let o = run_in(dir.path(), &["config", "-o", "json", "legacy/claim.yaml"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["configFile"], ".kubectl-dra.yaml");
    assert_eq!(
        v["settings"]["kubernetesVersion"]["from"],
        ".kubectl-dra.yaml:2"
    );
    assert_eq!(v["settings"]["strict"]["from"], "default");
    assert_eq!(v["settings"]["perFileIgnores"][0]["appliesHere"], true);
    let o = run_in(dir.path(), &["config", "--no-config"]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("no configuration file"));
}

/// The JSON Schema users point their editors at agrees with the parser:
/// the same keys, and the documented example valid.
#[test]
fn the_json_schema_matches_the_parser() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(support::root().join("docs/kubectl-dra-config.schema.json"))
            .unwrap(),
    )
    .unwrap();
    let keys: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, dra_core::config::KEYS);
    let validator = jsonschema::validator_for(&schema).unwrap();
    let example = "kubernetesVersion: \"1.36\"\nfeatureGates: {DRAConsumableCapacity: true}\nselect: [DRA-V, DRA-X]\nignore: DRA-A001\nperFileIgnores:\n  legacy/**: [DRA-A001]\nexclude: [node_modules, vendor]\nextendExclude: ['*.tmpl.yaml']\nstrict: true\ninventory: [snapshots/cluster.yaml]\n";
    assert!(dra_core::config::parse(example).is_ok());
    let as_json = support::load_yaml_text(example);
    assert!(validator.is_valid(&as_json), "{as_json}");
    for bad in [
        "strict: 1\n",
        "selcet: [DRA-V]\n",
        "kubernetesVersion: \"1.30\"\n",
    ] {
        assert!(dra_core::config::parse(bad).is_err(), "{bad}");
        assert!(!validator.is_valid(&support::load_yaml_text(bad)), "{bad}");
    }
}
