//! The whole shape of the built-in workload kinds (core/v1 Pod, PodTemplate,
//! ReplicationController; apps/v1 Deployment, StatefulSet, DaemonSet,
//! ReplicaSet; batch/v1 Job, CronJob), so that a pod is decoded as strictly
//! as the DRA kinds: kubectl's strict field validation refuses a Pod with
//! `imagee:` anywhere, and a value of the wrong type (`env[].value: 1`, a
//! `containerPort: "80"`) fails the request whatever the field.
//!
//! The fields come from `core_types.txt`, written by
//! `scripts/gen_core_schema.py` from kubernetes/api's Go types at each
//! release (1.34-1.37); they are read into the same [`Field`] tables as the
//! hand-written kinds the first time a workload is decoded. Nothing is
//! dropped by feature gate: a pod's gated fields are not modelled.

use super::{Field, Needs, Ty, NOW, OBJECT_META};
use std::collections::HashMap;
use std::sync::OnceLock;

const TYPES: &str = include_str!("core_types.txt");

/// The fields of the workload kind `kind` of `api_version`, or `None` when
/// it is not one of the built-in kinds read here (a JobSet, an
/// `extensions/v1beta1` Deployment).
pub fn fields_of(api_version: &str, kind: &str) -> Option<&'static [Field]> {
    let known = match api_version {
        "v1" => matches!(kind, "Pod" | "PodTemplate" | "ReplicationController"),
        "apps/v1" => matches!(
            kind,
            "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet"
        ),
        "batch/v1" => matches!(kind, "Job" | "CronJob"),
        _ => false,
    };
    if !known {
        return None;
    }
    tables().get(kind).copied()
}

fn tables() -> &'static HashMap<&'static str, &'static [Field]> {
    static TABLES: OnceLock<HashMap<&'static str, &'static [Field]>> = OnceLock::new();
    TABLES.get_or_init(|| read(TYPES).unwrap_or_else(|e| panic!("core_types.txt: {e}")))
}

/// Reads the generated table: a struct's name on a line of its own, then
/// its fields, indented, as `name type [first-last]`. Structs come after
/// every struct they use, so each is built from finished ones. The tables
/// live for the whole run (leaked once, as a `static` would).
fn read(text: &'static str) -> Result<HashMap<&'static str, &'static [Field]>, String> {
    let mut done: HashMap<&'static str, &'static [Field]> = HashMap::new();
    let mut current: Option<(&'static str, Vec<Field>)> = None;
    let finish = |current: Option<(&'static str, Vec<Field>)>,
                  done: &mut HashMap<&'static str, &'static [Field]>| {
        if let Some((name, fields)) = current {
            done.insert(name, Vec::leak(fields));
        }
    };
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let Some(field) = line.strip_prefix("  ") else {
            finish(current.take(), &mut done);
            current = Some((line.trim(), Vec::new()));
            continue;
        };
        let mut words = field.split(' ');
        let (Some(name), Some(ty)) = (words.next(), words.next()) else {
            return Err(format!("line {}: a field without a type", n + 1));
        };
        let (since, until) = match words.next() {
            None => (34, NOW),
            Some(span) => {
                let (a, b) = span
                    .split_once('-')
                    .ok_or_else(|| format!("line {}: bad release span", n + 1))?;
                let last: u8 = b.parse().map_err(|_| format!("line {}", n + 1))?;
                let until = if last >= 37 { NOW } else { last + 1 };
                (a.parse().map_err(|_| format!("line {}", n + 1))?, until)
            }
        };
        let ty = parse_ty(ty, &done).map_err(|e| format!("line {}: {e}", n + 1))?;
        let Some((_, fields)) = current.as_mut() else {
            return Err(format!("line {}: a field before any struct", n + 1));
        };
        fields.push(Field {
            name,
            ty,
            needs: Needs::Always,
            since,
            until,
        });
    }
    finish(current, &mut done);
    Ok(done)
}

fn parse_ty(ty: &str, done: &HashMap<&'static str, &'static [Field]>) -> Result<Ty, String> {
    let leak = |t: Ty| -> &'static Ty { Box::leak(Box::new(t)) };
    Ok(if let Some(item) = ty.strip_prefix("[]") {
        Ty::List(leak(parse_ty(item, done)?))
    } else if let Some(value) = ty.strip_prefix("map[").and_then(|t| t.strip_suffix(']')) {
        Ty::Map(leak(parse_ty(value, done)?))
    } else {
        match ty {
            "string" => Ty::Str,
            "bool" => Ty::Bool,
            "int64" => Ty::Int,
            "int32" => Ty::Int32,
            "quantity" => Ty::Quantity,
            "time" => Ty::Time,
            "intorstring" => Ty::IntOrString,
            "any" => Ty::Any,
            "ObjectMeta" => Ty::Obj(OBJECT_META),
            name => Ty::Obj(
                done.get(name)
                    .copied()
                    .ok_or_else(|| format!("{name} is used before it is defined"))?,
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(fields: &'static [Field], name: &str) -> &'static Field {
        fields.iter().find(|f| f.name == name).expect(name)
    }

    #[test]
    fn the_generated_table_reads_whole() {
        for (api, kind) in [
            ("v1", "Pod"),
            ("v1", "PodTemplate"),
            ("v1", "ReplicationController"),
            ("apps/v1", "Deployment"),
            ("apps/v1", "StatefulSet"),
            ("apps/v1", "DaemonSet"),
            ("apps/v1", "ReplicaSet"),
            ("batch/v1", "Job"),
            ("batch/v1", "CronJob"),
        ] {
            let fields = fields_of(api, kind).expect(kind);
            assert!(fields.iter().any(|f| f.name == "metadata"), "{kind}");
        }
        assert!(fields_of("extensions/v1beta1", "Deployment").is_none());
        assert!(fields_of("apps/v1", "Pod").is_none());
    }

    /// Spot checks against kubernetes/api's `core/v1/types.go`.
    #[test]
    fn fields_keep_their_types_and_releases() {
        let pod = fields_of("v1", "Pod").unwrap();
        let Ty::Obj(spec) = field(pod, "spec").ty else {
            panic!("spec")
        };
        // Embedded structs are promoted: a Probe's handler, a Volume's source.
        let Ty::List(Ty::Obj(container)) = field(spec, "containers").ty else {
            panic!("containers")
        };
        let Ty::Obj(probe) = field(container, "livenessProbe").ty else {
            panic!("probe")
        };
        assert!(probe.iter().any(|f| f.name == "httpGet"));
        let Ty::List(Ty::Obj(ports)) = field(container, "ports").ty else {
            panic!("ports")
        };
        assert!(matches!(field(ports, "containerPort").ty, Ty::Int32));
        // PodSpec.workloadRef was 1.35's alone (1.36 has schedulingGroup).
        let w = field(spec, "workloadRef");
        assert_eq!((w.since, w.until), (35, 36));
        let g = field(spec, "schedulingGroup");
        assert_eq!((g.since, g.until), (36, NOW));
    }
}
