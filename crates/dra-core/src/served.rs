//! Which Kubernetes release serves which resource.k8s.io kind in which API
//! version, and behind which feature gate.
//!
//! Sources: k8s.io/api's `zz_generated.prerelease-lifecycle.go` of each
//! version (introduced, deprecated, removed: deprecated + 3 unless tagged)
//! and the apiserver's storage setup (`pkg/registry/resource/rest`), which
//! installs a kind's storage only while its gate is on. Beta and alpha
//! versions are compiled in but off by default
//! (`DefaultAPIResourceConfigSource`, `TestNoBetaVersionsEnabledByDefault`):
//! they need `--runtime-config`. `docs/served-versions.md` renders this table
//! (a test keeps the two in step).

use crate::gates::{FeatureGates, Gate, Version};
use crate::model::ObjectKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Alpha,
    Beta,
    Ga,
}

/// One kind in one version.
#[derive(Debug)]
pub struct Serving {
    pub kind: ObjectKind,
    /// `v1beta2`.
    pub version: &'static str,
    pub stage: Stage,
    pub introduced: u8,
    pub deprecated: Option<u8>,
    /// First release that no longer serves it.
    pub removed: Option<u8>,
    /// The gate the storage needs, from the given release on.
    pub gates: &'static [(u8, Gate)],
}

impl Serving {
    pub fn api_version(&self) -> String {
        format!("resource.k8s.io/{}", self.version)
    }
    pub fn serves_in(&self, v: Version) -> bool {
        self.introduced <= v.0 && self.removed.is_none_or(|r| v.0 < r)
    }
    /// The gate that must be on in `v`, if any.
    pub fn gate(&self, v: Version) -> Option<Gate> {
        self.gates
            .iter()
            .rev()
            .find(|(from, _)| *from <= v.0)
            .map(|(_, g)| *g)
    }
    /// "1.33-1.38" or "1.37+".
    pub fn releases(&self) -> String {
        match self.removed {
            Some(r) => format!("1.{}-1.{}", self.introduced, r - 1),
            None => format!("1.{}+", self.introduced),
        }
    }
}

const CORE_KINDS: [ObjectKind; 4] = [
    ObjectKind::DeviceClass,
    ObjectKind::ResourceClaim,
    ObjectKind::ResourceClaimTemplate,
    ObjectKind::ResourceSlice,
];

const DRA: &[(u8, Gate)] = &[(0, Gate::DynamicResourceAllocation)];
const TAINT_RULES: &[(u8, Gate)] = &[(33, Gate::DRADeviceTaints), (35, Gate::DRADeviceTaintRules)];

const fn core(kind: ObjectKind) -> [Serving; 4] {
    [
        Serving {
            kind,
            version: "v1alpha3",
            stage: Stage::Alpha,
            introduced: 31,
            deprecated: None,
            removed: Some(33),
            gates: DRA,
        },
        Serving {
            kind,
            version: "v1beta1",
            stage: Stage::Beta,
            introduced: 32,
            deprecated: Some(35),
            removed: Some(38),
            gates: DRA,
        },
        Serving {
            kind,
            version: "v1beta2",
            stage: Stage::Beta,
            introduced: 33,
            deprecated: Some(36),
            removed: Some(39),
            gates: DRA,
        },
        Serving {
            kind,
            version: "v1",
            stage: Stage::Ga,
            introduced: 34,
            deprecated: None,
            removed: None,
            gates: DRA,
        },
    ]
}

static CLASS: [Serving; 4] = core(CORE_KINDS[0]);
static CLAIM: [Serving; 4] = core(CORE_KINDS[1]);
static TEMPLATE: [Serving; 4] = core(CORE_KINDS[2]);
static SLICE: [Serving; 4] = core(CORE_KINDS[3]);
static TAINT_RULE: [Serving; 3] = [
    Serving {
        kind: ObjectKind::DeviceTaintRule,
        version: "v1alpha3",
        stage: Stage::Alpha,
        introduced: 33,
        deprecated: Some(36),
        removed: None,
        gates: TAINT_RULES,
    },
    Serving {
        kind: ObjectKind::DeviceTaintRule,
        version: "v1beta2",
        stage: Stage::Beta,
        introduced: 36,
        deprecated: None,
        removed: None,
        gates: TAINT_RULES,
    },
    Serving {
        kind: ObjectKind::DeviceTaintRule,
        version: "v1",
        stage: Stage::Ga,
        introduced: 37,
        deprecated: None,
        removed: None,
        gates: TAINT_RULES,
    },
];

/// KEP-5677's kind: k8s.io/api's resource/v1alpha3 introduces it in 1.36
/// (deprecated 1.39, removed 1.42: `zz_generated.prerelease-lifecycle.go` at
/// release-1.36 and v0.37.0-beta.0), its storage installed only with the
/// DRAResourcePoolStatus gate (alpha, off, in 1.36 and 1.37).
static POOL_STATUS_REQUEST: [Serving; 1] = [Serving {
    kind: ObjectKind::ResourcePoolStatusRequest,
    version: "v1alpha3",
    stage: Stage::Alpha,
    introduced: 36,
    deprecated: Some(39),
    removed: Some(42),
    gates: &[(36, Gate::DRAResourcePoolStatus)],
}];

/// Every (kind, version) the table knows.
pub fn table() -> impl Iterator<Item = &'static Serving> {
    [
        &CLASS[..],
        &CLAIM[..],
        &TEMPLATE[..],
        &SLICE[..],
        &TAINT_RULE[..],
        &POOL_STATUS_REQUEST[..],
    ]
    .into_iter()
    .flatten()
}

/// What the target release does with an object of `kind` in `api_version`.
#[derive(Debug)]
pub enum Verdict {
    /// Served; `deprecated` from the deprecating release on.
    Served {
        entry: &'static Serving,
        deprecated: bool,
    },
    /// Compiled in, but the gate that installs the storage is off.
    GateOff { entry: &'static Serving, gate: Gate },
    /// This release has no such kind in that version.
    NotServed,
}

pub fn verdict(kind: ObjectKind, api_version: &str, gates: &FeatureGates) -> Verdict {
    let v = gates.version;
    let version = api_version.strip_prefix("resource.k8s.io/").unwrap_or("");
    let Some(entry) = table().find(|e| e.kind == kind && e.version == version) else {
        return Verdict::NotServed;
    };
    if !entry.serves_in(v) {
        return Verdict::NotServed;
    }
    if let Some(gate) = entry.gate(v).filter(|g| !gates.enabled(*g)) {
        return Verdict::GateOff { entry, gate };
    }
    Verdict::Served {
        entry,
        deprecated: entry.deprecated.is_some_and(|d| d <= v.0),
    }
}

/// Where `kind` is served, for a message: "resource.k8s.io/v1 (1.34+), ...".
pub fn where_served(kind: ObjectKind) -> String {
    table()
        .filter(|e| e.kind == kind && e.removed.is_none_or(|r| r > 34))
        .map(|e| {
            let stage = match e.stage {
                Stage::Alpha => ", alpha",
                Stage::Beta => ", beta",
                Stage::Ga => "",
            };
            format!("{} ({}{stage})", e.api_version(), e.releases())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A kind of another group that lint reads (RBAC, workloads, admission
/// policies), in an API version no supported release (1.34+) serves: each
/// is served only in `v1` there. `removed` is the first release that no
/// longer served the version, from k8s.io/api's prerelease-lifecycle files
/// (`APILifecycleRemoved`); `None` when the version has no such date (rbac
/// v1alpha1, batch v2alpha1) or never had the kind.
#[derive(Debug, PartialEq, Eq)]
pub struct RetiredVersion {
    pub served_as: String,
    pub removed: Option<u8>,
}

/// `Some` when the target does not serve `kind` in `api_version` (for the
/// non-DRA kinds lint reads; `None` for a served version or a group whose
/// versions kubectl-dra does not know, such as a CRD's).
pub fn retired_version(api_version: &str, kind: &str) -> Option<RetiredVersion> {
    /// A retired version, the kinds it had (all of the group's when
    /// empty), and the first release without it.
    type Removal = (&'static str, &'static [&'static str], u8);
    let (group, version) = api_version.split_once('/')?;
    let (served_group, removals): (&str, &[Removal]) = match (group, kind) {
        (
            "rbac.authorization.k8s.io",
            "Role" | "ClusterRole" | "RoleBinding" | "ClusterRoleBinding",
        ) => (group, &[("v1beta1", &[], 22)]),
        ("apps", "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet") => (
            group,
            &[
                ("v1beta1", &["Deployment", "StatefulSet"], 16),
                ("v1beta2", &[], 16),
            ],
        ),
        ("extensions", "Deployment" | "DaemonSet" | "ReplicaSet") => {
            ("apps", &[("v1beta1", &[], 16)])
        }
        ("batch", "Job") => (group, &[]),
        ("batch", "CronJob") => (group, &[("v1beta1", &[], 25)]),
        ("admissionregistration.k8s.io", "ValidatingAdmissionPolicy") => {
            (group, &[("v1beta1", &[], 34), ("v1alpha1", &[], 32)])
        }
        _ => return None,
    };
    if group == served_group && version == "v1" {
        return None;
    }
    let removed = removals
        .iter()
        .find(|(v, kinds, _)| *v == version && (kinds.is_empty() || kinds.contains(&kind)))
        .map(|(_, _, r)| *r);
    Some(RetiredVersion {
        served_as: format!("{served_group}/v1"),
        removed,
    })
}

/// The table as Markdown, for docs/served-versions.md.
pub fn markdown() -> String {
    let mut out = String::from(
        "| Kind | API version | Stage | Served | Deprecated | Feature gate |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for e in table() {
        let stage = match e.stage {
            Stage::Alpha => "alpha (off by default)",
            Stage::Beta => "beta (off by default)",
            Stage::Ga => "GA",
        };
        let gates: Vec<String> = e
            .gates
            .iter()
            .map(|(from, g)| {
                if *from == 0 {
                    format!("{g:?}")
                } else {
                    format!("{g:?} (from 1.{from})")
                }
            })
            .collect();
        out.push_str(&format!(
            "| {:?} | {} | {stage} | {} | {} | {} |\n",
            e.kind,
            e.api_version(),
            e.releases(),
            e.deprecated.map_or("-".into(), |d| format!("1.{d}")),
            gates.join(", "),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(v: &str) -> FeatureGates {
        FeatureGates::defaults(v.parse().unwrap())
    }

    #[test]
    fn device_taint_rule_versions_by_release() {
        let k = ObjectKind::DeviceTaintRule;
        let served =
            |api: &str, g: &FeatureGates| matches!(verdict(k, api, g), Verdict::Served { .. });
        // 1.35: v1alpha3 only, and behind the alpha gate.
        assert!(matches!(
            verdict(k, "resource.k8s.io/v1", &at("1.35")),
            Verdict::NotServed
        ));
        assert!(matches!(
            verdict(k, "resource.k8s.io/v1alpha3", &at("1.35")),
            Verdict::GateOff {
                gate: Gate::DRADeviceTaintRules,
                ..
            }
        ));
        assert!(matches!(
            verdict(k, "resource.k8s.io/v1alpha3", &at("1.34")),
            Verdict::GateOff {
                gate: Gate::DRADeviceTaints,
                ..
            }
        ));
        let mut g = at("1.36");
        assert!(
            !served("resource.k8s.io/v1beta2", &g),
            "beta, off by default"
        );
        g.set("DRADeviceTaintRules", true).unwrap();
        assert!(served("resource.k8s.io/v1beta2", &g));
        assert!(!served("resource.k8s.io/v1", &g));
        assert!(served("resource.k8s.io/v1", &at("1.37")));
    }

    /// docs/served-versions.md shows this table: when this fails, paste
    /// the printed table there.
    #[test]
    fn the_docs_show_the_table() {
        let docs = include_str!("../../../docs/served-versions.md");
        assert!(
            docs.contains(&markdown()),
            "docs/served-versions.md is stale; the table is:\n{}",
            markdown()
        );
    }

    #[test]
    fn deprecation_starts_in_the_deprecating_release() {
        let k = ObjectKind::ResourceClaim;
        let dep = |api: &str, v: &str| match verdict(k, api, &at(v)) {
            Verdict::Served { deprecated, .. } => Some(deprecated),
            _ => None,
        };
        assert_eq!(dep("resource.k8s.io/v1beta1", "1.34"), Some(false));
        assert_eq!(dep("resource.k8s.io/v1beta1", "1.35"), Some(true));
        assert_eq!(dep("resource.k8s.io/v1beta2", "1.35"), Some(false));
        assert_eq!(dep("resource.k8s.io/v1beta2", "1.36"), Some(true));
        assert_eq!(dep("resource.k8s.io/v1alpha3", "1.34"), None);
        assert_eq!(dep("resource.k8s.io/v1alpha2", "1.34"), None);
    }

    #[test]
    fn other_kinds_are_served_in_v1_only() {
        let r = |api: &str, kind: &str| retired_version(api, kind);
        assert_eq!(r("rbac.authorization.k8s.io/v1", "Role"), None);
        assert_eq!(
            r("rbac.authorization.k8s.io/v1beta1", "ClusterRoleBinding"),
            Some(RetiredVersion {
                served_as: "rbac.authorization.k8s.io/v1".into(),
                removed: Some(22)
            })
        );
        assert_eq!(
            r("extensions/v1beta1", "Deployment").unwrap().served_as,
            "apps/v1"
        );
        assert_eq!(r("apps/v1beta1", "Deployment").unwrap().removed, Some(16));
        // apps/v1beta1 never had DaemonSets.
        assert_eq!(r("apps/v1beta1", "DaemonSet").unwrap().removed, None);
        assert_eq!(r("batch/v1beta1", "CronJob").unwrap().removed, Some(25));
        assert_eq!(r("batch/v1beta1", "Job").unwrap().removed, None);
        assert_eq!(
            r(
                "admissionregistration.k8s.io/v1beta1",
                "ValidatingAdmissionPolicy"
            )
            .unwrap()
            .removed,
            Some(34)
        );
        assert_eq!(r("jobset.x-k8s.io/v1alpha2", "JobSet"), None);
        assert_eq!(r("batch/v1", "CronJob"), None);
    }
}
