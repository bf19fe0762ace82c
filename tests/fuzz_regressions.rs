//! Replays what the lint and CEL fuzz targets once crashed on
//! (testdata/fuzz-regressions/<target>/), with the targets' own checks.

#[path = "../fuzz/fuzz_targets/common.rs"]
mod common;
mod support;

fn inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = support::root()
        .join("testdata/fuzz-regressions")
        .join(target);
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read(e.path()).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[test]
fn lint_targets_stay_fixed() {
    for target in ["lint_bytes", "lint_manifest"] {
        for (name, data) in inputs(target) {
            eprintln!("{target}/{name}");
            common::lint_text(&String::from_utf8_lossy(&data));
        }
    }
}

#[test]
fn cel_target_stays_fixed() {
    let env = dra_core::cel::Env::new(&dra_core::gates::FeatureGates::defaults(
        dra_core::gates::Version::V1_37,
    ));
    let device = std::sync::Arc::new(dra_core::cel::value::Device::from_node(
        "gpu.example.com",
        &dra_core::yaml::load(
            "name: a\nattributes: {model: {string: h100}}\n",
            Default::default(),
        )
        .documents
        .remove(0)
        .root,
        true,
    ));
    for (name, data) in inputs("cel_expr") {
        eprintln!("cel_expr/{name}");
        if let Ok(p) = dra_core::cel::Program::compile(&String::from_utf8_lossy(&data), &env) {
            let _ = p.matches(&device);
        }
    }
}

#[test]
fn yaml_paths_target_stays_fixed() {
    use dra_core::yaml::{load_general, load_split, Limits};
    for (name, data) in inputs("yaml_paths") {
        let text = String::from_utf8_lossy(&data);
        let general = load_general(&text, Limits::default());
        assert_eq!(
            general,
            load_split(&text, Limits::default(), 64),
            "yaml_paths/{name}"
        );
    }
}

/// The edge targets (argument parser, kubeconfig loader, list decoder)
/// hold on their seeds: no panic, and the errors they give are errors.
#[test]
fn edge_targets_hold_on_their_seeds() {
    use clap::Parser;
    for (name, data) in inputs("cli_args") {
        eprintln!("cli_args/{name}");
        let text = String::from_utf8_lossy(&data);
        let args = std::iter::once("kubectl-dra").chain(text.split('\0'));
        let _ = kubectl_dra::cli::Cli::try_parse_from(args);
    }
    for (name, data) in inputs("kubeconfig") {
        eprintln!("kubeconfig/{name}");
        let got = kubectl_dra::cluster::kubeconfig_from_text(&String::from_utf8_lossy(&data));
        if name.contains("dev-zero") || name.contains("control-chars") {
            let e = got.err().map(|e| e.to_string()).unwrap_or_default();
            assert!(!e.is_empty(), "{name} must be refused");
            assert!(!e.contains("\u{1b}"), "{name}: {e}");
        }
    }
    for (name, data) in inputs("http_page") {
        eprintln!("http_page/{name}");
        let got = kubectl_dra::cluster::decode_page(
            &data,
            0,
            "resource.k8s.io/v1",
            "ResourceSlice",
            false,
        );
        if name == "null-items" {
            assert_eq!(got.map(|(o, t)| (o.len(), t)), Ok((0, None)));
        }
    }
}
