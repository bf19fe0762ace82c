//! Every kind lint decodes has the fields kubernetes/api gives it at each
//! release: kubernetes/api's own round-trip fixtures of each release, which
//! set every field of their kind (the DRA kinds in every served version,
//! RBAC, Namespace, ServiceAccount and the built-in workloads, these
//! decoded whole by `schema::workloads`), decode cleanly at that release,
//! and the workloads show as unknown exactly the fields a release added or
//! removed (`testdata/kubernetes-api/README.md`).

use dra_core::gates::{FeatureGates, Version};
use dra_core::lint::{lint, Settings, SourceFile};
use std::collections::BTreeSet;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/kubernetes-api");

/// The kinds of every file (`apps.v1.Deployment.yaml`), or only the
/// built-in workloads.
fn files(release: &str, workloads_only: bool) -> Vec<SourceFile> {
    let dir = std::path::Path::new(DIR).join(release);
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !workloads_only
                || ["core.v1.Pod", "apps.", "batch.", "core.v1.Rep"]
                    .iter()
                    .any(|k| name.starts_with(k))
        })
        .collect();
    names.sort();
    assert!(names.len() >= 9, "{release}: one fixture per kind");
    names
        .into_iter()
        .map(|p| SourceFile {
            name: p.to_string_lossy().into_owned(),
            text: std::fs::read_to_string(&p).expect("read fixture"),
        })
        .collect()
}

/// The gates that serve every kind of a release's fixtures (an alpha API
/// version is not decoded when it is not served).
fn serving_gates(at: &str) -> &'static str {
    match at {
        "1.34" => "DRADeviceTaints=true",
        "1.35" => "DRADeviceTaintRules=true",
        "1.36" => "DRADeviceTaintRules=true,DRAResourcePoolStatus=true",
        _ => "DRAResourcePoolStatus=true,DRAPartitionableDevicesType=true",
    }
}

/// The last segment of every decoding finding's field, by rule.
fn decoding(release: &str, at: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    decoding_of(files(release, true), at)
}

fn decoding_of(files: Vec<SourceFile>, at: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let version: Version = at.parse().expect("version");
    let mut gates = FeatureGates::defaults(version);
    gates.parse_into(serving_gates(at)).expect("gates");
    let settings = Settings::for_gates(gates);
    let result = lint(&files, Vec::new(), &settings);
    let refused: Vec<_> = result
        .diagnostics
        .iter()
        .filter(|d| d.rule == "DRA-A002")
        .map(|d| (d.file, d.field.clone()))
        .collect();
    assert!(refused.is_empty(), "{at}: not served {refused:?}");
    let leaves = |rule: &str| {
        result
            .diagnostics
            .iter()
            .filter(|d| d.rule == rule)
            .map(|d| d.field.rsplit('.').next().unwrap_or_default().to_owned())
            .collect::<BTreeSet<_>>()
    };
    (leaves("DRA-S001"), leaves("DRA-S002"))
}

#[test]
fn every_field_of_each_release_decodes_at_that_release() {
    for release in ["1.34", "1.35", "1.36", "1.37"] {
        let (unknown, wrong) = decoding_of(files(release, false), release);
        assert!(unknown.is_empty(), "{release}: unknown {unknown:?}");
        assert!(wrong.is_empty(), "{release}: do not decode {wrong:?}");
    }
}

#[test]
fn a_field_a_release_removed_is_unknown_from_it() {
    // 1.36's NodeAllocatableResourceClaimStatus.resources map became
    // mapping and overhead lists in 1.37.
    let (unknown, _) = decoding("1.36", "1.37");
    assert_eq!(unknown, BTreeSet::from(["resources".to_owned()]));
}

#[test]
fn the_fields_a_release_added_are_unknown_before_it() {
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    // kubernetes/api core/v1: 1.35 added PodSpec.workloadRef, the pod-status
    // resources and allocatedResources, and userAnnotations; 1.36 replaced
    // workloadRef by schedulingGroup and added volume and node-claim status.
    let cases = [
        (
            "1.35",
            "1.34",
            set(&[
                "allocatedResources",
                "resources",
                "userAnnotations",
                "workloadRef",
            ]),
        ),
        (
            "1.36",
            "1.35",
            set(&[
                "message",
                "nodeAllocatableResourceClaimStatuses",
                "schedulingGroup",
                "volumeStatus",
            ]),
        ),
        // master (the 1.37 line): VolumeMount.bindMountOptions, projected
        // files' user and defaultUser, EmptyDir mode, HTTPGetAction protocol
        // and GRPCAction mode, PodSpec.evictionResponders, Job pod-group
        // scheduling, volume health, and node-allocatable claim status
        // reshaped into mapping and overhead.
        (
            "1.37",
            "1.36",
            set(&[
                "bindMountOptions",
                "defaultUser",
                "evictionResponders",
                "healthStatus",
                "mapping",
                "mode",
                "overhead",
                "protocol",
                "scheduling",
                "user",
                "volumeHealth",
            ]),
        ),
    ];
    for (release, before, added) in cases {
        let (unknown, wrong) = decoding(release, before);
        assert_eq!(unknown, added, "{release} linted at {before}");
        assert!(wrong.is_empty(), "{release} at {before}: {wrong:?}");
    }
}

/// Every JSON field path of our `resource.k8s.io/v1` tables at `v`, as
/// `scripts/gen_dra_fields.py` writes upstream's (metadata not entered).
fn our_paths(v: u8) -> BTreeSet<String> {
    use dra_core::model::ObjectKind;
    use dra_core::schema::{fields_of, Field, Ty};
    fn fields(prefix: &str, lists: &[&'static [Field]], v: u8, out: &mut BTreeSet<String>) {
        for f in lists.iter().flat_map(|l| l.iter()) {
            if f.since <= v && v < f.until {
                let path = format!("{prefix}.{}", f.name);
                out.insert(format!("{v} {path}"));
                if f.name != "metadata" {
                    ty(&path, &f.ty, v, out);
                }
            }
        }
    }
    fn ty(path: &str, t: &'static Ty, v: u8, out: &mut BTreeSet<String>) {
        match t {
            Ty::Obj(a) => fields(path, &[a], v, out),
            Ty::Obj2(a, b) => fields(path, &[a, b], v, out),
            Ty::ByApi { v1, .. } => ty(path, v1, v, out),
            Ty::List(item) => ty(&format!("{path}[]"), item, v, out),
            Ty::Map(item) => ty(&format!("{path}{{}}"), item, v, out),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    for (kind, name) in [
        (ObjectKind::ResourceSlice, "ResourceSlice"),
        (ObjectKind::DeviceClass, "DeviceClass"),
        (ObjectKind::ResourceClaim, "ResourceClaim"),
        (ObjectKind::ResourceClaimTemplate, "ResourceClaimTemplate"),
        // A v1 kind from 1.37 (v1alpha3 and v1beta2 before).
        (ObjectKind::DeviceTaintRule, "DeviceTaintRule"),
    ] {
        if kind == ObjectKind::DeviceTaintRule && v < 37 {
            continue;
        }
        fields(name, &[fields_of(kind).expect("a DRA kind")], v, &mut out);
    }
    out
}

/// The hand-written DRA tables hold exactly the fields kubernetes/api's
/// resource/v1 Go types have, release by release: none missing (a valid
/// manifest refused) and none extra (an unknown field accepted). Known
/// differences, both merged into the 1.37 line after the kubernetes/api
/// snapshot (2026-07-24): `derivedAttributes` (KEP-6080), read from
/// kubernetes/kubernetes@009801d, the 1.37 copy the validation rules
/// follow, and `consumesCounters[].compatibilityGroups`, which the shared
/// conformance cases (`compat-groups-*`, Kubernetes 1.37) exercise.
#[test]
fn dra_v1_tables_have_exactly_kubernetes_api_fields() {
    let text = std::fs::read_to_string(format!("{DIR}/resource-v1-fields.txt")).expect("read");
    for v in 34..=37u8 {
        let theirs: BTreeSet<String> = text
            .lines()
            .filter(|l| l.starts_with(&format!("{v} ")))
            .filter(|l| !l.contains(".metadata."))
            .map(str::to_owned)
            .collect();
        let ours = our_paths(v);
        let missing: Vec<_> = theirs.difference(&ours).collect();
        let extra: Vec<_> = ours
            .difference(&theirs)
            .filter(|p| {
                !(v == 37
                    && (p.ends_with(".derivedAttributes") || p.ends_with(".compatibilityGroups")))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "1.{v}: fields upstream has and we lack: {missing:?}"
        );
        assert!(
            extra.is_empty(),
            "1.{v}: fields we know and upstream lacks: {extra:?}"
        );
    }
}
