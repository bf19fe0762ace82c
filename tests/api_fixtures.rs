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

/// Every JSON field path our tables give `kinds` at release `v`, written
/// as `scripts/gen_dra_fields.py` writes upstream's (metadata not
/// entered); `v1beta1` takes that version's shapes.
fn our_paths(kinds: &BTreeSet<&str>, v: u8, v1beta1: bool) -> BTreeSet<String> {
    use dra_core::model::ObjectKind;
    use dra_core::schema::{fields_of, Field, Ty};
    struct Walk {
        v: u8,
        v1beta1: bool,
        out: BTreeSet<String>,
    }
    impl Walk {
        fn fields(&mut self, prefix: &str, lists: &[&'static [Field]]) {
            for f in lists.iter().flat_map(|l| l.iter()) {
                if f.since <= self.v && self.v < f.until {
                    let path = format!("{prefix}.{}", f.name);
                    self.out.insert(path.clone());
                    if f.name != "metadata" {
                        self.ty(&path, &f.ty);
                    }
                }
            }
        }
        fn ty(&mut self, path: &str, t: &'static Ty) {
            match t {
                Ty::Obj(a) => self.fields(path, &[a]),
                Ty::Obj2(a, b) => self.fields(path, &[a, b]),
                Ty::ByApi { v1, v1beta1 } => self.ty(path, if self.v1beta1 { v1beta1 } else { v1 }),
                Ty::List(item) => self.ty(&format!("{path}[]"), item),
                Ty::Map(item) => self.ty(&format!("{path}{{}}"), item),
                _ => {}
            }
        }
    }
    let mut walk = Walk {
        v,
        v1beta1,
        out: BTreeSet::new(),
    };
    for (kind, name) in [
        (ObjectKind::ResourceSlice, "ResourceSlice"),
        (ObjectKind::DeviceClass, "DeviceClass"),
        (ObjectKind::ResourceClaim, "ResourceClaim"),
        (ObjectKind::ResourceClaimTemplate, "ResourceClaimTemplate"),
        (ObjectKind::DeviceTaintRule, "DeviceTaintRule"),
        (
            ObjectKind::ResourcePoolStatusRequest,
            "ResourcePoolStatusRequest",
        ),
    ] {
        if kinds.contains(name) {
            walk.fields(name, &[fields_of(kind).expect("a DRA kind")]);
        }
    }
    walk.out
}

/// The hand-written DRA tables hold exactly the fields kubernetes/api's
/// resource.k8s.io Go types have, for each kind in each API version a
/// release has (v1, v1beta1 in its own shape, v1beta2, v1alpha3): none
/// missing (a valid manifest refused) and none extra (an unknown field
/// accepted). Known differences, both merged into the 1.37 line after the
/// kubernetes/api snapshot (2026-07-24): `derivedAttributes` (KEP-6080),
/// read from kubernetes/kubernetes@009801d, the 1.37 copy the validation
/// rules follow, and `consumesCounters[].compatibilityGroups`, which the
/// shared conformance cases (`compat-groups-*`, Kubernetes 1.37) exercise.
#[test]
fn dra_tables_have_exactly_kubernetes_api_fields() {
    let text = std::fs::read_to_string(format!("{DIR}/resource-fields.txt")).expect("read");
    let mut upstream: std::collections::BTreeMap<(&str, u8), BTreeSet<String>> = Default::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut parts = line.splitn(3, ' ');
        let (Some(api), Some(v), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
            panic!("bad line {line:?}")
        };
        if !path.contains(".metadata.") {
            let v: u8 = v.parse().expect("a minor version");
            upstream
                .entry((api, v))
                .or_default()
                .insert(path.to_owned());
        }
    }
    assert_eq!(upstream.len(), 16, "four API versions at four releases");
    for ((api, v), theirs) in &upstream {
        let kinds: BTreeSet<&str> = theirs.iter().filter_map(|p| p.split('.').next()).collect();
        let ours = our_paths(&kinds, *v, *api == "v1beta1");
        let missing: Vec<_> = theirs.difference(&ours).collect();
        let extra: Vec<_> = ours
            .difference(theirs)
            .filter(|p| {
                !(*v == 37
                    && (p.ends_with(".derivedAttributes") || p.ends_with(".compatibilityGroups")))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "{api} 1.{v}: fields upstream has and we lack: {missing:?}"
        );
        assert!(
            extra.is_empty(),
            "{api} 1.{v}: fields we know and upstream lacks: {extra:?}"
        );
    }
}
