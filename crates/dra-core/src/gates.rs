//! Kubernetes versions and DRA feature gates: each gate's default and lock
//! per version (spec/feature-gates.md, from the versioned feature specs).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A Kubernetes minor version that `resource.k8s.io/v1` is served in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u8);

impl Version {
    pub const V1_34: Version = Version(34);
    pub const V1_35: Version = Version(35);
    pub const V1_36: Version = Version(36);
    pub const V1_37: Version = Version(37);
    pub const SUPPORTED: [Version; 4] = [Self::V1_34, Self::V1_35, Self::V1_36, Self::V1_37];
    pub const LATEST: Version = Self::V1_37;
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.0)
    }
}

impl FromStr for Version {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim().trim_start_matches('v');
        let minor = t
            .strip_prefix("1.")
            .and_then(|m| m.split('.').next())
            .and_then(|m| m.parse::<u8>().ok())
            .ok_or_else(|| format!("invalid Kubernetes version {s:?}: expected e.g. 1.37"))?;
        let v = Version(minor);
        if Self::SUPPORTED.contains(&v) {
            Ok(v)
        } else {
            Err(format!(
                "Kubernetes {v} is not supported: resource.k8s.io/v1 is checked for 1.34 to 1.37"
            ))
        }
    }
}

impl Version {
    /// The version of a `/version` answer (`gitVersion: v1.37.2-gke.100`).
    /// A cluster newer than kubectl-dra knows is checked as the newest it knows.
    pub fn from_git_version(git: &str) -> Result<(Version, Option<String>), String> {
        let digits = git.trim_start_matches('v');
        let mut parts = digits.split(['.', '-', '+']);
        let major: u32 = parts
            .next()
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("cannot read the version {git:?}"))?;
        let minor: u32 = parts
            .next()
            .map(|p| p.trim_end_matches(|c: char| !c.is_ascii_digit()))
            .and_then(|p| p.parse().ok())
            .ok_or_else(|| format!("cannot read the version {git:?}"))?;
        let newest = *Version::SUPPORTED.last().expect("versions");
        let oldest = Version::SUPPORTED[0];
        if major != 1 {
            return Err(format!("Kubernetes {git} is not a 1.x version"));
        }
        let m = u8::try_from(minor).unwrap_or(u8::MAX);
        if m < oldest.0 {
            return Err(format!(
                "the cluster runs Kubernetes {git}: resource.k8s.io/v1 is served from 1.34; kubectl-dra checks 1.34 to {newest}"
            ));
        }
        if m > newest.0 {
            return Ok((
                newest,
                Some(format!(
                    "the cluster runs Kubernetes {git}, newer than kubectl-dra knows: checked as {newest}"
                )),
            ));
        }
        Ok((Version(m), None))
    }
}

/// The DRA gates a kube-apiserver reports in its `/metrics`
/// (`kubernetes_feature_enabled{name="DRAAdminAccess",stage="BETA"} 1`).
pub fn gates_from_metrics(text: &str) -> Vec<(Gate, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("kubernetes_feature_enabled{") else {
            continue;
        };
        let Some((labels, value)) = rest.rsplit_once('}') else {
            continue;
        };
        let name = labels.split(',').find_map(|l| {
            l.trim()
                .strip_prefix("name=\"")
                .and_then(|v| v.strip_suffix('"'))
        });
        let (Some(name), Ok(v)) = (name, value.trim().parse::<f64>()) else {
            continue;
        };
        if let Some(g) = Gate::from_name(name) {
            out.push((g, v != 0.0));
        }
    }
    out
}

/// A DRA feature gate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gate {
    DynamicResourceAllocation,
    DRAAdminAccess,
    DRAPrioritizedList,
    DRAPartitionableDevices,
    DRADeviceTaints,
    DRADeviceTaintRules,
    DRAResourceClaimDeviceStatus,
    DRAConsumableCapacity,
    DRAExtendedResource,
    DRADeviceBindingConditions,
    DRASchedulerFilterTimeout,
    DRAListTypeAttributes,
    DRANodeAllocatableResources,
    DRAWorkloadResourceClaims,
    DRADeviceCompatibilityGroups,
    DRADerivedAttributes,
    DRAOptionalNodeOperations,
    DRAFractionalCapacityRange,
    DRAPartitionableDevicesType,
    DRAResourceClaimGranularStatusAuthorization,
    DRAResourcePoolStatus,
    /// Not a DRA gate: while it is on, a pod may not list claims in its
    /// pod-level `spec.resources` (core validation).
    PodLevelResources,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maturity {
    Alpha,
    Beta,
    Ga,
}

/// A gate's state in one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateSpec {
    pub maturity: Maturity,
    pub default: bool,
    pub locked: bool,
}

use Maturity::*;
const fn s(maturity: Maturity, default: bool, locked: bool) -> Option<GateSpec> {
    Some(GateSpec {
        maturity,
        default,
        locked,
    })
}
const NO: Option<GateSpec> = None;

impl Gate {
    pub const ALL: [Gate; 22] = [
        Gate::DynamicResourceAllocation,
        Gate::DRAAdminAccess,
        Gate::DRAPrioritizedList,
        Gate::DRAPartitionableDevices,
        Gate::DRADeviceTaints,
        Gate::DRADeviceTaintRules,
        Gate::DRAResourceClaimDeviceStatus,
        Gate::DRAConsumableCapacity,
        Gate::DRAExtendedResource,
        Gate::DRADeviceBindingConditions,
        Gate::DRASchedulerFilterTimeout,
        Gate::DRAListTypeAttributes,
        Gate::DRANodeAllocatableResources,
        Gate::DRAWorkloadResourceClaims,
        Gate::DRADeviceCompatibilityGroups,
        Gate::DRADerivedAttributes,
        Gate::DRAOptionalNodeOperations,
        Gate::DRAFractionalCapacityRange,
        Gate::DRAPartitionableDevicesType,
        Gate::DRAResourceClaimGranularStatusAuthorization,
        Gate::DRAResourcePoolStatus,
        Gate::PodLevelResources,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Gate::DynamicResourceAllocation => "DynamicResourceAllocation",
            Gate::DRAAdminAccess => "DRAAdminAccess",
            Gate::DRAPrioritizedList => "DRAPrioritizedList",
            Gate::DRAPartitionableDevices => "DRAPartitionableDevices",
            Gate::DRADeviceTaints => "DRADeviceTaints",
            Gate::DRADeviceTaintRules => "DRADeviceTaintRules",
            Gate::DRAResourceClaimDeviceStatus => "DRAResourceClaimDeviceStatus",
            Gate::DRAConsumableCapacity => "DRAConsumableCapacity",
            Gate::DRAExtendedResource => "DRAExtendedResource",
            Gate::DRADeviceBindingConditions => "DRADeviceBindingConditions",
            Gate::DRASchedulerFilterTimeout => "DRASchedulerFilterTimeout",
            Gate::DRAListTypeAttributes => "DRAListTypeAttributes",
            Gate::DRANodeAllocatableResources => "DRANodeAllocatableResources",
            Gate::DRAWorkloadResourceClaims => "DRAWorkloadResourceClaims",
            Gate::DRADeviceCompatibilityGroups => "DRADeviceCompatibilityGroups",
            Gate::DRADerivedAttributes => "DRADerivedAttributes",
            Gate::DRAOptionalNodeOperations => "DRAOptionalNodeOperations",
            Gate::DRAFractionalCapacityRange => "DRAFractionalCapacityRange",
            Gate::DRAPartitionableDevicesType => "DRAPartitionableDevicesType",
            Gate::DRAResourceClaimGranularStatusAuthorization => {
                "DRAResourceClaimGranularStatusAuthorization"
            }
            Gate::DRAResourcePoolStatus => "DRAResourcePoolStatus",
            Gate::PodLevelResources => "PodLevelResources",
        }
    }

    pub fn from_name(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The gate's maturity, default and lock in `v`; `None` when the gate
    /// does not exist in that version.
    pub fn spec(self, v: Version) -> Option<GateSpec> {
        // Columns: 1.34, 1.35, 1.36, 1.37.
        let row: [Option<GateSpec>; 4] = match self {
            Gate::DynamicResourceAllocation => [
                s(Ga, true, false),
                s(Ga, true, true),
                s(Ga, true, true),
                s(Ga, true, true),
            ],
            Gate::DRAAdminAccess => [
                s(Beta, true, false),
                s(Beta, true, false),
                s(Ga, true, true),
                s(Ga, true, true),
            ],
            Gate::DRAPrioritizedList => [
                s(Beta, true, false),
                s(Beta, true, false),
                s(Ga, true, false),
                s(Ga, true, true),
            ],
            Gate::DRAPartitionableDevices => [
                s(Alpha, false, false),
                s(Alpha, false, false),
                s(Beta, true, false),
                s(Beta, true, false),
            ],
            Gate::DRADeviceTaints => [
                s(Alpha, false, false),
                s(Alpha, false, false),
                s(Beta, true, false),
                s(Ga, true, false),
            ],
            Gate::DRADeviceTaintRules => [
                NO,
                s(Alpha, false, false),
                s(Beta, false, false),
                s(Ga, true, false),
            ],
            Gate::DRAResourceClaimDeviceStatus => [
                s(Beta, true, false),
                s(Beta, true, false),
                s(Beta, true, false),
                s(Ga, true, true),
            ],
            Gate::DRAConsumableCapacity => [
                s(Alpha, false, false),
                s(Alpha, false, false),
                s(Beta, true, false),
                s(Beta, true, false),
            ],
            Gate::DRAExtendedResource => [
                s(Alpha, false, false),
                s(Alpha, false, false),
                s(Beta, true, false),
                s(Ga, true, true),
            ],
            Gate::DRADeviceBindingConditions => [
                s(Alpha, false, false),
                s(Alpha, false, false),
                s(Beta, true, false),
                s(Beta, true, false),
            ],
            Gate::DRASchedulerFilterTimeout => [
                s(Beta, true, false),
                s(Beta, true, false),
                s(Beta, true, false),
                s(Beta, true, false),
            ],
            Gate::DRAListTypeAttributes | Gate::DRANodeAllocatableResources => {
                [NO, NO, s(Alpha, false, false), s(Alpha, false, false)]
            }
            Gate::DRAWorkloadResourceClaims => {
                [NO, NO, s(Alpha, false, false), s(Beta, false, false)]
            }
            Gate::DRADeviceCompatibilityGroups
            | Gate::DRADerivedAttributes
            | Gate::DRAOptionalNodeOperations
            | Gate::DRAPartitionableDevicesType => [NO, NO, NO, s(Alpha, false, false)],
            // Beta in 1.37 with two entries: off, and on with
            // MinCompatibilityVersion 1.37. component-base's
            // featureSpecAtEmulationAndMinCompatVersion skips the second
            // unless --min-compatibility-version is at least 1.37, and a
            // 1.37 binary defaults it to 1.36 (NewEffectiveVersion:
            // binaryVersion.SubtractMinor(1)): off by default.
            Gate::DRAFractionalCapacityRange => [NO, NO, NO, s(Beta, false, false)],
            // Beta, on by default from 1.36 (KEP-4817; website feature-gate page).
            Gate::DRAResourceClaimGranularStatusAuthorization => {
                [NO, NO, s(Beta, true, false), s(Beta, true, false)]
            }
            // Alpha from 1.36 (omeryahud/kubernetes@a125bd3 kube_features.go);
            // still alpha and off in 1.37: kubernetes/kubernetes#140170 is
            // "Second Alpha (1.37) of KEP-5677 ... default off".
            Gate::DRAResourcePoolStatus => [NO, NO, s(Alpha, false, false), s(Alpha, false, false)],
            // Beta and on from 1.34 (KEP-2837; validation-releases.md 4a).
            Gate::PodLevelResources => [
                s(Beta, true, false),
                s(Beta, true, false),
                s(Beta, true, false),
                s(Beta, true, false),
            ],
        };
        let i = usize::from(v.0.checked_sub(34)?);
        row.get(i).copied().flatten()
    }

    /// The first supported version in which the gate is on by default.
    pub fn default_on_since(self) -> Option<Version> {
        Version::SUPPORTED
            .into_iter()
            .find(|v| self.spec(*v).is_some_and(|s| s.default))
    }
}

impl fmt::Display for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The feature gates in force: the version's defaults plus overrides.
#[derive(Clone, Debug)]
pub struct FeatureGates {
    pub version: Version,
    overrides: BTreeMap<Gate, bool>,
}

/// Why kube-apiserver would refuse a `--feature-gates` setting at start-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GateError {
    /// No release knows the gate.
    Unknown {
        name: String,
        suggestion: Option<String>,
    },
    /// The gate exists, but not in this release.
    NotInRelease { name: String, version: Version },
    /// The gate is locked to its default in this release.
    Locked {
        name: String,
        default: bool,
        version: Version,
    },
    /// Not `Name=value`.
    NotNameValue { part: String },
    /// A value `strconv.ParseBool` does not read.
    BadValue { name: String, value: String },
}

impl std::fmt::Display for GateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateError::Unknown {
                name,
                suggestion: Some(s),
            } => write!(f, "unknown feature gate {name:?} (did you mean {s:?}?)"),
            GateError::Unknown { name, .. } => write!(f, "unknown feature gate {name:?}"),
            GateError::NotInRelease { name, version } => {
                write!(
                    f,
                    "feature gate {name} does not exist in Kubernetes {version}"
                )
            }
            GateError::Locked {
                name,
                default,
                version,
            } => write!(
                f,
                "feature gate {name} is locked to {default} in Kubernetes {version}"
            ),
            GateError::NotNameValue { part } => {
                write!(f, "invalid feature gate {part:?}: expected Name=true|false")
            }
            GateError::BadValue { name, value } => {
                write!(f, "invalid value for feature gate {name}: {value:?}")
            }
        }
    }
}

impl std::error::Error for GateError {}

impl From<GateError> for String {
    fn from(e: GateError) -> String {
        e.to_string()
    }
}

impl FeatureGates {
    pub fn defaults(version: Version) -> Self {
        FeatureGates {
            version,
            overrides: BTreeMap::new(),
        }
    }

    /// Sets a gate, refusing what kube-apiserver would refuse at start-up:
    /// a gate unknown to the version, or a locked gate set against its lock.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), GateError> {
        let gate = Gate::from_name(name).ok_or_else(|| {
            let known: Vec<&str> = Gate::ALL.iter().map(|g| g.name()).collect();
            GateError::Unknown {
                name: name.to_owned(),
                suggestion: crate::suggest::did_you_mean(name, known.iter().copied())
                    .map(str::to_owned),
            }
        })?;
        let spec = gate
            .spec(self.version)
            .ok_or_else(|| GateError::NotInRelease {
                name: name.to_owned(),
                version: self.version,
            })?;
        if spec.locked && on != spec.default {
            return Err(GateError::Locked {
                name: name.to_owned(),
                default: spec.default,
                version: self.version,
            });
        }
        self.overrides.insert(gate, on);
        Ok(())
    }

    /// Parses `Name=true,Other=false` as kube-apiserver's `--feature-gates`
    /// (component-base's `MapStringBool.Set` and `SetFromMap`): values as
    /// `strconv.ParseBool` reads them, and the special gates `AllAlpha` and
    /// `AllBeta`, which set every alpha (beta) gate of the release that the
    /// same list does not set itself (`setUnsetAlphaGates`).
    pub fn parse_into(&mut self, list: &str) -> Result<(), GateError> {
        let mut explicit = Vec::new();
        let mut special = Vec::new();
        for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = part
                .split_once('=')
                .ok_or_else(|| GateError::NotNameValue {
                    part: part.to_owned(),
                })?;
            let (name, value) = (name.trim(), value.trim());
            let on = match value {
                "1" | "t" | "T" | "true" | "TRUE" | "True" => true,
                "0" | "f" | "F" | "false" | "FALSE" | "False" => false,
                _ => {
                    return Err(GateError::BadValue {
                        name: name.to_owned(),
                        value: value.to_owned(),
                    })
                }
            };
            match name {
                "AllAlpha" => special.push((Maturity::Alpha, on)),
                "AllBeta" => special.push((Maturity::Beta, on)),
                _ => {
                    self.set(name, on)?;
                    explicit.push(Gate::from_name(name));
                }
            }
        }
        for (maturity, on) in special {
            for gate in Gate::ALL {
                let stage = gate.spec(self.version).map(|s| s.maturity);
                if stage == Some(maturity) && !explicit.contains(&Some(gate)) {
                    self.overrides.insert(gate, on);
                }
            }
        }
        Ok(())
    }

    /// The gate under which kube-scheduler applies DeviceTaintRules: 1.34's
    /// tracker takes `EnableDeviceTaints` from DRADeviceTaints
    /// (dynamic-resource-allocation release-1.34 resourceslice/tracker);
    /// from 1.35 its own gate, DRADeviceTaintRules.
    pub fn taint_rules_gate(&self) -> Gate {
        if self.version < Version::V1_35 {
            Gate::DRADeviceTaints
        } else {
            Gate::DRADeviceTaintRules
        }
    }

    /// Whether kube-scheduler applies DeviceTaintRules.
    pub fn taint_rules_applied(&self) -> bool {
        self.enabled(self.taint_rules_gate())
    }

    pub fn enabled(&self, gate: Gate) -> bool {
        if let Some(on) = self.overrides.get(&gate) {
            return *on;
        }
        gate.spec(self.version).is_some_and(|s| s.default)
    }

    /// Whether the gate differs from the version's default.
    pub fn is_overridden(&self, gate: Gate) -> bool {
        self.overrides.contains_key(&gate)
    }

    pub fn overrides(&self) -> impl Iterator<Item = (Gate, bool)> + '_ {
        self.overrides.iter().map(|(g, on)| (*g, *on))
    }

    /// Takes the gates a cluster reports (`/metrics`) where they differ from
    /// the version's defaults; gates the version does not know are skipped.
    pub fn apply_reported(&mut self, reported: &[(Gate, bool)]) {
        for &(gate, on) in reported {
            if gate
                .spec(self.version)
                .is_some_and(|s| s.default != on && !s.locked)
            {
                self.overrides.insert(gate, on);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// component-base featuregate: ParseBool values, and AllAlpha/AllBeta
    /// set the release's alpha (beta) gates the list leaves unset.
    #[test]
    fn all_alpha_and_all_beta_set_the_unset_gates() {
        let v = Version::V1_37;
        let mut g = FeatureGates::defaults(v);
        g.parse_into("DRAListTypeAttributes=f, AllAlpha=1").unwrap();
        for gate in Gate::ALL {
            match gate.spec(v) {
                Some(s) if s.maturity == Maturity::Alpha => assert_eq!(
                    g.enabled(gate),
                    gate != Gate::DRAListTypeAttributes,
                    "{}",
                    gate.name()
                ),
                Some(s) => assert_eq!(g.enabled(gate), s.default, "{}", gate.name()),
                None => {}
            }
        }
        let mut g = FeatureGates::defaults(v);
        g.parse_into("AllBeta=false").unwrap();
        assert!(Gate::ALL
            .iter()
            .filter(|gate| gate.spec(v).is_some_and(|s| s.maturity == Maturity::Beta))
            .all(|&gate| !g.enabled(gate)));
        assert!(g.enabled(Gate::DynamicResourceAllocation));
        assert!(FeatureGates::defaults(v)
            .parse_into("DRAAdminAccess=tRuE")
            .is_err());
    }

    #[test]
    fn cluster_versions_and_metrics() {
        assert_eq!(
            Version::from_git_version("v1.36.2-gke.100").unwrap().0,
            Version::V1_36
        );
        let (v, note) = Version::from_git_version("v1.39.0").unwrap();
        assert_eq!(v, Version::V1_37);
        assert!(note.unwrap().contains("newer"));
        assert!(Version::from_git_version("v1.33.5")
            .unwrap_err()
            .contains("1.34"));
        assert!(Version::from_git_version("banana").is_err());
        let metrics = "# HELP kubernetes_feature_enabled x\nkubernetes_feature_enabled{name=\"DRAPartitionableDevices\",stage=\"BETA\"} 0\nkubernetes_feature_enabled{name=\"Other\",stage=\"\"} 1\nkubernetes_feature_enabled{name=\"DRAAdminAccess\",stage=\"\"} 1\n";
        let reported = gates_from_metrics(metrics);
        assert_eq!(
            reported,
            vec![
                (Gate::DRAPartitionableDevices, false),
                (Gate::DRAAdminAccess, true)
            ]
        );
        let mut g = FeatureGates::defaults(Version::V1_36);
        g.apply_reported(&reported);
        assert!(!g.enabled(Gate::DRAPartitionableDevices));
        assert_eq!(g.overrides().count(), 1);
    }

    #[test]
    fn defaults_follow_the_table() {
        let g = FeatureGates::defaults(Version::V1_35);
        assert!(!g.enabled(Gate::DRAPartitionableDevices));
        assert!(g.enabled(Gate::DRAPrioritizedList));
        let g = FeatureGates::defaults(Version::V1_37);
        assert!(!g.enabled(Gate::DRADeviceCompatibilityGroups));
        assert!(g.enabled(Gate::DRADeviceTaints));
        assert_eq!(
            Gate::DRAPartitionableDevices.default_on_since(),
            Some(Version::V1_36)
        );
    }

    #[test]
    fn locks_and_unknown_gates_are_refused() {
        let mut g = FeatureGates::defaults(Version::V1_37);
        let locked = g.set("DRAPrioritizedList", false).unwrap_err();
        assert!(matches!(locked, GateError::Locked { default: true, .. }));
        assert!(locked.to_string().contains("locked"));
        let unknown = g.set("DRAPriorityList", true).unwrap_err();
        assert_eq!(
            unknown.to_string(),
            r#"unknown feature gate "DRAPriorityList" (did you mean "DRAPrioritizedList"?)"#
        );
        let mut g = FeatureGates::defaults(Version::V1_36);
        assert!(g.set("DRAPrioritizedList", false).is_ok());
        assert!(!g.enabled(Gate::DRAPrioritizedList));
        assert!(g.set("DRADeviceCompatibilityGroups", true).is_err());
    }

    #[test]
    fn versions_parse() {
        assert_eq!("1.36".parse::<Version>(), Ok(Version::V1_36));
        assert_eq!("v1.34.2".parse::<Version>(), Ok(Version::V1_34));
        assert!("1.33".parse::<Version>().is_err());
    }
}
