//! Each object made ready for the rules as the apiserver would: the
//! served-version check (DRA-A001/A002), conversion to v1, decoding and the
//! gated fields the strategy drops.

use super::*;

enum VersionCheck {
    /// Served, perhaps with a DRA-A001 warning.
    Served(Option<Diagnostic>),
    /// Refused before validation (DRA-A002), with its one finding.
    Refused(Diagnostic),
}

/// DRA-A001/A002: whether the target serves the kind in this version
/// (`served.rs`), and a warning for a pre-v1 version that it serves.
/// `Refused` when the object is refused before validation.
fn api_version_diag(obj: &Object, gates: &FeatureGates) -> VersionCheck {
    use crate::served::{verdict, where_served, Stage, Verdict};
    let span = obj.root.get("apiVersion").map_or(obj.root.span, |n| n.span);
    let api = obj.reference.api_version.as_str();
    let kind = obj.reference.kind.as_str();
    let v = gates.version;
    let diag = |r: &Rule, error_type, message: String, notes: Vec<String>| Diagnostic {
        rule: r.id,
        severity: r.severity,
        error_type,
        field: "apiVersion".into(),
        message,
        label: None,
        notes,
        span,
        secondary: Vec::new(),
        file: obj.file,
        document: obj.document,
        object: Some(obj.reference.clone()),
    };
    let not_served = |message: String, notes: Vec<String>| {
        diag(
            &rules::a002_api_version_not_served::RULE,
            ErrorType::NotSupported,
            message,
            notes,
        )
    };
    if obj.kind == ObjectKind::OtherResource {
        let message = if api == "resource.k8s.io/v1alpha2" {
            format!("{api} {kind} is classic DRA, removed in Kubernetes 1.31: Kubernetes {v} does not serve it")
        } else {
            format!("Kubernetes {v} does not serve {kind} in {api}; kubectl-dra knows DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceTaintRule and ResourcePoolStatusRequest")
        };
        return VersionCheck::Refused(not_served(
            message,
            vec!["structured parameters replaced classic DRA: rewrite the object for resource.k8s.io/v1".into()],
        ));
    }
    if !obj.kind.is_dra() {
        // `kubectl apply`: no matches for kind "Role" in version
        // "rbac.authorization.k8s.io/v1beta1".
        return match crate::served::retired_version(api, kind) {
            None => VersionCheck::Served(None),
            Some(r) => {
                let when = r
                    .removed
                    .map_or(String::new(), |r| format!(" (removed in Kubernetes 1.{r})"));
                VersionCheck::Refused(not_served(
                    format!("Kubernetes {v} does not serve {kind} in {api}{when}"),
                    vec![format!("{kind} is served as {}: change the apiVersion (and check what that version requires)", r.served_as)],
                ))
            }
        };
    }
    match verdict(obj.kind, api, gates) {
        Verdict::NotServed => {
            let why = if api == "resource.k8s.io/v1alpha2" {
                " (classic DRA, removed in 1.31)"
            } else {
                ""
            };
            VersionCheck::Refused(not_served(
                format!("Kubernetes {v} does not serve {kind} in {api}{why}"),
                vec![format!("{kind} is served as {}", where_served(obj.kind))],
            ))
        }
        Verdict::GateOff { entry, gate } => VersionCheck::Refused(not_served(
            format!("Kubernetes {v} serves {kind} ({}) only with feature gate {gate:?}, which is off", entry.api_version()),
            vec![format!("enable {gate:?} on kube-apiserver (and the scheduler and controller manager); {kind} is served as {}", where_served(obj.kind))],
        )),
        Verdict::Served { entry, deprecated } => {
            let r = &rules::a001_beta_api_version::RULE;
            let off = match entry.stage {
                Stage::Ga => return VersionCheck::Served(None),
                Stage::Alpha => "an alpha version, off by default",
                Stage::Beta => "a beta version, off by default",
            };
            let runtime = format!("kube-apiserver serves it only with --runtime-config={api}=true");
            let mut notes = vec![runtime];
            let newest = newest(obj.kind, gates);
            let instead = if newest == api {
                format!(" (the only version of {kind} in Kubernetes {v})")
            } else {
                format!(": use {newest}")
            };
            let message = if deprecated {
                let removed = entry.removed.map_or(String::new(), |r| format!(", removed in 1.{r}"));
                format!("{api} is deprecated since Kubernetes 1.{}{removed}{instead}", entry.deprecated.unwrap_or(v.0))
            } else {
                format!("{api} is {off}{instead}")
            };
            notes.push(match obj.api {
                _ if obj.kind == ObjectKind::ResourcePoolStatusRequest => format!("{kind} has no other version: checked in this one"),
                ApiVersion::V1Beta1 | ApiVersion::V1Alpha3 if obj.kind != ObjectKind::DeviceTaintRule => "in v1, device fields move out of `basic` and request fields into `exactly`; decoded here in this version's shape, then validated after that conversion".into(),
                _ => "this version has the v1 shape: change the apiVersion; checked here as v1".into(),
            });
            VersionCheck::Served(Some(diag(r, ErrorType::Warning, message, notes)))
        }
    }
}

/// The GA (else newest) version of `kind` the target serves.
fn newest(kind: ObjectKind, gates: &FeatureGates) -> String {
    let served: Vec<&crate::served::Serving> = crate::served::table()
        .filter(|e| e.kind == kind && e.serves_in(gates.version))
        .collect();
    served
        .iter()
        .find(|e| e.stage == crate::served::Stage::Ga)
        .or(served.last())
        .map_or("resource.k8s.io/v1".into(), |e| e.api_version())
}

/// An object made ready for the rules, and what preparing it found.
pub(super) struct Prepared {
    /// `None` for objects no rule should see.
    pub object: Option<Object>,
    pub found: Vec<Diagnostic>,
    /// The body does not decode (a value of the wrong type, a quantity or
    /// time that does not parse) or, under strict field validation, has
    /// fields its type lacks: kube-apiserver answers 400 Bad Request
    /// before its strategy and validation run, so `found` is all it says.
    pub refused: bool,
}

/// Converts an object to v1 where needed and decodes it as the apiserver
/// would (dropping gated fields): `obj` decoded and its gated fields
/// dropped as the strategy does on create, or on update of `old` (whose
/// gates in use keep their fields).
pub(super) fn prepare(
    mut obj: Object,
    gates: &FeatureGates,
    old: Option<&Object>,
    status: bool,
    undecodable_objects: Undecodable,
) -> Prepared {
    let mut found: Vec<Diagnostic> = match api_version_diag(&obj, gates) {
        VersionCheck::Served(d) => d.into_iter().collect(),
        // Refused before validation: nothing else applies.
        VersionCheck::Refused(d) => {
            return Prepared {
                object: None,
                found: vec![d],
                refused: false,
            }
        }
    };
    // A v1beta1 object is decoded in its own shape (the paths of decoding
    // errors are those of the file), then converted; its gated fields are
    // dropped in the v1 shape below.
    let mut decoded_first: Option<Vec<schema::ShapeFinding>> = None;
    match obj.api {
        // v1alpha3 claims and slices had the v1beta1 shape; the two kinds
        // served in v1alpha3 by 1.34-1.37 have their own.
        ApiVersion::V1Beta1 | ApiVersion::V1Alpha3 => {
            if !matches!(
                obj.kind,
                ObjectKind::DeviceTaintRule | ObjectKind::ResourcePoolStatusRequest
            ) {
                decoded_first = Some(schema::decode_v1beta1(obj.kind, &mut obj.root, gates));
            }
            crate::convert::v1beta1_to_v1(obj.kind, &mut obj.root)
        }
        // Nodes are read, not validated: the stored-state rules (DRA-H)
        // compare slices and pods with them.
        ApiVersion::Other if obj.kind == ObjectKind::Node => {
            return Prepared {
                object: Some(obj),
                found,
                refused: false,
            }
        }
        ApiVersion::Other if obj.kind.is_dra() => {
            return Prepared {
                object: None,
                found,
                refused: false,
            }
        }
        _ => {}
    }
    let kept = old.map_or_else(Vec::new, |old| stored_gates_in_use(old, gates, status));
    let mut findings = schema::decode_and_drop_update(obj.kind, &mut obj.root, gates, &kept);
    if let Some(mut decoded) = decoded_first {
        // Only the drops are new: decoding was reported in the v1beta1 shape.
        decoded.extend(
            findings
                .into_iter()
                .filter(|f| matches!(f, schema::ShapeFinding::Dropped { .. })),
        );
        findings = decoded;
    }
    // Namespaces, ServiceAccounts and the RBAC kinds have a schema of their
    // own (their metadata included), and so have the built-in workloads;
    // of another workload (a JobSet, ...) only the metadata and the claims
    // are modelled.
    let whole = (obj.kind == ObjectKind::Workload)
        .then(|| {
            let (api, kind) = (&obj.reference.api_version, &obj.reference.kind);
            schema::decode_workload(api, kind, &mut obj.root, gates)
        })
        .flatten();
    let modelled = whole.is_some();
    findings.extend(whole.into_iter().flatten());
    if obj.kind == ObjectKind::Workload && !modelled {
        let path = obj.pod_spec_path;
        findings.extend(schema::pod::decode_metadata(&mut obj.root, path, gates));
    }
    if !obj.pod_spec_path.is_empty() && !modelled {
        let field = obj.pod_spec_field();
        let path = obj.pod_spec_path;
        findings.extend(schema::pod::decode_pod_claims(
            &mut obj.root,
            path,
            &field,
            gates,
        ));
    }
    let in_status = |f: &schema::ShapeFinding| {
        let p = f.path();
        p == "status" || p.starts_with("status.")
    };
    if status {
        // A status write keeps the stored spec and metadata (the status
        // strategy's PrepareForUpdate), but the handler decodes the whole
        // body first, strictly: a value anywhere that does not decode, or
        // a field the type does not have, fails it.
        findings.retain(|f| in_status(f) || f.is_decode_fault() || f.is_unknown_field());
    } else {
        // Decoded strictly, then discarded whole (PrepareForCreate,
        // PrepareForUpdate: DRA-V169): nothing in it is dropped on its own.
        findings.retain(|f| !(in_status(f) && matches!(f, schema::ShapeFinding::Dropped { .. })));
    }
    let undecodable = findings.iter().any(schema::ShapeFinding::is_decode_fault);
    // kubectl asks for strict field validation (`--validate=strict`, its
    // default): the apiserver refuses a body with fields its type lacks,
    // naming each, before the strategy and validation run. A decoding
    // error comes first and alone (sigs.k8s.io/json's UnmarshalStrict
    // returns it before the strict errors).
    let unknown_fields = !undecodable
        && undecodable_objects == Undecodable::AsTheApiserver
        && findings.iter().any(schema::ShapeFinding::is_unknown_field);
    if unknown_fields {
        findings.retain(|f| !matches!(f, schema::ShapeFinding::Dropped { .. }));
    }
    let mut not_reported: Vec<String> = Vec::new();
    let mut reported_path: Option<String> = None;
    if undecodable {
        // Nothing is dropped from a body that does not decode.
        findings.retain(|f| !matches!(f, schema::ShapeFinding::Dropped { .. }));
        if undecodable_objects == Undecodable::AsTheApiserver {
            findings.retain(|f| !f.is_unknown_field());
            not_reported = keep_reported_fault(&mut findings);
            reported_path = findings
                .iter()
                .find(|f| f.is_decode_fault())
                .map(|f| f.path().to_owned());
        }
    }
    let more = findings.len().saturating_sub(MAX_FINDINGS_PER_SOURCE);
    found.extend(
        findings
            .into_iter()
            .take(MAX_FINDINGS_PER_SOURCE)
            .map(|f| shape_to_diag(&obj, f, gates)),
    );
    if more > 0 {
        if let Some(last) = found.last_mut() {
            last.notes.push(format!(
                "{more} more decoding findings in this object are not shown"
            ));
        }
    }
    if !not_reported.is_empty() {
        let reported = reported_path.as_deref();
        if let Some(d) = found
            .iter_mut()
            .find(|d| Some(d.field.as_str()) == reported)
        {
            d.notes.push(not_reported_note(&not_reported));
        }
    }
    Prepared {
        object: Some(obj),
        found,
        refused: undecodable || unknown_fields,
    }
}

/// The gates whose fields a stored object uses (in the v1 shape) although
/// they are off: an update keeps those fields. A status write asks the
/// whole stored claim (`draAdminAccessFeatureInUse(oldClaim)` reads its spec
/// and status); an update of the spec asks the stored spec only
/// (`resourceclaimspec.DropDisabledFields(&new.Spec, &old.Spec)`).
fn stored_gates_in_use(
    old: &Object,
    gates: &FeatureGates,
    status: bool,
) -> Vec<crate::gates::Gate> {
    let mut root = old.root.clone();
    if matches!(old.api, ApiVersion::V1Beta1 | ApiVersion::V1Alpha3) {
        crate::convert::v1beta1_to_v1(old.kind, &mut root);
    }
    if !status {
        if let crate::tree::Value::Map(entries) = &mut root.value {
            crate::tree::edit(entries, |v| v.retain(|e| e.key != "status"));
        }
    }
    schema::gates_in_use(old.kind, root, gates)
}

/// Keeps, of the body's decoding faults, the one kube-apiserver reports
/// (`schema::first_fault`: it answers with a single decoding error) and
/// returns the paths of the others, in the order the request holds them.
fn keep_reported_fault(findings: &mut Vec<schema::ShapeFinding>) -> Vec<String> {
    let Some(first) = schema::first_fault::first_fault(findings) else {
        return Vec::new();
    };
    let mut others: Vec<String> = Vec::new();
    let mut i = 0;
    findings.retain(|f| {
        let keep = i == first || !f.is_decode_fault();
        if !keep {
            others.push(f.path().to_owned());
        }
        i += 1;
        keep
    });
    others.sort_by(|a, b| schema::first_fault::json_order(a, b));
    others
}

/// Says which other values of the object fail to decode: the apiserver
/// names one per request, a linter can name them all at once.
fn not_reported_note(paths: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut list = paths
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if paths.len() > SHOWN {
        list.push_str(&format!(" and {} more", paths.len() - SHOWN));
    }
    format!(
        "kube-apiserver answers with this one decoding error; {} more value{} of this object do{} not decode either: {list}",
        paths.len(),
        if paths.len() == 1 { "" } else { "s" },
        if paths.len() == 1 { "es" } else { "" },
    )
}
