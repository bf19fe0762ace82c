//! `kubectl dra <TAB>` through the real kubectl (/usr/bin/kubectl, which
//! runs `kubectl_complete-dra <words>` from PATH): candidates come back, and
//! completing a command line never runs it. And `kubectl dra lint` and
//! `kubectl dra explain` themselves, found on PATH as kubectl finds plugins.

mod support;

use std::path::Path;
use std::process::{Command, Output};

fn kubectl() -> Option<&'static Path> {
    let k = Path::new("/usr/bin/kubectl");
    if k.exists() {
        return Some(k);
    }
    // CI has kubectl on the machine: there the test must not pass vacuously.
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs /usr/bin/kubectl for the completion test"
    );
    None
}

/// A PATH directory with kubectl-dra and the shim, as `cargo install` plus
/// the README's copy step (or krew) leave them.
fn plugin_dir(dir: &Path) -> std::path::PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(support::bin(), bin.join("kubectl-dra")).unwrap();
    std::fs::copy(
        support::root().join("kubectl_complete-dra"),
        bin.join("kubectl_complete-dra"),
    )
    .unwrap();
    bin
}

/// `kubectl ARGS` with the plugin directory first on PATH and no
/// kubeconfig, in `cwd`: what a user's shell runs.
fn kubectl_with_plugin(kubectl: &Path, bin: &Path, cwd: &Path, args: &[&str]) -> Output {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new(kubectl)
        .args(args)
        .env("PATH", path)
        .env("KUBECONFIG", cwd.join("no-kubeconfig"))
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn complete(kubectl: &Path, bin: &Path, cwd: &Path, words: &[&str]) -> String {
    let mut args = vec!["__complete", "dra"];
    args.extend_from_slice(words);
    String::from_utf8_lossy(&kubectl_with_plugin(kubectl, bin, cwd, &args).stdout).into_owned()
}

/// The answer's lines: the candidates, then `:DIRECTIVE`.
fn candidates(kubectl: &Path, bin: &Path, cwd: &Path, words: &[&str]) -> Vec<String> {
    complete(kubectl, bin, cwd, words)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn tab_completes_and_never_runs_the_command() {
    let Some(kubectl) = kubectl() else { return };
    let dir = support::ScratchDir::new("completion");
    let bin = plugin_dir(&dir);
    let m = dir.join("m");
    std::fs::create_dir_all(&m).unwrap();
    let beta = support::root().join("testdata/fixtures/convert/beta.yaml");
    std::fs::copy(&beta, m.join("old.yaml")).unwrap();
    let before = std::fs::read(m.join("old.yaml")).unwrap();

    let out = complete(kubectl, &bin, &dir, &["ex"]);
    assert!(out.lines().any(|l| l == "explain"), "{out}");
    assert!(
        out.lines().last().is_some_and(|l| l.starts_with(':')),
        "{out}"
    );
    let out = complete(kubectl, &bin, &dir, &["lint", "--fe"]);
    assert!(out.contains("--feature-gates"), "{out}");

    // A word line that, run, would rewrite files: completing it must not.
    for words in [
        &["lint", "--fix", "m/old.yaml", ""][..],
        &["convert", "--write", "m/", ""][..],
        &["convert", "--write", "m/old.yaml"][..],
    ] {
        let out = complete(kubectl, &bin, &dir, words);
        assert!(
            out.lines().last().is_some_and(|l| l.starts_with(':')),
            "{words:?}: {out}"
        );
        assert_eq!(
            std::fs::read(m.join("old.yaml")).unwrap(),
            before,
            "completing {words:?} rewrote the file"
        );
    }
    let leftovers: Vec<_> = std::fs::read_dir(&m).unwrap().flatten().collect();
    assert_eq!(leftovers.len(), 1);
}

/// `kubectl dra lint` on PATH: kubectl finds the plugin, and a selector
/// that does not parse gets the apiserver's words (cel-go's "mismatched
/// input '<EOF>' expecting ':'", not the CEL crate's own "Incomplete
/// `ExprContext`" that hid it).
#[test]
fn kubectl_runs_the_plugin_and_lint_words_a_syntax_error_as_the_apiserver() {
    let Some(kubectl) = kubectl() else { return };
    let dir = support::ScratchDir::new("plugin-lint");
    let bin = plugin_dir(&dir);
    let file = dir.join("class.yaml");
    std::fs::write(
        &file,
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: gpu\nspec:\n  selectors:\n  - cel:\n      expression: device.driver == \"gpu.example.com\" ? true\n",
    )
    .unwrap();
    let file = file.to_string_lossy();
    let o = kubectl_with_plugin(kubectl, &bin, &dir, &["dra", "lint", "-o", "json", &file]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("DRA-V161"), "{out}");
    assert!(
        out.contains("ERROR: <input>:1:42: Syntax error: mismatched input '<EOF>' expecting ':'"),
        "{out}"
    );
    assert!(!out.contains("Incomplete"), "{out}");
}

/// `kubectl dra explain` on PATH: a pod held back by scheduling gates gets
/// that verdict first, one whose claim does not exist gets the scheduler's
/// words for it, and one whose extended resource a node's device plugin
/// serves fits there (the scheduler leaves it out of that node's claim),
/// and nodes ruled out by anti-affinity, topology spread and host ports
/// are named in the scheduler's words, each as the exit code says (1:
/// pending, 0: it fits).
#[test]
fn kubectl_runs_explain_and_names_what_holds_the_pod() {
    let Some(kubectl) = kubectl() else { return };
    let dir = support::ScratchDir::new("plugin-explain");
    let bin = plugin_dir(&dir);
    let prefilter = support::root().join("testdata/fixtures/explain-prefilter.yaml");
    let mixed = support::root().join("testdata/fixtures/explain-extended-mixed.yaml");
    let anti = support::root().join("testdata/fixtures/explain-pod-anti-affinity.yaml");
    let spread = support::root().join("testdata/fixtures/explain-topology-spread.yaml");
    let ports = support::root().join("testdata/fixtures/explain-node-ports.yaml");
    let volumes = support::root().join("testdata/fixtures/explain-volumes.yaml");
    for (pod, fixture, code, expected) in [
        (
            "default/gated",
            &prefilter,
            1,
            "Pod default/gated (default/gated-gpu) stays Pending: it has scheduling gates (kueue.x-k8s.io/admission)",
        ),
        (
            "default/lost",
            &prefilter,
            1,
            "could not find ResourceClaim \"default/gone\"",
        ),
        (
            "ml/trainer",
            &mixed,
            0,
            "  example.com/gpu: served by the node's device plugin (status.allocatable), so the scheduler leaves it out of the extended-resource claim here",
        ),
        (
            "ml/worker-2",
            &anti,
            1,
            "The claims would fit on n1 (and on 1 more such node), where the pod cannot run: node(s) didn't match pod anti-affinity rules.",
        ),
        (
            "ml/infer-2",
            &spread,
            1,
            "2 nodes  the pod cannot run there: node(s) didn't match pod topology spread constraints  (e.g. n1)",
        ),
        (
            "ml/infer-2",
            &ports,
            0,
            "1 node   the pod cannot run there: node(s) didn't have free ports for the requested pod ports  (e.g. n1)",
        ),
        (
            "ml/orphan",
            &volumes,
            1,
            "  persistentvolumeclaim \"missing\" not found",
        ),
        (
            "ml/train",
            &volumes,
            0,
            "1 node   the pod cannot run there: node(s) had volume node affinity conflict (PersistentVolume pv-data of PVC data is for nodes with topology.kubernetes.io/zone In [b])  (e.g. n1)",
        ),
    ] {
        let fixture = fixture.to_string_lossy();
        let o = kubectl_with_plugin(
            kubectl,
            &bin,
            &dir,
            &["dra", "explain", "pod", pod, "-f", &fixture],
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{pod}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(expected), "{pod}: {out}");
    }
}

/// Flag values complete as kubectl's own do: `-o` from the formats, a
/// version from those modelled, `--feature-gates` gate by gate (`Name=`,
/// no space, then `true`/`false`), `--select` and `rules` from the rule
/// ids, `--context`/`--user` from the kubeconfig's names without running
/// its exec plugin, and a flag whose values live in the cluster (`-n`)
/// offers nothing rather than file names.
#[test]
fn flag_values_complete_without_touching_the_cluster() {
    let Some(kubectl) = kubectl() else { return };
    let dir = support::ScratchDir::new("completion-values");
    let bin = plugin_dir(&dir);
    let ran = dir.join("exec-plugin-ran");
    let kubeconfig = dir.join("kubeconfig.yaml");
    std::fs::write(
        &kubeconfig,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {{cluster: c1, user: admin}}\n- name: staging\n  context: {{cluster: c1, user: admin}}\nclusters:\n- name: c1\n  cluster: {{server: \"https://127.0.0.1:1\"}}\nusers:\n- name: admin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: /bin/sh\n      args: [\"-c\", \"touch {}\"]\n",
            ran.display()
        ),
    )
    .unwrap();
    let kc = kubeconfig.to_string_lossy();
    let lines = |words: &[&str]| candidates(kubectl, &bin, &dir, words);
    assert_eq!(
        lines(&["lint", "-o", "j"]),
        ["json", "junit", ":4"],
        "output formats"
    );
    assert_eq!(lines(&["lint", "--output=s"]), ["--output=sarif", ":4"]);
    assert_eq!(
        lines(&["lint", "--kubernetes-version", ""]),
        ["1.34", "1.35", "1.36", "1.37", ":4"]
    );
    assert_eq!(
        lines(&["lint", "--feature-gates", "DRAConsumable"]),
        ["DRAConsumableCapacity=", ":6"]
    );
    assert_eq!(
        lines(&[
            "lint",
            "--feature-gates",
            "DRAPrioritizedList=true,DRAConsumableCapacity=f"
        ]),
        ["DRAPrioritizedList=true,DRAConsumableCapacity=false", ":4"]
    );
    assert!(lines(&["lint", "--select", "DRA-C00"]).contains(&"DRA-C004".to_owned()));
    assert!(lines(&["rules", "DRA-H00"]).contains(&"DRA-H008".to_owned()));
    assert_eq!(
        lines(&["explain", "claim", "--kubeconfig", &kc, "--context", ""]),
        ["prod", "staging", ":4"]
    );
    assert_eq!(
        lines(&[
            "explain",
            "pod",
            &format!("--kubeconfig={kc}"),
            "--user",
            ""
        ]),
        ["admin", ":4"]
    );
    assert_eq!(lines(&["explain", "claim", "-n", ""]), [":4"]);
    assert_eq!(lines(&["explain", "claim", "-f", ""]), [":0"], "files");
    assert!(!ran.exists(), "completion ran the kubeconfig's exec plugin");
}

/// Positionals: `capacity` KINDs, and the claims, templates and pods of
/// the files given with `-f` (never the cluster's), a name already given
/// not offered again; a command that takes paths lets the shell complete
/// files, one that takes an expression offers nothing.
#[test]
fn object_names_complete_from_the_files_given() {
    let Some(kubectl) = kubectl() else { return };
    let dir = support::ScratchDir::new("completion-names");
    let bin = plugin_dir(&dir);
    let fixture = support::root().join("testdata/fixtures/explain-selector-miss.yaml");
    let mut text = std::fs::read_to_string(fixture).unwrap();
    text.push_str("---\napiVersion: v1\nkind: Pod\nmetadata: {name: trainer, namespace: ml}\nspec:\n  containers: [{name: main, image: x}]\n  resourceClaims:\n  - {name: gpu, resourceClaimName: typo}\n");
    std::fs::write(dir.join("cluster.yaml"), text).unwrap();
    let lines = |words: &[&str]| candidates(kubectl, &bin, &dir, words);
    assert_eq!(
        lines(&["explain", "claim", "-f", "cluster.yaml", "ml/t"]),
        ["ml/train", "ml/typo", ":4"]
    );
    assert_eq!(
        lines(&[
            "explain",
            "claim",
            "ml/train",
            "--filename=cluster.yaml",
            "ml/"
        ]),
        ["ml/alt", "ml/typo", "ml/wrong-class", ":4"]
    );
    assert_eq!(
        lines(&["explain", "pod", "-f", "cluster.yaml", ""]),
        ["ml/trainer", ":4"]
    );
    assert_eq!(lines(&["capacity", "t"]), ["template", ":4"]);
    assert_eq!(
        lines(&["capacity", "pod", "-f", "cluster.yaml", ""]),
        ["ml/trainer", ":4"]
    );
    // Without -f the names are the cluster's, which completion never asks.
    assert_eq!(lines(&["explain", "claim", ""]), [":4"]);
    assert_eq!(lines(&["lint", ""]), [":0"]);
    assert_eq!(lines(&["match", ""]), [":4"]);
}
