//! `kubectl dra snapshot`: everything `explain -f` needs, in one
//! multi-document YAML file, for offline use and bug reports.

use dra_core::tree::{Node, Value};

use crate::cli::{SnapshotArgs, Target};
use crate::cluster::Needs;
use crate::commands::source;
use crate::Outcome;

/// Fields that only make a snapshot larger.
fn strip(root: &mut Node) {
    if let Some(meta) = root.get_mut("metadata") {
        meta.remove("managedFields");
    }
}

pub fn run(args: &SnapshotArgs) -> Result<Outcome, String> {
    let scope = |ns: &str| {
        if args.all_namespaces {
            String::new()
        } else {
            ns.to_owned()
        }
    };
    let inv = source::load(
        &[],
        &args.cluster,
        &Target::default(),
        args.namespace.as_deref(),
        |ns| Needs {
            slices: true,
            classes: true,
            claims: true,
            claims_namespace: Some(ns.to_owned()),
            templates: Some(scope(ns)),
            nodes: true,
            taint_rules: true,
            pod: None,
            pods: Some(scope(ns)),
        },
        args.output_file.is_some(),
    )?;
    let state = inv.live.as_ref().ok_or("snapshot reads a live cluster")?;
    let gates: serde_json::Map<String, serde_json::Value> = state
        .reported_gates
        .iter()
        .flatten()
        .map(|(g, on)| (g.name().to_owned(), serde_json::Value::Bool(*on)))
        .collect();
    let header = serde_json::json!({
        "apiVersion": "kubectl-dra.dev/v1alpha1",
        "kind": "ClusterSnapshot",
        "metadata": {"name": "snapshot"},
        "cluster": {
            "server": state.server,
            "gitVersion": state.git_version,
            "kubernetesVersion": state.version.to_string(),
            "featureGates": gates,
            "featureGatesSource": if state.reported_gates.is_some() { "/metrics" } else { "version defaults" },
            "namespace": inv.namespace,
        },
        "notes": state.notes,
        "warnings": state.warnings,
    });
    let header: Node = serde_json::from_value(header).map_err(|e| e.to_string())?;
    let mut out = String::from(
        "# kubectl-dra snapshot: read with `kubectl dra explain ... -f` (or match, devices, lint --inventory).\n# No Secrets are read. Opaque driver configuration of classes and claims is kept as the cluster stores it.\n",
    );
    out.push_str(&header.to_yaml());
    let mut objects = inv.objects;
    for o in &mut objects {
        strip(&mut o.root);
        if let Value::Map(_) = o.root.value {
            out.push_str("---\n");
            out.push_str(&o.root.to_yaml());
        }
    }
    match &args.output_file {
        Some(path) => {
            std::fs::write(path, &out).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!(
                "wrote {} objects to {}",
                objects.len(),
                crate::render::terminal::strict(&path.display().to_string())
            );
            Ok(Outcome {
                stdout: String::new(),
                code: 0,
            })
        }
        None => Ok(Outcome {
            stdout: out,
            code: 0,
        }),
    }
}
