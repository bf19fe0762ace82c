//! Where the objects come from: files (or a snapshot) given with `-f`, or
//! the live cluster. The one place that decides, so that every command reads
//! a cluster the same way.

use std::path::PathBuf;

use dra_core::gates::{FeatureGates, Gate, Version};
use dra_core::model::{Object, ObjectKind};
use dra_core::sources::{load_objects, SourceFile};
use dra_core::tree::Node;
use dra_core::yaml::Limits;

use crate::cli::{ClusterArgs, Target};
use crate::cluster::{self, ClusterState, Needs, Progress};

/// The objects a command works on, and the target they are judged for.
pub struct Inventory {
    pub gates: FeatureGates,
    pub objects: Vec<Object>,
    /// Namespace of names given without one.
    pub namespace: String,
    /// Set when read from a cluster.
    pub live: Option<ClusterState>,
}

/// What a cluster (or snapshot) says of itself: its version, and the gates
/// it reported, when it could.
pub type Detected<'a> = (Version, Option<&'a [(Gate, bool)]>);

/// The target: `--kubernetes-version` over the cluster's (or snapshot's)
/// version over 1.37; the gates the cluster reports, then `--feature-gates`.
pub fn resolve_gates(
    target: &Target,
    detected: Option<Detected<'_>>,
) -> Result<FeatureGates, String> {
    let version = match (&target.kubernetes_version, detected) {
        (Some(v), _) => v.parse()?,
        (None, Some((v, _))) => v,
        (None, None) => Version::V1_37,
    };
    let mut gates = FeatureGates::defaults(version);
    if let Some((_, Some(reported))) = detected {
        gates.apply_reported(reported);
    }
    for l in &target.feature_gates {
        gates.parse_into(l)?;
    }
    Ok(gates)
}

/// Makes the what-if changes to the inventory read (`--apply`, `--delete`,
/// `--drain`, `--remove-node`), saying each on stderr; nothing is written
/// to the cluster. The changes, in words.
pub fn what_if(
    objects: &mut Vec<dra_core::model::Object>,
    w: &crate::cli::WhatIf,
) -> Result<Vec<String>, String> {
    let done = what_if_quiet(objects, w)?;
    for d in &done {
        eprintln!("what-if: {}", crate::render::terminal::strict(d));
    }
    Ok(done)
}

/// [`what_if`] without a word on stderr (a search that tries many).
pub fn what_if_quiet(
    objects: &mut Vec<dra_core::model::Object>,
    w: &crate::cli::WhatIf,
) -> Result<Vec<String>, String> {
    use dra_core::whatif::{self, Change};
    let mut done = Vec::new();
    if !w.apply.is_empty() {
        let sources = read_sources(&w.apply)?;
        let (new, problems) = load_objects(&sources, Limits::default());
        if let Some(p) = problems.first() {
            let name = sources.get(p.file).map_or("<input>", |s| s.name.as_str());
            return Err(format!("--apply {}", p.located(name)));
        }
        done.extend(whatif::apply(objects, new));
    }
    let changes = w
        .delete
        .iter()
        .map(|d| Change::Delete(d.clone()))
        .chain(w.drain.iter().map(|n| Change::Drain(n.clone())))
        .chain(w.remove_node.iter().map(|n| Change::RemoveNode(n.clone())));
    let add = match (w.add_nodes, &w.like) {
        (Some(crate::cli::AddNodes::Count(count)), Some(like)) => Some(Change::AddNodes {
            like: like.clone(),
            count,
        }),
        (Some(crate::cli::AddNodes::Auto), _) => {
            return Err("--add-nodes auto finds the fewest nodes for pending pods: use it with `explain pods` (or give a number)".into())
        }
        _ => None,
    };
    let changes = changes.chain(add);
    for c in changes {
        done.push(whatif::change(objects, &c)?);
    }
    Ok(done)
}

/// The target of files read as they are (`doctor -f`): the snapshot
/// header's version and gates (the first document of a snapshot), under
/// `--kubernetes-version` and `--feature-gates`, without loading the rest.
pub fn gates_from_headers(sources: &[SourceFile], target: &Target) -> Result<FeatureGates, String> {
    let heads: Vec<SourceFile> = sources
        .iter()
        .map(|s| {
            let text = s.text.trim_start_matches("---\n");
            let end = text.find("\n---").map_or(text.len(), |i| i + 1);
            SourceFile {
                name: s.name.clone(),
                text: text[..end].to_owned(),
            }
        })
        .collect();
    let (objects, _) = load_objects(&heads, Limits::default());
    let facts = snapshot_facts(&objects)?;
    resolve_gates(
        target,
        facts
            .as_ref()
            .map(|f| (f.version, Some(f.gates.as_slice()))),
    )
}

/// Reads the files of `-f`; unreadable ones are an error (exit 2).
pub fn read_sources(paths: &[PathBuf]) -> Result<Vec<SourceFile>, String> {
    let (paths, missing) = crate::files::collect(paths);
    if let Some(m) = missing.first() {
        return Err(format!("{m}: no such file or directory"));
    }
    let mut out = Vec::new();
    for p in &paths {
        let input = crate::files::read_limited(p, crate::files::MAX_INVENTORY_BYTES);
        let text = input.text.map_err(|e| format!("{}: {e}", input.name))?;
        out.push(SourceFile {
            name: input.name,
            text,
        });
    }
    Ok(out)
}

/// The objects of `-f` files with the files' names. A regular file is read
/// and parsed piece by piece (`model::StreamedFile`): a large snapshot's
/// text is never held whole beside its trees (issue 37). Where one pass
/// could read it differently, and for pipes, the file is read whole.
#[allow(clippy::type_complexity)]
fn load_files(
    paths: &[PathBuf],
) -> Result<
    (
        Vec<String>,
        Vec<Object>,
        Vec<dra_core::sources::LoadProblem>,
    ),
    String,
> {
    use dra_core::model::{parse_file, StreamedFile};
    let (paths, missing) = crate::files::collect(paths);
    if let Some(m) = missing.first() {
        return Err(format!("{m}: no such file or directory"));
    }
    let (mut names, mut objects, mut problems) = (Vec::new(), Vec::new(), Vec::new());
    for (i, p) in paths.iter().enumerate() {
        let name = if p.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            crate::files::display_path(p)
        };
        // Readers of an inventory never point into its lines: its repeated
        // subtrees can be one (issue 37).
        let limits = Limits {
            share: true,
            ..Limits::default()
        };
        let mut stream = StreamedFile::new(i, limits);
        let streamed = p.as_os_str() != "-"
            && crate::files::read_streamed(p, crate::files::MAX_INVENTORY_BYTES, |t| {
                stream.push(t)
            })
            .map_err(|e| format!("{name}: {e}"))?;
        let parsed = match streamed.then(|| stream.finish()).flatten() {
            Some(parsed) => parsed,
            None => {
                let input = crate::files::read_limited(p, crate::files::MAX_INVENTORY_BYTES);
                let text = input.text.map_err(|e| format!("{}: {e}", input.name))?;
                parse_file(i, &text, limits)
            }
        };
        dra_core::sources::add_parsed(i, parsed, &mut objects, &mut problems);
        names.push(name);
    }
    Ok((names, objects, problems))
}

/// What a snapshot header records about the cluster it was taken from.
struct SnapshotFacts {
    version: Version,
    gates: Vec<(Gate, bool)>,
    namespace: Option<String>,
}

fn snapshot_facts(objects: &[Object]) -> Result<Option<SnapshotFacts>, String> {
    let Some(h) = objects
        .iter()
        .find(|o| o.kind == ObjectKind::ClusterSnapshot)
    else {
        return Ok(None);
    };
    let cluster = h.root.get("cluster");
    let field = |k: &str| cluster.and_then(|c| c.get(k));
    let version: Version = field("kubernetesVersion")
        .and_then(Node::as_str)
        .ok_or("the snapshot header has no cluster.kubernetesVersion")?
        .parse()?;
    let gates = field("featureGates")
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .filter_map(|e| Some((Gate::from_name(&e.key)?, e.value.as_bool()?)))
        .collect();
    Ok(Some(SnapshotFacts {
        version,
        gates,
        namespace: field("namespace").and_then(Node::as_str).map(str::to_owned),
    }))
}

/// Loads from `-f` files when given, else from the cluster with `needs`
/// (which may depend on the namespace chosen).
pub fn load(
    files: &[PathBuf],
    cluster_args: &ClusterArgs,
    target: &Target,
    namespace: Option<&str>,
    needs: impl FnOnce(&str) -> Needs,
    show_progress: bool,
) -> Result<Inventory, String> {
    if !files.is_empty() {
        let (names, objects, problems) = load_files(files)?;
        if let Some(p) = problems.first() {
            let name = names.get(p.file).map_or("<input>", String::as_str);
            return Err(p.located(name));
        }
        let facts = snapshot_facts(&objects)?;
        let gates = resolve_gates(
            target,
            facts
                .as_ref()
                .map(|f| (f.version, Some(f.gates.as_slice()))),
        )?;
        let namespace = namespace
            .map(str::to_owned)
            .or_else(|| facts.and_then(|f| f.namespace))
            .unwrap_or_else(|| "default".into());
        return Ok(Inventory {
            gates,
            objects,
            namespace,
            live: None,
        });
    }
    let started = std::time::Instant::now();
    let progress = Progress::new(show_progress);
    let read = async {
        let conn = cluster::connect(cluster_args, progress.clone()).await?;
        let ns = namespace
            .map(str::to_owned)
            .unwrap_or_else(|| conn.namespace.clone());
        let wanted = needs(&ns);
        let mut state = cluster::read_state(&conn, &wanted).await?;
        // Lists are read at different moments: a view where an allocation
        // names a device no slice holds, or a pod a claim not listed, is
        // read once more before anything is decided on it.
        if !dra_core::torn::inconsistencies(&state.objects).is_empty() {
            state = cluster::read_state(&conn, &wanted).await?;
            for t in dra_core::torn::inconsistencies(&state.objects) {
                state
                    .warnings
                    .push(format!("read twice, still inconsistent: {t}"));
            }
        }
        Ok::<_, cluster::ClusterError>((state, ns))
    };
    let deadline = cluster_args.read_deadline;
    let state = cluster::block_on(async {
        if deadline.is_zero() {
            return Ok(read.await);
        }
        tokio::time::timeout(deadline, read).await.map_err(|_| {
            format!(
                "the cluster read did not finish within --read-deadline {:?} (read so far: {}); stopped",
                deadline,
                progress.counts()
            )
        })
    })??;
    progress.finish();
    let (mut state, namespace) = state.map_err(|e| e.to_string())?;
    for n in &state.notes {
        eprintln!("note: {}", crate::render::terminal::strict(n));
    }
    for w in &state.warnings {
        eprintln!("warning: {}", crate::render::terminal::strict(w));
    }
    // For benchmarks and bug reports: how much was read, with how many requests.
    if std::env::var_os("KUBECTL_DRA_STATS").is_some() {
        eprintln!(
            "stats: {} objects from {} with {} requests in {:.2} s",
            state.objects.len(),
            crate::render::terminal::strict(&state.server),
            state.requests,
            started.elapsed().as_secs_f64()
        );
    }
    let gates = resolve_gates(
        target,
        Some((state.version, state.reported_gates.as_deref())),
    )?;
    let objects = std::mem::take(&mut state.objects);
    Ok(Inventory {
        gates,
        objects,
        namespace,
        live: Some(state),
    })
}

/// VolumeBinding's and VolumeZone's PreFilter for the pod: `None` when it
/// has no PVC volume, or the PVCs, PVs and StorageClasses are unknown (not
/// read from the cluster, or files that hold none of them: said once, on
/// stderr, for `explain pod`).
pub fn volume_check<'s, 'a>(
    inv: &Inventory,
    pod: &'a Object,
    storage: &'s dra_core::volumes::Storage<'a>,
) -> Option<Result<Option<dra_core::volumes::VolumeFilter<'s, 'a>>, dra_core::volumes::VolumeStop>>
{
    if dra_core::volumes::pod_claims(pod).is_empty() {
        return None;
    }
    // A snapshot says whether they were listed; other files are taken to
    // describe the storage when they hold any of it.
    let listed = inv
        .objects
        .iter()
        .find(|o| o.kind == dra_core::model::ObjectKind::ClusterSnapshot)
        .and_then(|h| h.root.get("cluster")?.get("volumesListed")?.as_bool());
    let known = match (&inv.live, listed) {
        (Some(live), _) => live.volumes_listed,
        (None, Some(listed)) => listed || storage.describes_storage(),
        (None, None) => storage.describes_storage(),
    };
    if !known {
        if inv.live.is_none() {
            eprintln!(
                "note: the files hold no PersistentVolumeClaim, PersistentVolume or StorageClass (nor a snapshot that listed them): the pod's volumes are not checked (kube-scheduler's VolumeBinding and VolumeZone)"
            );
        }
        return None;
    }
    Some(dra_core::volumes::prefilter(pod, storage))
}
