//! `kubectl dra snapshot`: everything `explain -f` needs, in one
//! multi-document YAML file, for offline use and bug reports.

use dra_core::tree::{Node, Value};

use crate::cli::{SnapshotArgs, Target};
use crate::cluster::Needs;
use crate::commands::source;
use crate::Outcome;

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
            // A namespace's snapshot still carries what every node runs.
            bound_pods: true,
            // A pod whose driver's kubelet plugin is not running (DRA-H008).
            prepare_events: Some(scope(ns)),
            // The PVCs, PVs and StorageClasses of pods with PVC volumes.
            volumes: Some(scope(ns)),
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
            // PVCs, PVs and StorageClasses were listed (for pods with PVC
            // volumes): offline, the volumes are checked against them.
            "volumesListed": state.volumes_listed,
        },
        "kept": {
            "Pod": dra_core::reduce::kept_fields("Pod"),
            "Node": dra_core::reduce::kept_fields("Node"),
        },
        "notes": state.notes,
        "warnings": state.warnings,
    });
    let header: Node = serde_json::from_value(header).map_err(|e| e.to_string())?;
    let mut objects = inv.objects;
    for o in &mut objects {
        // Objects were reduced as they were read (dra_core::reduce). The
        // resourceVersion says nothing offline, and linting the snapshot
        // would take its objects for creates that carry one (DRA-V184).
        if let Some(meta) = o.root.get_mut("metadata") {
            meta.remove("resourceVersion");
        }
    }
    // Written object by object as it is made: a large cluster's snapshot
    // is never held whole as text.
    let write = |w: &mut dyn std::io::Write| -> std::io::Result<()> {
        w.write_all(NOTICE.as_bytes())?;
        w.write_all(header.to_yaml().as_bytes())?;
        for o in &objects {
            if let Value::Map(_) = o.root.value {
                w.write_all(b"---\n")?;
                w.write_all(o.root.to_yaml().as_bytes())?;
            }
        }
        Ok(())
    };
    match &args.output_file {
        Some(path) => {
            // Written aside and renamed: a full disk leaves an older snapshot whole.
            crate::writer::replace_with(path, crate::writer::Expect::Anything, false, write)
                .map_err(|e| {
                    format!(
                        "{}: not written: {}",
                        crate::render::terminal::strict(&path.display().to_string()),
                        e.0
                    )
                })?;
            eprintln!(
                "wrote {} objects to {}",
                objects.len(),
                crate::render::terminal::strict(&path.display().to_string())
            );
        }
        None => {
            // Escaped as main escapes any answer; a closed pipe is no error.
            // Buffered before the escaping: it scans large pieces.
            let mut w = std::io::BufWriter::with_capacity(
                1 << 16,
                crate::render::terminal::SafeWriter::new(std::io::stdout().lock()),
            );
            let _ = write(&mut w).and_then(|()| std::io::Write::flush(&mut w));
        }
    }
    Ok(Outcome {
        stdout: String::new(),
        code: 0,
    })
}

const NOTICE: &str = "# kubectl-dra snapshot: read with `kubectl dra explain ... -f` (or match, devices, lint --inventory).\n# No Secrets are read. Pods and Nodes keep only what the scheduler and explain read (listed in `kept`);\n# no annotation, env, args, command or image of a Pod is kept. Other objects lose managedFields and the\n# last-applied-configuration annotation; opaque driver configuration of classes and claims is kept as stored.\n";
